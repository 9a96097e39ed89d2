import { createHash, randomBytes } from 'node:crypto';
import { ToolError, isToolErrorCode } from '../src/core/errors.js';
import { checkOptions, describeValue, is, rule, type OptionRules } from '../src/core/options.js';
import type { JsonValue, StateLease, StateSnapshot, StateStore, StateWaitOptions } from '../src/core/types.js';

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
 * Answers of a Redis that arrive this long after a deadline are not waited for. Scripts refuse to run
 * past the deadline by Redis's clock, so waiting a little longer than the deadline means a script
 * that ran in time is never reported as failed.
 */
const LATE_GRACE_MS = 100;
/** Longest wait between two attempts to take a busy lock when no release notice arrives, in ms. */
const LOCK_POLL_MS = 100;
/**
 * How long a commit's mark outlives the commit's deadline (by Redis's clock), in ms: longer than any
 * resend of it can arrive (resends stop at the deadline plus {@link LATE_GRACE_MS}), with room for
 * clocks that disagree by up to a minute.
 */
const MARK_KEEP_MS = 60_000;
/** Pause before a commit is sent again after its connection failed at once, in ms (no busy loop). */
const RESEND_PAUSE_MS = 20;
/** Reconnect delays of the store's own connections: 50 ms per attempt, at most 1 s. */
const retryStrategy = (times: number): number => Math.min(times * 50, 1_000);

// Every script checks the caller's deadline against Redis's own clock first: a script that reaches
// Redis after its caller stopped waiting (a paused or overloaded server) changes nothing.
const NOW = `local t = redis.call('TIME') local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;
const LATE = `if ARGV[1] ~= '' and now > tonumber(ARGV[1]) then return redis.error_reply('TOOLHOST_LATE') end`;

/**
 * KEYS: state, version, lock, mark. ARGV: deadline, token ('' = no lock), version, ttl, release, channel,
 * message, mark ms, then op/field/value triples. → 1 applied now | 2 applied before (the mark exists).
 * The mark (`…:commit:<version>`) is set with the change, atomically, and outlives the deadline by
 * `mark ms`: a commit sent again after a lost connection finds it and applies nothing twice, and the
 * sender learns from the answer whether the first one landed.
 */
const COMMIT = `${NOW}
if redis.call('EXISTS', KEYS[4]) == 1 then return 2 end
${LATE}
if ARGV[2] ~= '' and redis.call('GET', KEYS[3]) ~= ARGV[2] then return redis.error_reply('TOOLHOST_LOST') end
local kind = redis.call('TYPE', KEYS[1]).ok
if kind ~= 'hash' and kind ~= 'none' then return redis.error_reply('TOOLHOST_TYPE ' .. kind) end
for i = 9, #ARGV, 3 do
  if ARGV[i] == 's' then redis.call('HSET', KEYS[1], ARGV[i + 1], ARGV[i + 2]) else redis.call('HDEL', KEYS[1], ARGV[i + 1]) end
end
redis.call('SET', KEYS[2], ARGV[3])
if ARGV[4] ~= '' then redis.call('EXPIRE', KEYS[1], ARGV[4]) redis.call('EXPIRE', KEYS[2], ARGV[4]) end
local keep = tonumber(ARGV[8])
if ARGV[1] ~= '' then keep = keep + math.max(0, tonumber(ARGV[1]) - now) end
redis.call('SET', KEYS[4], '1', 'PX', math.floor(keep))
if ARGV[5] == '1' then redis.call('DEL', KEYS[3]) redis.call('PUBLISH', ARGV[6], ARGV[7]) end
return 1`;

/** KEYS: state, version, lock. ARGV: deadline, token, lease ms, known version. → {0, pttl} busy | {1, version[, fields]} */
const ACQUIRE = `${NOW} ${LATE}
if not redis.call('SET', KEYS[3], ARGV[2], 'NX', 'PX', ARGV[3]) then return {0, redis.call('PTTL', KEYS[3])} end
local v = redis.call('GET', KEYS[2]) or ''
if v == ARGV[4] then return {1, v} end
return {1, v, redis.call('HGETALL', KEYS[1])}`;

/** KEYS: state, version. ARGV: deadline, known version. → {version[, fields]} */
const SNAPSHOT = `${NOW} ${LATE}
local v = redis.call('GET', KEYS[2]) or ''
if v == ARGV[2] then return {v} end
return {v, redis.call('HGETALL', KEYS[1])}`;

/** KEYS: lock. ARGV: deadline, token, lease ms. */
const RENEW = `if redis.call('GET', KEYS[1]) == ARGV[2] then return redis.call('PEXPIRE', KEYS[1], ARGV[3]) end return 0`;

/** KEYS: lock. ARGV: deadline, token, channel, message. */
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[2] then redis.call('DEL', KEYS[1]) redis.call('PUBLISH', ARGV[3], ARGV[4]) return 1 end return 0`;

