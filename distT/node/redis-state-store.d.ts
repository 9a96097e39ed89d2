import type { StateLease, StateSnapshot, StateStore, StateWaitOptions } from '../src/core/types.js';
/**
 * The part of an ioredis client that {@link createRedisStateStore} uses. An `ioredis` `Redis`
 * instance has it; declared here so that `toolhost/node`'s types do not need ioredis installed.
 */
export interface RedisClient {
    /** ioredis's connection status: `wait`, `connecting`, `connect`, `ready`, `reconnecting`, `close`, `end`. */
    readonly status: string;
    call(command: string, ...args: (string | number)[]): Promise<unknown>;
    connect(): Promise<void>;
    duplicate(): RedisClient;
    subscribe(...channels: string[]): Promise<unknown>;
    on(event: string, listener: (...args: unknown[]) => void): unknown;
    off(event: string, listener: (...args: unknown[]) => void): unknown;
    quit(): Promise<unknown>;
    disconnect(): void;
}
/** Options of {@link createRedisStateStore}. Give `url` or `client`. */
export interface RedisStateStoreOptions {
    /** `redis://[user:password@]host:port[/db]` (or `rediss://`); the store opens and closes its own connections. */
    url?: string;
    /** An ioredis client to use instead of `url` (its options are yours); `close()` leaves it open. */
    client?: RedisClient;
    /** Prefix of every key and channel (default `toolhost:`). */
    prefix?: string;
    /** The workspace whose conversations this store holds (default `default`); part of every key. */
    workspace?: string;
    /** A conversation's state expires this many seconds after its last change (default: never). */
    ttlSeconds?: number;
    /** Longest wait for Redis per operation without a call deadline, in ms (default 5,000); then `unavailable`. */
    timeoutMs?: number;
    /** Lease of a conversation lock in ms (default 10,000), renewed every third of it while its call runs. */
    lockTtlMs?: number;
}
/** A {@link StateStore} in Redis, shared by every process that opens it with the same prefix and workspace. */
export interface RedisStateStore extends StateStore {
    snapshot(conversationId: string, knownVersion: string | undefined, options?: StateWaitOptions): Promise<StateSnapshot>;
    lock(conversationId: string, knownVersion: string | undefined, options?: StateWaitOptions): Promise<StateLease>;
    /** The Redis key holding a conversation's state hash (for inspection and tests). */
    keyOf(conversationId: string): string;
    /** Ends the store's own connections (not a client given as `client`); later operations are `unavailable`. */
    close(): Promise<void>;
}
/**
 * Tool state in Redis (through the `ioredis` client, an optional peer dependency loaded on first use:
 * `npm install ioredis`), for many toolhost processes serving the same conversations. Give it to a
 * platform: `createNodePlatform({ root, state: createRedisStateStore({ url: 'redis://127.0.0.1:6379' }) })`.
 *
 * Layout: per conversation a hash `<prefix><workspace>:{<conversation>}:state` (key → JSON text), a
 * version string `…:version` (a random id, new on every commit) and a lock `…:lock`; workspace and
 * conversation are URI-encoded, and the braces keep one conversation's keys in one Redis Cluster slot.
 * `ttlSeconds` expires a conversation's state that long after its last change.
 *
 * Atomicity: every write (`set`, `delete`, `setMany`, a lease's `commit`) is one Lua script, so all
 * keys a tool call set land together or not at all. Order across processes: the runner takes the
 * conversation's lock (`lock`) before each state-changing call and commits through it; the lock is a
 * key with a random token and a lease (`lockTtlMs`, renewed while the call runs), and a commit is
 * fenced by it: Redis applies it only while that token still holds the lock, so a process whose lease
 * ran out can never overwrite a newer state. Waiting for a busy lock is woken by a release notice
 * (Redis pub/sub on `<prefix><workspace>:released`), with a poll every 100 ms as a fallback.
 *
 * Failures: a Redis that is down or does not answer makes an operation reject with `unavailable`
 * within its deadline (the call's, else `timeoutMs`) plus 100 ms; every script first compares the
 * deadline with Redis's clock and refuses to run late, so an operation reported `unavailable` changed
 * nothing (hosts on several machines keep their clocks in sync; a skew moves that cut-off by as much).
 * A lock still busy at the deadline rejects with `timeout`. The store's own connections reconnect by
 * themselves (every 50 ms, backing off to 1 s); operations wait for the connection up to their deadline.
 * Construction does no I/O; bad options (the host's mistake) throw a TypeError naming the option, the
 * value and what is accepted. Needs Redis 5 or later (scripts that
 * read the clock before writing).
 */
export declare function createRedisStateStore(options: RedisStateStoreOptions): RedisStateStore;
