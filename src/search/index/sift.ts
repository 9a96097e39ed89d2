// The search index in front of a search's scan: of the files a walk listed, those the index vouches
// for (unchanged since indexed, by their identity) and shows cannot match are tallied without being
// read; every other file is scanned as before, so the results are the scan's own.
import type { Platform } from '../../core/types.js';
import type { WalkFile } from '../walk.js';
import { throwIfAborted, yieldToEventLoop, YIELD_INTERVAL_MS } from '../../fs/abort.js';
import { patternTree, type SearchPattern } from '../dialect.js';
import { planOf, type TrigramPlan } from './plan.js';
import { FileKind, type IndexedFile, type SearchIndex } from './search-index.js';
import { identityOf, refreshIndexed, searchIndexOf } from './workspace.js';
import { treeGeneration } from './reuse.js';
import { needleOf } from '../source-cache.js';
import { sameIdentity } from '../../fs/racy-clock.js';
import { searchSourceOf } from '../engine-source.js';

/** Plans of the patterns searched lately, by pattern and flags. */
const plans = new Map<string, TrigramPlan>();
const PLAN_CACHE = 32;

/** The trigram plan of a compiled pattern (undefined when it was compiled for a forced engine, with no record of how). */
export function planOfPattern(pattern: SearchPattern): TrigramPlan | undefined {
  const how = pattern.compiledWith;
  if (!how) return undefined;
  const key = `${how.literal ? 'F' : 'R'}${how.caseSensitive ? 's' : 'i'}${pattern.pattern}`;
  let plan = plans.get(key);
  if (plan) plans.delete(key);
  else plan = planOf(patternTree(pattern.pattern, how));
  plans.set(key, plan);
  if (plans.size > PLAN_CACHE) plans.delete(plans.keys().next().value as string);
  return plan;
}

/** A pattern's candidates in one index at one of its versions. */
interface Answer {
  version: number;
  candidates: Set<string> | undefined;
}

/** The last answers per index, by pattern and flags (a repeated search computes none again). */
const answers = new WeakMap<SearchIndex, Map<string, Answer>>();
const ANSWER_CACHE = 8;

/** `index`'s candidates for `pattern` at its current version (undefined inside: every file), from the cache when still current. */
function candidatesOf(index: SearchIndex, pattern: SearchPattern, plan: TrigramPlan): Set<string> | undefined {
  let cache = answers.get(index);
  if (!cache) answers.set(index, (cache = new Map()));
  const how = pattern.compiledWith as { literal: boolean; caseSensitive: boolean };
  const key = `${how.literal ? 'F' : 'R'}${how.caseSensitive ? 's' : 'i'}${pattern.pattern}`;
  let answer = cache.get(key);
  if (answer) cache.delete(key);
  if (!answer || answer.version !== index.version) answer = { version: index.version, candidates: index.candidates(plan) };
  cache.set(key, answer);
  if (cache.size > ANSWER_CACHE) cache.delete(cache.keys().next().value as string);
  return answer.candidates;
}

/**
 * The index a search of `platform` for `pattern` sifts with, or undefined when there is none or it is
 * not worth it ({@link worthSifting}). Either way, racy files whose racy window has passed are read
 * again (in the background), so an index built while files were being written comes into use.
 */
export function indexForSearch(platform: Platform, pattern: SearchPattern): SearchIndex | undefined {
  const index = searchIndexOf(platform);
  if (!index) return undefined;
  refreshIndexed(platform, index.settledRacy(Date.now()));
  if (worthSifting(index, pattern)) return index;
  // A tree that vouches for itself (see treeGeneration) keeps its listing, its verdicts and the line
  // counts found in its trusted files (see countMemo): a repeated search of any pattern reads only
  // what it does not remember.
  return treeGeneration(platform) !== undefined && planOfPattern(pattern) !== undefined ? index : undefined;
}

/**
 * Whether sifting with `index` is worth it for `pattern`: the pattern has a plan (it was not compiled
 * for a forced engine), and the plan leaves at most half of the indexed files as candidates (else a
 * plain scan, with whatever help the platform gives it, costs about the same).
 */
export function worthSifting(index: SearchIndex, pattern: SearchPattern): boolean {
  const plan = planOfPattern(pattern);
  if (!plan || plan.op === 'all') return false;
  const candidates = candidatesOf(index, pattern, plan);
  return candidates !== undefined && candidates.size * 2 <= index.size;
}

