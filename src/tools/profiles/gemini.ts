import { ToolError, toToolError } from '../../core/errors.js';
import { checkOptions, is } from '../../core/options.js';
import { defineTool, type ExecuteTool, type ToolContext } from '../../core/tool.js';
import type { WebSearchResult } from '../../core/types.js';
import { createFileTool, type CreateFileResult } from '../create-file.js';
import type { FindFileResult } from '../find-file.js';
import type { GrepSearchResult } from '../grep-search.js';
import { geminiGrep as geminiGrepSearch, type GeminiGrepArgs } from './gemini-grep.js';

export type { GeminiGrepArgs } from './gemini-grep.js';
import type { ListDirResult } from '../list-dir.js';
import { geminiGlob, geminiListDirectory, type GeminiGlobArgs, type GeminiListArgs } from './gemini-listing.js';
import { runCommandTool } from '../run-command.js';
import { viewFileTool, type ViewFileResult } from '../view-file.js';
import { webSearchFallbackTool } from '../web-search.js';
import { fetchAsMarkdown, WEB_FETCH_TIMEOUT_MS, type WebFetchResult } from '../web-fetch.js';
import { geminiReadMany, withPdfData, type GeminiReadManyArgs, type GeminiReadManyResult } from './gemini-read-many.js';
import { checkWritePlaceholders, geminiReplace, type GeminiReplaceArgs, type GeminiReplaceResult } from './gemini-replace.js';

/** Runs a built-in's `execute` (each profile tool is a thin layer over the built-in of the same job). */
async function delegate<A, R>(tool: ExecuteTool<A, R>, args: A, ctx: ToolContext): Promise<R> {
  return tool.execute(args, ctx);
}

const str = (description: string): { type: 'string'; description: string } => ({ type: 'string', description });
const bool = (description: string): { type: 'boolean'; description: string } => ({ type: 'boolean', description });
const int = (description: string, minimum = 0): { type: 'integer'; minimum: number; description: string } => ({ type: 'integer', minimum, description });

/** Gemini CLI's `read_file`: `{ file_path, start_line?, end_line? }` (1-based, inclusive), through `view_file`. */
export const geminiReadFileTool: ExecuteTool<{ file_path: string; start_line?: number; end_line?: number }, ViewFileResult> = /* @__PURE__ */ defineTool({
  name: 'read_file',
  annotations: { title: 'Read file', readOnlyHint: true, openWorldHint: false },
  description:
    'Reads a file from the workspace. For text files, start_line and end_line (1-based, inclusive) read a part; at most 2000 lines per call. ' +
    'Binary files return their size and type; images and PDFs also their data (base64).',
  inputSchema: {
    type: 'object',
    properties: {
      file_path: str('The path to the file to read (absolute, or relative to the workspace).'),
      start_line: int('Optional: the 1-based line to start reading from.', 1),
      end_line: int('Optional: the 1-based line to stop reading at (inclusive).', 1),
    },
    required: ['file_path'],
    additionalProperties: false,
  } as const,
  execute: async (args, ctx) => withPdfData(await delegate(viewFileTool, args, ctx), ctx),
});

/**
 * Gemini CLI's `read_many_files`: `{ include, exclude?, recursive?, useDefaultExcludes?, file_filtering_options? }`;
 * text files concatenated with `--- <path> ---` separators, images and PDFs named in include as inline data.
 */

