import { ToolError } from '../core/errors.js';
import { compileGlob, loadGlobMatcher } from '../search/glob.js';
import { defineTool, type ExecuteTool } from '../core/tool.js';
import { DEFAULT_MAX_WALK_ENTRIES } from '../search/walk.js';
import { askFiles } from '../search/engine.js';
import type { FileSearchRequest } from '../core/types.js';
import { reportWalk } from '../search/walk-report.js';
import { resolveWorkspacePath } from '../fs/paths.js';
import { DEADLINE_SHARE, searchBudget } from '../search/line-search.js';
import { fitResult, joinNotes, RESULT_MAX_CHARS } from './result-budget.js';

/** Largest `max_results` of find_file. */
export const MAX_FIND_RESULTS = 10_000;

const inputSchema = {
  type: 'object',
  properties: {
    pattern: {
      type: 'string',
      description:
        'Glob: * ? [abc] {a,b} (nested too) and ** for any number of directories. Without "/" it matches file ' +
        'names at any depth ("*.ts", "README*"); with "/" it matches the path relative to dir_path ("src/**/*.test.ts"); ' +
        'an absolute path is taken relative to dir_path. A leading "!" finds the files the rest does not match ("!*.test.ts").',
    },
    dir_path: {
      type: 'string',
      description: 'Directory to search (absolute workspace path or relative to the working directory); default: the working directory.',
    },
    case_sensitive: { type: 'boolean', description: 'Match letter case exactly (default false).' },
    include_ignored: {
      type: 'boolean',
      description: 'Also search .git/, node_modules/ and paths ignored by .gitignore files (default false).',
    },
    max_results: {
      type: 'integer',
      minimum: 1,
      maximum: MAX_FIND_RESULTS,
      description: 'Most paths to return (default 500); total says how many matched.',
    },
  },
  required: ['pattern'],
  additionalProperties: false,
} as const;

/** Arguments of find_file. */
export interface FindFileArgs {
  pattern: string;
  dir_path?: string;
  case_sensitive?: boolean;
  include_ignored?: boolean;
  max_results?: number;
}

/** Result of find_file. */
export interface FindFileResult {
  /** Absolute workspace paths, sorted by UTF-16 code units; at most `max_results`. */
  files: string[];
  /** How many files matched. */
  total: number;
  /** True when `files` holds fewer than `total` (or the walk stopped at its 200,000-entry cap or its time limit). */
  truncated: boolean;
  /** Entries the walk could not read and left out (a path too long, unreadable, removed while walking); only when there were some. */
  skipped_entries?: number;
  /** What was left out and how to see it: shown of `total` when `max_results` or the character budget cut the list, the time limit, the walk's entry cap, skipped entries; only when something was. */
  note?: string;
}

/**
 * `find_file` (as gemini-cli's `glob`): finds files by glob under
 * `dir_path` (see `compileGlob`: a pattern without `/` matches names at any depth, one with `/` the
 * path relative to `dir_path`; an absolute pattern is taken relative to `dir_path`; a leading `!`
 * negates; case-insensitive by default; matching takes linear time, so no glob can stall the thread).
 * Skips `.git/`, `node_modules/` and `.gitignore`d paths unless `include_ignored`; never follows
 * symlinks (a symlink whose name matches is listed). A directory that cannot be listed is skipped and
 * counted in `skipped_entries`, with a `note` naming the kinds. At 80 % of what is left of the call's
 * deadline (`ctx.deadline`) the walk stops and it returns what it found, `truncated` with a `note`.
 * A list cut by `max_results` (or by the walk's 200,000-entry cap) is `truncated` with a `note` as well,
 * as grep_search's is: "Showing 500 of 1200 paths (max_results is 500): raise max_results (at most
 * 10000), or narrow the pattern or dir_path."
 * The walk is a `files` request to the platform's search engine (`ctx.platform.search`; without one,
 * toolhost's default engine over `ctx.fs`). Returns {@link FindFileResult}.
 * Errors: `invalid_pattern` (empty, over 1000 characters, unbalanced brace or bracket, invalid class, a
 * range over 1000 names, an absolute pattern inside the workspace but not under `dir_path`, a `..` after
 * a wildcard that stays inside the workspace: no path matches it), `invalid_arguments` (a `dir_path` of
 * 4,096 bytes or more, or with a name over 255), `not_found`, `not_a_directory`, `outside_workspace`
 * (`dir_path`, or an absolute or `../` pattern, outside the workspace, or a `..` after a wildcard that
 * can climb above its root: `**\/../../etc/passwd`), `timeout`/`cancelled`.
 */