interface Script {
  source: string;
  sha: string;
}

function script(source: string): Script {
  return { source, sha: createHash('sha1').update(source).digest('hex') };
}

const SCRIPTS = {
  commit: script(COMMIT),
  acquire: script(ACQUIRE),
  snapshot: script(SNAPSHOT),
  renew: script(RENEW),
  release: script(RELEASE),
};

/** A version no commit ever writes (versions are hex), sent when the caller knows none. */
const NO_VERSION = '-';

function unavailable(message: string): ToolError {
  return new ToolError('unavailable', message);
}

/** The operations waiting for one client's next `ready`, and the one listener that wakes them. */
interface ReadyWait {
  readonly wakes: Set<() => void>;
  readonly fire: () => void;
}

/**
 * Operations waiting for each client's next `ready`, behind one listener per client however many wait
 * (a listener each would pass Node's limit of 10 and print MaxListenersExceededWarning).
 */
const readyWaits = new WeakMap<RedisClient, ReadyWait>();

/** Calls `wake` on `redis`'s next `ready`; the returned function cancels that. */
function onNextReady(redis: RedisClient, wake: () => void): () => void {
  let wait = readyWaits.get(redis);
  if (!wait) {
    const wakes = new Set<() => void>();
    const fire = (): void => {
      redis.off('ready', fire);
      readyWaits.delete(redis);
      for (const each of wakes) each();
    };
    wait = { wakes, fire };
    readyWaits.set(redis, wait);
    redis.on('ready', fire);
  }
  const { wakes, fire } = wait;
  wakes.add(wake);
  return () => {
    wakes.delete(wake);
    if (wakes.size > 0 || readyWaits.get(redis)?.wakes !== wakes) return;
    redis.off('ready', fire);
    readyWaits.delete(redis);
  };
}

/** Resolves once `redis` is ready (connecting a lazy client), or rejects `unavailable` at `deadline`. */
function whenReady(redis: RedisClient, deadline: number): Promise<void> {
  if (redis.status === 'ready') return Promise.resolve();
  if (redis.status === 'end') return Promise.reject(unavailable('the Redis client has been closed; give createRedisStateStore an open one'));
  return new Promise<void>((resolve, reject) => {
    const cancel = onNextReady(redis, () => {
      clearTimeout(timer);
      resolve();
    });
    const timer = setTimeout(() => {
      cancel();
      reject(unavailable('Redis is not reachable; check that it is running, then retry'));
    }, Math.max(0, deadline - Date.now()));
    if (redis.status === 'wait') redis.connect().catch(() => undefined);
  });
}

/** The keys of one conversation, and the mark key of one of its commits. */
interface ConversationKeys {
  state: string;
  version: string;
  lock: string;
  markOf(version: string): string;
  /** The URI-encoded conversation id, as in the keys' braces and in release notices. */
  tag: string;
}

/** What a commit in progress knows about itself. */
interface CommitProgress {
  /** A copy of the commit may have reached Redis (it was written to a connection that then failed). */
  sent: boolean;
  /** The caller has been answered: send nothing more. */
  over: boolean;
  /** How the connection failed, for the message. */
  cause: string | undefined;
}

