// One vite build of the test pages (or of the demo) per change of their sources, shared by every test
// file that serves it: a build takes 3 to 7 s on two busy cores, and fourteen browser test files served
// the same bytes, each from a build of its own. The build is kept under node_modules/.cache, named by a
// hash of every file it can read (its own sources, the toolhost sources, the generated lazy bundles, the
// lockfile, the harness that configures it): changing any of them builds again.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');
const CACHE = join(ROOT, 'node_modules', '.cache', 'toolhost-tests');
/** Folders that are never inputs of a build. */
const SKIP = new Set(['node_modules', '.git', 'dist', 'test-results', 'demo-dist']);
/** A lock whose folder has no owner's pid this long after it was made was left half-made: taken over. */
const UNNAMED_LOCK_MS = 10_000;
const POLL_MS = 50;

function addFiles(hash: ReturnType<typeof createHash>, path: string): void {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) {
    hash.update(`missing ${relative(ROOT, path)}\0`);
  } else if (stat.isDirectory()) {
    for (const name of readdirSync(path).sort()) if (!SKIP.has(name)) addFiles(hash, join(path, name));
  } else {
    hash.update(`${relative(ROOT, path)}\0`);
    hash.update(readFileSync(path));
    hash.update('\0');
  }
}

/** The hash of the files and folders at `inputs` (paths from the repository root): names and contents. */
export function inputsHash(inputs: readonly string[]): string {
  const hash = createHash('sha256');
  for (const input of inputs) addFiles(hash, join(ROOT, input));
  return hash.digest('hex').slice(0, 20);
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether the build lock `lock` was left by a process that ended while it built (or never named itself). */
function abandoned(lock: string): boolean {
  let owner = Number.NaN;
  try {
    owner = Number(readFileSync(join(lock, 'pid'), 'utf8'));
  } catch {
    // made and not yet named, or released meanwhile
  }
  if (Number.isInteger(owner) && owner > 0) {
    try {
      process.kill(owner, 0);
      return false;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code !== 'EPERM';
    }
  }
  const made = statSync(lock, { throwIfNoEntry: false });
  return made !== undefined && Date.now() - made.mtimeMs > UNNAMED_LOCK_MS;
}

/**
 * The folder of the build named `name` of `inputs` (paths from the repository root), built by `build`
 * into the folder it is given when no run built these inputs before. Two test files (or two runs of the
 * suite side by side) that ask at once build once: the first takes a lock (a folder naming its pid),
 * the others wait for its folder, or build themselves when its process ended without one. The folder is shared: the callers serve it and never write to it or remove it.
 */
export async function cachedBuild(name: string, inputs: readonly string[], build: (outDir: string) => Promise<void>): Promise<string> {
  const final = join(CACHE, `${name}-${inputsHash(inputs)}`);
  const lock = `${final}.lock`;
  mkdirSync(CACHE, { recursive: true });
  for (;;) {
    if (existsSync(final)) return final;
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, 'pid'), String(process.pid));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (abandoned(lock)) rmSync(lock, { recursive: true, force: true });
      else await sleep(POLL_MS);
      continue;
    }
    try {
      if (existsSync(final)) return final;
      const building = `${final}.tmp-${process.pid}`;
      rmSync(building, { recursive: true, force: true });
      await build(building);
      renameSync(building, final);
      prune(name, final);
      return final;
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
}

/** Removes the builds of `name` other than `keep` that nothing touched for an hour (older sources). */
function prune(name: string, keep: string): void {
  for (const entry of readdirSync(CACHE)) {
    const path = join(CACHE, entry);
    if (!entry.startsWith(`${name}-`) || path === keep || entry.endsWith('.lock')) continue;
    const stat = statSync(path, { throwIfNoEntry: false });
    if (stat && Date.now() - stat.mtimeMs > 3_600_000) rmSync(path, { recursive: true, force: true });
  }
}
