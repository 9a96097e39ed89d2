import type { FsPromises, Platform, SearchSource } from '../core/types.js';
/** Directory names never entered unless `includeIgnored`. */
export declare const ALWAYS_SKIPPED_DIRS: ReadonlySet<string>;
/** Most entries (files and directories) one walk visits before it stops and reports `capped`. */
export declare const DEFAULT_MAX_WALK_ENTRIES = 200000;
/** One file found by {@link walkWorkspace}. */
export interface WalkFile {
    /** Absolute workspace path. */
    path: string;
    /** Path relative to the walk's start directory (POSIX, no leading `/`). */
    rel: string;
    /** True for a symbolic link (listed only with `includeSymlinks`, never followed). */
    symlink: boolean;
}
/** Options of {@link walkWorkspace}. */
export interface WalkOptions {
    fs: FsPromises;
    /** Workspace root: `.gitignore` files from here down to `dir` apply. */
    root: string;
    /** Start directory: absolute, already resolved with `resolveWorkspacePath` (symlink-free). */
    dir: string;
    /** Also walk `.git/`, `node_modules/` and `.gitignore`d paths (default false). */
    includeIgnored?: boolean;
    /** List symbolic links as files (never followed; default false, as ripgrep does). */
    includeSymlinks?: boolean;
    /** Checked between directories; the walk rejects with the signal's reason once it fires. */
    signal?: AbortSignal;
    /** A `Date.now()` value: past it the walk stops between directories and reports `stopped` (a search's time budget). */
    deadline?: number;
    /** Stop after visiting this many entries (default {@link DEFAULT_MAX_WALK_ENTRIES}). */
    maxEntries?: number;
    /** Keep a file only when this returns true (given its path relative to `dir`). */
    fileFilter?: (rel: string) => boolean;
    /** Skip a directory (and everything under it) when this returns true. */
    pruneDir?: (rel: string) => boolean;
    /** The platform's {@link Platform.changeCount}: while it is unchanged, directory listings are reused. */
    changeCount?: () => number;
    /** The platform's {@link Platform.searchSource}: directories are listed through it (synchronously). */
    source?: SearchSource;
    /**
     * Called after each directory with the files listed so far and how many of them are new (the last
     * `added`), so a caller can start on them while the walk goes on. The array is the walk's own (its
     * result's `files`): read it, never change it.
     */
    onFiles?: (files: readonly WalkFile[], added: number) => void;
}
/** What {@link walkWorkspace} found. */
export interface WalkResult {
    /** Files in no particular order. */
    files: WalkFile[];
    /** True when `maxEntries` stopped the walk early. */
    capped: boolean;
    /** True when `deadline` stopped the walk early (only with a `deadline`). */
    stopped?: boolean;
    directories: number;
    /** Entries that could not be read and were left out (see {@link SkippedEntries}). */
    skipped: SkippedEntries;
    /** `.gitignore` files some of whose rules were left out (see {@link DroppedIgnoreRules}), in the order read. */
    ignoreDropped: DroppedIgnoreRules[];
}
/** What one walk (or one call's walks) could not take into account, for the result's note. */
export interface WalkReport {
    skipped: SkippedEntries;
    ignoreDropped: readonly DroppedIgnoreRules[];
}
/** The rules of one `.gitignore` that a walk left out, and why (each count only when there were some). */
export interface DroppedIgnoreRules {
    /** Absolute workspace path of the `.gitignore`. */
    file: string;
    /** The file's size in bytes, when over {@link MAX_IGNORE_FILE_BYTES}: only its first MiB (to its last line break) was read. */
    fileBytes?: number;
    /** Rules past the first {@link MAX_IGNORE_RULES}. */
    pastCap: number;
    /** Rules with more than {@link MAX_IGNORE_RULE_GLOBSTARS} `**`. */
    globstars: number;
    /** Rules over {@link MAX_IGNORE_RULE_CHARS} characters. */
    tooLong: number;
}
/**
 * Why an entry was skipped: `too_long` (`ENAMETOOLONG`: its name or whole path is longer than the
 * system takes), `unreadable` (`EACCES` / `EPERM`), `vanished` (`ENOENT` / `ENOTDIR`: removed or
 * replaced by a file between being listed and being read), `loop` (`ELOOP`: replaced by a symbolic
 * link while the walk ran), `outside` (`outside_workspace`: replaced by a link out of the workspace).
 */
