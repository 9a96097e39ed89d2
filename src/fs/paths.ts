import { errorCode, ToolError } from '../core/errors.js';
import { clipForMessage, MESSAGE_QUOTE_CHARS, quoteForMessage } from './text.js';
import type { FsPromises, FsStats } from '../core/types.js';
import { isInside, joinPath, splitPath } from '../core/posix-path.js';
import { refuseLoneSurrogate } from './text.js';

export { isInside, joinPath, splitPath } from '../core/posix-path.js';

/** Most symlinks followed while resolving one path (Linux's MAXSYMLINKS). */
export const MAX_SYMLINK_HOPS = 40;

/** Time between event-loop turns while one path resolves (ms). */
const RESOLVE_YIELD_MS = 50;

/** Linux's limits: bytes in a whole path with its NUL (`PATH_MAX`: 4,096 and more is too long) and in one name (`NAME_MAX`). */
export const PATH_MAX_BYTES = 4096;
export const NAME_MAX_BYTES = 255;

/** Whether `text[i..]` starts with a `\xNN` escape (two hex digits), which names one byte. */
function escapeAt(text: string, i: number): boolean {
  return text.charCodeAt(i + 1) === 0x78 && /^[0-9a-fA-F]{2}$/.test(text.slice(i + 2, i + 4));
}

/**
 * Whether `path`, as the filesystem would be given it, is longer than it takes: {@link PATH_MAX_BYTES}
 * bytes or more in all, or a name of more than {@link NAME_MAX_BYTES} bytes. Bytes are UTF-8 (a lone
 * surrogate as U+FFFD's three); with `escapes` (a port with `canonicalPath`, whose names are bytes) a
 * `\xNN` escape is the one byte it names. One pass over the text, before anything else looks at it,
 * so a path of megabytes answers at once.
 */
