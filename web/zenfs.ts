/**
 * toolhost/web/zenfs: any ZenFS backend as a mount (or overlay base) of a web workspace: a zip archive
 * read-only (`Zip` from `@zenfs/archives`), a `Fetch` tree, `IndexedDB`, `WebAccess`, `InMemory`. Only
 * a worker that imports this entry bundles ZenFS; `toolhost/web` itself never does. Each mount gets its
 * own ZenFS instance (`resolveMountConfig` + `bindContext`), never the global `configure()`.
 */
// Imported from their own modules rather than the package index: @zenfs/core declares no
// `sideEffects: false`, so its index pulls every backend and the node:fs compat layer into a bundle.
import { resolveMountConfig } from '@zenfs/core/config.js';
import { bindContext } from '@zenfs/core/context.js';
import type { FsDirent, FsPromises } from '../src/core/types.js';
import { describeValue } from '../src/core/options.js';
import { fsMount } from './folders.js';
import type { WebMountSource } from './platform.js';

/** A ZenFS mount configuration: `{ backend, ...its options }`. */
export type ZenfsMountConfig = { backend: unknown; [option: string]: unknown };

/** Options of {@link zenfsMount}. */
export interface ZenfsMountOptions {
  /** Refuse every write with `permission_denied` (default: true for `Zip` and `Iso`, else as the backend allows). */
  readOnly?: boolean;
  /** How messages name the mount (default: its path in the workspace). */
  label?: string;
}

function fsError(code: string, syscall: string, path: string, detail: string): Error {
  return Object.assign(new Error(`${code}: ${detail}, ${syscall} '${path}'`), { code, syscall, path });
}

/**
 * Wraps a ZenFS mount configuration (`{ backend: Zip, data }`, `{ backend: Fetch, index, baseUrl }`, ...)
 * (or a function resolving to one, e.g. after fetching the archive) as a {@link WebMountSource} for
 * `createWebPlatform({ mounts })` or `overlay.base` (it carries the mount code of `toolhost/web/folders` with it). The backend is resolved on the workspace's first use; a write the backend refuses (`EROFS`, a zip) answers
 * `permission_denied` saying the mount is read-only.
 */
export function zenfsMount(config: ZenfsMountConfig | (() => Promise<ZenfsMountConfig>), options: ZenfsMountOptions = {}): WebMountSource {
  if (typeof config !== 'function' && (typeof config !== 'object' || config === null || !('backend' in config))) {
    throw new TypeError(`zenfsMount: config must be a ZenFS mount configuration such as { backend: Zip, data }, or a function resolving to one, not ${describeValue(config)}`);
  }
  const name = typeof config === 'function' ? 'ZenFS' : String((config.backend as { name?: unknown } | null)?.name ?? 'ZenFS');
  const label = options.label ?? `the ${name} mount`;
  // Archives (zip, ISO) are read-only by design.
  const readOnly = options.readOnly ?? (name === 'Zip' || name === 'Iso');
  return fsMount(
    async (): Promise<FsPromises> => {
      const mounted = await resolveMountConfig((typeof config === 'function' ? await config() : config) as never);
      const context = bindContext({ root: '/', mounts: { '/': mounted } } as never);
      const inner = context.fs.promises as unknown as FsPromises;
      // One operation at a time: concurrent first reads of a zip archive's entries returned wrong data
      // (seen in Chromium with @zenfs/archives 1.3.6), and the tools read several files at once.
      let queue: Promise<unknown> = Promise.resolve();
      const call = <T>(syscall: string, path: string, fn: () => Promise<T>): Promise<T> => {
        const run = queue.then(async () => {
          try {
            return await fn();
          } catch (error) {
            if ((error as { code?: unknown } | null)?.code === 'EROFS') throw fsError('EACCES', syscall, path, `${label} is read-only; nothing was changed`);
            throw error;
          }
        });
        queue = run.catch(() => undefined);
        return run;
      };
      function readdir(path: string): Promise<string[]>;
      function readdir(path: string, o: { withFileTypes: true }): Promise<FsDirent[]>;
      function readdir(path: string, o?: { withFileTypes: true }): Promise<string[] | FsDirent[]> {
        return call<string[] | FsDirent[]>('scandir', path, () => (o ? inner.readdir(path, o) : inner.readdir(path)));
      }
      return {
        readFile: (p) => call('open', p, () => inner.readFile(p)),
        writeFile: (p, d) => call('open', p, () => inner.writeFile(p, d)),
        mkdir: (p, o) => call('mkdir', p, () => inner.mkdir(p, o)),
        readdir,
        stat: (p) => call('stat', p, () => inner.stat(p)),
        lstat: (p) => call('lstat', p, () => inner.lstat(p)),
        readlink: (p) => call('readlink', p, () => inner.readlink(p)),
        symlink: (t, p) => call('symlink', p, () => inner.symlink(t, p)),
        rename: (a, b) => call('rename', a, () => inner.rename(a, b)),
        rm: (p, o) => call('rm', p, () => inner.rm(p, o)),
        unlink: (p) => call('unlink', p, () => inner.unlink(p)),
      };
    },
    { readOnly, ...(options.label === undefined ? {} : { label: options.label }) },
  );
}