/** Runs `target` on `redis` with `args` (the deadline first): EVALSHA, or EVAL when Redis lacks the script. */
async function evaluate(redis: RedisClient, target: Script, keys: string[], args: (string | number)[]): Promise<unknown> {
  try {
    return await redis.call('EVALSHA', target.sha, keys.length, ...keys, ...args);
  } catch (error) {
    if (!isReplyError(error) || !String((error as Error).message).startsWith('NOSCRIPT')) throw error;
    return await redis.call('EVAL', target.source, keys.length, ...keys, ...args);
  }
}

/** Resolves after `ms` (a macrotask: the event loop runs in between). */
function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** An error reply of Redis: the command reached Redis, which answered it (ioredis's `ReplyError`). */
function isReplyError(error: unknown): boolean {
  return (error as { name?: unknown } | null)?.name === 'ReplyError';
}

/** ioredis refused to write the command (no writable connection, no offline queue): it never left. */
function wasNotSent(error: unknown): boolean {
  return /Stream isn't writeable/.test(String((error as Error | null)?.message));
}

/**
 * The answer to a commit that may or may not have been applied: it was written to Redis, the connection
 * failed (or Redis stopped answering) before the reply, and Redis could not be asked again by the
 * deadline. `unavailable` with `details: { outcome: 'unknown' }`; the message tells the model to read
 * the state before retrying, since a blind retry could apply the change twice.
 */
function unknownOutcome(cause: string | undefined): ToolError {
  const how = cause === undefined ? 'Redis did not answer the state commit in time' : `the connection to Redis failed during the state commit (${cause})`;
  return new ToolError(
    'unavailable',
    `${how}, and Redis could not be asked again before the deadline: the outcome is unknown, the write may or may not have been applied; read the state before retrying`,
    { outcome: 'unknown' },
  );
}

/** The ToolError of a script that Redis refused or that could not reach it; in every case nothing was changed. */
function explain(error: unknown, what: string): ToolError {
  const message = String((error as Error | null)?.message);
  if (message.includes('TOOLHOST_LATE')) return new ToolError('unavailable', `Redis answered ${what} after its deadline; nothing was changed; retry`, { late: true });
  if (message.includes('TOOLHOST_LOST')) return unavailable(`the conversation's lock expired before ${what}; nothing was stored; retry the call`);
  if (message.includes('TOOLHOST_TYPE')) return new ToolError('execution_failed', `the Redis key of this conversation's state holds another type (${message}); remove it or use another prefix`);
  if (error instanceof ToolError) return error;
  if (isToolErrorCode((error as { code?: unknown } | null)?.code)) return error as ToolError;
  return unavailable(`Redis failed ${what} (${message}); nothing was changed; check that Redis is running, then retry`);
}

function pairsToRecord(fields: unknown): Record<string, JsonValue> {
  const out: Record<string, JsonValue> = {};
  const list = fields as string[];
  for (let i = 0; i + 1 < list.length; i += 2) {
    Object.defineProperty(out, list[i]!, { value: JSON.parse(list[i + 1]!) as JsonValue, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** The checks of {@link RedisStateStoreOptions}. */
const REDIS_OPTION_RULES: OptionRules = {
  url: rule('a redis:// or rediss:// URL', (v) => typeof v === 'string' && /^rediss?:\/\//.test(v) && URL.canParse(v)),
  client: is.withMethods(['call', 'connect', 'duplicate', 'on', 'off', 'quit'], 'an ioredis client'),
  prefix: is.string,
  workspace: is.string,
  ttlSeconds: is.positiveInteger,
  timeoutMs: is.positiveMs,
  lockTtlMs: is.positiveMs,
};

/**
 * Tool state in Redis (through the `ioredis` client, an optional peer dependency loaded on first use:
 * `npm install ioredis`), for many toolhost processes serving the same conversations. Give it to a
 * platform: `createNodePlatform({ root, state: createRedisStateStore({ url: 'redis://127.0.0.1:6379' }) })`.
 *
 * Layout: per conversation a hash `<prefix><workspace>:{<conversation>}:state` (key → JSON text), a
 * version string `…:version` (a random id, new on every commit), a lock `…:lock`, and for a minute past
 * each commit's deadline its mark `…:commit:<version>` (see Failures); workspace and
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
 * deadline with Redis's clock and refuses to run late (hosts on several machines keep their clocks in
 * sync; a skew moves that cut-off by as much). Reads and lock requests so rejected changed nothing.
 * A commit (`set`, `delete`, `setMany`, a lease's `commit`) also writes a mark
 * `…:{<conversation>}:commit:<version>` in the same script (kept until a minute past its deadline).
 * When its connection fails before the answer, the store sends the same commit again once the
 * connection is back, within the deadline: Redis finds the mark and answers that the first copy had
 * landed (the commit resolves), or applies it now, or refuses it as late or unfenced (then provably
 * nothing was stored: `unavailable`, "nothing was changed"/"nothing was stored"). Never twice. When the
 * commit may have reached Redis and no answer can be had by the deadline + 100 ms (Redis down, or not
 * answering), it rejects with `unavailable`, `details: { outcome: 'unknown' }` and a message saying
 * that the outcome is unknown and to read the state before retrying. A lock still busy at the deadline
 * rejects with `timeout`. The store's own connections reconnect by themselves (every 50 ms, backing
 * off to 1 s), and do not let ioredis send a lost command again; operations wait for the connection
 * up to their deadline (all of them behind one listener per connection). Construction does no I/O;
 * bad options (the host's mistake) throw a TypeError naming the option, the value and what is
 * accepted; so do a non-string conversation id or key and a lease used twice. A `client` of your own
 * should have `enableOfflineQueue: false`, or commands wait in its queue instead of failing at once.
 * Needs Redis 5 or later (scripts that read the clock before writing).
 */
export function createRedisStateStore(options: RedisStateStoreOptions): RedisStateStore {
  checkOptions('createRedisStateStore', options, REDIS_OPTION_RULES);
  if ((options?.url === undefined) === (options?.client === undefined)) {
    throw new TypeError(
      options?.url === undefined
        ? 'createRedisStateStore: give url (redis://host:port) or client (an ioredis client); neither was given'
        : 'createRedisStateStore: give either url (redis://host:port) or client (an ioredis client), not both',
    );
  }
  return new RedisStore(options);
}

/** Settings of one store, fixed at construction. */
interface StoreSettings {
  readonly url: string | undefined;
  readonly timeoutMs: number;
  readonly lockTtlMs: number;
  /** `ttlSeconds` as a script argument ('' = never expires). */
  readonly ttl: string;
  /** `<prefix><encoded workspace>:`, the start of every key. */
  readonly base: string;
  /** The pub/sub channel of release notices. */
  readonly channel: string;
  /** The store opened its client itself (from `url`) and so closes it. */
  readonly owned: boolean;
}

function settingsOf(options: RedisStateStoreOptions): StoreSettings {
  const base = `${options.prefix ?? 'toolhost:'}${encodeURIComponent(options.workspace ?? 'default')}:`;
  return {
    url: options.url,
    timeoutMs: options.timeoutMs ?? 5_000,
    lockTtlMs: Math.ceil(options.lockTtlMs ?? 10_000),
    ttl: options.ttlSeconds === undefined ? '' : String(options.ttlSeconds),
    base,
    channel: `${base}released`,
    owned: options.client === undefined,
  };
}

/** Loads ioredis (an optional peer dependency) and opens a lazy client on `url` that the store owns. */
async function openOwnClient(url: string): Promise<RedisClient> {
  let Redis: new (url: string, options: Record<string, unknown>) => RedisClient;
  try {
    Redis = (await import('ioredis')).Redis as unknown as typeof Redis;
  } catch (error) {
    throw unavailable(`createRedisStateStore needs the ioredis package (${(error as Error).message}); install it with npm install ioredis`);
  }
  // No offline queue: a command is sent on a live connection or fails at once, so nothing queued
  // while Redis was away runs after its caller was told `unavailable`.
  // Nor is a command that was in flight on a lost connection sent again by ioredis: a commit is sent
  // again by the store itself, which knows (by its mark) whether the first copy landed.
  const client = new Redis(url, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0, autoResendUnfulfilledCommands: false, retryStrategy });
  client.on('error', () => undefined);
  return client;
}

/**
 * Settles with `work`, or rejects at `deadline` + grace (`unavailable`) or when `signal` fires (its
 * reason). `unsettled` gives the error instead when the work may already have changed something.
 */
function bounded<T>(work: Promise<T>, deadline: number, signal: AbortSignal | undefined, what: string, unsettled?: () => ToolError | undefined): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(unsettled?.() ?? unavailable(`Redis did not answer ${what} in time; nothing was changed by it; check that Redis is running, then retry`)),
      Math.max(0, deadline - Date.now()) + LATE_GRACE_MS,
    );
    const onAbort = (): void => reject(unsettled?.() ?? (signal?.reason instanceof Error ? signal.reason : new ToolError('cancelled', `${what} was cancelled`)));
    signal?.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    });
  });
}

