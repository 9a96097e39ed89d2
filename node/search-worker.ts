// The search helper's thread (see startSearchHelper): takes part in large counts, one at a time, over
// a Node search source and cache of its own per platform. A count's batches arrive while the caller's
// walk runs; each open or stat batch is claimed with a compare-and-swap on the count's shared control
// words before it is counted (or, for a stat batch of the caller's cached files, its lstat taken), so
// the caller (which takes such batches from the last one down) never does one twice. While it has no
// count to do, it also lists directories ahead of a caller's walk (see `ListingSession`).
import { type MessagePort, parentPort, workerData } from 'node:worker_threads';
import { isToolError } from '../src/core/errors.js';
import type { FsDirent } from '../src/core/types.js';
import type { SharedBatchKind } from '../src/search/source-port.js';
import ignore from 'ignore';
import { ALWAYS_SKIPPED_DIRS } from '../src/search/walk.js';
import { compileIgnoreLevel, IGNORE_FILE_NAMES, type IgnoreFactory, type IgnoreLevel, ignoreFilesIn, ignoreRulesOf, isIgnored } from '../src/search/ignore.js';
import { MAX_IGNORE_FILE_BYTES } from '../src/search/walk-report.js';
import { cacheOf, type SourceCache } from '../src/search/source-cache.js';
import { useRacyClockMemory } from '../src/fs/racy-clock.js';
import {
  BATCH_HELPER,
  BATCH_OPEN,
  CONTROL_CANCEL,
  CONTROL_FIRST_BATCH,
  CONTROL_STATE,
  countPaths,
  helperPattern,
  MAX_SHARED_BATCHES,
  statPaths,
  STATE_STARTED,
  STATE_WAITING,
  encodeEntries,
  LIST_CANCEL,
  LIST_DONE,
  LIST_FIRST,
  LIST_HELPER,
  LIST_NEXT,
  LIST_OPEN,
  MAX_LISTED_AHEAD,
  type ListingAnswer,
  type WorkerAnswer,
  type WorkerMessage,
} from './search-helper.js';
import { createNodeSearchSource, type NodeSearchSource } from './search-fs.js';
import { objectArray } from './search-shared.js';

/** A platform's root, and once used its source and cache, and the listing session it last listed for. */
interface Platform {
  root: string;
  cacheBytes: number;
  open?: { source: NodeSearchSource; cache: SourceCache };
  session?: number;
}
const platforms = new Map<number, Platform>();
/** Where listings read ahead of a walk are answered (the calling thread reads it synchronously). */
let listingPort: MessagePort | undefined;

/** The platform's source and cache, opened on first use: a platform that never counts or lists here costs nothing. */
function opened(platform: Platform): { source: NodeSearchSource; cache: SourceCache } {
  if (!platform.open) {
    const source = createNodeSearchSource(platform.root, { cacheBytes: platform.cacheBytes, helper: false, keepListings: false });
    platform.open = { source, cache: cacheOf(source) };
  }
  return platform.open;
}

/** How the helper goes on below a directory: into every subdirectory, by these compiled rules, or not (see `WalkDeeper`). */
type Deeper = 'all' | readonly IgnoreLevel[] | undefined;

/** A directory to list ahead of a walk: its path, index and how the walk goes on below it. */
interface ToList {
  path: string;
  index: number;
  deeper: Deeper;
}

/**
 * A platform's listing session here: its claim words, the ignore rules the walk sent (compiled on
 * first use), the directories handed over (oldest first) and the helper's own (deepest last).
 */
interface AheadSession {
  id: number;
  claims: Int32Array | undefined;
  rules: Map<number, { dir: string; lines: readonly string[]; rank: number; level?: IgnoreLevel }>;
  handed: ToList[];
  handedAt: number;
  own: ToList[];
}
const listings = new Map<number, AheadSession>();

/** The library the walk applies `.gitignore` rules with (this thread is Node's: imported with it). */
const ignoreFactory = ignore as IgnoreFactory;

/** The platform's listing session `id` (a new one ends the platform's last). */
function sessionOf(platform: number, id: number): AheadSession {
  let session = listings.get(platform);
  if (session?.id !== id) {
    session = { id, claims: undefined, rules: new Map(), handed: [], handedAt: 0, own: [] };
    listings.set(platform, session);
  }
  return session;
}

/** The compiled levels of rules `ids` (undefined if one never came: nothing is listed below then). */
function levelsOf(session: AheadSession, ids: readonly number[]): IgnoreLevel[] | undefined {
  const levels: IgnoreLevel[] = [];
  for (const id of ids) {
    const rules = session.rules.get(id);
    if (rules === undefined) return undefined;
    rules.level ??= compileIgnoreLevel(ignoreFactory, rules.dir, rules.lines, rules.rank);
    levels.push(rules.level);
  }
  return levels;
}

/**
 * The subdirectories of `path` (listed as `entries`) the walk goes into next, before rules of its own,
 * and how it goes on below them: every one (`all`); else all but `.git`, `node_modules` and those the
 * rules ignore, the rules of a `.gitignore` in `path` added (read here: when it cannot be, none);
 * none for `undefined`.
 */
