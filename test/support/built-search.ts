import { spawnSync } from 'node:child_process';
import { mkdirSync, realpathSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { ensureBuilt, loadBuiltModule } from './build.js';

// The search helper thread runs built modules (the sources' imports name .js files): the tests that
// need it run the shared build in dist/ (test/support/build.ts: checked, rebuilt once when stale).

export type Core = typeof import('../../src/index.js');
/**
 * The Node entry, with two test hooks imported by path from their modules: the search helper's
 * `stopSearchWorker`, and `pauseRacyClockForTests`, which moves the built caches (and the helper
 * thread's) past their one-second racy window without a real wait.
 */
export type NodeAdapter = typeof import('../../node/index.js') &
  Pick<typeof import('../../node/search-helper.js'), 'stopSearchWorker'> &
  Pick<typeof import('../../src/fs/racy-clock.js'), 'pauseRacyClockForTests'>;

/** The built package's core and Node adapter (dist/, the shared build: rebuilt once when stale). */
export async function loadBuilt(): Promise<{ core: Core; node: NodeAdapter }> {
  ensureBuilt();
  const load = loadBuiltModule;
  const helper = await load<typeof import('../../node/search-helper.js')>('node/search-helper.js');
  const racy = await load<typeof import('../../src/fs/racy-clock.js')>('src/fs/racy-clock.js');
  const node: NodeAdapter = { ...(await load<typeof import('../../node/index.js')>('node/index.js')), stopSearchWorker: helper.stopSearchWorker, pauseRacyClockForTests: racy.pauseRacyClockForTests };
  return { core: await load<Core>('src/index.js'), node };
}

/**
 * The mtime {@link makeTree} gives every file and folder: whole seconds since the epoch, a minute
 * before the tests started (older than the caches' one-second racy window), so a test can set a time
 * back to exactly it.
 */
export const TREE_TIME = Math.floor(Date.now() / 1000) - 60;

/** Writes `files` (relative paths) under a new temporary folder, every file and folder dated {@link TREE_TIME}; returns its real path. */
export function makeTree(prefix: string, files: Record<string, string | Uint8Array>): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), `toolhost-${prefix}-`)));
  const dirs = new Set<string>();
  for (const [rel, content] of Object.entries(files)) {
    const path = join(root, rel);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
    for (let dir = dirname(path); dir.length > root.length; dir = dirname(dir)) dirs.add(dir);
  }
  for (const rel of Object.keys(files)) utimesSync(join(root, rel), TREE_TIME, TREE_TIME);
  for (const dir of dirs) utimesSync(dir, TREE_TIME, TREE_TIME);
  utimesSync(root, TREE_TIME, TREE_TIME);
  return root;
}

/**
 * The built package for the tests of one file, loaded before them (`core`, `node`), and the trees they
 * make with `tree` (as {@link makeTree}), removed after them. Call at the top of the file.
 */
export function builtSearchSuite(): { readonly core: Core; readonly node: NodeAdapter; tree(prefix: string, files: Record<string, string | Uint8Array>): string } {
  let built: { core: Core; node: NodeAdapter } | undefined;
  const roots: string[] = [];
  beforeAll(async () => {
    built = await loadBuilt();
  }, 180_000);
  afterAll(() => {
    for (const root of roots) rmSync(root, { recursive: true, force: true });
  });
  const loaded = (): { core: Core; node: NodeAdapter } => {
    if (!built) throw new Error('the built package is loaded in beforeAll: use it inside tests and hooks');
    return built;
  };
  return {
    get core() {
      return loaded().core;
    },
    get node() {
      return loaded().node;
    },
    tree(prefix, files) {
      const root = makeTree(prefix, files);
      roots.push(root);
      return root;
    },
  };
}

export const hasRg = spawnSync('rg', ['--version'], { stdio: 'ignore' }).status === 0;

/** ripgrep's count of matching lines per file (absolute paths) under `root`. */
export function rgCounts(root: string, pattern: string, options: { fixed?: boolean; ignoreCase?: boolean } = {}): Record<string, number> {
  const args = ['--count', '--no-messages', '--no-config'];
  if (options.fixed) args.push('-F');
  if (options.ignoreCase) args.push('-i');
  args.push('--', pattern, '.');
  const run = spawnSync('rg', args, { cwd: root, encoding: 'utf8' });
  const counts: Record<string, number> = {};
  for (const line of run.stdout.split('\n')) {
    if (line === '') continue;
    const colon = line.lastIndexOf(':');
    counts[join(root, line.slice(2, colon))] = Number(line.slice(colon + 1));
  }
  return counts;
}