/** Gemini CLI's `file_filtering_options` (list_directory and read_many_files share it). */
const FILE_FILTERING_OPTIONS = {
  type: 'object',
  description: 'Optional: whether to respect ignore patterns from .gitignore or .geminiignore.',
  properties: {
    respect_git_ignore: bool('Optional: respect .gitignore patterns (default true).'),
    respect_gemini_ignore: bool('Optional: respect .geminiignore patterns (default true).'),
  },
  additionalProperties: false,
} as const;
export const geminiReadManyFilesTool: ExecuteTool<GeminiReadManyArgs, GeminiReadManyResult> = /* @__PURE__ */ defineTool({
  name: 'read_many_files',
  annotations: { title: 'Read many files', readOnlyHint: true, openWorldHint: false },
  description:
    "Reads the files that glob patterns or paths name and concatenates the text files, each after a '--- <path> ---' separator, ending with " +
    "'--- End of content ---'. Images and PDFs are returned as inline data (base64) when include names them by name or extension. Dependency and " +
    'build folders and binary files are excluded unless useDefaultExcludes is false; .gitignore and .geminiignore are respected.',
  inputSchema: {
    type: 'object',
    properties: {
      include: { type: 'array', items: { type: 'string', minLength: 1 }, minItems: 1, description: 'Glob patterns or paths, e.g. ["src/**/*.ts"], ["README.md", "docs/"].' },
      exclude: { type: 'array', items: { type: 'string', minLength: 1 }, description: 'Optional: glob patterns of files or folders to leave out, e.g. "**/*.log", "temp/".' },
      recursive: bool('Optional: search recursively (default true; a pattern with "/" or "**" says where itself).'),
      useDefaultExcludes: bool('Optional: apply the default excludes (node_modules, .git, dist, build, binary files; default true).'),
      file_filtering_options: FILE_FILTERING_OPTIONS,
    },
    required: ['include'],
    additionalProperties: false,
  } as const,
  execute: async (args, ctx) => geminiReadMany(args as GeminiReadManyArgs, ctx),
});