export const findFileTool: ExecuteTool<FindFileArgs, FindFileResult> = defineTool({
  name: 'find_file',
  annotations: { title: 'Find files', readOnlyHint: true, openWorldHint: false },
  description:
    'Find files by name or path glob, e.g. "*.ts" (any depth), "src/**/*.test.ts", "*.{js,jsx}". Returns ' +
    'absolute paths sorted by path. Case-insensitive unless case_sensitive. Skips .git/, node_modules/ and ' +
    '.gitignore\'d paths unless include_ignored.',
  inputSchema,
  execute: async (args, ctx): Promise<FindFileResult> => {
    const scope = { fs: ctx.fs, root: ctx.platform.root, cwd: ctx.cwd };
    const dir = await resolveWorkspacePath(scope, args.dir_path ?? ctx.cwd, { argName: 'dir_path' });
    // The glob compiler (in browsers fetched on the first find_file).
    await loadGlobMatcher();
    const matcher = compileGlob(args.pattern, {
      caseSensitive: args.case_sensitive === true,
      base: { root: ctx.platform.root, dir },
    });
    let stats;
    try {
      stats = await ctx.fs.stat(dir);
    } catch (error) {
      if ((error as { code?: unknown } | null)?.code === 'ENOENT') {
        throw new ToolError('not_found', `dir_path ${dir} does not exist; check it with list_dir`);
      }
      throw error;
    }
    if (!stats.isDirectory()) {
      throw new ToolError('not_a_directory', `dir_path ${dir} is a file, not a directory; give its parent directory`);
    }
    // Like the content searches, the walk stops at a share of the call's deadline and answers with what it found.
    const started = Date.now();
    const budget = searchBudget(Infinity, ctx.deadline, started);
    const request: FileSearchRequest = {
      kind: 'files',
      dir,
      glob: args.pattern,
      caseSensitive: args.case_sensitive === true,
      includeIgnored: args.include_ignored === true,
      includeSymlinks: true,
      ...(budget.byDeadline ? { deadline: started + budget.ms } : {}),
    };
    const walked = await askFiles(ctx, request, matcher);
    const all = walked.paths;
    const max = args.max_results ?? 500;
    const files = all.length > max ? all.slice(0, max) : all;
    const result: FindFileResult = { files, total: all.length, truncated: walked.capped || walked.stopped || files.length < all.length };
    if (walked.stopped) {
      result.note =
        `the search stopped at its time limit (${budget.ms} ms, ${DEADLINE_SHARE * 100} % of what was left of the call's deadline) ` +
        `after ${walked.directories} ${walked.directories === 1 ? 'directory' : 'directories'}; the results cover those only: narrow dir_path or the pattern`;
    }
    if (walked.capped) {
      result.note = joinNotes(
        result.note,
        `The walk stopped after ${DEFAULT_MAX_WALK_ENTRIES} entries (files and directories), so total counts the matches among those only: narrow dir_path.`,
      );
    }
    reportWalk(result, walked);
    // The character budget may cut the list further; its note then says so (of the same total) instead.
    fitResult(result, 'files', 'paths', 'narrow the pattern or dir_path to see the others', RESULT_MAX_CHARS, all.length);
    if (result.files.length === files.length && files.length < all.length) {
      const raise = max < MAX_FIND_RESULTS ? `raise max_results (at most ${MAX_FIND_RESULTS}), or ` : '';
      result.note = joinNotes(result.note, `Showing ${files.length} of ${all.length} paths (max_results is ${max}): ${raise}narrow the pattern or dir_path.`);
    }
    return result;
  },
}) as ExecuteTool<FindFileArgs, FindFileResult>;