function dirsBelow(source: NodeSearchSource, path: string, entries: readonly FsDirent[], deeper: Deeper): { names: string[]; deeper: Deeper } | undefined {
  if (deeper === undefined) return undefined;
  let levels = deeper;
  // Each ignore file a level, in ripgrep's precedence (.gitignore, .ignore, .rgignore), as the walk reads them.
  for (const name of levels === 'all' ? [] : ignoreFilesIn(entries)) {
    const rank = IGNORE_FILE_NAMES.indexOf(name);
    let read;
    try {
      read = source.read(path === '/' ? `/${name}` : `${path}/${name}`, MAX_IGNORE_FILE_BYTES + 1);
    } catch {
      return undefined;
    }
    if (read === undefined) return undefined;
    const bounded = ignoreRulesOf(read.bytes);
    if (bounded !== undefined && bounded.rules.length > 0) levels = [...(levels as IgnoreLevel[]), compileIgnoreLevel(ignoreFactory, path, bounded.rules, rank)];
  }
  const names: string[] = [];
  const prefix = path === '/' ? '/' : `${path}/`;
  for (const entry of entries) {
    if (!entry.isDirectory()) continue;
    if (levels !== 'all' && (ALWAYS_SKIPPED_DIRS.has(entry.name) || isIgnored(levels, prefix + entry.name, true))) continue;
    names.push(entry.name);
  }
  return names.length > 0 ? { names, deeper: levels } : undefined;
}

/** Takes the walk's ignore rules for a session. */
function takeRules(message: Extract<WorkerMessage, { type: 'rules' }>): void {
  sessionOf(message.platform, message.session).rules.set(message.id, { dir: message.dir, lines: message.lines, rank: message.rank });
}

/**
 * Lists ahead of a walk (see `ListingSession`): the directories of a `list` message join its
 * session's; then, until the session is cancelled or has nothing left, the helper lists its own
 * (below the ones it listed, deepest first) or else the oldest handed over, each once it has claimed
 * its word, answering each on the listings port.
 */
function listAhead(message: Extract<WorkerMessage, { type: 'list' }>): void {
  const port = listingPort;
  const platform = platforms.get(message.platform);
  if (!port || !platform) return;
  const session = sessionOf(message.platform, message.session);
  session.claims = message.claims;
  const deeper = message.deeper === undefined || message.deeper === 'all' ? message.deeper : levelsOf(session, message.deeper);
  for (let k = 0; k < message.paths.length; k += 1) session.handed.push({ path: message.paths[k] as string, index: message.first + k, deeper });
  const { claims } = session;
  let source: NodeSearchSource | undefined;
  for (;;) {
    if (Atomics.load(claims, LIST_CANCEL) !== 0) {
      listings.delete(message.platform);
      return;
    }
    const next = session.own.pop() ?? session.handed[session.handedAt++];
    if (next === undefined) break;
    const word = LIST_FIRST + next.index;
    if (Atomics.compareExchange(claims, word, LIST_OPEN, LIST_HELPER) !== LIST_OPEN) continue;
    const answer: ListingAnswer = { session: session.id, index: next.index, entries: undefined, below: undefined, first: -1, ino: 0, mtimeMs: 0, ctimeMs: 0, readAt: 0 };
    try {
      if (source === undefined) {
        // Opens the root by its path, which may fail here (renamed away or removed since the platform
        // opened it, or no descriptor left): an error thrown out of this loop would end the thread.
        source = opened(platform).source;
        // Directories held from an earlier walk are checked against their paths again before use.
        if (platform.session !== session.id) source.begin();
        platform.session = session.id;
      }
      const listing = source.listing(next.path);
      answer.entries = encodeEntries(listing.entries);
      answer.ino = listing.ino;
      answer.mtimeMs = listing.mtimeMs;
      answer.ctimeMs = listing.ctimeMs;
      answer.readAt = listing.readAt;
      const below = dirsBelow(source, next.path, listing.entries, next.deeper);
      if (below !== undefined) {
        const { names } = below;
        const first = Atomics.add(claims, LIST_NEXT, names.length);
        if (first + names.length <= MAX_LISTED_AHEAD) {
          answer.first = first;
          answer.below = names;
          // The walk takes the last first: this thread the first first, so they meet late.
          const prefix = next.path === '/' ? '/' : `${next.path}/`;
          for (let k = names.length - 1; k >= 0; k -= 1) session.own.push({ path: prefix + (names[k] as string), index: first + k, deeper: below.deeper });
        }
      }
    } catch {
      // Gone, unreadable or replaced: the calling thread lists it itself and meets the error there.
    }
    port.postMessage(answer);
    Atomics.store(claims, word, LIST_DONE);
    Atomics.notify(claims, word);
  }
  if (session.handedAt > 1024) {
    session.handed = session.handed.slice(session.handedAt);
    session.handedAt = 0;
  }
}

