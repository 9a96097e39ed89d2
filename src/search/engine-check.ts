// Checks of what a search engine of the host's own (`Platform.search`, not one `createSearchEngine`
// made) answers, before the tools shape it for the model: an answer of the wrong shape, or with paths
// outside the workspace, is the host's mistake (a TypeError naming the field), never shown to the
// model. What passes is copied field by field, so nothing the engine added reaches the model.
import type { DroppedIgnoreRules, FileSearchRequest, FileSearchResponse, GrepSearchResult, LineSearchRequest, SearchMatch, SkippedEntries, SkipKind } from '../core/types.js';

/** Marks the engines toolhost makes (a registered symbol: a second copy of toolhost's modules knows them too). */
const OWN = Symbol.for('toolhost.ownSearchEngine');

/** The longest `note` an engine may give (the tools' own notes are a few hundred characters). */
const MAX_NOTE_CHARS = 2000;
const SKIP_KINDS: readonly SkipKind[] = ['too_long', 'unreadable', 'vanished', 'loop', 'outside'];

/** Marks `engine` as toolhost's own: its answers are not checked. */
export function markOwnEngine(engine: object): void {
  Object.defineProperty(engine, OWN, { value: true, enumerable: false });
}

/** Whether `engine` is one toolhost made (see {@link markOwnEngine}). */
export function isOwnEngine(engine: object): boolean {
  return (engine as { [OWN]?: boolean })[OWN] === true;
}

/** A value as a message shows it: numbers as written (NaN, Infinity), bigints with their `n`, the rest as JSON. */
function shown(value: unknown): string {
  if (typeof value === 'number') return String(value);
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'string') return JSON.stringify(value.length > 200 ? `${value.slice(0, 200)}…` : value);
  if (value === undefined || typeof value === 'function' || typeof value === 'symbol') return String(value);
  try {
    const json = JSON.stringify(value);
    return json.length > 200 ? `${json.slice(0, 200)}…` : json;
  } catch {
    return Object.prototype.toString.call(value);
  }
}

function fail(kind: string, what: string): never {
  throw new TypeError(`the platform's search engine answered a '${kind}' request with ${what}; fix its search() (Platform.search)`);
}

/** A whole number from 0 to 2^53 - 1. */
const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;

function count(kind: string, field: string, value: unknown, least = 0): number {
  if (!isCount(value) || value < least) fail(kind, `${field} ${shown(value)}, not a whole number of ${least} or more`);
  return value;
}

function flag(kind: string, field: string, value: unknown): boolean {
  if (typeof value !== 'boolean') fail(kind, `${field} ${shown(value)}, not true or false`);
  return value;
}

/**
 * Where a `lines` answer may name files: strictly inside the folder `within` (`where` names it: the
 * workspace, the folder searched), or, with `file`, that file alone (a dir_path naming a file).
 */
export interface AnswerScope {
  within: string;
  where: string;
  file?: boolean;
}

/**
 * `path` when it is an absolute path strictly inside `within` (the workspace, or the folder searched:
 * `where` says which): no empty, `.` or `..` segment, no trailing `/`, no NUL. Else a TypeError.
 */
function checkPath(kind: string, field: string, path: unknown, within: string, where: string): string {
  if (typeof path !== 'string') fail(kind, `${field} ${shown(path)}, not a path`);
  const prefix = within === '/' ? '/' : `${within}/`;
  const rest = path.startsWith(prefix) ? path.slice(prefix.length) : undefined;
  if (rest === undefined || rest === '' || path.includes('\0') || rest.split('/').some((segment) => segment === '' || segment === '.' || segment === '..')) {
    fail(kind, `${field} ${shown(path)}, not an absolute path of an entry inside ${where} ${within}`);
  }
  return path;
}

