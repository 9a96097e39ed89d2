/**
 * toolhost/web/shell: `run_command` in the browser through just-bash (an optional peer dependency, a
 * bash interpreter in JavaScript with its own coreutils), on the workspace's own files. Only a worker
 * that imports this entry bundles just-bash.
 *
 * ```ts
 * import { createWebPlatform } from 'toolhost/web';
 * import { justBash } from 'toolhost/web/shell';
 * const platform = createWebPlatform({ workspace: 'my-project', shell: justBash() });
 * ```
 */
import { Bash, type BashOptions, type IFileSystem } from 'just-bash/browser';
import type { FsPromises, FsStats, RunCommandResult } from '../src/core/types.js';
import type { WebShell } from './platform.js';
import { normalizePath } from '../src/core/posix-path.js';

/** Characters kept at each end of stdout and stderr, as on Node. */
const KEEP = 15_000;

/** Options of {@link justBash}. */
export interface JustBashOptions {
  /** just-bash's execution limits (loop iterations, call depth, command count...); default: its own. */
  executionLimits?: BashOptions['executionLimits'];
  /** Environment variables (default: just-bash's, with `HOME` and `PWD` at the workspace root). */
  env?: Record<string, string>;
}

function clip(text: string): { text: string; truncated: boolean } {
  if (text.length <= 2 * KEEP) return { text, truncated: false };
  const dropped = text.length - 2 * KEEP;
  return { text: `${text.slice(0, KEEP)}\n… [${dropped} characters dropped] …\n${text.slice(-KEEP)}`, truncated: true };
}

function fsError(code: string, syscall: string, path: string, detail: string): Error {
  return Object.assign(new Error(`${code}: ${detail}, ${syscall} '${path}'`), { code, syscall, path });
}

const decoder = new TextDecoder();

/** just-bash's filesystem interface over the workspace's, confined to `root` (writes elsewhere: EACCES). */
function bashFs(fs: FsPromises, root: string): IFileSystem {
  const inside = (path: string): boolean => {
    const p = normalizePath(path);
    return p === root || p.startsWith(`${root}/`);
  };
  const above = (path: string): boolean => {
    const p = normalizePath(path);
    return p === '/' || root.startsWith(`${p}/`);
  };
  const read = (path: string): string => {
    const p = normalizePath(path);
    if (!inside(p) && !above(p)) throw fsError('ENOENT', 'open', p, 'no such file or directory (outside the workspace)');
    return p;
  };
  const write = (path: string): string => {
    const p = normalizePath(path);
    if (!inside(p) || p === root) throw fsError('EACCES', 'open', p, 'permission denied (outside the workspace)');
    return p;
  };
  const toStat = (s: FsStats) => ({
    isFile: s.isFile(),
    isDirectory: s.isDirectory(),
    isSymbolicLink: s.isSymbolicLink(),
    mode: s.mode ?? (s.isDirectory() ? 0o40755 : 0o100644),
    size: s.size,
    mtime: new Date(s.mtimeMs),
  });
  const folderStat = { isFile: false, isDirectory: true, isSymbolicLink: false, mode: 0o40755, size: 0, mtime: new Date(0) };
  const statOf = async (path: string, how: 'stat' | 'lstat') => {
    const p = read(path);
    return above(p) ? folderStat : toStat(await fs[how](p));
  };
  const bytes = (content: string | Uint8Array): Uint8Array | string => content;
  const copy = async (src: string, dest: string, recursive: boolean): Promise<void> => {
    const s = await fs.lstat(read(src));
    if (s.isDirectory()) {
      if (!recursive) throw fsError('EISDIR', 'cp', src, 'is a directory (pass -r)');
      await fs.mkdir(write(dest), { recursive: true });
      for (const name of await fs.readdir(src)) await copy(`${normalizePath(src)}/${name}`, `${normalizePath(dest)}/${name}`, true);
    } else {
      await fs.writeFile(write(dest), await fs.readFile(src));
    }
  };
  return {
    readFile: async (path) => decoder.decode(await fs.readFile(read(path))),
    readFileBuffer: async (path) => fs.readFile(read(path)),
    writeFile: async (path, content) => fs.writeFile(write(path), bytes(content)),
    appendFile: async (path, content) => {
      const p = write(path);
      let before: Uint8Array = new Uint8Array();
      try {
        before = await fs.readFile(p);
      } catch (error) {
        if ((error as { code?: unknown }).code !== 'ENOENT') throw error;
      }
      const add = typeof content === 'string' ? new TextEncoder().encode(content) : content;
      const all = new Uint8Array(before.length + add.length);
      all.set(before);
      all.set(add, before.length);
      await fs.writeFile(p, all);
    },
    exists: async (path) => {
      try {
        await statOf(path, 'lstat');
        return true;
      } catch {
        return false;
      }
    },
    stat: (path) => statOf(path, 'stat'),
    lstat: (path) => statOf(path, 'lstat'),
    mkdir: async (path, options) => {
      await fs.mkdir(write(path), options);
    },
    readdir: async (path) => {
      const p = read(path);
      if (above(p)) return [root.slice(p === '/' ? 1 : p.length + 1).split('/')[0] as string];
      return fs.readdir(p);
    },
    readdirWithFileTypes: async (path) => {
      const p = read(path);
      if (above(p)) return [{ name: root.slice(p === '/' ? 1 : p.length + 1).split('/')[0] as string, isFile: false, isDirectory: true, isSymbolicLink: false }];
      return (await fs.readdir(p, { withFileTypes: true })).map((d) => ({ name: d.name, isFile: d.isFile(), isDirectory: d.isDirectory(), isSymbolicLink: d.isSymbolicLink() }));
    },
    rm: async (path, options) => fs.rm(write(path), options),
    cp: async (src, dest, options) => copy(src, dest, options?.recursive === true),
    mv: async (src, dest) => fs.rename(write(src), write(dest)),
    resolvePath: (base, path) => (path.startsWith('/') ? normalizePath(path) : normalizePath(`${base}/${path}`)),
    // Globs are expanded by walking the folders (readdir), not from a list of every path.
    getAllPaths: () => [],
    chmod: async (path) => {
      await fs.stat(read(path));
    },
    symlink: async (target, linkPath) => fs.symlink(target, write(linkPath)),
    link: async (existing, newPath) => fs.writeFile(write(newPath), await fs.readFile(read(existing))),
    readlink: async (path) => fs.readlink(read(path)),
    realpath: async (path) => {
      const p = read(path);
      await statOf(p, 'stat');
      return p;
    },
    utimes: async (path) => {
      await fs.stat(read(path));
    },
  };
}

