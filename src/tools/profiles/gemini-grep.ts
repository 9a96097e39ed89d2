/**
 * Gemini CLI's `grep_search` semantics over toolhost's `grep_search`:
 * - `exclude_pattern` is a regular expression over lines (case-insensitive): a matching line that also
 *   matches it is dropped. It is matched by the same linear engine as the pattern.
 * - `.geminiignore` (workspace root) is honoured unless `no_ignore`.
 * - automatic context: when 1 to 3 lines match and no context was asked for (and not names_only),
 *   lines around them come back (50 for one match, 15 each for two or three; toolhost gives at most 20).
 */
import { ToolError } from '../../core/errors.js';
import type { ToolContext } from '../../core/tool.js';
import { compileSearchPattern, loadSearchPatternParser, prepareSearchPattern } from '../../search/dialect.js';
import { loadRe2Engine } from '../../search/re2-engine.js';
import { MAX_CONTEXT_LINES, MAX_SEARCH_RESULTS } from '../../search/line-search.js';
import { grepSearchTool, type GrepSearchArgs, type GrepSearchResult, type SearchContentResult } from '../grep-search.js';
import { geminiIgnoreTest } from './gemini-ignore.js';

/** Arguments of Gemini CLI's `grep_search` (its ripgrep-style parameters). */
export interface GeminiGrepArgs {
  pattern: string;
  dir_path?: string;
  include?: string;
  include_pattern?: string;
  exclude_pattern?: string;
  names_only?: boolean;
  case_sensitive?: boolean;
  fixed_strings?: boolean;
  context?: number;
  after?: number;
  before?: number;
  no_ignore?: boolean;
  max_matches_per_file?: number;
  total_max_matches?: number;
}

/** Context lines Gemini CLI adds around a single match, and around each of two or three. */
export const AUTO_CONTEXT_ONE = 50;
export const AUTO_CONTEXT_FEW = 15;

async function delegate(args: GrepSearchArgs, ctx: ToolContext): Promise<GrepSearchResult> {
  return grepSearchTool.execute(args, ctx);
}

/** A test for `exclude_pattern` lines (case-insensitive, the search's own dialect and engine). */
async function excludeTest(source: string): Promise<(line: string) => boolean> {
  await loadSearchPatternParser();
  let compiled;
  try {
    compiled = await prepareSearchPattern(compileSearchPattern(source, { literal: false, caseSensitive: false, argName: 'exclude_pattern' }));
  } catch (error) {
    // The dialect's advice is about the search pattern (fixed_strings makes it literal); exclude_pattern
    // is always a regular expression, so say how to make it match text literally.
    // (The parser may come from the lazily loaded bundle, with a ToolError class of its own: go by code.)
    const coded = error as { code?: unknown; message?: unknown; details?: Record<string, unknown> };
    if (coded?.code !== 'invalid_pattern' || typeof coded.message !== 'string') throw error;
    const advice = '; fix the pattern, or set fixed_strings to search for the text literally';
    const message = coded.message.endsWith(advice)
      ? `${coded.message.slice(0, -advice.length)}; fix exclude_pattern (put \\ before a special character to match it literally)`
      : coded.message;
    throw new ToolError('invalid_pattern', message, coded.details);
  }
  // Lines are tested one by one with re2js (linear whatever the pattern), loaded here.
  await loadRe2Engine();
  const re2 = compiled.re2;
  return (line) => re2.test(line);
}

/** Gemini CLI's grep on toolhost (see the module's comment). */
export async function geminiGrep(args: GeminiGrepArgs, ctx: ToolContext): Promise<GrepSearchResult> {
  if (args.include !== undefined && args.include_pattern !== undefined && args.include !== args.include_pattern) {
    throw new ToolError('invalid_arguments', 'include and include_pattern are the same parameter; give one of them');
  }
  const asked = args.context !== undefined || args.before !== undefined || args.after !== undefined;
  const before = args.before ?? args.context ?? 0;
  const after = args.after ?? args.context ?? 0;
  const total = args.total_max_matches ?? 100;
  const excluded = args.exclude_pattern ? await excludeTest(args.exclude_pattern) : undefined;
  const ignored = await geminiIgnoreTest(ctx, args.no_ignore !== true);
  const forward: GrepSearchArgs = { pattern: args.pattern, case_sensitive: args.case_sensitive === true };
  const include = args.include ?? args.include_pattern;
  if (args.dir_path !== undefined) forward.dir_path = args.dir_path;
  if (include !== undefined) forward.include = include;
  if (args.fixed_strings !== undefined) forward.fixed_strings = args.fixed_strings;
  if (before + after > 0) forward.context_lines = Math.min(Math.max(before, after), MAX_CONTEXT_LINES);
  // Lines the filters drop must not use up the cap: ask for more, then cut.
  const filtered = excluded !== undefined || ignored !== undefined;
  if (args.names_only === true && !excluded) forward.output_mode = 'files_with_matches';
  forward.max_results = filtered ? MAX_SEARCH_RESULTS : total;
  let found = await delegate(forward, ctx);
  if ('files' in found && !('matches' in found)) {
    const files = ignored ? found.files.filter((f) => !ignored(f, false)) : found.files;
    return { ...found, files, total_files: files.length - found.files.length + found.total_files };
  }
  if (!('matches' in found)) return found;
  const keep = (m: SearchContentResult['matches'][number]): boolean => !(ignored?.(m.file_path, false) ?? false) && !(excluded?.(m.line) ?? false);
  let content = found as SearchContentResult;
  let matches = content.matches.filter(keep);
  // Automatic context when few lines match (Gemini CLI's turn-saver).
  if (!asked && args.names_only !== true && matches.length >= 1 && matches.length <= 3) {
    found = await delegate({ ...forward, context_lines: Math.min(matches.length === 1 ? AUTO_CONTEXT_ONE : AUTO_CONTEXT_FEW, MAX_CONTEXT_LINES) }, ctx);
    if ('matches' in found) {
      content = found as SearchContentResult;
      matches = content.matches.filter(keep);
    }
  }
  const perFile = new Map<string, number>();
  matches = matches.filter((m) => {
    const seen = (perFile.get(m.file_path) ?? 0) + 1;
    perFile.set(m.file_path, seen);
    return args.max_matches_per_file === undefined || seen <= args.max_matches_per_file;
  });
  const counters = { ...content, total_matches: filtered ? matches.length : content.total_matches };
  if (matches.length > total) {
    matches = matches.slice(0, total);
    counters.truncated = true;
  }
  if (asked) {
    matches = matches.map((m) => {
      if (m.before === undefined && m.after === undefined) return m;
      const trimmed = { ...m };
      if (m.before !== undefined) trimmed.before = before === 0 ? [] : m.before.slice(-before);
      if (m.after !== undefined) trimmed.after = m.after.slice(0, after);
      return trimmed;
    });
  }
  if (args.names_only === true) {
    const files = [...new Set(matches.map((m) => m.file_path))].sort();
    const { matches: _all, ...rest } = counters;
    return { ...rest, files, total_files: files.length };
  }
  return { ...counters, matches };
}

