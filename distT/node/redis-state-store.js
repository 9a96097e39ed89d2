import { createHash, randomBytes } from 'node:crypto';
import { ToolError, isToolErrorCode } from '../src/core/errors.js';
import { checkOptions, is, rule } from '../src/core/options.js';
/**
 * Answers of a Redis that arrive this long after a deadline are not waited for. Scripts refuse to run
 * past the deadline by Redis's clock, so waiting a little longer than the deadline means a script
 * that ran in time is never reported as failed.
 */
const LATE_GRACE_MS = 100;
/** Longest wait between two attempts to take a busy lock when no release notice arrives, in ms. */
const LOCK_POLL_MS = 100;
/** Reconnect delays of the store's own connections: 50 ms per attempt, at most 1 s. */
const retryStrategy = (times) => Math.min(times * 50, 1_000);
// Every script checks the caller's deadline against Redis's own clock first: a script that reaches
// Redis after its caller stopped waiting (a paused or overloaded server) changes nothing.
const NOW = `local t = redis.call('TIME') local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;
const LATE = `if ARGV[1] ~= '' and now > tonumber(ARGV[1]) then return redis.error_reply('TOOLHOST_LATE') end`;
/** KEYS: state, version, lock. ARGV: deadline, token ('' = no lock), version, ttl, release, channel, message, then op/field/value triples. */
const COMMIT = `${NOW} ${LATE}
if ARGV[2] ~= '' and redis.call('GET', KEYS[3]) ~= ARGV[2] then return redis.error_reply('TOOLHOST_LOST') end
local kind = redis.call('TYPE', KEYS[1]).ok
if kind ~= 'hash' and kind ~= 'none' then return redis.error_reply('TOOLHOST_TYPE ' .. kind) end
for i = 8, #ARGV, 3 do
  if ARGV[i] == 's' then redis.call('HSET', KEYS[1], ARGV[i + 1], ARGV[i + 2]) else redis.call('HDEL', KEYS[1], ARGV[i + 1]) end