export function isPathTooLong(path: string, escapes: boolean): boolean {
  let total = 0;
  let name = 0;
  for (let i = 0; i < path.length; i += 1) {
    const code = path.charCodeAt(i);
    let bytes: number;
    if (code === 0x2f) {
      name = 0;
      bytes = 1;
    } else if (code === 0x5c && escapes && escapeAt(path, i)) {
      bytes = 1;
      i += 3;
    } else if (code < 0x80) bytes = 1;
    else if (code < 0x800) bytes = 2;
    else if (code >= 0xd800 && code <= 0xdbff && (path.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes = 4;
      i += 1;
    } else bytes = 3;
    total += bytes;
    if (code !== 0x2f) name += bytes;
    if (total >= PATH_MAX_BYTES || name > NAME_MAX_BYTES) return true;
  }
  return false;
}

/** Where a path is resolved: the platform filesystem, the workspace root and the directory relative paths start from. */
export interface WorkspaceScope {
  fs: FsPromises;
  root: string;
  cwd: string;
}

/** Options of {@link resolveWorkspacePath}. */
export interface ResolveOptions {
  /** Follow a symlink in the last component (default true); false resolves the link itself (lstat semantics). */
  followFinal?: boolean;
  /** Argument name used in error messages (default `file_path`). */
  argName?: string;
}

/** The parent directory of an absolute POSIX path (`/` for `/`). */
export function dirname(path: string): string {
  const parts = splitPath(path);
  parts.pop();
  return '/' + parts.join('/');
}

/** The last component of a POSIX path (`''` for `/`). */
export function basename(path: string): string {
  const parts = splitPath(path);
  return parts[parts.length - 1] ?? '';
}

/** `path` relative to `base` (`''` when equal); `path` must be inside `base`. */
export function relativePath(base: string, path: string): string {
  if (path === base) return '';
  return base === '/' ? path.slice(1) : path.slice(base.length + 1);
}

/**
 * The `outside_workspace` error of a path whose `..` climbs above the root `root` (`normal`: the whole
 * path with `.` and `..` taken out as written). One that comes back in (`../<root's name>/a.txt`) is
 * still refused, as `..` is taken as the filesystem takes it, one step at a time, but it names a file
 * inside: the message says how to write it.
 */
function aboveRoot(argName: string, quoted: string, root: string, normal: string): ToolError {
  if (!isInside(root, normal)) {
    return new ToolError('outside_workspace', `${argName} ${quoted} is outside the workspace; use a path inside ${root}`);
  }
  const inside = relativePath(root, normal) || '.';
  return new ToolError(
    'outside_workspace',
    `${argName} ${quoted} climbs above the workspace root with .. before coming back in; write it from inside the workspace: ${quoteForMessage(inside)} (${quoteForMessage(normal)})`,
  );
}

/**
 * Resolves a model-given path to a real absolute path inside the workspace, following symlinks one
 * component at a time with its own hop count, so a symlink loop fails fast instead of reaching the
 * filesystem's own resolver (ZenFS, used for OPFS, loops forever on one). Components that do not exist yet are kept
 * as written, so the result also names files about to be created. The path is first put in the
 * filesystem's one spelling (`fs.canonicalPath`, where the port has it: on Node `\x61.txt` is `a.txt`),
 * so the result and every message name a file the same way however the argument wrote it.
 *
 * Errors: `invalid_arguments` for an empty path, a NUL byte or a URL (`file://...`), a path longer
 * than the filesystem takes (see {@link isPathTooLong}: 4,096 bytes or more from the root, or a name
 * over 255 bytes; checked first, so it answers at once whatever the path holds), or a spelling
 * `canonicalPath` refuses (an escaped `/` or NUL);
 * `outside_workspace` when the path, a `..` or a symlink target leaves the root;
 * `execution_failed` for more than {@link MAX_SYMLINK_HOPS} symlinks (a loop);
 * `not_a_directory` when a middle component is a file.
 */
export async function resolveWorkspacePath(
  scope: WorkspaceScope,
  input: string,
  options: ResolveOptions = {},
): Promise<string> {
  const argName = options.argName ?? 'file_path';
  const followFinal = options.followFinal ?? true;
  if (typeof input !== 'string' || input.length === 0) {
    throw new ToolError('invalid_arguments', `${argName} is empty; give a path inside the workspace (${scope.root})`);
  }
  if (input.includes('\0')) {
    throw new ToolError('invalid_arguments', `${argName} contains a NUL byte; remove it`);
  }
  // UTF-8 has no form for it: the name would become U+FFFD, another name (two such paths one file).
  refuseLoneSurrogate(argName, input, 'no file name can hold it; send whole characters');
  if (/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(input)) {
    throw new ToolError(
      'invalid_arguments',
      `${argName} is a URL (${clipForMessage(input, 40)}); give a workspace path such as ${scope.root}/src/index.ts`,
    );
  }
  // Measured before anything else is done with it (normalising, or one lookup per component, of a
  // 100 KB `a/../a/../…` took most of a second), as the filesystem would count it: the whole path from
  // the root, and each name.
  if (isPathTooLong(input.startsWith('/') ? input : `${scope.cwd}/${input}`, scope.fs.canonicalPath !== undefined)) {
    throw new ToolError('invalid_arguments', `${argName} ${quoteForMessage(input)} is longer than the filesystem allows (a name or the whole path); use shorter names`);
  }
  // One spelling per file from here on: the result, every message and what is keyed by the result.
  const path = scope.fs.canonicalPath ? scope.fs.canonicalPath(input) : input;
  const root = joinPath(scope.root);
  const quoted = quoteForMessage(path);
  const outside = (): ToolError =>
    new ToolError('outside_workspace', `${argName} ${quoted} is outside the workspace; use a path inside ${root}`);

  const start = path.startsWith('/') ? path : `${scope.cwd}/${path}`;
  if (!isInside(root, joinPath(start))) throw outside();

  // Walk from the root: `resolved` is always a real (symlink-free) path inside the root.
  let pending = splitPath(start);
  const rootParts = splitPath(root);
  for (let i = 0; i < rootParts.length; i += 1) {
    if (pending[0] === rootParts[i]) pending.shift();
    else throw outside();
  }
  let resolved = rootParts.slice();
  let hops = 0;
  // Deep paths make many lookups, each as long as the path: turn the event loop now and then so a
  // deadline timer can fire and other calls run.
  let lastYield = Date.now();
  // Length of `resolved` when a component was first missing (0: none). A `..` back above it makes
  // later components real again, so they must be checked for symlinks (`missing/../link-out/x`).
  let missingAt = 0;
  // `pending[next..]` is what is left to walk (an index, not shift(): linear in the component count).
  let next = 0;
  while (next < pending.length) {
    if (Date.now() - lastYield > RESOLVE_YIELD_MS) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      lastYield = Date.now();
    }
    const part = pending[next] as string;
    next += 1;
    if (part === '.') continue;
    if (part === '..') {
      if (resolved.length <= rootParts.length) throw aboveRoot(argName, quoted, root, joinPath(start));
      resolved.pop();
      if (resolved.length < missingAt) missingAt = 0;
      continue;
    }
    resolved.push(part);
    if (missingAt > 0) continue;
    const isFinal = next === pending.length;
    if (isFinal && !followFinal) break;
    const current = '/' + resolved.join('/');
    let stats;
    try {
      stats = await scope.fs.lstat(current);
    } catch (error) {
      const code = errorCode(error);
      if (code === 'ENOENT') {
        missingAt = resolved.length;
        continue;
      }
      if (code === 'ENOTDIR') {
        throw new ToolError('not_a_directory', `${clipForMessage('/' + resolved.slice(0, -1).join('/'))} is a file, not a directory`);
      }
      if (code === 'ENAMETOOLONG') {
        throw new ToolError(
          'invalid_arguments',
          `${argName} ${quoted} is longer than the filesystem allows (a name or the whole path); use shorter names`,
        );
      }
      throw error;
    }
    if (stats.isSymbolicLink()) {
      hops += 1;
      if (hops > MAX_SYMLINK_HOPS) {
        throw new ToolError(
          'execution_failed',
          `${argName} ${quoted} has too many levels of symbolic links (a symlink loop?); fix or remove the link`,
        );
      }
      let target: string;
      try {
        target = await scope.fs.readlink(current);
      } catch (error) {
        // EINVAL: no longer a link (replaced since the lstat); ENOENT: gone since. Either way the
        // component is looked at again, so the answer is the one its new state gives.
        const code = errorCode(error);
        if (code !== 'EINVAL' && code !== 'ENOENT') throw error;
        resolved.pop();
        next -= 1;
        continue;
      }
      resolved.pop();
      const base = target.startsWith('/') ? [] : resolved;
      const joined = joinPathParts(base, splitPath(target));
      if (joined === null || !isInside(root, '/' + joined.join('/'))) {
        throw linkOutside({ argName, quoted, root, link: current, target: joined === null ? target : '/' + joined.join('/'), isFinal });
      }
      // Re-walk the target's components (they may hold symlinks too).
      pending = [...joined.slice(rootParts.length), ...pending.slice(next)];
      next = 0;
      resolved = rootParts.slice();
    } else if (!isFinal && !stats.isDirectory()) {
      throw new ToolError('not_a_directory', `${clipForMessage(current)} is a file, not a directory`);
    }
  }
  return '/' + resolved.join('/');
}