/** What {@link siftWithIndex} left to scan and what it tallied unread. */
export interface Sifted {
  /** Files to scan, in the order listed. */
  scan: WalkFile[];
  /** Text files the index shows cannot match: searched, with no match. */
  text: number;
  /** Binary files, as the index saw them: counted as binary. */
  binary: number;
  /** The line counts remembered for the files of `scan` (kept verdicts only; see {@link CountMemo}). */
  memo?: CountMemo;
}

/**
 * Matching lines remembered per trusted text file of a kept listing, for one pattern: a result memo.
 * It lives in the listing's verdicts, so it is exact exactly as long as they are: the same listing,
 * the same index version and the same tree change count (the platform's own, or its tree watch's),
 * with every file's identity (size, times, inode) checked against the index when the verdicts were
 * made and not racy. Files not trusted (new, changed, racy, unindexed, too large) are never
 * remembered: every search scans them.
 */
export interface CountMemo {
  /** Per file of `scan` (same order): its matching lines remembered (> 0), or -1 (not known: scan it). Files remembered with none are left out of `scan`. */
  readonly known: Int32Array;
  /**
   * Remembers that `count` lines of `path` match, when it is one of the trusted text files. Only for
   * a whole count (not cut short by a deadline) of the file as read by this search.
   */
  note(path: string, count: number): void;
}

/** Patterns whose line counts one kept verdicts remembers (the oldest forgotten first). */
const COUNT_MEMO_KEYS = 8;

/** One pattern's counts in one kept verdicts, and the last sift made from them (dropped when a count is noted). */
interface PatternCounts {
  /** Matching lines of trusted text files, by listing position (-1: not known). */
  counts: Int32Array;
  /** What the last sift left to scan (never changed once made: searches only read it), and how many of those files are trusted text files. */
  last: { scan: WalkFile[]; memo: CountMemo; hits: number } | undefined;
}

/** The counts of `pattern` in `verdicts`, made the newest of the {@link COUNT_MEMO_KEYS} kept. */
function countsOf(verdicts: Verdicts, pattern: SearchPattern, length: number): PatternCounts {
  const how = pattern.compiledWith as { literal: boolean; caseSensitive: boolean };
  const key = `${how.literal ? 'F' : 'R'}${how.caseSensitive ? 's' : 'i'}${pattern.pattern}`;
  let counts = verdicts.counts.get(key);
  if (counts) verdicts.counts.delete(key);
  else counts = { counts: new Int32Array(length).fill(-1), last: undefined };
  verdicts.counts.set(key, counts);
  if (verdicts.counts.size > COUNT_MEMO_KEYS) verdicts.counts.delete(verdicts.counts.keys().next().value as string);
  return counts;
}

/** The {@link CountMemo} of `scan` (listing positions `positions`) over `memo`'s counts. */
function countMemo(verdicts: Verdicts, memo: PatternCounts, positions: readonly number[]): CountMemo {
  const { counts } = memo;
  const known = new Int32Array(positions.length);
  for (let j = 0; j < positions.length; j += 1) known[j] = counts[positions[j] as number] as number;
  return {
    known,
    note(path, count) {
      const at = verdicts.text.get(path);
      if (at === undefined || count < 0 || counts[at] === count) return;
      counts[at] = count;
      memo.last = undefined;
    },
  };
}

/**
 * What sifting one kept listing with one index at one version found, pattern aside: valid while the
 * platform's change count stays `generation` (the files' identities are then the ones checked).
 */
interface Verdicts {
  index: SearchIndex;
  version: number;
  generation: number;
  maxBytes: number;
  /** Positions in the listing always scanned: not trusted (new, changed, racy, gone), unindexed, or over `maxBytes`. */
  scanned: number[];
  /** Of those, the paths not trusted (re-read into the index after each search, as a full sift does). */
  stale: string[];
  /** Trusted binary files. */
  binary: number;
  /** Trusted text files: their positions in the listing, by path. */
  text: Map<string, number>;
  /** Per needle (see {@link needleAbsent}), the large trusted text files read for it: true when it is not in them. */
  needles: Map<string, Map<string, boolean>>;
  /** Per pattern (see {@link countsOf}), the matching lines of trusted text files. */
  counts: Map<string, PatternCounts>;
}

/** Trusted text candidates this large or larger are read once per kept verdicts for the pattern's needle (see {@link needleAbsent}). */
const NEEDLE_MEMO_MIN_BYTES = 64 * 1024;
/** Needles remembered per kept verdicts (the oldest forgotten first). */
const NEEDLE_MEMO_KEYS = 8;
/** The buffer the needle check reads into (grown to the largest file read). */
let scratch = new Uint8Array(0);

