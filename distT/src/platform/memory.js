import { checkOptions, is, rule, stateStoreRule } from '../core/options.js';
import { withoutStackTrace } from '../core/stack.js';
import { quoteForMessage } from '../fs/text.js';
import { dirname, isInside, joinPath } from '../fs/paths.js';
import { MemoryFs } from '../fs/memfs.js';
import { tidyFsError } from '../fs/fs-errors.js';
import { createMemorySearchSource } from '../search/memory-source.js';
/** The checks of {@link MemoryPlatformOptions}. */
const MEMORY_PLATFORM_RULES = {
    root: rule('an absolute path such as /workspace', (v) => typeof v === 'string' && v.startsWith('/') && !v.includes('\0')),
    files: is.object,
    state: stateStoreRule,
};
/**
 * Tool state kept in memory, as JSON text per conversation and key (so stored values never alias the
 * tool's objects). Lost with the process; for tests and quick starts.
 */
export class MemoryStateStore {
    #data = new Map();
    #conversation(conversationId) {
        let entries = this.#data.get(conversationId);
        if (!entries) {
            entries = new Map();
            this.#data.set(conversationId, entries);
        }
        return entries;
    }
    async get(conversationId, key) {
        const text = this.#data.get(conversationId)?.get(key);
        return text === undefined ? undefined : JSON.parse(text);
    }
    async set(conversationId, key, value) {
        this.#conversation(conversationId).set(key, JSON.stringify(value));
    }
    async delete(conversationId, key) {
        this.#data.get(conversationId)?.delete(key);
    }
    async keys(conversationId) {
        return [...(this.#data.get(conversationId)?.keys() ?? [])];
    }
    async getAll(conversationId) {
        const out = {};
        for (const [key, text] of this.#data.get(conversationId) ?? [])
            out[key] = JSON.parse(text);
        return out;
    }
    async setMany(conversationId, entries) {
        const map = this.#conversation(conversationId);
        for (const [key, value] of entries) {
            if (value === undefined)
                map.delete(key);
            else
                map.set(key, JSON.stringify(value));
        }
    }
}
const FS_METHODS = [
    'readFile',
    'writeFile',
    'mkdir',
    'readdir',
    'stat',
    'lstat',
    'readlink',
    'symlink',
    'rename',
    'rm',
    'unlink',
];
/**
 * An {@link FsPromises} whose methods first await `load()` (called once, on the first use), so creating
 * a platform does no work and loads no filesystem code until a tool touches a file. Once loaded, calls
 * go straight to the loaded filesystem. A failed load rejects that call and is retried on the next.
 */
export function lazyFs(load) {
    let loading;
    let loaded;
    const get = () => {
        loading ??= load().then((target) => {
            loaded = target;
            return target;
        }, (error) => {
            loading = undefined;
            throw error;
        });
        return loading;
    };
    const fs = {};
    for (const method of FS_METHODS) {
        fs[method] = (...args) => {
            if (loaded)
                return loaded[method](...args);
            return get().then((target) => target[method](...args));
        };
    }
    return fs;
}
/**
 * Runs `fn` now and settles a promise with its outcome. V8 stack capture is off meanwhile: a missing
 * path is an everyday answer (every created file is first looked up), and a stack inside the
 * filesystem tells the tools nothing. For the same reason a failure rejects one microtask later, once
 * the caller has awaited the promise: Chromium captures a stack for every promise rejected while it has
 * no handler yet (for its unhandled-rejection report), about 3 µs, where a later rejection costs 0.5.
 * `fn`'s change itself is complete when this returns, failure or not.
 */
function settle(fn) {
    try {
        return Promise.resolve(withoutStackTrace(fn));
    }
    catch (error) {
        // Messages as the tools show them: a path too long for the tree is named shortened (tidyFsError).
        const tidy = tidyFsError(error);
        return Promise.resolve().then(() => {
            throw tidy;
        });
    }
}
/**
 * An {@link FsPromises} over an in-memory filesystem's synchronous calls ({@link MemoryFs}): each
 * operation, `writeFile` included, completes in one synchronous step that no other call can observe
 * halfway (what {@link Platform.atomicWrites} means). Errors reject the returned promise, with the
 * same Node-style `code` as `node:fs/promises` would give, their messages tidied by `tidyFsError`
 * (an `ENAMETOOLONG` names its path shortened).
 */
export function fsFromSync(sync) {
    const ranged = sync.readRangeSync ? { readRange: (path, position, length) => settle(() => sync.readRangeSync(path, position, length)) } : {};
    return {
        ...ranged,
        readFile: (path) => settle(() => sync.readFileSync(path)),
        writeFile: (path, data) => settle(() => sync.writeFileSync(path, data)),
        mkdir: (path, options) => settle(() => sync.mkdirSync(path, options)),
        readdir: ((path, options) => settle(() => (options ? sync.readdirSync(path, options) : sync.readdirSync(path)))),
        stat: (path) => settle(() => sync.statSync(path)),
        lstat: (path) => settle(() => sync.lstatSync(path)),
        readlink: (path) => settle(() => sync.readlinkSync(path)),
        symlink: (target, path) => settle(() => sync.symlinkSync(target, path)),
        rename: (from, to) => settle(() => sync.renameSync(from, to)),
        rm: (path, options) => settle(() => sync.rmSync(path, options)),
        unlink: (path) => settle(() => sync.unlinkSync(path)),
    };
}
/**
 * A platform with an in-memory workspace (its own {@link MemoryFs}) and in-memory tool state.
 * Capabilities: no commands, no web search, not persistent; `run_command` and `web_search`
 * return their empty results. Creating it only builds the tree of `options.files`. Every operation
 * completes in one synchronous step ({@link fsFromSync}), so `writeFile` is atomic for readers and
 * `atomicWrites` is true; `changeCount()` counts the changes made through `fs`. The search tools read
 * the tree through its `searchSource` ({@link createMemorySearchSource}): bytes as stored, searched
 * and validated as bytes, decoded only where a match is reported.
 *
 * Errors (thrown at creation, the host's mistakes): a TypeError naming the option for a `root` that is
 * not an absolute path (it is normalised: `/a/../ws/` becomes `/ws`), a bad `files` key or content, or
 * a `state` that is not a StateStore.
 *
 * Not ZenFS's InMemory backend: the tree is toolhost's own {@link MemoryFs}, because
 * ZenFS's InMemory store rewrote a folder's listing on every create (1,000 `create_file` calls took
 * 1.0–1.6 s on Node; the same now take a few ms) and weighed 80 KiB min+gzip in the browser worker.
 * ZenFS remains the filesystem of the web platform's OPFS backend.
 */
export function createMemoryPlatform(options = {}) {
    checkOptions('createMemoryPlatform', options, MEMORY_PLATFORM_RULES);
    const given = options.root ?? '/workspace';
    const root = joinPath(given);
    const memory = new MemoryFs();
    memory.mkdirSync(root, { recursive: true });
    for (const [name, content] of Object.entries(options.files ?? {})) {
        const path = joinPath(name.startsWith('/') ? name : `${root}/${name}`);
        if (!isInside(root, path)) {
            throw new TypeError(`createMemoryPlatform: files key ${quoteForMessage(name, { json: true })} leads outside ${root}, where no tool can reach it; give a path inside it (relative, or absolute under ${root})`);
        }
        try {
            if (name === '' || name.endsWith('/') || path === root)
                throw Object.assign(new Error('it names a folder'), { code: 'EISDIR' });
            memory.mkdirSync(dirname(path), { recursive: true });
            memory.writeFileSync(path, content);
        }
        catch (error) {
            const why = error.code === 'ERR_INVALID_ARG_TYPE' ? 'its content must be a string or a Uint8Array' : error.message;
            throw new TypeError(`createMemoryPlatform: files key ${quoteForMessage(name, { json: true })} cannot be created (${why}); give each file its own path, with string or Uint8Array content`);
        }
    }
    const fs = fsFromSync(memory);
    // Every change goes through these methods, each in one synchronous step: count them, so a search
    // tool can tell that nothing changed since it last listed the workspace.
    let changes = 0;
    const counted = { ...fs };
    for (const method of ['writeFile', 'mkdir', 'symlink', 'rename', 'rm', 'unlink']) {
        const inner = fs[method];
        counted[method] = (...args) => {
            changes += 1;
            return inner(...args);
        };
    }
    const platform = {
        name: 'memory',
        root,
        fs: counted,
        changeCount: () => changes,
        state: options.state ?? new MemoryStateStore(),
        capabilities: { runCommand: false, webSearch: false, persistent: false },
        atomicWrites: true,
        searchSource: createMemorySearchSource(() => memory, () => changes),
        async dispose() { },
    };
    return platform;
}
//# sourceMappingURL=memory.js.map