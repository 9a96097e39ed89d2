/** Options of {@link createFileLocks}. */
export interface FileLocksOptions {
    /**
     * Directory holding the lock files (created with mode 0700 when missing). Processes that share a
     * workspace must use the same one. Default: `toolhost-locks-<uid>` under `/dev/shm` on Linux where it
     * is a directory (memory-backed: a lock costs no disk journal), else under `os.tmpdir()`. Processes
     * in different containers sharing a workspace volume need a `dir` on that volume.
     */
    dir?: string;
    /** A lock older than this (ms) is taken over even if its holder still runs (default 60,000). */
    staleMs?: number;
}
/** Takes `key`'s lock, waiting while another holder has it; resolves with its release. */
export type FileLock = (key: string, signal?: AbortSignal) => Promise<() => Promise<void>>;
/**
 * Cross-process locks keyed by a string (an absolute file path): each is a lock file in `dir` named by
 * the key's SHA-256, created exclusively (`O_CREAT | O_EXCL`) and holding `pid:token:time`. A busy lock
 * is retried with a short backoff (1 ms doubling to 20 ms) until it is free or `signal` fires (the
 * wait then rejects with the signal's ToolError, `cancelled` otherwise). A lock whose holder process is
 * gone (same host: `kill(pid, 0)` says ESRCH) or that is older than `staleMs` is taken over; the
 * takeover itself holds a second exclusive file so two waiters never both remove a fresh lock. A
 * release removes the lock file (after checking it still carries its own token when it was held
 * for more than half of `staleMs`, the only case where another process may have taken it over).
 *
 * The file operations are synchronous: each is one small system call on a local directory, much
 * cheaper than a hop through libuv's thread pool. Within one process callers are expected to hold
 * their own mutex per key first (the runner does), so the file only arbitrates between processes.
 *
 * Errors: a lock directory that cannot be created or written is a ToolError `unavailable` naming it.
 */
export declare function createFileLocks(options?: FileLocksOptions): FileLock;