/**
 * The memo of `needle` in `verdicts` (which large trusted text files lack it), made the newest of the
 * {@link NEEDLE_MEMO_KEYS} kept; undefined without verdicts or a needle. Looked up once per search.
 */
function needleMemo(verdicts: Verdicts | undefined, needle: Uint8Array | undefined): Map<string, boolean> | undefined {
  if (!verdicts || !needle) return undefined;
  let key = '';
  for (const byte of needle) key += String.fromCharCode(byte);
  let memo = verdicts.needles.get(key);
  if (memo) verdicts.needles.delete(key);
  else memo = new Map();
  verdicts.needles.set(key, memo);
  if (verdicts.needles.size > NEEDLE_MEMO_KEYS) verdicts.needles.delete(verdicts.needles.keys().next().value as string);
  return memo;
}

/**
 * Whether the trusted text file `path` (indexed as `entry`) lacks `needle` (the bytes every match of
 * the pattern holds, see `needleOf`), so it cannot match: known from an earlier search with the same
 * verdicts (`memo`, see {@link needleMemo}: the same listing, index version and tree change count, so
 * the file is unchanged since), else read now through the platform's search source when it is large
 * (a trigram plan cannot rule out a large file: it holds most trigrams) and its identity read is the
 * one indexed. False when unknown.
 */
function needleAbsent(platform: Platform, memo: Map<string, boolean> | undefined, needle: Uint8Array | undefined, path: string, entry: IndexedFile): boolean {
  const source = searchSourceOf(platform);
  if (!memo || !needle || !source || entry.stat.size < NEEDLE_MEMO_MIN_BYTES) return false;
  const known = memo.get(path);
  if (known !== undefined) return known;
  let read: ReturnType<typeof source.read>;
  try {
    read = source.read(path, entry.stat.size, (size) => (scratch.length >= size ? scratch : (scratch = new Uint8Array(size))).subarray(0, size));
  } catch {
    return false;
  }
  // Only bytes of the file as indexed (and verified) vouch for it.
  if (!read || !sameIdentity(read.stat, entry.stat) || read.bytes.length !== entry.stat.size) return false;
  const absent = source.indexOf(read.bytes, needle, 0) === -1;
  memo.set(path, absent);
  return absent;
}

// Per kept listing (the array itself, shared by the searches that reuse it): its last verdicts.
const verdictsOf = new WeakMap<readonly WalkFile[], Verdicts>();

/** The sift of a kept listing from its verdicts: only the candidates among its trusted text files are looked up, and the counts remembered for them. */
function siftFromVerdicts(platform: Platform, verdicts: Verdicts, files: readonly WalkFile[], candidates: Set<string> | undefined, pattern: SearchPattern): Sifted {
  const memo = countsOf(verdicts, pattern, files.length);
  const { counts } = memo;
  refreshIndexed(platform, verdicts.stale);
  // Nothing noted since the last sift of this pattern: the same files are left (a repeat reads none).
  const last = memo.last;
  if (last) return { scan: last.scan, text: verdicts.text.size - last.hits, binary: verdicts.binary, memo: last.memo };
  const positions = [...verdicts.scanned];
  let hits = 0;
  if (candidates === undefined) {
    for (const at of verdicts.text.values()) {
      if (counts[at] === 0) continue;
      positions.push(at);
      hits += 1;
    }
  } else {
    const needle = needleOf(pattern);
    const absent = needleMemo(verdicts, needle);
    for (const path of candidates) {
      const at = verdicts.text.get(path);
      if (at === undefined) continue;
      const count = counts[at] as number;
      if (count === 0) continue;
      // A file remembered with matches holds the needle.
      const entry = needle && count < 0 ? verdicts.index.file(path) : undefined;
      if (entry && needleAbsent(platform, absent, needle, path, entry)) continue;
      positions.push(at);
      hits += 1;
    }
  }
  positions.sort((a, b) => a - b);
  const scan = positions.map((at) => files[at] as WalkFile);
  const made = countMemo(verdicts, memo, positions);
  memo.last = { scan, memo: made, hits };
  return { scan, text: verdicts.text.size - hits, binary: verdicts.binary, memo: made };
}