function counters(result: Record<string, unknown>): Omit<GrepSearchResult, 'matches' | 'files' | 'counts' | 'total_files'> {
  const out: Record<string, unknown> = {
    total_matches: count('lines', 'result.total_matches', result.total_matches),
    truncated: flag('lines', 'result.truncated', result.truncated),
    files_searched: count('lines', 'result.files_searched', result.files_searched),
    binary_files_skipped: count('lines', 'result.binary_files_skipped', result.binary_files_skipped),
  };
  for (const field of ['large_files_skipped', 'skipped_entries'] as const) if (result[field] !== undefined) out[field] = count('lines', `result.${field}`, result[field]);
  if (result.note !== undefined) {
    if (typeof result.note !== 'string' || result.note.length > MAX_NOTE_CHARS) fail('lines', `result.note ${shown(result.note)}, not a string of at most ${MAX_NOTE_CHARS} characters`);
    out.note = result.note;
  }
  return out as Omit<GrepSearchResult, 'matches' | 'files' | 'counts' | 'total_files'>;
}

/** The `checked` fields in the order the engine gave them in `given` (what it added is left out). */
function inOrderOf(given: object, checked: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(given)) if (key in checked) out[key] = checked[key];
  return out;
}

function lines(field: string, value: unknown): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.some((line) => typeof line !== 'string')) fail('lines', `${field} that is not an array of strings`);
  return [...(value as string[])];
}

/** `path` when it lies where `scope` allows (see {@link AnswerScope}); else a TypeError. */
function checkScoped(field: string, path: unknown, scope: AnswerScope): string {
  if (scope.file === true) {
    if (path !== scope.within) fail('lines', `${field} ${shown(path)}, not ${scope.where} ${scope.within}`);
    return path;
  }
  return checkPath('lines', field, path, scope.within, scope.where);
}

function matchesOf(matches: unknown, scope: AnswerScope): SearchMatch[] {
  if (!Array.isArray(matches)) fail('lines', `result.matches ${shown(matches)}, not an array (output_mode content)`);
  return (matches as unknown[]).map((match, i) => {
    const m = match as Record<string, unknown> | null;
    if (typeof m !== 'object' || m === null) fail('lines', `result.matches[${i}] ${shown(m)}, not an object`);
    const checked: Record<string, unknown> = {
      file_path: checkScoped(`result.matches[${i}].file_path`, m.file_path, scope),
      line_number: count('lines', `result.matches[${i}].line_number`, m.line_number, 1),
      column: count('lines', `result.matches[${i}].column`, m.column, 1),
      line: typeof m.line === 'string' ? m.line : fail('lines', `result.matches[${i}].line ${shown(m.line)}, not a string`),
    };
    const before = lines(`result.matches[${i}].before`, m.before);
    const after = lines(`result.matches[${i}].after`, m.after);
    if (before) checked.before = before;
    if (after) checked.after = after;
    return inOrderOf(m, checked) as unknown as SearchMatch;
  });
}

/** The first index whose path is not after the one before it (by UTF-16 code units), or -1 when `paths` are sorted, each once. */
function firstOutOfOrder(paths: readonly string[]): number {
  for (let i = 1; i < paths.length; i += 1) if ((paths[i - 1] as string) >= (paths[i] as string)) return i;
  return -1;
}

/** Throws unless `paths` (as `field`) are sorted by UTF-16 code units, each once. */
function sortedOnce(field: string, paths: readonly string[]): void {
  const i = firstOutOfOrder(paths);
  if (i !== -1) fail('lines', `${field} not sorted by path, each once (${shown(paths[i - 1])} then ${shown(paths[i])})`);
}

/**
 * A well-formed answer to `request` built from `result` (its output mode's fields only, in the order
 * the engine gave them; paths where `scope` allows: inside the folder searched, or the one file
 * searched; files and counts sorted by path, each once); else a TypeError naming the field.
 */
