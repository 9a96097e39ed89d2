// The search source: the fast reader a search engine may run on (Node's helper threads, the
// memory platform's in-place texts), and the shapes of the work it shares between them.
import type { FsDirent } from '../core/fs-port.js';

/**
 * A regular file's identity as {@link SearchSource.stat} reports it (the search cache's validator):
 * size, modification and status-change times in ms, inode. The status-change time moves with every
 * write and every `utimes`, so a file rewritten in place and given its old modification time back
 * (as `cp -p` and `touch -r` do) is read again.
 */
export interface SearchFileStat {
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
}

/** A count that a {@link SearchHelper} shares: the pattern as the tool compiled it, and its limits. */
export interface SearchHelperJob {
  pattern: string;
  literal: boolean;
  caseSensitive: boolean;
  /** `Date.now()` value at which the helper stops and reports `stopped`. */
  deadline: number;
  /** Files over this many bytes are not read but answered -3 (the caller searches them itself). */
  limit: number;
}

/**
 * What the helper did of a {@link SharedCount}: per `count` batch it took, one code per path: the
 * matching lines of a searched text file (0 or more), or -1 not reached (the deadline came first), -2
 * gone or not a regular file, -3 over the size limit, -4 binary, -5 to -8 skipped (unreadable, replaced
 * by a link, name too long, out of the workspace); per `stat` batch it took, four
 * numbers per path (size, mtimeMs, ctimeMs, ino of the regular file; size NaN when it is gone or not one, -1
 * when the deadline came first).
 */
export interface SearchHelperAnswer {
  /** Codes by batch index; a count batch missing here was not counted by the helper (the caller counts it). */
  codes: Map<number, Int32Array>;
  /** Stats by batch index of the `stat` batches the helper took. */
  stats: Map<number, Float64Array>;
  /** True when the deadline stopped the helper (some files then have -1, and one may have a partial count). */
  stopped: boolean;
}

/**
 * A batch of a {@link SharedCount}: `helpers` (files the helper's cache holds: the helper counts them),
 * `open` (either thread counts them, whichever takes the batch first) or `stat` (files the caller's
 * cache holds: either thread takes their `lstat`, the caller counts them).
 */
export type SharedBatchKind = 'helpers' | 'open' | 'stat';

/**
 * One count shared between the calling thread and a {@link SearchHelper}. The caller hands the files
 * over in batches while its walk runs (see {@link SharedBatchKind}): a batch of files the helper's cache
 * holds is the helper's; any other is taken by whichever thread gets to it first (the helper from the
 * first batch on, the caller from the last once its walk is done), so the two meet wherever the work
 * splits evenly, whatever the files' sizes; of the files the caller's cache holds the helper only
 * takes the `lstat` that validates them.
 */
export interface SharedCount {
  /** Hands over a batch of workspace paths (regular files, as the walk listed them). Returns its index. */
  post(paths: string[], kind: SharedBatchKind): number;
  /** Batches posted so far. */
  readonly posted: number;
  /** Whether the helper has started on this count (from then on it answers). */
  readonly started: boolean;
  /** No more batches. */
  end(): void;
  /** Takes `open` or `stat` batch `index` for the calling thread: false when the helper took it first, or it is the helper's. */
  claim(index: number): boolean;
  /**
   * The helper's codes once it is done. A helper that has not started on this count by now (busy with
   * another) never will, and one that is gone answers nothing: their batches come back missing, for the
   * caller to count. Rejects with the signal's `timeout` / `cancelled` once it fires.
   */
  finish(): Promise<SearchHelperAnswer>;
  /** Drops the count (the caller failed): the helper stops on it and answers nothing. */
  cancel(): void;
}

/**
 * A second thread for the search tools' counts (`output_mode` count and files_with_matches over large
 * trees), with a file cache of its own. `owns` tells the files the helper counted before and caches
 * (they go to its batches, so each file stays cached on one side); `share` starts a {@link SharedCount}
 * with the same engines and cache rules as the caller's.
 */
export interface SearchHelper {
  owns(path: string): boolean;
  share(job: SearchHelperJob, signal: AbortSignal | undefined): SharedCount;
  /**
   * The calling thread's side of a shared count, fed by the walk (its `onFiles`): once the walk has
   * listed enough files it starts a {@link SharedCount} and sorts each listed file into a batch
   * (`holds`: whether the calling thread's cache holds a file).
   */
  sharedFiles(holds: (path: string) => boolean): SharedFilesSorter;
  /**
   * Counts `work` on the calling thread beside the helper, then merges the helper's answer: `countHere`
   * counts one file here (`stat`: its lstat as the helper took it; answers, synchronously when it can,
   * whether the time limit stopped the search), `stop` tells whether it has, `tally` takes a file the helper counted (its code).
   */
  countShared(
    work: SharedWork,
    countHere: (path: string, keep: boolean, stat?: SearchFileStat | null) => boolean | Promise<boolean>,
    stop: () => boolean,
    tally: (path: string, code: number) => void,
  ): Promise<void>;
}

