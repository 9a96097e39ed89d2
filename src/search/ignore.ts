/**
 * The `.gitignore`, `.ignore` and `.rgignore` rules of the search's walk: reading and bounding an
 * ignore file's rules, compiling them with the ignore library, and deciding whether a path is ignored.
 */
import { loadIgnore } from '#lazy';
import type { Ignore } from 'ignore';
import { onDemand } from '../core/on-demand.js';
import { errorCode } from '../core/errors.js';
import { decodeText } from '../fs/text.js';
import type { FsDirent, FsPromises } from '../core/types.js';
import type { SearchSource, WalkIgnoreRules } from './source-port.js';
import { relativePath } from '../fs/paths.js';
import { throwIfAborted, YIELD_INTERVAL_MS, yieldToEventLoop } from '../fs/abort.js';
import {
  MAX_IGNORE_FILE_BYTES,
  MAX_IGNORE_RULE_CHARS,
  MAX_IGNORE_RULE_GLOBSTARS,
  MAX_IGNORE_RULES,
  type DroppedIgnoreRules,
} from './walk-report.js';

/** One `.gitignore`'s rules as the walk applies them to the paths below its directory. */
export interface IgnoreLevel extends WalkIgnoreRules {
  /** Its rules in order, a compiled chunk of at most {@link IGNORE_CHUNK_RULES} each: the last chunk with a rule for a path decides. */
  rules: Ignore[];
}

/**
 * Rules compiled in one step. The ignore library compiles each rule to a RegExp on the first test,
 * which takes tens of microseconds a rule: compiling 10,000 at once blocks the thread for up to a
 * second, so they are compiled a chunk at a time with the event loop turned in between.
 */
const IGNORE_CHUNK_RULES = 500;
/** The ignore library (in browsers a file of its own, fetched when a workspace first has a .gitignore). */
const ignoreLibrary = onDemand('the .gitignore library (ignore)', 'ignore.min.js', loadIgnore);

/** The ignore library's factory, loaded on first use (see `ignoreLibrary`). */
export type IgnoreFactory = (options: { ignorecase: boolean }) => Ignore;

/** A compiled chunk of `.gitignore` rules (every rule compiled now, while the time is counted). */
function compileChunk(ignore: IgnoreFactory, rules: readonly string[]): Ignore {
  const chunk = ignore({ ignorecase: false }).add(rules as string[]);
  chunk.test('a');
  return chunk;
}

/** The level of `lines` (bounded rules, see {@link boundIgnoreRules}) of the ignore file of `rank` ({@link IGNORE_FILE_NAMES} index) in `dir`, compiled in one go. */
export function compileIgnoreLevel(ignore: IgnoreFactory, dir: string, lines: readonly string[], rank = 0): IgnoreLevel {
  const rules: Ignore[] = [];
  for (let i = 0; i < lines.length; i += IGNORE_CHUNK_RULES) rules.push(compileChunk(ignore, lines.slice(i, i + IGNORE_CHUNK_RULES)));
  return { dir, lines, rules, ...(rank > 0 ? { rank } : {}) };
}

/**
 * The first bytes of the `.gitignore` at `path` (up to {@link MAX_IGNORE_FILE_BYTES} + 1) and the
 * file's size when over that; undefined when it cannot be read. A path longer than the filesystem
 * takes (`ENAMETOOLONG`: a folder deep in the tree) is read through the search source, which reaches
 * it through held folders, as the search helper thread reads it: its rules then apply down there too.
 */