export function checkLinesResult(result: unknown, request: LineSearchRequest, scope: AnswerScope): GrepSearchResult {
  if (typeof result !== 'object' || result === null) fail('lines', `result ${shown(result)}, not an object`);
  const r = result as Record<string, unknown>;
  const checked: Record<string, unknown> = counters(r);
  if (request.outputMode === 'content') checked.matches = matchesOf(r.matches, scope);
  else if (request.outputMode === 'files_with_matches') {
    if (!Array.isArray(r.files)) fail('lines', `result.files ${shown(r.files)}, not an array (output_mode files_with_matches)`);
    const files = (r.files as unknown[]).map((path, i) => checkScoped(`result.files[${i}]`, path, scope));
    sortedOnce('result.files', files);
    checked.files = files;
    checked.total_files = count('lines', 'result.total_files', r.total_files, files.length);
  } else {
    if (!Array.isArray(r.counts)) fail('lines', `result.counts ${shown(r.counts)}, not an array (output_mode count)`);
    const counts = (r.counts as unknown[]).map((entry, i) => {
      const e = entry as Record<string, unknown> | null;
      if (typeof e !== 'object' || e === null) fail('lines', `result.counts[${i}] ${shown(e)}, not an object`);
      return { file_path: checkScoped(`result.counts[${i}].file_path`, e.file_path, scope), count: count('lines', `result.counts[${i}].count`, e.count, 1) };
    });
    sortedOnce('result.counts', counts.map((entry) => entry.file_path));
    checked.counts = counts;
    checked.total_files = count('lines', 'result.total_files', r.total_files, counts.length);
  }
  return inOrderOf(r, checked) as unknown as GrepSearchResult;
}

function skippedOf(value: unknown, root: string): SkippedEntries {
  const s = value as Record<string, unknown> | null;
  if (typeof s !== 'object' || s === null || typeof s.kinds !== 'object' || s.kinds === null) fail('files', `skipped ${shown(value)}, not { count, kinds, first? }`);
  const kinds: Partial<Record<SkipKind, number>> = {};
  for (const [kind, n] of Object.entries(s.kinds as Record<string, unknown>)) {
    if (!(SKIP_KINDS as readonly string[]).includes(kind)) fail('files', `skipped.kinds.${kind}, not one of ${SKIP_KINDS.join(', ')}`);
    kinds[kind as SkipKind] = count('files', `skipped.kinds.${kind}`, n);
  }
  const out: SkippedEntries = { count: count('files', 'skipped.count', s.count), kinds };
  if (s.first !== undefined) out.first = checkPath('files', 'skipped.first', s.first, root, 'the workspace');
  return out;
}

function ignoreDroppedOf(value: unknown, root: string): DroppedIgnoreRules[] {
  if (!Array.isArray(value)) fail('files', `ignoreDropped ${shown(value)}, not an array`);
  return (value as unknown[]).map((entry, i) => {
    const e = entry as Record<string, unknown> | null;
    if (typeof e !== 'object' || e === null) fail('files', `ignoreDropped[${i}] ${shown(e)}, not an object`);
    const out: DroppedIgnoreRules = {
      file: checkPath('files', `ignoreDropped[${i}].file`, e.file, root, 'the workspace'),
      pastCap: count('files', `ignoreDropped[${i}].pastCap`, e.pastCap),
      globstars: count('files', `ignoreDropped[${i}].globstars`, e.globstars),
      tooLong: count('files', `ignoreDropped[${i}].tooLong`, e.tooLong),
    };
    if (e.fileBytes !== undefined) out.fileBytes = count('files', `ignoreDropped[${i}].fileBytes`, e.fileBytes);
    return out;
  });
}

/**
 * A well-formed answer to `request` built from `response` (paths strictly inside the folder searched,
 * sorted by UTF-16 code units, each once; `skipped` and `ignoreDropped` inside the workspace at
 * `root`; `stopped` only with a deadline); else a TypeError naming the field.
 */
export function checkFilesResponse(response: FileSearchResponse, request: FileSearchRequest, root: string): FileSearchResponse {
  const r = response as unknown as Record<string, unknown>;
  if (!Array.isArray(r.paths)) fail('files', `paths ${shown(r.paths)}, not an array`);
  const paths = (r.paths as unknown[]).map((path, i) => checkPath('files', `paths[${i}]`, path, request.dir, 'the folder searched'));
  const stopped = flag('files', 'stopped', r.stopped);
  if (stopped && request.deadline === undefined) fail('files', 'stopped true, but the request had no deadline to stop at');
  return {
    kind: 'files',
    // Sorted again only when they are not (an engine's usual answer is: a check costs a pass, a sort of 300,000 paths a third of a second).
    paths: firstOutOfOrder(paths) === -1 ? paths : [...new Set(paths)].sort(),
    capped: flag('files', 'capped', r.capped),
    stopped,
    directories: count('files', 'directories', r.directories),
    skipped: skippedOf(r.skipped, root),
    ignoreDropped: ignoreDroppedOf(r.ignoreDropped, root),
  };
}