/**
 * A {@link WebShell} running each `run_command` in a fresh just-bash interpreter on the workspace's
 * files (cwd as the tool resolved it), with just-bash's execution limits, network access off (no
 * `curl`), and no Python or JavaScript. The result has the Node platform's shape: `{ stdout, stderr,
 * exit_code, signal: null, timed_out, truncated }`, each stream keeping its first and last 15,000
 * characters around `… [N characters dropped] …`; a command past `timeout_ms` or aborted stops with
 * `timed_out: true` / `exit_code: null`. Writes outside the workspace fail (`EACCES` inside bash).
 */
export function justBash(options: JustBashOptions = {}): WebShell {
  return {
    name: 'just-bash',
    async run(request, signal): Promise<RunCommandResult> {
      const deadline = AbortSignal.timeout(request.timeoutMs);
      const stop = AbortSignal.any([signal, deadline]);
      const bash = new Bash({
        fs: bashFs(request.fs, request.root),
        cwd: request.cwd,
        env: { HOME: request.root, PWD: request.cwd, ...options.env },
        ...(options.executionLimits ? { executionLimits: options.executionLimits } : {}),
      });
      let result: { stdout: string; stderr: string; exitCode: number } | undefined;
      try {
        result = await bash.exec(request.command, { cwd: request.cwd, signal: stop });
      } catch (error) {
        if (!stop.aborted) throw error;
      }
      if (stop.aborted || !result) {
        const out = clip(result?.stdout ?? '');
        const err = clip(result?.stderr ?? '');
        return { stdout: out.text, stderr: err.text, exit_code: null, signal: null, timed_out: deadline.aborted, truncated: out.truncated || err.truncated };
      }
      const out = clip(result.stdout);
      const err = clip(result.stderr);
      return { stdout: out.text, stderr: err.text, exit_code: result.exitCode, signal: null, timed_out: false, truncated: out.truncated || err.truncated };
    },
  };
}
