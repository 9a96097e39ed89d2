import type { JsonValue, StateLease, StateSnapshot, StateStore, StateWaitOptions } from '../src/core/types.js';
/**
 * The file name (no directory) that holds conversation `conversationId`: its `encodeURIComponent`
 * form with `.`, `*` and the other characters that `encodeURIComponent` leaves alone but that mean
 * something to a shell or a filesystem also escaped, plus `.json`. It never contains `/` or NUL and
 * never equals `.` or `..`, so no id can name a file outside the state directory. Ids whose encoded
 * form exceeds 180 characters become `~<prefix>-<sha256>.json`.
 */
export declare function stateFileName(conversationId: string): string;
/**
 * Tool state on disk: one JSON file per conversation under `stateDir`
 * (`{ version: 1, conversationId, state: { key: value } }`, name from {@link stateFileName}).
 *
 * Every change rewrites the conversation's file atomically: the new content goes to a temporary
 * file in the same directory, is fsynced, renamed over the old file, and the directory is fsynced,
 * so a reader (this process or the next one) sees the whole old or the whole new state and an
 * acknowledged write survives a crash. `setMany` is one such write. Every read-modify-write of a
 * conversation holds its lock: a mutex within the process and a lock file (`createFileLocks`, in the
 * state directory, `.lock` names) across processes, so processes sharing the directory lose no write.
 * `snapshot` and `lock` (each file carries a `revision`, new on every write) make the runner take the
 * lock around each state-changing call and commit that call's keys through it, as with Redis.
 * The directory is created on first write. Values are stored as JSON (never aliasing the caller's objects).
 *
 * Errors: the filesystem's (`EACCES`, `ENOSPC`, ... with Node's `code`); a state file that is not
 * valid JSON rejects with a ToolError `execution_failed` naming the file; a wait for the lock past
 * the deadline rejects with `timeout`. A `stateDir` that is not a non-empty path (the host's mistake)
 * throws a TypeError at construction: `FileStateStore: stateDir must be a non-empty path without NUL
 * bytes, not 5`.
 */
export declare class FileStateStore implements StateStore {
    #private;
    /** Absolute directory holding the state files. */
    readonly dir: string;
    constructor(stateDir: string);
    /**
     * Creates the directory when missing and writes (then removes) a probe file in it; throws a
     * ToolError `unavailable` naming the directory and what to do when that fails (a file in the way,
     * no permission, a read-only filesystem). `createNodePlatform` calls it, so a state directory that
     * cannot be written is refused at once instead of failing every call.
     */
    checkWritable(): void;
    /** Absolute path of the file holding `conversationId`. */
    pathFor(conversationId: string): string;
    get(conversationId: string, key: string): Promise<JsonValue | undefined>;
    set(conversationId: string, key: string, value: JsonValue): Promise<void>;
    delete(conversationId: string, key: string): Promise<void>;
    keys(conversationId: string): Promise<string[]>;
    getAll(conversationId: string): Promise<Record<string, JsonValue>>;
    setMany(conversationId: string, entries: ReadonlyArray<readonly [string, JsonValue | undefined]>): Promise<void>;
    /**
     * The conversation's revision, and its state unless the revision equals `knownVersion` (no lock).
     * With a `knownVersion`, the revision is first read from the file's first 4 KiB (synchronously, as the
     * lock files are taken: a few µs from the page cache), and a file still at that revision is neither
     * read further nor parsed; so a read-only call costs one small read however large the state.
     */
    snapshot(conversationId: string, knownVersion: string | undefined): Promise<StateSnapshot>;
    /**
     * Takes the conversation's lock (in-process mutex, then its lock file), waiting while another holder
     * has it until `options.deadline` (`timeout`) or `options.signal`; the lease's `commit` writes the
     * entries onto the state read under the lock and releases it.
     */
    lock(conversationId: string, knownVersion: string | undefined, options?: StateWaitOptions): Promise<StateLease>;
    /** Conversation ids that have a state file (read from the files themselves). */
    conversations(): Promise<string[]>;
}