export type SkipKind = 'too_long' | 'unreadable' | 'vanished' | 'loop' | 'outside';
/** Entries one walk (or one call's walks and reads) left out because they could not be read. */
export interface SkippedEntries {
    /** How many entries were skipped. */
    count: number;
    /** How many per {@link SkipKind}. */
    kinds: Partial<Record<SkipKind, number>>;
    /** The first skipped entry's absolute workspace path. */
    first?: string;
}
/** The {@link SkipKind} of a filesystem error, or undefined for an error that is not about one entry. */
export declare function skipKindOf(error: unknown): SkipKind | undefined;
/** No entries skipped yet. */
export declare function noSkippedEntries(): SkippedEntries;
/** Counts one skipped entry at `path` in `into`. */
export declare function countSkipped(into: SkippedEntries, kind: SkipKind, path: string): void;
/** Counts one skipped entry at `path` in what the call under `signal` reports (see {@link walkReportUnder}). */
export declare function countSkippedUnder(signal: AbortSignal | undefined, kind: SkipKind, path: string): void;
/**
 * What every {@link walkWorkspace} and {@link loadTexts} run with `signal` (one call's `ctx.signal`)
 * has left out so far: directories that could not be listed, files that could not be read, and
 * `.gitignore` rules not applied.
 */
export declare function walkReportUnder(signal: AbortSignal | undefined): WalkReport;
/**
 * The note of a result that left entries out: how many, of which kinds, the first one's path, and what
 * to do: `2 entries could not be read and were skipped (1 name or path too long (ENAMETOOLONG), 1
 * removed or replaced while the call ran (ENOENT, ENOTDIR)), the first /workspace/a/…; their contents are not in this
 * result: shorten (rename or move) a path that is too long, make an unreadable one readable, and call
 * again for one that was removed.`
 */
export declare function skippedNote(skipped: SkippedEntries): string;
/**
 * The note of a result whose walk left `.gitignore` rules out: each file (up to five) with how many
 * rules were left out and why, and what to do: `Some .gitignore rules were not applied, so files they
 * would ignore may be included: /workspace/.gitignore (20888896 bytes, only the first 1048576 read;
 * 25000 rules past the first 10000 left out; 1 rule with more than two ** left out). Keep a .gitignore
 * under 1048576 bytes and 10000 rules, each rule under 4096 characters with at most two **.`
 */
export declare function ignoreDroppedNote(dropped: readonly DroppedIgnoreRules[]): string;
/**
 * Adds to a tool result what its walks left out: `skipped_entries` with the {@link skippedNote} when
 * entries were skipped, and the {@link ignoreDroppedNote} when `.gitignore` rules were left out, each
 * after any note the result has. Returns `result`, changed in place.
 */
export declare function reportWalk<R extends {
    note?: string;
    skipped_entries?: number;
}>(result: R, report: WalkReport): R;
/** Time between forced event-loop turns during long walks and scans, so a deadline timer can fire (ms). */
export declare const YIELD_INTERVAL_MS = 50;
/**
 * Waits one macrotask: lets timers (the runner's deadline) and other calls run. On Node with
 * `setImmediate` (the event loop passes its timers phase before the next check phase, so due timers
 * fire), not `setTimeout(0)`, which Node holds for at least 1 ms; elsewhere `setTimeout(0)`.
 */
export declare function yieldToEventLoop(): Promise<void>;
/** Throws the signal's reason as a ToolError (`timeout` or `cancelled`) when it has fired. */
export declare function throwIfAborted(signal: AbortSignal | undefined): void;
/** Bytes of one `.gitignore` that are read as rules (1 MiB); the rest of the file is ignored. */
export declare const MAX_IGNORE_FILE_BYTES: number;
/** Rules kept from one `.gitignore` (10,000); later ones are ignored. */
export declare const MAX_IGNORE_RULES = 10000;
/**
 * Most `**` in one `.gitignore` rule (2, as in `**\/build/**`). The ignore library compiles each `**`
 * to a backtracking `.*`, so a rule with more takes time polynomial in the path's length to the power
 * of their count (`a/**\/a/**\/a/**\/b` blocks the thread for seconds on one deep path): such a rule is
 * left out, as are rules past {@link MAX_IGNORE_RULES}.
 */