/**
 * The `outside_workspace` error for a path inside the workspace that goes through a symbolic link
 * leading out of it: the model gave a path that looks inside, so the message names the link and
 * where it leads instead of calling the path itself outside.
 */
function linkOutside(at: { argName: string; quoted: string; root: string; link: string; target: string; isFinal: boolean }): ToolError {
  const link = clipForMessage(at.link);
  const target = clipForMessage(at.target);
  const what = at.isFinal
    ? `${at.argName} ${at.quoted} is a symbolic link (${link}) that leads outside the workspace, to ${target}`
    : `${at.argName} ${at.quoted} goes through ${link}, a symbolic link that leads outside the workspace, to ${target}`;
  return new ToolError(
    'outside_workspace',
    `${what}; links out of the workspace are not followed. Use a path inside ${at.root} that does not go through this link ` +
      '(list_dir shows links as type "symlink")',
  );
}

/** Appends `parts` to `base` lexically; null when `..` climbs above `/`. */
function joinPathParts(base: string[], parts: string[]): string[] | null {
  const out = base.slice();
  for (const part of parts) {
    if (part === '.' || part === '') continue;
    if (part === '..') {
      if (out.length === 0) return null;
      out.pop();
    } else out.push(part);
  }
  return out;
}

/** Names of the temporary files of {@link writeFileAtomic}: `.toolhost-` and 12 base-36 characters, then `.tmp`. */
const TEMP_NAME = /^\.toolhost-[0-9a-z]{12}\.tmp$/;