/** A count as it arrives: its batches so far, whether the last has come, and a waiting run to wake. */
interface Count {
  message: Extract<WorkerMessage, { type: 'count' }>;
  batches: Array<{ paths: string[]; kind: SharedBatchKind }>;
  ended: boolean;
  wake: (() => void) | undefined;
}
const counts = new Map<number, Count>();
let queue: Promise<void> = Promise.resolve();

/** Stops a count whose cancel flag was set (nothing is answered). */
class Cancelled extends Error {}

function post(answer: WorkerAnswer, transfer: ArrayBuffer[] = []): void {
  parentPort?.postMessage(answer, transfer);
}

async function run(count: Count): Promise<void> {
  const { message } = count;
  const { control, id } = message;
  const cancelled = (): boolean => Atomics.load(control, CONTROL_CANCEL) !== 0;
  // Taken back by the caller while this thread was busy with another count: it counts everything itself.
  if (Atomics.compareExchange(control, CONTROL_STATE, STATE_WAITING, STATE_STARTED) !== STATE_WAITING) return;
  const batches: number[] = [];
  const codes = objectArray<Int32Array>();
  const statBatches: number[] = [];
  const stats = objectArray<Float64Array>();
  try {
    const platform = platforms.get(message.platform);
    if (!platform) throw new Error('the search helper has no root for this platform');
    const { cache, source } = opened(platform);
    // Directories held from an earlier count are checked against their paths again before use.
    source.begin();
    platform.session = undefined;
    const compiled = await helperPattern(message);
    const pause = async (): Promise<void> => {
      if (cancelled()) throw new Cancelled();
    };
    let stopped = false;
    for (let index = 0; !stopped; index += 1) {
      while (index >= count.batches.length && !count.ended && !cancelled()) await new Promise<void>((resolve) => (count.wake = resolve));
      if (cancelled()) throw new Cancelled();
      if (index >= count.batches.length) break;
      // A batch past the shared words is the caller's; an open one is counted here only if claimed first.
      if (index >= MAX_SHARED_BATCHES) break;
      const word = CONTROL_FIRST_BATCH + index;
      if (Atomics.load(control, word) !== BATCH_HELPER && Atomics.compareExchange(control, word, BATCH_OPEN, BATCH_HELPER) !== BATCH_OPEN) continue;
      if (Date.now() >= message.deadline) {
        stopped = true;
        break;
      }
      const batch = count.batches[index] as { paths: string[]; kind: SharedBatchKind };
      if (batch.kind === 'stat') {
        // Files the caller's cache holds: only their lstat is taken here.
        const stated = statPaths(source, batch.paths, message.deadline);
        statBatches.push(index);
        stats.push(stated.stats);
        stopped = stated.stopped;
        continue;
      }
      const counted = await countPaths(cache, compiled, batch.paths, message, pause);
      batches.push(index);
      codes.push(counted.codes);
      stopped = counted.stopped;
    }
    const transfer = objectArray<ArrayBuffer>();
    for (const array of codes) transfer.push(array.buffer as ArrayBuffer);
    for (const array of stats) transfer.push(array.buffer as ArrayBuffer);
    post({ id, batches, codes, statBatches, stats, stopped }, transfer);
  } catch (error) {
    if (error instanceof Cancelled || cancelled()) return;
    const code = isToolError(error) ? error.code : 'execution_failed';
    post({ id, error: { code, message: (error as Error).message } });
  }
}

// The starting thread's racy clock (see racyClockMemory), so a test's pause of it holds here too.
const { racyClock } = (workerData ?? {}) as { racyClock?: Float64Array };
if (racyClock) useRacyClockMemory(racyClock);

parentPort?.on('message', (message: WorkerMessage) => {
  switch (message.type) {
    case 'batch': {
      const count = counts.get(message.id);
      if (!count) return;
      count.batches[message.index] = { paths: message.paths, kind: message.kind };
      count.wake?.();
      count.wake = undefined;
      return;
    }
    case 'end':
    case 'cancel': {
      const count = counts.get(message.id);
      if (!count) return;
      count.ended = true;
      count.wake?.();
      count.wake = undefined;
      return;
    }
    case 'count': {
      const count: Count = { message, batches: [], ended: false, wake: undefined };
      counts.set(message.id, count);
      queue = queue.then(() => run(count)).finally(() => counts.delete(message.id));
      return;
    }
    case 'list':
      listAhead(message);
      return;
    case 'rules':
      takeRules(message);
      return;
    case 'unlist':
      if (listings.get(message.platform)?.id === message.session) listings.delete(message.platform);
      return;
    case 'listings':
      listingPort = message.port;
      listingPort.unref();
      return;
    case 'open':
      queue = queue.then(() => {
        platforms.set(message.platform, { root: message.root, cacheBytes: message.cacheBytes });
      });
      return;
    case 'close':
      listings.delete(message.platform);
      queue = queue.then(() => {
        platforms.get(message.platform)?.open?.source.close?.();
        platforms.delete(message.platform);
      });
      return;
  }
});
