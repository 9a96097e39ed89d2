import { type Tool } from '../../core/tool.js';
import type { WebSearchResult } from '../../core/types.js';
import { type CreateFileResult } from '../create-file.js';
import { type EditFileResult } from '../edit-file.js';
import { type GrepSearchResult } from '../grep-search.js';
import { type ListDirResult } from '../list-dir.js';
import { type ViewFileResult } from '../view-file.js';
import { type WebFetchResult } from '../web-fetch.js';
/** Gemini CLI's `read_file`: `{ file_path, start_line?, end_line? }` (1-based, inclusive), through `view_file`. */
export declare const geminiReadFileTool: Tool<{
    file_path: string;
    start_line?: number;
    end_line?: number;
}, ViewFileResult>;
/** Gemini CLI's `write_file`: `{ file_path, content }`, creating or overwriting through `create_file` (so `stale_file` applies). */
export declare const geminiWriteFileTool: Tool<{
    file_path: string;
    content: string;
}, CreateFileResult>;
/**
 * Gemini CLI's `replace`: `{ file_path, instruction?, old_string, new_string, allow_multiple? }` through
 * `edit_file` (exact literal match; `allow_multiple` replaces every occurrence, else it must be unique).
 * `instruction` says what the change is for; it is not used to match.
 */
export declare const geminiReplaceTool: Tool<{
    file_path: string;
    instruction?: string;
    old_string: string;
    new_string: string;
    allow_multiple?: boolean;
}, EditFileResult>;
/** Gemini CLI's `glob`: `{ pattern, dir_path?, case_sensitive?, respect_git_ignore? }` through `find_file`. */
export declare const geminiGlobTool: Tool<{
    pattern: string;
    dir_path?: string | undefined;
    case_sensitive?: boolean | undefined;
    respect_git_ignore?: boolean | undefined;
}, unknown>;
/** Gemini CLI's `list_directory`: `{ dir_path, ignore? }` through `list_dir`, leaving out names matching an `ignore` glob. */
export declare const geminiListDirectoryTool: Tool<{
    dir_path: string;
    ignore?: string[];
}, ListDirResult>;
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
    max_matches_per_file?: number;
    total_max_matches?: number;
}
/** Gemini CLI's `grep_search` with its ripgrep-style parameters, through the built-in `grep_search` (same dialect, ignore rules and caps). */
export declare const geminiGrepSearchTool: Tool<GeminiGrepArgs, GrepSearchResult>;
/** `search_file_content`, the name Gemini CLI's grep tool had before `grep_search`: the same tool. */
export declare const geminiSearchFileContentTool: Tool<GeminiGrepArgs, GrepSearchResult>;
/** Gemini CLI's `run_shell_command`: `{ command, description?, dir_path? }` through `run_command`; background runs are refused. */
export declare const geminiRunShellCommandTool: Tool<{
    command: string;
    description?: string | undefined;
    dir_path?: string | undefined;
    is_background?: boolean | undefined;
}, import("../../core/types.js").RunCommandResult | import("../run-command.js").RunCommandBackgroundResult>;
/** Gemini CLI's `google_web_search`: `{ query }` through the platform's web search (the same as the `web_search` fallback). */
export declare const geminiGoogleWebSearchTool: Tool<{
    query: string;
}, WebSearchResult>;
/** Most URLs one Gemini `web_fetch` prompt may name, as Gemini CLI allows. */
export declare const GEMINI_WEB_FETCH_MAX_URLS = 20;
/**
 * Gemini CLI's `web_fetch`: `{ prompt }`, a request that names up to 20 http(s) URLs; each is fetched
 * as toolhost's `web_fetch` does (policy, caps, Markdown) and returned with the prompt, for the model to
 * answer from. A URL that fails is listed with its error; a prompt without a URL is `invalid_arguments`.
 */
export declare const geminiWebFetchTool: Tool<{
    prompt: string;
}, {
    prompt: string;
    results: Array<WebFetchResult | {
        url: string;
        error: string;
        code: string;
    }>;
}>;
/**
 * The Gemini profile's tools, Gemini CLI's names and parameters: read_file, write_file, replace, glob,
 * list_directory, grep_search, run_shell_command, google_web_search, web_fetch, and search_file_content
 * (the old name of grep_search) unless `aliases` is false (a fresh array).
 */
export declare function geminiTools(options?: {
    aliases?: boolean;
}): Tool[];