/** A shared count once the walk is done (see {@link SearchHelper.sharedFiles}). */
export interface SharedWork {
  /** Whether the helper stopped at the deadline (known once `countShared` is done). */
  readonly stopped: boolean;
}

/** Sorts a walk's files into the batches of a shared count (see {@link SearchHelper.sharedFiles}). */
export interface SharedFilesSorter {
  /** Takes the walk's files (the last `added` are new); `job` describes the count, asked for once. */
  add(files: ReadonlyArray<{ path: string }>, added: number, job: () => SearchHelperJob, signal: AbortSignal | undefined): void;
  /** The walk is done: undefined when it found too few files to share. */
  end(): SharedWork | undefined;
  /** The walk failed: the helper drops the count. */
  cancel(): void;
}

/** The rules of one ignore file as a walk applies them: its directory (absolute) and its rule lines, in order. */
export interface WalkIgnoreRules {
  readonly dir: string;
  readonly lines: readonly string[];
  /** Its file's precedence, as ripgrep ranks them: 0 `.gitignore` (the default), 1 `.ignore`, 2 `.rgignore`. */
  readonly rank?: number;
}

/**
 * How a walk goes on below the directories it hands to {@link SearchSource.prefetch}: into every
 * subdirectory (`all`: ignore rules off, no pruning), or, given the `.gitignore` rules in force there
 * (outermost first; none: `[]`), into every subdirectory but `.git`, `node_modules` and those the rules
 * ignore, each `.gitignore` met below adding its own rules; undefined: only as it hands over (a
 * pruning glob decides).
 */
export type WalkDeeper = 'all' | readonly WalkIgnoreRules[];

/**
 * A fast, synchronous reader that a search engine built with `createSearchEngine({ source })` uses
 * instead of the call's `fs` (Node on a real directory, the memory platform's tree): directory listings with entry types,
 * `stat` and reads of regular files that never follow a symbolic link, and byte helpers (`indexOf` on
 * bytes, UTF-8 validation and decoding) so literal searches run on bytes and decode only files that
 * can match. The walker only ever passes paths it built from listings inside the workspace, so the
 * walk stays inside it by construction.
 */
export interface SearchSource {
  /** Entries of a directory (types from the listing; symlinks reported as such). Throws Node-style errors (`ENOENT`, ...). */
  readdir(path: string): FsDirent[];
  /** The regular file at `path` (a final symlink not followed); undefined when it is missing or not a regular file. */
  stat(path: string): SearchFileStat | undefined;
  /**
   * The bytes of the regular file at `path` (a final symlink not followed), at most `maxBytes`;
   * undefined when it is gone or not a regular file; throws a Node-style error when it cannot be read
   * (`EACCES`, or `ELOOP` for a symlink), which a search counts as a skipped entry. With `into`, the source asks it for the buffer to read into once it knows
   * the size (`into(size)` gives `size` bytes, e.g. the free end of a cache slab) and returns a prefix of
   * that buffer; without, or if it ignores `into`, it allocates. What `into` throws (a caller that
   * refuses a file of that size) propagates, with nothing read. A source may return only the first
   * 8 KiB when they hold a NUL byte and the file is under `maxBytes` (it is binary whatever follows);
   * those bytes are valid until its next `read`.
   */
  read(path: string, maxBytes: number, into?: (size: number) => Uint8Array): { bytes: Uint8Array; stat: SearchFileStat } | undefined;
  /** `haystack.indexOf(needle, from)` on bytes, -1 when absent. */
  indexOf(haystack: Uint8Array, needle: Uint8Array, from: number): number;
  /** Whether `bytes` is valid UTF-8. */
  isUtf8(bytes: Uint8Array): boolean;
  /** Decodes valid UTF-8 (a BOM is kept as U+FEFF). */
  decode(bytes: Uint8Array): string;
  /** Bytes of file content the search cache keeps (default 256 MiB). */
  readonly cacheBytes?: number;
  /** Another thread that counts matching lines beside this one (see {@link SearchHelper}); absent: none. */
  readonly helper?: SearchHelper;
  /**
   * A search or walk starts (called at the start of each): what the source holds from earlier calls
   * (the Node source's open directories) is checked again before it is trusted.
   */
  begin?(): void;
  /**
   * The walk will list these directories (found in the one it just listed, its rules applied), and
   * below them go on `deeper` (see {@link WalkDeeper}): a source may list them ahead on another
   * thread, to answer `readdir` from that (the Node source does while its search helper thread is
   * running and idle).
   */
  prefetch?(paths: readonly string[], deeper: WalkDeeper | undefined): void;
  /** The walk that last called `begin` is over (done, capped, stopped or failed): nothing more is listed ahead for it. */
  end?(): void;
  /** Releases what the source holds (descriptors); the platform calls it from `dispose`. */
  close?(): void;
}