/** The keys of `conversationId` under `base`; a non-string id is the host's mistake (TypeError). */
function conversationKeys(base: string, conversationId: string): ConversationKeys {
  if (typeof conversationId !== 'string') throw new TypeError(`RedisStateStore: a conversation id must be a string, not ${describeValue(conversationId)}`);
  const tag = encodeURIComponent(conversationId);
  const at = `${base}{${tag}}:`;
  return { state: `${at}state`, version: `${at}version`, lock: `${at}lock`, markOf: (version) => `${at}commit:${version}`, tag };
}

/** The commit script's op/field/value triples of `entries` (`s` sets, `d` deletes an `undefined` value). */
function encodeEntries(entries: ReadonlyArray<readonly [string, JsonValue | undefined]>): string[] {
  const args: string[] = [];
  for (const [key, value] of entries) {
    if (typeof key !== 'string') throw new TypeError(`RedisStateStore: a state key must be a string, not ${describeValue(key)}`);
    if (value === undefined) args.push('d', key, '');
    else args.push('s', key, JSON.stringify(value));
  }
  return args;
}

/** The `timeout` of a lock still held by another call at this call's deadline. */
function lockBusy(conversationId: string): ToolError {
  return new ToolError('timeout', `another call of conversation ${JSON.stringify(conversationId).slice(0, 200)} held its state lock past this call's deadline; retry the call`);
}

