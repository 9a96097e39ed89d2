import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';

// One build for every test that runs built code (child processes, worker threads, the CLI): dist/, as
// `npm run build` emits it (`npm test` builds first, so there it is only checked). A test run that
// finds dist/ older than a source (a run of a few files after an edit) rebuilds it once, whichever
// test asks first; the others wait for that build instead of compiling the package again.

const REPO = join(import.meta.dirname, '..', '..');
/** The shared build: `npm run build`'s output. */
export const DIST = join(REPO, 'dist');
/** The folders tsconfig.build.json compiles. */
const SOURCE_DIRS = ['src', 'web', 'node', 'bridges'];
const LOCK = join(REPO, 'node_modules', '.cache', 'toolhost-build.lock');
/** How long a test waits for another process's build before it gives up (ms). */
const LOCK_WAIT_MS = 240_000;

/** The compiled sources of `dir` (not tests, not .d.ts), relative to the repository. */
function sources(dir: string): string[] {
  return readdirSync(join(REPO, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === '__snapshots__' ? [] : sources(rel);
    return /\.(ts|js|mjs)$/.test(entry.name) && !/\.(test|spec)\.ts$|\.d\.ts$/.test(entry.name) ? [rel] : [];
  });
}

/** Whether every compiled source has its output in dist/, written after the source last changed. */
export function distIsCurrent(): boolean {
  return SOURCE_DIRS.every((dir) =>
    sources(dir).every((source) => {
      const built = join(DIST, source.replace(/\.(ts|mjs)$/, (ext) => (ext === '.ts' ? '.js' : ext)));
      return existsSync(built) && statSync(built).mtimeMs >= statSync(join(REPO, source)).mtimeMs;
    }),
  );
}

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether the lock's owner (`owner`, NaN when it wrote no pid) has gone: a dead pid, or no pid 10 s on. */
function lockIsAbandoned(owner: number): boolean {
  if (Number.isInteger(owner) && owner > 0) return !processIsAlive(owner);
  try {
    return Date.now() - statSync(LOCK).mtimeMs > 10_000;
  } catch {
    return false; // released meanwhile
  }
}

/** Takes the build lock (a folder naming its owner's pid); waits while a live process holds it. */
function lock(): void {
  mkdirSync(join(REPO, 'node_modules', '.cache'), { recursive: true });
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      mkdirSync(LOCK);
      writeFileSync(join(LOCK, 'pid'), String(process.pid));
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    let owner = Number.NaN;
    try {
      owner = Number(readFileSync(join(LOCK, 'pid'), 'utf8'));
    } catch {
      // the owner has made the folder and not yet written its pid, or has just released it
    }
    if (lockIsAbandoned(owner)) rmSync(LOCK, { recursive: true, force: true });
    else if (Date.now() > deadline) throw new Error(`test build: another process has held ${LOCK} for ${LOCK_WAIT_MS / 1000} s; remove it if no test run is building`);
    else sleep(200);
  }
}

/**
 * Makes dist/ current: compiles the package (tsconfig.build.json, as `npm run build` does) when a
 * source is newer than its output, under a lock so that parallel test files build once. tsc emits
 * even where another file of the tree is mid-edit, so type errors are tolerated; a build that leaves
 * dist/ without the package's entry throws with tsc's output. Returns {@link DIST}.
 */
export function ensureBuilt(): string {
  if (distIsCurrent() && !existsSync(LOCK)) return DIST;
  lock();
  try {
    if (!distIsCurrent()) {
      const tsc = spawnSync(process.execPath, [join(REPO, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(REPO, 'tsconfig.build.json')], {
        cwd: REPO,
        encoding: 'utf8',
      });
      if (!existsSync(join(DIST, 'src', 'index.js')) || !existsSync(join(DIST, 'node', 'index.js'))) {
        throw new Error(`test build: tsc did not emit dist/ (exit ${tsc.status ?? tsc.signal}):\n${tsc.stdout}\n${tsc.stderr}`);
      }
    }
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
  return DIST;
}

/**
 * A folder `node_modules/.cache/<name>` for one test file's plain .mjs scripts that import the built
 * package by relative path (`./src/index.js`, `./node/index.js`, `./bridges/...`, `./web/...`): those
 * names link to the shared build in dist/ ({@link ensureBuilt} first), and a package.json carries the
 * package's `imports` (#lazy). Returns the folder's path. Node resolves the links to dist/, so the
 * built modules find the repository's node_modules and package.json as the package's own files do.
 */
export function buildPackage(name: string): string {
  const dist = ensureBuilt();
  const out = join(REPO, 'node_modules', '.cache', name);
  mkdirSync(out, { recursive: true });
  const targets: [string, string][] = [...SOURCE_DIRS.map((dir): [string, string] => [dir, join(dist, dir)]), ['lazy', join(REPO, 'lazy')]];
  for (const [link, target] of targets) {
    rmSync(join(out, link), { recursive: true, force: true });
    symlinkSync(relative(out, target), join(out, link), 'dir');
  }
  const manifest = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { imports?: unknown };
  writeFileSync(join(out, 'package.json'), JSON.stringify({ type: 'module', imports: manifest.imports ?? {} }));
  return out;
}

/** The module at `path` of the shared build (`'node/platform.js'`); call {@link ensureBuilt} once before. */
export async function loadBuiltModule<T>(path: string): Promise<T> {
  return (await import(pathToFileURL(join(DIST, path)).href)) as T;
}