async function readIgnoreBytes(fs: FsPromises, path: string, source: SearchSource | undefined): Promise<{ bytes: Uint8Array; fileBytes?: number } | undefined> {
  try {
    if (fs.readRange) {
      const bytes = await fs.readRange(path, 0, MAX_IGNORE_FILE_BYTES + 1);
      if (bytes.length <= MAX_IGNORE_FILE_BYTES) return { bytes };
      return { bytes, fileBytes: await fs.stat(path).then((stats) => stats.size, () => bytes.length) };
    }
    const bytes = await fs.readFile(path);
    return bytes.length > MAX_IGNORE_FILE_BYTES ? { bytes, fileBytes: bytes.length } : { bytes };
  } catch (error) {
    if (source === undefined || errorCode(error) !== 'ENAMETOOLONG') return undefined;
  }
  try {
    const read = source.read(path, MAX_IGNORE_FILE_BYTES + 1);
    if (read === undefined) return undefined;
    return read.bytes.length > MAX_IGNORE_FILE_BYTES ? { bytes: read.bytes, fileBytes: read.stat.size } : { bytes: read.bytes };
  } catch {
    return undefined;
  }
}

/**
 * The ignore files of `dir` that are there (`names`, in {@link IGNORE_FILE_NAMES} order), each a level of
 * rules: a later file's level is checked first, so `.ignore` overrides `.gitignore` and `.rgignore`
 * overrides both, as in ripgrep.
 */
export async function readIgnoreFiles(
  fs: FsPromises,
  dir: string,
  names: readonly string[],
  signal: AbortSignal | undefined,
  source?: SearchSource,
): Promise<{ levels: IgnoreLevel[]; dropped: DroppedIgnoreRules[] }> {
  const levels: IgnoreLevel[] = [];
  const dropped: DroppedIgnoreRules[] = [];
  for (const name of names) {
    const read = await readIgnoreFile(fs, dir, name, signal, source);
    if (read.level) levels.push(read.level);
    if (read.dropped) dropped.push(read.dropped);
  }
  return { levels, dropped };
}

/**
 * The ignore file `name` of `dir` as rules, and what of it was left out: only its first
 * {@link MAX_IGNORE_FILE_BYTES} are read (with the port's `readRange` where it has one, so a file of
 * any size costs a MiB), cut at their last line break so no rule or character is split.
 */
async function readIgnoreFile(fs: FsPromises, dir: string, name: string, signal: AbortSignal | undefined, source?: SearchSource): Promise<{ level?: IgnoreLevel; dropped?: DroppedIgnoreRules }> {
  const path = dir === '/' ? `/${name}` : `${dir}/${name}`;
  const read = await readIgnoreBytes(fs, path, source);
  if (read === undefined) return {};
  const { bytes, fileBytes } = read;
  const bounded = ignoreRulesOf(bytes);
  if (!bounded) return {};
  const dropped: DroppedIgnoreRules | undefined =
    fileBytes !== undefined || bounded.pastCap + bounded.globstars + bounded.tooLong > 0
      ? { file: path, ...(fileBytes === undefined ? {} : { fileBytes }), pastCap: bounded.pastCap, globstars: bounded.globstars, tooLong: bounded.tooLong }
      : undefined;
  // Loaded when a workspace first has a .gitignore, not with the worker.
  const { default: ignore } = await ignoreLibrary.load();
  const chunks: Ignore[] = [];
  let lastYield = Date.now();
  for (let i = 0; i < bounded.rules.length; i += IGNORE_CHUNK_RULES) {
    if (Date.now() - lastYield > YIELD_INTERVAL_MS) {
      await yieldToEventLoop();
      lastYield = Date.now();
      throwIfAborted(signal);
    }
    chunks.push(compileChunk(ignore as IgnoreFactory, bounded.rules.slice(i, i + IGNORE_CHUNK_RULES)));
  }
  const rank = IGNORE_FILE_NAMES.indexOf(name);
  return { level: { dir, lines: bounded.rules, rules: chunks, ...(rank > 0 ? { rank } : {}) }, ...(dropped ? { dropped } : {}) };
}

/**
 * The rules of a `.gitignore` text that the walk applies: at most {@link MAX_IGNORE_RULES} rules, each
 * at most {@link MAX_IGNORE_RULE_CHARS} characters with at most {@link MAX_IGNORE_RULE_GLOBSTARS} `**`;
 * blank lines and comments are dropped first. The text is cut at {@link MAX_IGNORE_FILE_BYTES} before.
 */
export function boundedIgnoreRules(text: string): string[] {
  return boundIgnoreRules(text).rules;
}

