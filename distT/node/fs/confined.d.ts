import type { FsPromises } from '../../src/core/types.js';
/** Options of {@link createConfinedNodeFs}. */
export interface ConfinedNodeFsOptions {
    /**
     * `'descriptors'` (default where Linux has `/proc/self/fd`): race-free, see {@link createConfinedNodeFs};
     * `'paths'`: the path-checked port (`createPathCheckedNodeFs`), which the race described there defeats.
     */
    mode?: 'descriptors' | 'paths';
}
/**
 * The FsPromises port over `node:fs`, confined to the real directory `root` on its own, whatever the
 * caller resolved (the tools also resolve with `resolveWorkspacePath`; this is the second wall), and
 * safe against a second process that swaps a directory for a symlink to outside while tools run.
 *
 * How: what is checked is what is used. Every operation first opens the object it reads, or the
 * directory it changes, with `O_PATH` (symlinks followed: those that stay inside keep working), then
 * reads where that descriptor really is (`/proc/self/fd/<fd>`, a link the kernel keeps current) and
 * refuses with ToolError `outside_workspace` unless it is `root` or under it. It then acts through the
 * descriptor only: `fstat` of it, a reopen of `/proc/self/fd/<fd>` to read the very file checked, and
 * names inside a held directory as `/proc/self/fd/<dirfd>/<name>` with `O_NOFOLLOW` where a file is
 * created, so a swap after the check changes nothing. Temporary files of atomic writes are created
 * inside the held directory. A directory moved out of the root while a descriptor holds it is the one
 * case left: the next operation's check sees it outside.
 *
 * Only regular files are read or written as files: `fstat` on the `O_PATH` descriptor gives the type
 * before any open that could block, so a FIFO, socket or device is refused with ToolError
 * `invalid_arguments` (details `{ file_type: 'fifo' | 'socket' | 'device' }`); a read stops at the size
 * `fstat` gave, and files over 64 MiB are `too_large`. No call waits on a pipe, so none keeps a thread of
 * libuv's pool.
 *
 * Names that are not UTF-8 are listed and accepted in the lossless `\xNN` form of `escapeBytes`
 * (`node/fs/names.ts`): every path given to the port is first made canonical (`canonicalPath`: an
 * escape that spells valid UTF-8 is its characters, so `\x2e\x2e` is a `..` checked like one), then
 * unescaped. The port's `canonicalPath` is that function, which `resolveWorkspacePath` applies to
 * every path argument, so each file has one spelling in results, messages and `stale_file` checks.
 *
 * `writeFileAtomic(path, data)` replaces a file so readers see the whole old or whole new content: a
 * temporary file (`.toolhost-<random>.tmp`, a short name walks skip) in the same directory, given the
 * old file's mode and (as root) owner, renamed over it. A file with other hard links, or one owned by
 * another user that this (non-root) process may write, is written in place instead, so the link and
 * the owner are kept. A file this process may not write → `permission_denied`, unchanged.
 *
 * Every path must be absolute and NUL-free (`invalid_arguments`) and lexically inside `root`. Removing
 * or renaming the root itself → `permission_denied`. Errors keep Node's `code`; their messages name the
 * path given, shortened (`withTidyFsErrors`): a path too long for the system (`ENAMETOOLONG`) says so
 * in one sentence instead of repeating all of it. Where `/proc/self/fd` or `O_PATH` is missing (not
 * Linux), this is the path-checked port, with its race.
 */
export declare function createConfinedNodeFs(root: string, options?: ConfinedNodeFsOptions): FsPromises;
