// Checks of what a search engine of the host's own (`Platform.search`, not one `createSearchEngine`
// made) answers, before the tools shape it for the model: an answer of the wrong shape, or with paths
// outside the workspace, is the host's mistake (a TypeError naming the field), never shown to the model.
import type { FileSearchResponse, GrepSearchResult, LineSearchRequest } from '../core/types.js';

/** Marks the engines toolhost makes (a registered symbol: a second copy of toolhost's modules knows them too). */
const OWN = Symbol.for('toolhost.ownSearchEngine');

/** Marks `engine` as toolhost's own: its answers are not checked. */
export function markOwnEngine(engine: object): void {
  Object.defineProperty(engine, OWN, { value: true, enumerable: false });
}

/** Whether `engine` is one toolhost made (see {@link markOwnEngine}). */
export function isOwnEngine(engine: object): boolean {
  return (engine as { [OWN]?: boolean })[OWN] === true;
}

function fail(kind: string, what: string): never {
  throw new TypeError(`the platform's search engine answered a '${kind}' request with ${what}; fix its search() (Platform.search)`);
}

const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 0;

/** Throws unless `path` is an absolute path inside the workspace at `root`. */
function checkPath(kind: string, field: string, path: unknown, root: string): void {
  if (typeof path !== 'string') fail(kind, `${field} ${JSON.stringify(path) ?? String(path)}, not a path`);
  const inside = root === '/' ? path.startsWith('/') : path === root || path.startsWith(`${root}/`);
  if (!inside || /(^|\/)\.\.?(\/|$)/.test(path.slice(root.length))) fail(kind, `${field} ${JSON.stringify(path)}, not an absolute path inside the workspace ${root}`);
}

function checkCounters(result: Record<string, unknown>): void {
  for (const field of ['total_matches', 'files_searched', 'binary_files_skipped'] as const) {
    if (!isCount(result[field])) fail('lines', `result.${field} ${JSON.stringify(result[field])}, not a whole number of 0 or more`);
  }
  if (typeof result.truncated !== 'boolean') fail('lines', `result.truncated ${JSON.stringify(result.truncated)}, not true or false`);
  for (const field of ['large_files_skipped', 'skipped_entries'] as const) {
    if (result[field] !== undefined && !isCount(result[field])) fail('lines', `result.${field} ${JSON.stringify(result[field])}, not a whole number of 0 or more`);
  }
  if (result.note !== undefined && typeof result.note !== 'string') fail('lines', `result.note that is not a string`);
}

function checkMatches(matches: unknown, root: string): void {
  if (!Array.isArray(matches)) fail('lines', `result.matches that is not an array (output_mode content)`);
  for (const [i, match] of (matches as unknown[]).entries()) {
    const m = match as Record<string, unknown> | null;
    if (typeof m !== 'object' || m === null) fail('lines', `result.matches[${i}] that is not an object`);
    checkPath('lines', `result.matches[${i}].file_path`, m.file_path, root);
    if (!isCount(m.line_number) || m.line_number < 1) fail('lines', `result.matches[${i}].line_number ${JSON.stringify(m.line_number)}, not a line number from 1`);
    if (!isCount(m.column) || m.column < 1) fail('lines', `result.matches[${i}].column ${JSON.stringify(m.column)}, not a column from 1`);
    if (typeof m.line !== 'string') fail('lines', `result.matches[${i}].line that is not a string`);
    for (const side of ['before', 'after'] as const) {
      const lines = m[side];
      if (lines !== undefined && (!Array.isArray(lines) || lines.some((line) => typeof line !== 'string'))) fail('lines', `result.matches[${i}].${side} that is not an array of strings`);
    }
  }
}

/** Throws a TypeError unless `result` is a well-formed answer to `request` (its output mode's fields, paths inside `root`). */
export function checkLinesResult(result: unknown, request: LineSearchRequest, root: string): GrepSearchResult {
  if (typeof result !== 'object' || result === null) fail('lines', `result ${JSON.stringify(result) ?? String(result)}, not an object`);
  const r = result as Record<string, unknown>;
  checkCounters(r);
  if (request.outputMode === 'content') {
    checkMatches(r.matches, root);
    return result as GrepSearchResult;
  }
  if (!isCount(r.total_files)) fail('lines', `result.total_files ${JSON.stringify(r.total_files)}, not a whole number of 0 or more`);
  if (request.outputMode === 'files_with_matches') {
    if (!Array.isArray(r.files)) fail('lines', `result.files that is not an array (output_mode files_with_matches)`);
    for (const [i, path] of (r.files as unknown[]).entries()) checkPath('lines', `result.files[${i}]`, path, root);
    return result as GrepSearchResult;
  }
  if (!Array.isArray(r.counts)) fail('lines', `result.counts that is not an array (output_mode count)`);
  for (const [i, entry] of (r.counts as unknown[]).entries()) {
    const e = entry as Record<string, unknown> | null;
    if (typeof e !== 'object' || e === null) fail('lines', `result.counts[${i}] that is not an object`);
    checkPath('lines', `result.counts[${i}].file_path`, e.file_path, root);
    if (!isCount(e.count)) fail('lines', `result.counts[${i}].count ${JSON.stringify(e.count)}, not a whole number of 0 or more`);
  }
  return result as GrepSearchResult;
}

/**
 * Throws a TypeError unless `response` is a well-formed answer to a `files` request for `dir` (paths
 * inside it); returns it with its paths sorted by UTF-16 code units and each once, as the tools list them.
 */
export function checkFilesResponse(response: FileSearchResponse, dir: string): FileSearchResponse {
  const r = response as unknown as Record<string, unknown>;
  if (!Array.isArray(r.paths)) fail('files', 'paths that is not an array');
  for (const [i, path] of (r.paths as unknown[]).entries()) checkPath('files', `paths[${i}]`, path, dir);
  for (const field of ['capped', 'stopped'] as const) if (typeof r[field] !== 'boolean') fail('files', `${field} ${JSON.stringify(r[field])}, not true or false`);
  if (!isCount(r.directories)) fail('files', `directories ${JSON.stringify(r.directories)}, not a whole number of 0 or more`);
  const skipped = r.skipped as Record<string, unknown> | null;
  if (typeof skipped !== 'object' || skipped === null || !isCount(skipped.count) || typeof skipped.kinds !== 'object' || skipped.kinds === null) {
    fail('files', 'skipped that is not { count, kinds }');
  }
  if (!Array.isArray(r.ignoreDropped)) fail('files', 'ignoreDropped that is not an array');
  const paths = [...new Set(response.paths)].sort();
  return { ...response, paths };
}