/** The kept verdicts of `files` when still valid for `index` (same index, version, change count and size limit). */
function currentVerdicts(platform: Platform, index: SearchIndex, files: readonly WalkFile[], maxBytes: number): Verdicts | undefined {
  const verdicts = verdictsOf.get(files);
  const generation = treeGeneration(platform);
  if (!verdicts || generation === undefined) return undefined;
  if (verdicts.index !== index || verdicts.version !== index.version || verdicts.generation !== generation || verdicts.maxBytes !== maxBytes) return undefined;
  return verdicts;
}

/**
 * Splits the listed `files` with `index`: a file is left out of the scan only when the index has it,
 * its identity now is the one indexed (size, times, inode), it was not racy when read, it is no larger
 * than `maxBytes` (the largest file the search reads whole), and it is binary or its trigrams fail the
 * pattern's plan. Files found new, changed, racy or gone are re-read into the index after the search
 * (in the background, see `refreshIndexed`).
 *
 * `keep`: `files` is a kept listing (see `reusedListing`), never changed; on a platform with
 * `changeCount` the verdicts (which files are trusted, and as what) are kept with it, and while neither
 * the change count nor the index's version moves, a search of it checks no file's identity again and
 * looks up only the pattern's candidates. A file not trusted (racy ones included) is scanned each time,
 * as here; the racy ones settle through `indexForSearch`, whose refresh moves the index's version.
 */
export async function siftWithIndex(
  platform: Platform,
  index: SearchIndex,
  pattern: SearchPattern,
  files: readonly WalkFile[],
  maxBytes: number,
  signal?: AbortSignal,
  keep = false,
): Promise<Sifted> {
  const plan = planOfPattern(pattern);
  if (!plan) return { scan: [...files], text: 0, binary: 0 };
  // The entries and the candidates are taken together, before anything awaits: a refresh running
  // meanwhile cannot pair one file's new identity with its old trigrams.
  const candidates = candidatesOf(index, pattern, plan);
  const known = keep ? currentVerdicts(platform, index, files, maxBytes) : undefined;
  if (known) return siftFromVerdicts(platform, known, files, candidates, pattern);
  const generation = keep ? treeGeneration(platform) : undefined;
  const version = index.version;
  const verdicts: Verdicts | undefined =
    generation === undefined ? undefined : { index, version, generation, maxBytes, scanned: [], stale: [], binary: 0, text: new Map(), needles: new Map(), counts: new Map() };
  const positions: number[] = [];
  const needle = verdicts && candidates !== undefined ? needleOf(pattern) : undefined;
  const memo = needleMemo(verdicts, needle);
  const entries: Array<IndexedFile | undefined> = files.map((file) => index.file(file.path));
  const out: Sifted = { scan: [], text: 0, binary: 0 };
  const stale: string[] = [];
  const source = searchSourceOf(platform);
  let lastYield = Date.now();
  for (let i = 0; i < files.length; i += 1) {
    if ((i & 255) === 255 && Date.now() - lastYield >= YIELD_INTERVAL_MS) {
      // A long list keeps the event loop turning (and the call cancellable), as the walk does.
      await yieldToEventLoop();
      throwIfAborted(signal);
      lastYield = Date.now();
    }
    const file = files[i] as WalkFile;
    const entry = entries[i];
    const now = source ? source.stat(file.path) : await identityOf(platform, file.path);
    const trusted = entry !== undefined && now !== undefined && !entry.racy && sameIdentity(entry.stat, now);
    if (!trusted) {
      stale.push(file.path);
      out.scan.push(file);
      positions.push(i);
      verdicts?.scanned.push(i);
      continue;
    }
    if (entry.kind === FileKind.Unindexed || entry.stat.size > maxBytes) {
      out.scan.push(file);
      positions.push(i);
      verdicts?.scanned.push(i);
    } else if (entry.kind === FileKind.Binary) out.binary += 1;
    else {
      verdicts?.text.set(file.path, i);
      if ((candidates === undefined || candidates.has(file.path)) && !needleAbsent(platform, memo, needle, file.path, entry)) {
        out.scan.push(file);
        positions.push(i);
      } else out.text += 1;
    }
  }
  refreshIndexed(platform, stale);
  // Kept only when nothing moved while the files were checked (the loop may have yielded).
  if (verdicts && treeGeneration(platform) === generation && index.version === version) {
    verdicts.stale = stale;
    verdicts.binary = out.binary;
    verdictsOf.set(files, verdicts);
    // The counts this search finds in the trusted files are remembered from now on.
    out.memo = countMemo(verdicts, countsOf(verdicts, pattern, files.length), positions);
  }
  return out;
}