/** The deadline of a call: its own when finite, else `timeoutMs` from now. */
function deadlineOf(wait: StateWaitOptions | undefined, timeoutMs: number): number {
  return wait?.deadline !== undefined && Number.isFinite(wait.deadline) ? wait.deadline : Date.now() + timeoutMs;
}

/** A {@link RedisStateStore}: its connections, the lock waiters, and one method per operation. */
class RedisStore implements RedisStateStore {
  readonly #settings: StoreSettings;
  #closed = false;
  #client: RedisClient | undefined;
  #opening: Promise<RedisClient> | undefined;
  #subscriber: RedisClient | undefined;
  #subscribing: Promise<void> | undefined;
  /** Waiters for a lock, by encoded conversation id, woken by a release notice. */
  readonly #waiters = new Map<string, Set<() => void>>();

  constructor(options: RedisStateStoreOptions) {
    this.#settings = settingsOf(options);
    this.#client = options.client;
  }

  keyOf(conversationId: string): string {
    return this.#keys(conversationId).state;
  }

  async get(conversationId: string, key: string): Promise<JsonValue | undefined> {
    const text = await this.#read('HGET', [this.#keys(conversationId).state, key], 'the state read');
    return typeof text === 'string' ? (JSON.parse(text) as JsonValue) : undefined;
  }