end
redis.call('SET', KEYS[2], ARGV[3])
if ARGV[4] ~= '' then redis.call('EXPIRE', KEYS[1], ARGV[4]) redis.call('EXPIRE', KEYS[2], ARGV[4]) end
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
function script(source) {
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
function unavailable(message) {
    return new ToolError('unavailable', message);
}
/** Resolves once `redis` is ready (connecting a lazy client), or rejects `unavailable` at `deadline`. */
function whenReady(redis, deadline) {
    if (redis.status === 'ready')
        return Promise.resolve();
    if (redis.status === 'end')
        return Promise.reject(unavailable('the Redis client has been closed; give createRedisStateStore an open one'));
    return new Promise((resolve, reject) => {
        const done = () => {
            clearTimeout(timer);
            redis.off('ready', done);
            resolve();
        };
        const timer = setTimeout(() => {
            redis.off('ready', done);
            reject(unavailable('Redis is not reachable; check that it is running, then retry'));
        }, Math.max(0, deadline - Date.now()));
        redis.on('ready', done);
        if (redis.status === 'wait')
            redis.connect().catch(() => undefined);
    });
}
function pairsToRecord(fields) {
    const out = {};
    const list = fields;
    for (let i = 0; i + 1 < list.length; i += 2) {
        Object.defineProperty(out, list[i], { value: JSON.parse(list[i + 1]), enumerable: true, writable: true, configurable: true });
    }
    return out;
}
/** The checks of {@link RedisStateStoreOptions}. */
const REDIS_OPTION_RULES = {
    url: rule('a redis:// or rediss:// URL', (v) => typeof v === 'string' && /^rediss?:\/\//.test(v)),
    client: is.withMethods(['call', 'duplicate', 'on', 'quit'], 'an ioredis client'),
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
export function createRedisStateStore(options) {
    checkOptions('createRedisStateStore', options, REDIS_OPTION_RULES);
    if ((options?.url === undefined) === (options?.client === undefined)) {
        throw new TypeError(options?.url === undefined
            ? 'createRedisStateStore: give url (redis://host:port) or client (an ioredis client); neither was given'
            : 'createRedisStateStore: give either url (redis://host:port) or client (an ioredis client), not both');
    }
    const prefix = options.prefix ?? 'toolhost:';
    const workspace = options.workspace ?? 'default';
    const timeoutMs = options.timeoutMs ?? 5_000;
    const lockTtlMs = Math.ceil(options.lockTtlMs ?? 10_000);
    const ttl = options.ttlSeconds === undefined ? '' : String(options.ttlSeconds);
    const base = `${prefix}${encodeURIComponent(workspace)}:`;
    const channel = `${base}released`;
    const owned = options.client === undefined;
    let closed = false;
    let client = options.client;
    let opening;
    let subscriber;
    let subscribing;
    /** Waiters for a lock, by encoded conversation id, woken by a release notice. */
    const waiters = new Map();
    const open = () => {
        if (client)
            return Promise.resolve(client);
        opening ??= (async () => {
            let Redis;
            try {
                Redis = (await import('ioredis')).Redis;
            }
            catch (error) {
                opening = undefined;
                throw unavailable(`createRedisStateStore needs the ioredis package (${error.message}); install it with npm install ioredis`);
            }
            // No offline queue: a command is sent on a live connection or fails at once, so nothing queued
            // while Redis was away runs after its caller was told `unavailable`.
            client = new Redis(options.url, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0, retryStrategy });
            client.on('error', () => undefined);
            return client;
        })();
        return opening;
    };
    /** The call's deadline when it has one, else `timeoutMs` from now. */
    const deadlineOf = (wait) => wait?.deadline ?? Date.now() + timeoutMs;
    /** Settles with `work`, or rejects `unavailable` at `deadline` + grace, or with the signal's reason. */
    const bounded = (work, deadline, signal, what) => new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(unavailable(`Redis did not answer ${what} in time; nothing was changed by it; check that Redis is running, then retry`)), Math.max(0, deadline - Date.now()) + LATE_GRACE_MS);
        const onAbort = () => reject(signal?.reason instanceof Error ? signal.reason : new ToolError('cancelled', `${what} was cancelled`));
        signal?.addEventListener('abort', onAbort, { once: true });
        work.then(resolve, reject).finally(() => {
            clearTimeout(timer);
            signal?.removeEventListener('abort', onAbort);
        });
    });
    /** The client once its connection is ready (waiting for a reconnect), or `unavailable` at the deadline. */
    const ready = async (deadline) => {
        if (closed)
            throw unavailable('the Redis state store has been closed');
        const redis = await open();
        await whenReady(redis, deadline);
        return redis;
    };
    const run = async (target, keys, args, wait, what) => {
        const deadline = deadlineOf(wait);
        const work = (async () => {
            const redis = await ready(deadline);
            try {
                return await redis.call('EVALSHA', target.sha, keys.length, ...keys, String(deadline), ...args);
            }
            catch (error) {
                if (!String(error.message).startsWith('NOSCRIPT'))
                    throw error;
                return await redis.call('EVAL', target.source, keys.length, ...keys, String(deadline), ...args);
            }
        })();
        try {
            return await bounded(work, deadline, wait?.signal, what);
        }
        catch (error) {
            const message = String(error.message);
            if (message.includes('TOOLHOST_LATE'))
                throw new ToolError('unavailable', `Redis answered ${what} after its deadline; nothing was changed; retry`, { late: true });
            if (message.includes('TOOLHOST_LOST'))
                throw unavailable(`the conversation's lock expired before ${what}; nothing was stored; retry the call`);
            if (message.includes('TOOLHOST_TYPE'))
                throw new ToolError('execution_failed', `the Redis key of this conversation's state holds another type (${message}); remove it or use another prefix`);
            if (isToolErrorCode(error.code))
                throw error;
            throw unavailable(`Redis failed ${what} (${message}); nothing was changed; check that Redis is running, then retry`);
        }
    };
    /** A plain read (HGET, HKEYS, HGETALL), bounded like the scripts. */
    const read = async (command, args, what) => {
        const deadline = deadlineOf(undefined);
        try {
            return await bounded((async () => (await ready(deadline)).call(command, ...args))(), deadline, undefined, what);
        }
        catch (error) {
            if (isToolErrorCode(error.code))
                throw error;
            throw unavailable(`Redis failed ${what} (${error.message}); check that Redis is running, then retry`);
        }
    };
    const keysOf = (conversationId) => {
        if (typeof conversationId !== 'string')
            throw new ToolError('invalid_arguments', 'a conversation id must be a string');
        const tag = encodeURIComponent(conversationId);
        const at = `${base}{${tag}}:`;
        return { state: `${at}state`, version: `${at}version`, lock: `${at}lock`, tag };
    };
    const encodeEntries = (entries) => {
        const args = [];
        for (const [key, value] of entries) {
            if (typeof key !== 'string')
                throw new ToolError('invalid_arguments', 'a state key must be a string');
            if (value === undefined)
                args.push('d', key, '');
            else
                args.push('s', key, JSON.stringify(value));
        }
        return args;
    };
    const commit = async (conversationId, entries, token, wait) => {
        const keys = keysOf(conversationId);
        const encoded = encodeEntries(entries);
        const version = randomBytes(8).toString('hex');
        await run(SCRIPTS.commit, [keys.state, keys.version, keys.lock], [token, version, ttl, token === '' ? '0' : '1', channel, keys.tag, ...encoded], wait, 'the state commit');
        return version;
    };
    /** Starts listening for release notices (once; retried after a failure). Until it is live, waiters poll. */
    const subscribe = () => {
        if (closed)
            return;
        subscribing ??= (async () => {
            if (!subscriber) {
                const sub = (await open()).duplicate();
                subscriber = sub;
                sub.on('error', () => undefined);
                sub.on('message', ((from, message) => {
                    if (from !== channel)
                        return;
                    const set = waiters.get(message);
                    if (!set)
                        return;
                    waiters.delete(message);
                    for (const wake of set)
                        wake();
                }));
            }
            await whenReady(subscriber, Date.now() + timeoutMs);
            await subscriber.subscribe(channel);
        })();
        subscribing.catch(() => (subscribing = undefined));
    };
    /** Resolves on the next release notice for `tag`, after `ms`, or when `signal` fires. */
    const released = (tag, ms, signal) => {
        let wake;
        const promise = new Promise((resolve) => (wake = resolve));
        let set = waiters.get(tag);
        if (!set)
            waiters.set(tag, (set = new Set()));
        set.add(wake);
        const timer = setTimeout(wake, ms);
        signal?.addEventListener('abort', wake, { once: true });
        const cancel = () => {
            clearTimeout(timer);
            signal?.removeEventListener('abort', wake);
            const current = waiters.get(tag);
            current?.delete(wake);
            if (current?.size === 0)
                waiters.delete(tag);
        };
        return { promise: promise.then(cancel), cancel };
    };
    const store = {
        keyOf: (conversationId) => keysOf(conversationId).state,
        async get(conversationId, key) {
            const text = await read('HGET', [keysOf(conversationId).state, key], 'the state read');
            return typeof text === 'string' ? JSON.parse(text) : undefined;
        },
        async keys(conversationId) {
            return (await read('HKEYS', [keysOf(conversationId).state], 'the state read'));
        },
        async getAll(conversationId) {
            return pairsToRecord(await read('HGETALL', [keysOf(conversationId).state], 'the state read'));
        },
        async set(conversationId, key, value) {
            await commit(conversationId, [[key, value]], '', undefined);
        },
        async delete(conversationId, key) {
            await commit(conversationId, [[key, undefined]], '', undefined);
        },
        async setMany(conversationId, entries) {
            await commit(conversationId, entries, '', undefined);
        },
        async snapshot(conversationId, knownVersion, wait) {
            const keys = keysOf(conversationId);
            const reply = (await run(SCRIPTS.snapshot, [keys.state, keys.version], [knownVersion ?? NO_VERSION], wait, 'the state read'));
            const version = reply[0];
            return reply.length > 1 ? { version, state: pairsToRecord(reply[1]) } : { version };
        },
        async lock(conversationId, knownVersion, wait) {
            const keys = keysOf(conversationId);
            const deadline = deadlineOf(wait);
            const signal = wait?.signal;
            const token = randomBytes(12).toString('hex');
            const busy = () => new ToolError('timeout', `another call of conversation ${JSON.stringify(conversationId).slice(0, 200)} held its state lock past this call's deadline; retry, or raise timeoutMs`);
            let reply;
            let seenBusy = false;
            for (;;) {
                if (signal?.aborted)
                    throw signal.reason instanceof Error ? signal.reason : new ToolError('cancelled', 'the lock wait was cancelled');
                const remaining = deadline - Date.now();
                if (remaining <= 0)
                    throw busy();
                // Listen before asking, so a release between a busy answer and the wait is not missed.
                const notice = released(keys.tag, Math.min(LOCK_POLL_MS, remaining), signal);
                try {
                    reply = (await run(SCRIPTS.acquire, [keys.state, keys.version, keys.lock], [token, lockTtlMs, knownVersion ?? NO_VERSION], { deadline, ...(signal ? { signal } : {}) }, 'the lock request'));
                }
                catch (error) {
                    notice.cancel();
                    // Redis answered the earlier attempts: the deadline ran out while the lock was busy.
                    if (seenBusy && error.details?.late === true)
                        throw busy();
                    throw error;
                }
                if (reply[0] === 1) {
                    notice.cancel();
                    break;
                }
                seenBusy = true;
                subscribe();
                await notice.promise;
            }
            const version = reply[1];
            let held = true;
            const renewal = setInterval(() => {
                run(SCRIPTS.renew, [keys.lock], [token, lockTtlMs], undefined, 'the lock renewal').catch(() => undefined);
            }, Math.max(1, Math.floor(lockTtlMs / 3)));
            renewal.unref?.();
            const end = () => {
                held = false;
                clearInterval(renewal);
            };
            const lease = {
                version,
                async commit(entries, commitWait) {
                    if (!held)
                        throw new ToolError('invalid_arguments', 'this state lease has already been committed or released');
                    end();
                    try {
                        return await commit(conversationId, entries, token, commitWait);
                    }
                    catch (error) {
                        // Whether or not Redis saw the commit, the lock is no longer wanted: give it back if it can be.
                        run(SCRIPTS.release, [keys.lock], [token, channel, keys.tag], undefined, 'the lock release').catch(() => undefined);
                        throw error;
                    }
                },
                async release() {
                    if (!held)
                        return;
                    end();
                    await run(SCRIPTS.release, [keys.lock], [token, channel, keys.tag], undefined, 'the lock release').catch(() => undefined);
                },
            };
            if (reply.length > 2)
                lease.state = pairsToRecord(reply[2]);
            return lease;
        },
        async close() {
            if (closed)
                return;
            closed = true;
            const ending = [];
            if (subscriber)
                ending.push(subscriber.quit().catch(() => subscriber?.disconnect()));
            if (owned && client)
                ending.push(client.quit().catch(() => client?.disconnect()));
            await Promise.all(ending);
        },
    };
    return store;
}
//# sourceMappingURL=redis-state-store.js.map