/** Gemini CLI's `write_file`: `{ file_path, content }`, creating or overwriting through `create_file` (so `stale_file` applies). */
export const geminiWriteFileTool: ExecuteTool<{ file_path: string; content: string }, CreateFileResult> = /* @__PURE__ */ defineTool({
  name: 'write_file',
  annotations: { title: 'Write file', readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  description:
    'Writes content to a file, creating it (and its folders) or overwriting it. Overwriting a file that changed since you read it fails; read it again first. ' +
    "Provide the complete content; placeholders like '// ... rest of code ...' are refused.",
  inputSchema: {
    type: 'object',
    properties: { file_path: str('The path to the file to write.'), content: str('The content to write to the file.') },
    required: ['file_path', 'content'],
    additionalProperties: false,
  } as const,
  execute: async (args, ctx) => {
    await checkWritePlaceholders(args.file_path, args.content, ctx);
    return delegate(createFileTool, { ...args, overwrite: true }, ctx);
  },
});

/**
 * Gemini CLI's `replace`: `{ file_path, instruction?, old_string, new_string, allow_multiple? }` through
 * `edit_file`: exact literal match first, then Gemini CLI's forgiving ladder (gemini-ladder.ts);
 * `allow_multiple` replaces every occurrence, else it must be unique (fuzzy places are occurrences only
 * when their text is identical; differing ones are refused). Omission placeholders in new_string that
 * old_string does not hold are refused. `instruction` is for the record, not matching.
 */
export const geminiReplaceTool: ExecuteTool<GeminiReplaceArgs, GeminiReplaceResult> =
  /* @__PURE__ */ defineTool({
    name: 'replace',
    annotations: { title: 'Replace text in a file', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    description:
      'Replaces text within a file. By default old_string must occur exactly once (include enough context to make it unique); ' +
      'set allow_multiple to replace every occurrence. old_string should be the exact literal text; when it is not found exactly, a match ' +
      'ignoring indentation, then whitespace, then small differences is tried, and the result says which was applied. An empty old_string ' +
      "creates a new file. Do not use omission placeholders like '(rest of methods ...)' in new_string; they are refused.",
    inputSchema: {
      type: 'object',
      properties: {
        file_path: str('The path to the file to modify.'),
        instruction: str('A clear description of the change, for the record.'),
        old_string: str('The exact literal text to replace.'),
        new_string: str('The exact literal text to replace old_string with.'),
        allow_multiple: bool('Replace every occurrence of old_string (default false: it must occur exactly once).'),
      },
      required: ['file_path', 'old_string', 'new_string'],
      additionalProperties: false,
    } as const,
    execute: async (args, ctx) => geminiReplace(args, ctx),
  });

/**
 * Gemini CLI's `glob`: `{ pattern, dir_path?, case_sensitive?, respect_git_ignore?, respect_gemini_ignore? }`
 * through `find_file`; files modified in the last 24 hours first (newest first), then the rest by path.
 */
export const geminiGlobTool: ExecuteTool<GeminiGlobArgs, FindFileResult> = /* @__PURE__ */ defineTool({
  name: 'glob',
  annotations: { title: 'Find files', readOnlyHint: true, openWorldHint: false },
  description:
    'Finds files matching a glob pattern (e.g. "src/**/*.ts", "**/*.md"), returning absolute paths: files modified in the last 24 hours first ' +
    '(newest first), then the others alphabetically.',
  inputSchema: {
    type: 'object',
    properties: {
      pattern: str('The glob pattern to match against (e.g. "**/*.py", "docs/*.md").'),
      dir_path: str('Optional: the directory to search within; default: the working directory.'),
      case_sensitive: bool('Optional: whether the match is case-sensitive (default false).'),
      respect_git_ignore: bool('Optional: respect .gitignore patterns (default true).'),
      respect_gemini_ignore: bool('Optional: respect .geminiignore patterns (default true).'),
    },
    required: ['pattern'],
    additionalProperties: false,
  } as const,
  execute: async (args, ctx) => geminiGlob(args, ctx),
});

/**
 * Gemini CLI's `list_directory`: `{ dir_path, ignore?, file_filtering_options? }` through `list_dir`:
 * directories first, then files, by name; names matching an `ignore` glob and entries ignored by
 * `.gitignore` / `.geminiignore` (unless file_filtering_options turns them off) left out.
 */
export const geminiListDirectoryTool: ExecuteTool<GeminiListArgs, ListDirResult> = /* @__PURE__ */ defineTool({
  name: 'list_directory',
  annotations: { title: 'List directory', readOnlyHint: true, openWorldHint: false },
  description:
    'Lists the files and subdirectories directly inside a directory (directories first, then files, alphabetically), leaving out names that match ' +
    'the ignore globs and entries ignored by .gitignore or .geminiignore.',
  inputSchema: {
    type: 'object',
    properties: {
      dir_path: str('The path to the directory to list.'),
      ignore: { type: 'array', items: { type: 'string' }, description: 'Glob patterns of names to leave out.' },
      file_filtering_options: FILE_FILTERING_OPTIONS,
    },
    required: ['dir_path'],
    additionalProperties: false,
  } as const,
  execute: async (args, ctx) => geminiListDirectory(args as GeminiListArgs, ctx),
});

function geminiGrep(name: string): ExecuteTool<GeminiGrepArgs, GrepSearchResult> {
  return defineTool({
    name,
    annotations: { title: 'Search file contents', readOnlyHint: true, openWorldHint: false },
    description:
      'Searches file contents for a regular expression (ripgrep-style; case-insensitive unless case_sensitive). Filter files with include ' +
      '(a glob such as "*.ts"); exclude_pattern drops lines matching a second regular expression; names_only lists just the matching files; ' +
      'context, before and after add lines around matches (with 1 to 3 matches and none asked for, lines around them are added). Max 100 matches unless total_max_matches.',
    inputSchema: {
      type: 'object',
      properties: {
        pattern: str('The regular expression to search for.'),
        dir_path: str('Optional: the directory to search within; default: the working directory.'),
        include: str('Optional: a glob of the files to search (e.g. "*.js", "*.{ts,tsx}", "src/**").'),
        include_pattern: str('Optional: the same as include.'),
        exclude_pattern: str('Optional: a regular expression; a matching line that also matches exclude_pattern is left out (case-insensitive).'),
        names_only: bool('Optional: return only the paths of matching files.'),
        case_sensitive: bool('Optional: match case exactly (default false).'),
        fixed_strings: bool('Optional: treat pattern as literal text.'),
        context: int('Optional: lines of context around each match.'),
        after: int('Optional: lines of context after each match.'),
        before: int('Optional: lines of context before each match.'),
        no_ignore: bool('Optional: also search files ignored by .geminiignore (default false).'),
        max_matches_per_file: int('Optional: most matches listed per file.', 1),
        total_max_matches: int('Optional: most matches in all (default 100).', 1),
      },
      required: ['pattern'],
      additionalProperties: false,
    } as const,
    execute: async (input, ctx): Promise<GrepSearchResult> => geminiGrepSearch(input as GeminiGrepArgs, ctx),
  }) as ExecuteTool<GeminiGrepArgs, GrepSearchResult>;
}

/** Gemini CLI's `grep_search` with its ripgrep-style parameters, through the built-in `grep_search` (same dialect, ignore rules and caps). */
export const geminiGrepSearchTool: ExecuteTool<GeminiGrepArgs, GrepSearchResult> = /* @__PURE__ */ geminiGrep('grep_search');
/** `search_file_content`, the name Gemini CLI's grep tool had before `grep_search`: the same tool. */
export const geminiSearchFileContentTool: ExecuteTool<GeminiGrepArgs, GrepSearchResult> = /* @__PURE__ */ geminiGrep('search_file_content');

/** Gemini CLI's `run_shell_command`: `{ command, description?, dir_path? }` through `run_command`; background runs are refused. */
export const geminiRunShellCommandTool = /* @__PURE__ */ defineTool({
  name: 'run_shell_command',
  annotations: { title: 'Run shell command', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  description:
    'Runs a shell command in the workspace (bash -c on Node; not interactive) and returns stdout, stderr and the exit code. ' +
    'Where there is no shell (the browser), returns an empty result with a note.',
  inputSchema: {
    type: 'object',
    properties: {
      command: { type: 'string', minLength: 1, description: 'The exact command to execute.' },
      description: str('A brief description of what the command does, for the user.'),
      dir_path: str('Optional: the directory to run the command in; default: the workspace.'),
      is_background: bool('Run the command in the background: not supported here; the command must finish.'),
    },
    required: ['command'],
    additionalProperties: false,
  } as const,
  execute: async (args, ctx) => {
    if (args.is_background === true) {
      throw new ToolError('invalid_arguments', 'is_background is not supported: commands run until they finish (or time out); run it in the foreground');
    }
    const forward: { command: string; cwd?: string } = { command: args.command };
    if (args.dir_path !== undefined) forward.cwd = args.dir_path;
    return delegate(runCommandTool, forward, ctx);
  },
});

/** Gemini CLI's `google_web_search`: `{ query }` through the platform's web search (the same as the `web_search` fallback). */
export const geminiGoogleWebSearchTool: ExecuteTool<{ query: string }, WebSearchResult> = /* @__PURE__ */ defineTool({
  name: 'google_web_search',
  annotations: { title: 'Web search', readOnlyHint: true, openWorldHint: true },
  description: 'Searches the web for the query and returns the top results (title, url, snippet).',
  inputSchema: { type: 'object', properties: { query: str('The search query.') }, required: ['query'], additionalProperties: false } as const,
  execute: async (args, ctx) => delegate(webSearchFallbackTool, args, ctx),
});

/** Most URLs of one Gemini `web_fetch` call fetched at the same time. */
export const GEMINI_WEB_FETCH_CONCURRENCY = 2;
/** Share of what is left of the call's deadline the URLs may take, so the answer (with its `timeout` entries) is in before it. */
const WEB_FETCH_DEADLINE_SHARE = 0.8;

type GeminiFetchEntry = WebFetchResult | { url: string; error: string; code: string };

/**
 * Fetches `urls`, {@link GEMINI_WEB_FETCH_CONCURRENCY} at a time, all within one budget: 20 s for the
 * whole call, or 80 % of what is left of the call's deadline when that is sooner. A URL still being
 * fetched when the budget runs out, or not yet started, is answered with a `timeout` entry; the
 * entries are in the URLs' order.
 */
async function fetchAllWithin(ctx: ToolContext, urls: readonly string[]): Promise<GeminiFetchEntry[]> {
  const left = ctx.deadline === undefined ? Infinity : Math.floor((ctx.deadline - Date.now()) * WEB_FETCH_DEADLINE_SHARE);
  const budget = Math.max(1, Math.min(WEB_FETCH_TIMEOUT_MS, left));
  const endAt = Date.now() + budget;
  const share = `the ${budget} ms this call has for all its ${urls.length} URL${urls.length === 1 ? '' : 's'}`;
  const late = (url: string, started: boolean): GeminiFetchEntry => ({
    url,
    code: 'timeout',
    error: started
      ? `fetching ${JSON.stringify(url)} did not finish within ${share}; fetch fewer URLs at once, or try again`
      : `${JSON.stringify(url)} was not fetched: ${share} ran out first; fetch fewer URLs at once, or try again`,
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const out = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), budget);
  });
  const results: GeminiFetchEntry[] = new Array<GeminiFetchEntry>(urls.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < urls.length) {
      const index = next++;
      const url = urls[index] as string;
      if (Date.now() >= endAt) {
        results[index] = late(url, false);
        continue;
      }
      const fetching = fetchAsMarkdown(ctx, url, { timeoutMs: Math.max(1, endAt - Date.now()) }).then(
        (page): GeminiFetchEntry => page,
        (error: unknown): GeminiFetchEntry => {
          if (ctx.signal.aborted) throw error;
          const failure = toToolError(error);
          return failure.code === 'timeout' ? late(url, true) : { url, error: failure.message, code: failure.code };
        },
      );
      const settled = await Promise.race([fetching, out]);
      results[index] = settled === 'late' ? late(url, true) : settled;
      // A fetch past the budget stops at its own timer (the same end); its answer is no longer waited for.
      if (settled === 'late') fetching.catch(() => undefined);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(GEMINI_WEB_FETCH_CONCURRENCY, urls.length) }, worker));
  } finally {
    clearTimeout(timer);
  }
  return results;
}