  async keys(conversationId: string): Promise<string[]> {
    return (await this.#read('HKEYS', [this.#keys(conversationId).state], 'the state read')) as string[];
  }

  async getAll(conversationId: string): Promise<Record<string, JsonValue>> {
    return pairsToRecord(await this.#read('HGETALL', [this.#keys(conversationId).state], 'the state read'));
  }

  async set(conversationId: string, key: string, value: JsonValue): Promise<void> {
    await this.commitEntries(conversationId, [[key, value]], '', undefined);
  }

  async delete(conversationId: string, key: string): Promise<void> {
    await this.commitEntries(conversationId, [[key, undefined]], '', undefined);
  }

  async setMany(conversationId: string, entries: ReadonlyArray<readonly [string, JsonValue | undefined]>): Promise<void> {
    await this.commitEntries(conversationId, entries, '', undefined);
  }

  async snapshot(conversationId: string, knownVersion: string | undefined, wait?: StateWaitOptions): Promise<StateSnapshot> {
    const keys = this.#keys(conversationId);
    const reply = (await this.runScript(SCRIPTS.snapshot, [keys.state, keys.version], [knownVersion ?? NO_VERSION], wait, 'the state read')) as unknown[];
    const version = reply[0] as string;
    return reply.length > 1 ? { version, state: pairsToRecord(reply[1]) } : { version };
  }

  async lock(conversationId: string, knownVersion: string | undefined, wait?: StateWaitOptions): Promise<StateLease> {
    const keys = this.#keys(conversationId);
    const token = randomBytes(12).toString('hex');
    const reply = await this.#acquire(conversationId, keys, token, knownVersion, wait);
    const lease = new RedisLease(this, conversationId, keys, token, reply[1] as string);
    if (reply.length > 2) lease.state = pairsToRecord(reply[2]);
    return lease;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const subscriber = this.#subscriber;
    const client = this.#client;
    const ending: Promise<unknown>[] = [];
    if (subscriber) ending.push(subscriber.quit().catch(() => subscriber.disconnect()));
    if (this.#settings.owned && client) ending.push(client.quit().catch(() => client.disconnect()));
    await Promise.all(ending);
  }

  /** The store's settings (for its leases). */
  get settings(): StoreSettings {
    return this.#settings;
  }

  #keys(conversationId: string): ConversationKeys {
    return conversationKeys(this.#settings.base, conversationId);
  }

  /** The client: the one given, or the store's own, opened on first use (a failed open is tried again next time). */
  #open(): Promise<RedisClient> {
    if (this.#client) return Promise.resolve(this.#client);
    this.#opening ??= openOwnClient(this.#settings.url as string).then(
      (client) => (this.#client = client),
      (error: unknown) => {
        this.#opening = undefined;
        throw error;
      },
    );
    return this.#opening;
  }

  /** The client once its connection is ready (waiting for a reconnect), or `unavailable` at the deadline. */
  async #ready(deadline: number): Promise<RedisClient> {
    if (this.#closed) throw unavailable('the Redis state store has been closed');
    const redis = await this.#open();
    await whenReady(redis, deadline);
    return redis;
  }

  /**
   * Runs `send` on the ready client. A command ioredis could not send (the connection had just failed,
   * its `close` not yet seen) goes again on the next connection after a pause, until `until`: a caller
   * retrying at once would otherwise spin without ever letting the event loop see the close.
   */
  async #onConnection<T>(until: number, send: (redis: RedisClient) => Promise<T>): Promise<T> {
    for (;;) {
      const redis = await this.#ready(until);
      try {
        return await send(redis);
      } catch (error) {
        if (!wasNotSent(error) || this.#closed || Date.now() + RESEND_PAUSE_MS >= until) throw error;
        await pause(RESEND_PAUSE_MS);
      }
    }
  }

  /** Runs a script that changes no tool state (a read, a lock request, a renewal, a release), bounded by the deadline. */
  async runScript(target: Script, keys: string[], args: (string | number)[], wait: StateWaitOptions | undefined, what: string): Promise<unknown> {
    const deadline = deadlineOf(wait, this.#settings.timeoutMs);
    const work = this.#onConnection(deadline, (redis) => evaluate(redis, target, keys, [String(deadline), ...args]));
    try {
      return await bounded(work, deadline, wait?.signal, what);
    } catch (error) {
      throw explain(error, what);
    }
  }

  /** A plain read (HGET, HKEYS, HGETALL), bounded like the scripts. */
  async #read(command: string, args: string[], what: string): Promise<unknown> {
    const deadline = deadlineOf(undefined, this.#settings.timeoutMs);
    try {
      return await bounded(this.#onConnection(deadline, (redis) => redis.call(command, ...args)), deadline, undefined, what);
    } catch (error) {
      if (isToolErrorCode((error as { code?: unknown }).code)) throw error;
      throw unavailable(`Redis failed ${what} (${(error as Error).message}); check that Redis is running, then retry`);
    }
  }

  /**
   * Sends the commit script until Redis answers it. After a lost connection the same commit (same
   * version, so the same mark) goes again once the connection is back, until the deadline + grace:
   * Redis answers 2 when the first one had landed, 1 when this one did, and a refusal (late, lock lost)
   * when neither did nor ever can. `progress.sent` records that a copy may have reached Redis.
   */
  async #sendCommit(keys: string[], args: string[], until: number, progress: CommitProgress): Promise<unknown> {
    for (;;) {
      const redis = await this.#ready(until);
      if (progress.over) throw unavailable('the state commit was given up');
      const before = progress.sent;
      progress.sent = true;
      try {
        return await evaluate(redis, SCRIPTS.commit, keys, args);
      } catch (error) {
        if (isReplyError(error)) throw error;
        if (wasNotSent(error)) progress.sent = before;
        else progress.cause = (error as Error).message;
        if (this.#closed || progress.over || Date.now() + RESEND_PAUSE_MS >= until) throw error;
        await pause(RESEND_PAUSE_MS);
      }
    }
  }

  /**
   * Commits `entries` (fenced by the lock `token` unless ''), resolving with the new version once Redis
   * confirms it; rejects `unavailable` when provably nothing was stored, and `unavailable` with
   * `details.outcome` `'unknown'` when the commit may have reached Redis but its answer could not be
   * learned by the deadline (see {@link unknownOutcome}).
   */
  async commitEntries(
    conversationId: string,
    entries: ReadonlyArray<readonly [string, JsonValue | undefined]>,
    token: string,
    wait: StateWaitOptions | undefined,
  ): Promise<string> {
    const { ttl, channel, timeoutMs } = this.#settings;
    const keys = this.#keys(conversationId);
    const encoded = encodeEntries(entries);
    const version = randomBytes(8).toString('hex');
    const deadline = deadlineOf(wait, timeoutMs);
    const scriptKeys = [keys.state, keys.version, keys.lock, keys.markOf(version)];
    const args = [String(deadline), token, version, ttl, token === '' ? '0' : '1', channel, keys.tag, String(MARK_KEEP_MS), ...encoded];
    const progress: CommitProgress = { sent: false, over: false, cause: undefined };
    const unsettled = (): ToolError | undefined => (progress.sent ? unknownOutcome(progress.cause) : undefined);
    try {
      await bounded(this.#sendCommit(scriptKeys, args, deadline + LATE_GRACE_MS, progress), deadline, wait?.signal, 'the state commit', unsettled);
    } catch (error) {
      if (!isReplyError(error) && progress.sent) throw (error as ToolError).details?.outcome === 'unknown' ? error : unknownOutcome(progress.cause ?? (error as Error).message);
      throw explain(error, 'the state commit');
    } finally {
      progress.over = true;
    }
    return version;
  }

  /**
   * Takes the conversation's lock with `token`, waiting while another call holds it (woken by a release
   * notice, polling as a fallback) until the deadline: the acquire script's reply `{1, version[, fields]}`.
   */
  async #acquire(conversationId: string, keys: ConversationKeys, token: string, knownVersion: string | undefined, wait: StateWaitOptions | undefined): Promise<unknown[]> {
    const deadline = deadlineOf(wait, this.#settings.timeoutMs);
    const signal = wait?.signal;
    let seenBusy = false;
    for (;;) {
      if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : new ToolError('cancelled', 'the lock wait was cancelled');
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw lockBusy(conversationId);
      // Listen before asking, so a release between a busy answer and the wait is not missed.
      const notice = this.#released(keys.tag, Math.min(LOCK_POLL_MS, remaining), signal);
      let reply: unknown[];
      try {
        const args = [token, this.#settings.lockTtlMs, knownVersion ?? NO_VERSION];
        reply = (await this.runScript(SCRIPTS.acquire, [keys.state, keys.version, keys.lock], args, { deadline, ...(signal ? { signal } : {}) }, 'the lock request')) as unknown[];
      } catch (error) {
        notice.cancel();
        // Redis answered the earlier attempts: the deadline ran out while the lock was busy.
        if (seenBusy && (error as ToolError).details?.late === true) throw lockBusy(conversationId);
        throw error;
      }
      if (reply[0] === 1) {
        notice.cancel();
        return reply;
      }
      seenBusy = true;
      this.#subscribe();
      await notice.promise;
    }
  }

  /** Starts listening for release notices (once; retried after a failure). Until it is live, waiters poll. */
  #subscribe(): void {
    if (this.#closed) return;
    const subscribing = (this.#subscribing ??= this.#listenForReleases());
    subscribing.catch(() => (this.#subscribing = undefined));
  }

  async #listenForReleases(): Promise<void> {
    const { channel, timeoutMs } = this.#settings;
    if (!this.#subscriber) {
      const sub = (await this.#open()).duplicate();
      this.#subscriber = sub;
      sub.on('error', () => undefined);
      sub.on('message', ((from: string, message: string) => {
        if (from === channel) this.#wakeWaiters(message);
      }) as (...args: unknown[]) => void);
    }
    await whenReady(this.#subscriber, Date.now() + timeoutMs);
    await this.#subscriber.subscribe(channel);
  }

  #wakeWaiters(tag: string): void {
    const set = this.#waiters.get(tag);
    if (!set) return;
    this.#waiters.delete(tag);
    for (const wake of set) wake();
  }

  /** Resolves on the next release notice for `tag`, after `ms`, or when `signal` fires. */
  #released(tag: string, ms: number, signal: AbortSignal | undefined): { promise: Promise<void>; cancel(): void } {
    let wake!: () => void;
    const promise = new Promise<void>((resolve) => (wake = resolve));
    let set = this.#waiters.get(tag);
    if (!set) this.#waiters.set(tag, (set = new Set()));
    set.add(wake);
    const timer = setTimeout(wake, ms);
    signal?.addEventListener('abort', wake, { once: true });
    const cancel = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', wake);
      const current = this.#waiters.get(tag);
      current?.delete(wake);
      if (current?.size === 0) this.#waiters.delete(tag);
    };
    return { promise: promise.then(cancel), cancel };
  }
}

/** A held conversation lock: renewed every third of its lease until it is committed through or released. */
class RedisLease implements StateLease {
  readonly version: string;
  declare state?: Record<string, JsonValue>;
  readonly #store: RedisStore;
  readonly #conversationId: string;
  readonly #keys: ConversationKeys;
  readonly #token: string;
  #held = true;
  readonly #renewal: ReturnType<typeof setInterval>;

  constructor(store: RedisStore, conversationId: string, keys: ConversationKeys, token: string, version: string) {
    this.version = version;
    this.#store = store;
    this.#conversationId = conversationId;
    this.#keys = keys;
    this.#token = token;
    const { lockTtlMs } = store.settings;
    this.#renewal = setInterval(() => {
      store.runScript(SCRIPTS.renew, [keys.lock], [token, lockTtlMs], undefined, 'the lock renewal').catch(() => undefined);
    }, Math.max(1, Math.floor(lockTtlMs / 3)));
    this.#renewal.unref?.();
  }

  async commit(entries: ReadonlyArray<readonly [string, JsonValue | undefined]>, wait?: StateWaitOptions): Promise<string> {
    if (!this.#held) throw new TypeError('RedisStateStore: this state lease has already been committed or released; take a new one with lock()');
    this.#end();
    try {
      return await this.#store.commitEntries(this.#conversationId, entries, this.#token, wait);
    } catch (error) {
      // Whether or not Redis saw the commit, the lock is no longer wanted: give it back if it can be.
      this.#giveBack().catch(() => undefined);
      throw error;
    }
  }

  async release(): Promise<void> {
    if (!this.#held) return;
    this.#end();
    await this.#giveBack().catch(() => undefined);
  }

  #giveBack(): Promise<unknown> {
    return this.#store.runScript(SCRIPTS.release, [this.#keys.lock], [this.#token, this.#store.settings.channel, this.#keys.tag], undefined, 'the lock release');
  }

  #end(): void {
    this.#held = false;
    clearInterval(this.#renewal);
  }
}