/**
 * {@link boundedIgnoreRules} with the count of rules left out for each reason: `pastCap` (after the
 * first {@link MAX_IGNORE_RULES}), `globstars` (more than {@link MAX_IGNORE_RULE_GLOBSTARS} `**`) and
 * `tooLong` (over {@link MAX_IGNORE_RULE_CHARS} characters).
 */
export function boundIgnoreRules(text: string): { rules: string[]; pastCap: number; globstars: number; tooLong: number } {
  const rules: string[] = [];
  let pastCap = 0;
  let globstars = 0;
  let tooLong = 0;
  for (const line of text.split(/\r?\n|\r/)) {
    const rule = line.trim();
    if (rule === '' || rule.startsWith('#')) continue;
    if (rules.length >= MAX_IGNORE_RULES) pastCap += 1;
    else if (rule.length > MAX_IGNORE_RULE_CHARS) tooLong += 1;
    else if (rule.split('**').length - 1 > MAX_IGNORE_RULE_GLOBSTARS) globstars += 1;
    else rules.push(line);
  }
  return { rules, pastCap, globstars, tooLong };
}

/**
 * The rules of a `.gitignore` file's first bytes (read up to {@link MAX_IGNORE_FILE_BYTES} + 1: past the
 * cap only its whole lines before it count), bounded as the walk applies them (see
 * {@link boundIgnoreRules}); undefined when it is not text.
 */
export function ignoreRulesOf(bytes: Uint8Array): ReturnType<typeof boundIgnoreRules> | undefined {
  if (bytes.length > MAX_IGNORE_FILE_BYTES) {
    const head = bytes.subarray(0, MAX_IGNORE_FILE_BYTES);
    const end = head.lastIndexOf(10);
    bytes = end >= 0 ? head.subarray(0, end + 1) : head;
  }
  const decoded = decodeText(bytes);
  return decoded ? boundIgnoreRules(decoded.text) : undefined;
}

/**
 * The ignore files ripgrep reads in every directory, lowest precedence first: `.gitignore`, `.ignore`
 * (ripgrep's own, same syntax, applied outside git repositories too) and `.rgignore`.
 */
export const IGNORE_FILE_NAMES: readonly string[] = ['.gitignore', '.ignore', '.rgignore'];

/** The ignore files among a directory's `entries` (anything but a directory of that name), in {@link IGNORE_FILE_NAMES} order. */
export function ignoreFilesIn(entries: readonly FsDirent[]): string[] {
  return IGNORE_FILE_NAMES.filter((name) => entries.some((entry) => entry.name === name && !entry.isDirectory()));
}

/** Whether a directory's `entries` hold an ignore file ({@link IGNORE_FILE_NAMES}), whose rules then apply below it. */
export function hasIgnoreFile(entries: readonly FsDirent[]): boolean {
  return ignoreFilesIn(entries).length > 0;
}

/**
 * Whether `path` (a directory when `isDir`) is ignored by `levels` (outermost first), as ripgrep decides:
 * `.rgignore` rules first, then `.ignore`, then `.gitignore` (a file's kind outranks its depth: a root
 * `.ignore` rule wins over a nested `.gitignore`'s), and among files of one kind the innermost rule that
 * speaks of the path decides, as in git.
 */
export function isIgnored(levels: readonly IgnoreLevel[], path: string, isDir: boolean): boolean {
  let top = 0;
  for (const level of levels) top = Math.max(top, level.rank ?? 0);
  for (let rank = top; rank >= 0; rank -= 1) {
    for (let i = levels.length - 1; i >= 0; i -= 1) {
      const level = levels[i] as IgnoreLevel;
      if ((level.rank ?? 0) !== rank) continue;
      const rel = relativePath(level.dir, path) + (isDir ? '/' : '');
      for (let j = level.rules.length - 1; j >= 0; j -= 1) {
        const result = (level.rules[j] as Ignore).test(rel);
        if (result.ignored) return true;
        if (result.unignored) return false;
      }
    }
  }
  return false;
}
