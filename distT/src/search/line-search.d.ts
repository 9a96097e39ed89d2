import type { ToolContext } from '../core/tool.js';
import { type WalkFile } from '../fs/walk.js';
import type { SearchPattern } from './dialect.js';
import { type SearchMatch } from './line-output.js';
export { MAX_LINE_CHARS, type SearchMatch } from './line-output.js';
/** Characters of `line`/`before`/`after` text one search returns before it stops adding matches. */
export declare const MAX_OUTPUT_CHARS = 200000;
/** Largest `context_lines`. */
export declare const MAX_CONTEXT_LINES = 20;
/** Largest `max_results` of search_dir and grep_search. */
export declare const MAX_SEARCH_RESULTS = 2000;
/** Time a search spends before it returns what it found so far (ms), unless told otherwise. */
export declare const DEFAULT_SEARCH_TIME_MS = 10000;
/** Largest `max_time_ms`. */
export declare const MAX_SEARCH_TIME_MS = 120000;
/**
 * Share of what is left of the call's deadline (`ctx.deadline`) a search may spend, so that it stops
 * and answers with what it found, instead of the deadline ending it with a bare `timeout`.
 */
export declare const DEADLINE_SHARE = 0.8;
/**
 * Largest file searched on a platform whose `fs` has no `readRange` (it is read whole, then searched
 * window by window); bigger ones are counted in `large_files_skipped`.
 */
export declare const MAX_WHOLE_READ_BYTES: number;
/** Counters shared by every search result. */
export interface SearchCounters {
    /** Matching lines in all searched files (a line with several matches counts once). */
    total_matches: number;
    /** True when results were left out: more than `max_results`, the output budget, the walk cap or the time limit. */
    truncated: boolean;
    /** Text files searched. */
    files_searched: number;
    /** Binary files (NUL in the first 8 KiB or invalid UTF-8), skipped without decoding. */
    binary_files_skipped: number;
    /** Files over 256 MiB on a platform that cannot read part of a file, not searched; only present when there were some. */
    large_files_skipped?: number;
    /** Present when results were left out (the time limit; in the tools' results also `max_results` and the character budget): what is shown of what, and how to go on. */
    note?: string;
}
/** `output_mode: 'content'` (and search_dir). */
export interface SearchContentResult extends SearchCounters {
    matches: SearchMatch[];
}
/** `output_mode: 'files_with_matches'`: matching files sorted by path. */
export interface SearchFilesResult extends SearchCounters {
    files: string[];
    /** Files with at least one match. */
    total_files: number;
}
/** `output_mode: 'count'`: matching lines per file, files sorted by path. */
export interface SearchCountResult extends SearchCounters {
    counts: Array<{
        file_path: string;
        count: number;
    }>;
    /** Files with at least one match. */
    total_files: number;
}
/** Any grep_search result. */
export type GrepSearchResult = SearchContentResult | SearchFilesResult | SearchCountResult;
/** What the shared engine of search_dir and grep_search needs. */
export interface LineSearchOptions {
    pattern: SearchPattern;
    dirPath?: string;
    include?: string;
    exclude?: string;
    contextLines?: number;
    outputMode?: 'content' | 'files_with_matches' | 'count';
    maxResults: number;
    /**
     * Time budget in ms (default {@link DEFAULT_SEARCH_TIME_MS}); past it the search returns what it
     * found. With a call deadline, at most {@link DEADLINE_SHARE} of what is left of it.
     */
    maxTimeMs?: number;
    /**
     * Internal (tests): files over this many bytes (default {@link MAX_SEARCH_FILE_BYTES}) are searched
     * window by window, with windows of `streamWindow` bytes and long-line overlaps of `streamOverlap`
     * characters (see {@link scanStream}).
     */
    streamOver?: number;
    streamWindow?: number;
    streamOverlap?: number;
}
/** The time budget of a search starting at `now`: `maxTimeMs`, or a share of what is left of the call's deadline when that is less. */
export declare function searchBudget(maxTimeMs: number, callDeadline: number | undefined, now: number): {
    ms: number;
    byDeadline: boolean;
};
/**
 * Resolves `dir_path` (default: the working directory) and lists the files to search, filtered by the
 * `include` / `exclude` globs (compiled relative to it, so absolute globs work).
 */
export declare function filesToSearch(ctx: ToolContext, options: {
    dirPath?: string;
    include?: string;
    exclude?: string;
    deadline?: number;
    onFiles?: (files: readonly WalkFile[], added: number) => void;
}): Promise<{
    files: WalkFile[];
    capped: boolean;
    stopped?: boolean;
}>;
/**
 * The engine of search_dir and grep_search. Walks like find_file (skips `.git/`, `node_modules/`,
 * `.gitignore`d paths, symlinks), then reads the files in path order, a batch at a time, through the
 * platform's text cache, and scans each with {@link scanText} (the pattern's engine, linear in the
 * text); a file's matches are formatted while its text is at hand, so a search holds one batch of
 * texts beyond the cache. Lines are 1-based, columns 1-based code points, files sorted by path.
 * At its time budget ({@link searchBudget}: `maxTimeMs`, or {@link DEADLINE_SHARE} of what is left of
 * the call's deadline when that is less) it stops, the walk included, and returns what it found, with
 * `truncated` and a `note`; the call's signal (its deadline, a cancel) still ends it with `timeout` /
 * `cancelled` if anything else overruns.
 */
export declare function runLineSearch(ctx: ToolContext, options: LineSearchOptions): Promise<GrepSearchResult>;
