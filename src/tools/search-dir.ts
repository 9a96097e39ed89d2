import { ToolError } from '../core/errors.js';
import { compileSearchPattern, loadSearchPatternParser } from '../search/dialect.js';
import { loadGlobMatcher } from '../search/glob.js';
import { defineTool, type ExecuteTool } from '../core/tool.js';
import { reportWalk, walkReportUnder } from '../search/walk-report.js';
import { fitSearchResult } from './search-note.js';
import { refuseSlashOnSearchedFile } from '../fs/paths.js';
import { MAX_SEARCH_RESULTS, type SearchContentResult } from '../search/line-search.js';
import { askLines } from '../search/engine.js';
import type { LineSearchRequest } from '../core/types.js';

const inputSchema = {
  type: 'object',
  properties: {
    query: { type: 'string', description: 'The text to find, literally (no wildcards or regex; "a.b" finds only "a.b").' },
    dir_path: {
      type: 'string',
      description: 'Directory to search (absolute workspace path or relative to the working directory); default: the working directory.',
    },
    case_sensitive: { type: 'boolean', description: 'Match letter case exactly (default false).' },
    include: {
      type: 'string',
      description:
        'Only search files matching this glob, e.g. "*.ts" or "*.{ts,tsx}" (name at any depth) or "src/**/*.ts" (path relative to dir_path). ' +
        'Letter case is ignored ("*.TS" also matches a.ts), whatever case_sensitive says.',
    },
    max_results: {
      type: 'integer',
      minimum: 1,
      maximum: MAX_SEARCH_RESULTS,
      description: 'Most matching lines to return (default 100).',
    },
  },
  required: ['query'],
  additionalProperties: false,
} as const;

/** Arguments of search_dir. */
export interface SearchDirArgs {
  query: string;
  dir_path?: string;
  case_sensitive?: boolean;
  include?: string;
  max_results?: number;
}

/** What `search_dir` returns: the matching lines with grep_search's counters (its `content` mode result). */
export type SearchDirResult = SearchContentResult;

/**
 * `search_dir`: literal, case-insensitive by default text search
 * over the workspace with find_file's ignore rules. Returns {@link SearchContentResult}
 * `{ matches: [{ file_path, line_number, column, line }], total_matches, truncated, files_searched,
 * binary_files_skipped }`: one entry per matching line (1-based line, 1-based code-point column of its
 * first match), files sorted by path; a line longer than 2000 characters is shown as an excerpt of at most
 * 2000 around the first match with `[... N characters before/after]` markers.
 * A directory or file that cannot be read is skipped and counted in `skipped_entries`, with a `note`.
 * The search is a `lines` request to the platform's search engine (`ctx.platform.search`; without
 * one, toolhost's default engine over `ctx.fs`).
 * Errors: `invalid_arguments` (empty query, a `dir_path` ending in `/` that names a file, or one of 4,096
 * bytes or more), `invalid_pattern` (bad include glob), `not_found`, `outside_workspace` (`dir_path`, or an
 * `include` glob that points outside: absolute, `../`, or a `..` after a wildcard).
 */
export const searchDirTool: ExecuteTool<SearchDirArgs, SearchDirResult> = defineTool({
  name: 'search_dir',
  annotations: { title: 'Search directory', readOnlyHint: true, openWorldHint: false },
  description:
    'Find literal text in the files of a directory tree (case-insensitive unless case_sensitive). Returns each ' +
    'matching line with file path, 1-based line number and column. Skips .git/, node_modules/, .gitignore\'d ' +
    'paths and binary files. Use grep_search for regular expressions.',
  inputSchema,
  execute: async (args, ctx): Promise<SearchContentResult> => {
    if (args.query.length === 0) {
      throw new ToolError('invalid_arguments', 'query is empty; give the text to search for');
    }
    // A case-insensitive query's character sets need the pattern parser's module (in browsers fetched on the first search).
    await loadSearchPatternParser();
    const pattern = compileSearchPattern(args.query, {
      literal: true,
      caseSensitive: args.case_sensitive === true,
      argName: 'query',
    });
    await refuseSlashOnSearchedFile({ fs: ctx.fs, root: ctx.platform.root, cwd: ctx.cwd }, args.dir_path);
    // The include glob's compiler (in browsers fetched on the first search that has one).
    if (args.include) await loadGlobMatcher();
    const request: LineSearchRequest = {
      kind: 'lines',
      pattern: args.query,
      literal: true,
      caseSensitive: args.case_sensitive === true,
      ...(args.dir_path === undefined ? {} : { dirPath: args.dir_path }),
      ...(args.include === undefined ? {} : { include: args.include }),
      contextLines: 0,
      outputMode: 'content',
      maxResults: args.max_results ?? 100,
    };
    const result = (await askLines(ctx, request, pattern)) as SearchContentResult;
    reportWalk(result, walkReportUnder(ctx.signal));
    return fitSearchResult(result, { maxResults: args.max_results ?? 100, narrow: 'narrow the query, dir_path or include' });
  },
}) as ExecuteTool<SearchDirArgs, SearchContentResult>;
