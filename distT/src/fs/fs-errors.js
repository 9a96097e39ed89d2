import { clipForMessage, MESSAGE_QUOTE_CHARS, quoteForMessage } from './text.js';
/** Longest filesystem error message passed on as it is; longer ones have their quoted paths shortened. */
const PLAIN_MESSAGE_CHARS = 2 * MESSAGE_QUOTE_CHARS + 100;
/** Longest message kept at all: whatever is left over after the paths were shortened is cut here. */
const MAX_MESSAGE_CHARS = 4 * MESSAGE_QUOTE_CHARS;
/**
 * What a path that is too long answers, naming it shortened as every message does (`quoteForMessage`):
 * `"/ws/a/a/a…" (9800 more characters) is longer than the filesystem allows (a name or the whole path);
 * use shorter names`.
 */
export function pathTooLongMessage(path) {
    const what = path === undefined || path.length === 0 ? 'a path' : quoteForMessage(path);
    return `${what} is longer than the filesystem allows (a name or the whole path); use shorter names`;
}
/**
 * Makes a Node-style filesystem error (one with a string `code` such as `ENOENT`) fit to be read by
 * the model, in place, keeping its `code`, `path` and the rest: Node's own `EACCES` / `EPERM` message
 * gets {@link permissionDeniedMessage} of `path` (the workspace path given to `method`); a message
 * naming an internal `/proc/self/fd/…` path names `path` instead; `ENAMETOOLONG` gets
 * {@link pathTooLongMessage} of `path` (else the error's own `path`), and any other message longer
 * than a few hundred characters has each quoted path in it shortened to its first 200 characters (a
 * 5,000-component path made a 10 KB message). Anything else is returned as it is. Costs a property
 * read or two on the everyday errors (`ENOENT` for every new file), which are left untouched.
 */
export function tidyFsError(error, path, method) {
    if (typeof error !== 'object' || error === null)
        return error;
    const { code, message } = error;
    // Node-style codes are upper case (`ENOENT`, `ERR_FS_EISDIR`); a ToolError's are not, and pass as they are.
    if (typeof code !== 'string' || typeof message !== 'string' || code !== code.toUpperCase())
        return error;
    let tidy;
    if (path !== undefined && path.length > 0 && (code === 'EACCES' || code === 'EPERM') && /^E(ACCES|PERM): (permission denied|operation not permitted), /.test(message)) {
        tidy = permissionDeniedMessage(path, method);
    }
    else if (path !== undefined && path.length > 0 && message.includes("'/proc/self/fd/")) {
        // The port's own descriptor path means nothing to the model: name the workspace path it gave.
        tidy = message.replace(/'\/proc\/self\/fd\/[^']*'/g, () => `'${clipForMessage(path)}'`);
    }
    else if (code === 'ENAMETOOLONG') {
        const own = error.path;
        tidy = pathTooLongMessage(path ?? (typeof own === 'string' ? own : undefined));
    }
    else if (message.length > PLAIN_MESSAGE_CHARS) {
        tidy = clipForMessage(message.replace(/'([^']{201,})'/g, (_, quoted) => `'${clipForMessage(quoted)}'`), MAX_MESSAGE_CHARS);
    }
    if (tidy === undefined || tidy === message)
        return error;
    try {
        error.message = tidy;
        return error;
    }
    catch {
        // A frozen error: a copy with the same code and path.
        const copy = Object.assign(new Error(tidy), { code });
        const own = error.path;
        return typeof own === 'string' ? Object.assign(copy, { path: own }) : copy;
    }
}
/** Methods that only read: a permission failure on them is about reading (or listing, for `readdir`). */
const READING = new Set(['readFile', 'readRange', 'stat', 'lstat', 'readlink', 'realpath', 'open', 'access', 'readFileStream']);
/**
 * What a permission failure (`EACCES`, `EPERM`) answers, naming the workspace path the caller gave and
 * what to do next: `permission denied reading "/ws/secret.txt": it (or a folder on its way) is not
 * readable by this process; check its permissions or pick another file`.
 */
export function permissionDeniedMessage(path, method) {
    const where = quoteForMessage(path);
    if (method === 'readdir') {
        return `permission denied listing ${where}: the folder (or one on its way) is not readable by this process; check its permissions or pick another folder`;
    }
    if (method !== undefined && READING.has(method)) {
        return `permission denied reading ${where}: it (or a folder on its way) is not readable by this process; check its permissions or pick another file`;
    }
    return `permission denied changing ${where}: this process may not write it (or the folder it is in); check its permissions or pick another path`;
}
/** The path a call of `method` is about: its first argument, or the longer of two for `rename` and `symlink`. */
function pathOf(method, args) {
    const [first, second] = args;
    const path = typeof first === 'string' ? first : undefined;
    if ((method === 'rename' || method === 'symlink') && typeof second === 'string' && (path === undefined || second.length > path.length))
        return second;
    return path;
}
/**
 * `fs` with every rejection passed through {@link tidyFsError}, naming the workspace path the caller
 * gave (the port may have failed on a host path of its own making, such as `/proc/self/fd/N/name`): a
 * permission failure says what was denied and what to do ({@link permissionDeniedMessage}).
 * Results and everyday errors pass unchanged.
 */
export function withTidyFsErrors(fs) {
    const out = {};
    for (const key of Object.keys(fs)) {
        const member = fs[key];
        if (typeof member !== 'function') {
            out[key] = member;
            continue;
        }
        const method = member;
        out[key] = (...args) => {
            let result;
            try {
                result = method.apply(fs, args);
            }
            catch (error) {
                throw tidyFsError(error, pathOf(key, args), key);
            }
            if (typeof result?.then !== 'function')
                return result;
            return result.then(undefined, (error) => {
                throw tidyFsError(error, pathOf(key, args), key);
            });
        };
    }
    return out;
}
//# sourceMappingURL=fs-errors.js.map