/**
 * A fresh temporary file name for an atomic write: `.toolhost-<12 base-36 characters>.tmp`, 26 bytes
 * whatever the target's name, so it always fits the filesystem's name limit (255 bytes on Linux).
 */
export function temporaryFileName(): string {
  let random = '';
  while (random.length < 12) random += Math.random().toString(36).slice(2);
  return `.toolhost-${random.slice(0, 12)}.tmp`;
}

/**
 * True for a name {@link temporaryFileName} makes. Walks (find_file, search_dir, grep_search) skip such
 * files, so one left behind by a crash mid-write never shows up in results.
 */
export function isTemporaryFileName(name: string): boolean {
  return name.length === 26 && TEMP_NAME.test(name);
}

/**
 * Writes `data` to `path` so that readers see the whole old or the whole new content, never a mix.
 * When the platform's port has its own `writeFileAtomic` (Node: keeps the file's mode, owner and hard
 * links, refuses a file the host may not write with `permission_denied`), that does it. Otherwise the
 * bytes go to a temporary sibling ({@link temporaryFileName}) that is then renamed over the target; the
 * temporary file is removed when any step fails. With `inPlace` (pass `platform.atomicWrites`: the
 * platform's `writeFile` is already atomic for readers) it is one `writeFile` of `path`.
 */
export async function writeFileAtomic(fs: FsPromises, path: string, data: Uint8Array | string, inPlace = false): Promise<void> {
  if (inPlace) {
    await fs.writeFile(path, data);
    return;
  }
  if (typeof fs.writeFileAtomic === 'function') {
    await fs.writeFileAtomic(path, data);
    return;
  }
  const temp = joinPath(dirname(path), temporaryFileName());
  try {
    await fs.writeFile(temp, data);
    await fs.rename(temp, path);
  } catch (error) {
    await fs.rm(temp, { force: true }).catch(() => undefined);
    throw error;
  }
}

/** `fs.stat(path)`, or null when nothing is there (`ENOENT`); other errors are thrown. */
export async function statOrNull(fs: FsPromises, path: string): Promise<FsStats | null> {
  try {
    return await fs.stat(path);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return null;
    throw error;
  }
}

/**
 * Refuses a path argument that ends in `/` when it names something that is not a directory, as
 * `create_file` and `edit_file` refuse a trailing `/`: `a.txt/` names a directory (the system calls
 * answer ENOTDIR), so reading the file anyway would let the slip pass. Call it with the model's
 * `given` text once the resolved path is known not to be a directory. Throws `invalid_arguments`:
 * `file_path "a.txt/" ends with "/"; give a file name, e.g. a.txt`; `next` replaces what follows the `;`.
 */
export function refuseSlashOnFile(argName: string, given: string, next?: string): void {
  if (!given.endsWith('/')) return;
  const bare = given.replace(/(\/\.?)+$/, '');
  const advice = next ?? `give a file name${bare !== '' && bare.length <= MESSAGE_QUOTE_CHARS ? `, e.g. ${bare}` : ''}`;
  throw new ToolError('invalid_arguments', `${argName} ${quoteForMessage(given)} ends with "/"; ${advice}`);
}

/** {@link refuseSlashOnFile} for a search's `dir_path`, which may name one file to search: resolves and stats it only when it ends in `/`. */
export async function refuseSlashOnSearchedFile(scope: WorkspaceScope, dirPath: string | undefined): Promise<void> {
  if (dirPath === undefined || !dirPath.endsWith('/')) return;
  const path = await resolveWorkspacePath(scope, dirPath, { argName: 'dir_path' });
  const stats = await statOrNull(scope.fs, path);
  if (stats === null || stats.isDirectory()) return;
  const bare = dirPath.replace(/(\/\.?)+$/, '');
  refuseSlashOnFile('dir_path', dirPath, `give a directory${bare.length <= MESSAGE_QUOTE_CHARS ? `, or ${bare} to search that one file` : ', or the file without the "/" to search it alone'}`);
}