export declare const MAX_IGNORE_RULE_GLOBSTARS = 2;
/** Longest `.gitignore` rule kept, in characters (4096, the longest path Linux takes). */
export declare const MAX_IGNORE_RULE_CHARS = 4096;
/**
 * The rules of a `.gitignore` text that the walk applies: at most {@link MAX_IGNORE_RULES} rules, each
 * at most {@link MAX_IGNORE_RULE_CHARS} characters with at most {@link MAX_IGNORE_RULE_GLOBSTARS} `**`;
 * blank lines and comments are dropped first. The text is cut at {@link MAX_IGNORE_FILE_BYTES} before.
 */
export declare function boundedIgnoreRules(text: string): string[];
/**
 * {@link boundedIgnoreRules} with the count of rules left out for each reason: `pastCap` (after the
 * first {@link MAX_IGNORE_RULES}), `globstars` (more than {@link MAX_IGNORE_RULE_GLOBSTARS} `**`) and
 * `tooLong` (over {@link MAX_IGNORE_RULE_CHARS} characters).
 */
export declare function boundIgnoreRules(text: string): {
    rules: string[];
    pastCap: number;
    globstars: number;
    tooLong: number;
};
/**
 * Walks a workspace directory tree for find_file, search_dir and grep_search.
 * Iterative (no recursion limit). Skips `.git/` and `node_modules/` and respects `.gitignore` files at
 * every level — the workspace root's and those between it and `dir` too, nested ones with git's
 * precedence — unless `includeIgnored`. Dot-directories such as `.github/` are walked. Symbolic links
 * are never followed (a link can lead out of the workspace or into a loop, and ripgrep does not follow them either).
 * Only regular files are listed: FIFOs, sockets and devices are skipped, and so are the temporary
 * files of atomic writes (`isTemporaryFileName`) a crash may have left.
 * A subdirectory that cannot be listed (a path too long, unreadable, removed or replaced while the walk
 * runs: see {@link SkipKind}) is skipped and counted in `skipped` (and under `signal`, see
 * {@link skippedUnder}); it never fails the walk. Checks `signal` between directories and gives the
 * event loop a turn every {@link YIELD_INTERVAL_MS} ms so a deadline can fire.
 * Errors: the signal's `timeout`/`cancelled`; `not_found`/`not_a_directory` when `dir` cannot be read.
 */
export declare function walkWorkspace(options: WalkOptions): Promise<WalkResult>;
/** Compares strings by UTF-16 code units (the order of `list_dir` and of every sorted path list). */
export declare function compareCodeUnits(a: string, b: string): number;
/** A text file's decoded content, as search tools read it. `lineStarts` is filled on first use. */
export interface TextEntry {
    text: string;
    lineStarts?: number[];
}
/** Largest file a search reads and decodes whole, in bytes; bigger ones are searched window by window (`loadTexts` marks them `tooLarge`). */
export declare const MAX_SEARCH_FILE_BYTES: number;
/** One file as {@link loadTexts} returns it: its text, or null for a binary or too large file. */
export interface LoadedFile {
    path: string;
    rel: string;
    entry: TextEntry | null;
    tooLarge: boolean;
}
/**
 * Reads and decodes files for searching, through a per-platform cache of decoded text validated by
 * each file's current `stat` (size and mtimeMs; entries modified within a second of being read are
 * re-read, git's racy-clean rule). Measured on npm's 1,943 files in an in-memory workspace (ZenFS InMemory then): reading
 * and decoding every file costs ≈ 150–400 ms, a `stat` per file ≈ 40 ms, searching decoded strings ≈ 10 ms.
 * Binary files (NUL in the first 8 KiB or invalid UTF-8) come back with `entry: null`
 * and are never decoded into text. Files that vanish between the walk and the read, or cannot be read,
 * are left out and counted under `signal` (see {@link skippedUnder}).
 */
export declare function loadTexts(platform: Platform, files: readonly WalkFile[], signal?: AbortSignal, maxBytes?: number): Promise<LoadedFile[]>;