/** Most URLs one Gemini `web_fetch` prompt may name, as Gemini CLI allows. */
export const GEMINI_WEB_FETCH_MAX_URLS = 20;

/**
 * Gemini CLI's `web_fetch`: `{ prompt }`, a request that names up to 20 http(s) URLs; each is fetched
 * as toolhost's `web_fetch` does (policy, caps, Markdown) and returned with the prompt, for the model to
 * answer from. A URL that fails is listed with its error; a prompt without a URL is `invalid_arguments`.
 */
export const geminiWebFetchTool: ExecuteTool<{ prompt: string }, { prompt: string; results: Array<WebFetchResult | { url: string; error: string; code: string }> }> = /* @__PURE__ */ defineTool({
  name: 'web_fetch',
  annotations: { title: 'Fetch web pages', readOnlyHint: true, openWorldHint: true },
  description: 'Fetches the content of up to 20 URLs named in the prompt (http or https) as Markdown, for answering the prompt.',
  inputSchema: {
    type: 'object',
    properties: { prompt: str('A request naming the URL(s) to fetch (up to 20) and what to do with their content.') },
    required: ['prompt'],
    additionalProperties: false,
  } as const,
  execute: async ({ prompt }, ctx) => {
    const urls = [...new Set(prompt.match(/https?:\/\/[^\s<>"'`)\]]+/g) ?? [])].map((u) => u.replace(/[.,;:!?]+$/, ''));
    if (urls.length === 0) throw new ToolError('invalid_arguments', 'the prompt names no http(s) URL; include the full URL(s) to fetch');
    if (urls.length > GEMINI_WEB_FETCH_MAX_URLS) {
      throw new ToolError('invalid_arguments', `the prompt names ${urls.length} URLs; at most ${GEMINI_WEB_FETCH_MAX_URLS} can be fetched at once`);
    }
    const results = await fetchAllWithin(ctx, urls);
    return { prompt, results };
  },
});

/**
 * The Gemini profile's tools, Gemini CLI's names and parameters: read_file, read_many_files, write_file, replace, glob,
 * list_directory, grep_search, run_shell_command, google_web_search, web_fetch, and search_file_content
 * (the old name of grep_search) unless `aliases` is false (a fresh array). Options that are not an
 * object, an `aliases` that is not a boolean and any other key are a TypeError.
 */
export function geminiTools(options: { aliases?: boolean } = {}): ExecuteTool[] {
  checkOptions('toolProfiles.gemini', options, { aliases: is.boolean });
  const tools = [
    geminiReadFileTool,
    geminiReadManyFilesTool,
    geminiWriteFileTool,
    geminiReplaceTool,
    geminiGlobTool,
    geminiListDirectoryTool,
    geminiGrepSearchTool,
    geminiRunShellCommandTool,
    geminiGoogleWebSearchTool,
    geminiWebFetchTool,
  ] as ExecuteTool[];
  if (options.aliases !== false) tools.push(geminiSearchFileContentTool as ExecuteTool);
  return tools;
}
