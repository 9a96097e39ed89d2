import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from './support/build.js';

// `npm run build` bundles the CLI (scripts/build-cli.mjs): bin/toolhost.mjs loads
// dist/node/cli.bundle.mjs while it is not older than dist/node/cli.js, and the bundled search helper
// starts the bundled worker. Which modules a process loaded is read from a module hook that logs
// every file it loads, in each thread (and, as `cached <file>`, each it loads while that thread has
// Node's compile cache on).

const REPO = join(import.meta.dirname, '..');
const BIN = join(REPO, 'bin', 'toolhost.mjs');
const BUNDLE = join(REPO, 'dist', 'node', 'cli.bundle.mjs');
let temp = '';
let tree = '';
let hook = '';

beforeAll(() => {
  ensureBuilt();
  const build = spawnSync(process.execPath, [join(REPO, 'scripts', 'build-cli.mjs')], { cwd: REPO, encoding: 'utf8' });
  expect(build.status, build.stderr).toBe(0);
  temp = mkdtempSync(join(tmpdir(), 'toolhost-cli-bundle-'));
  tree = join(temp, 'tree');
  // Over the 256 files from which a count is shared with the helper thread.
  mkdirSync(tree);
  for (let i = 0; i < 300; i += 1) writeFileSync(join(tree, `f${i}.txt`), i % 2 === 0 ? `alpha ${i}\nalpha again\n` : `beta ${i}\n`);
  hook = join(temp, 'hook.mjs');
  // Logs each file module loaded, and the module each worker thread is started with (Worker
  // wrapped before the CLI imports it: the thread may not have loaded its module when the process ends).
  writeFileSync(
    hook,
    [
      "import { getCompileCacheDir, registerHooks, syncBuiltinESMExports } from 'node:module';",
      "const { appendFileSync } = process.getBuiltinModule('node:fs');",
      // (not imported: node:fs's module facade reads every export, fs.promises among them, which loads node:fs/promises)
      "import threads from 'node:worker_threads';",
      'const log = (url) => appendFileSync(process.env.LOADED_LOG, `${url}\\n`);',
      "registerHooks({ load(url, context, next) { if (url.startsWith('file:')) { log(url); if (getCompileCacheDir()) log(`cached ${url}`); } return next(url, context); } });",
      'const Worker = threads.Worker;',
      'threads.Worker = class extends Worker { constructor(url, options) { log(`worker ${url}`); super(url, options); } };',
      'syncBuiltinESMExports();',
      // Node's modules that a search needs none of, when something loaded them (crypto alone takes a new process tens of milliseconds).
      "const heavy = { 'NativeModule crypto': 'node:crypto', 'NativeModule internal/fs/promises': 'node:fs/promises' };",
      "process.on('exit', () => { for (const [entry, name] of Object.entries(heavy)) if (process.moduleLoadList.includes(entry)) log(`builtin ${name}`); });",
      '',
    ].join('\n'),
  );
}, 240_000);
afterAll(() => rmSync(temp, { recursive: true, force: true }));

/** Runs the launcher with `args` (and `input` on stdin): exit code, stdout, and the files of this repository it loaded and started workers on (relative). */
function launch(args: string[], input = '', extraEnv: NodeJS.ProcessEnv = {}): { status: number | null; stdout: string; loaded: string[] } {
  const log = join(temp, `loaded-${Math.random().toString(36).slice(2)}.log`);
  writeFileSync(log, '');
  const env: NodeJS.ProcessEnv = { ...process.env, ...extraEnv, LOADED_LOG: log };
  delete env.NODE_DISABLE_COMPILE_CACHE;
  const run = spawnSync(process.execPath, ['--import', hook, BIN, ...args], { cwd: tree, input, encoding: 'utf8', env });
  const prefix = `file://${REPO}/`;
  const loaded = readFileSync(log, 'utf8')
    .split('\n')
    .map((url) => url.replace(prefix, ''))
    .filter((url) => !url.startsWith('file:') && url !== '');
  return { status: run.status, stdout: run.stdout, loaded };
}

const COUNT = JSON.stringify({ pattern: 'alpha', fixed_strings: true, output_mode: 'count' });

describe('the bundled toolhost command', () => {
  it('loads dist/node/cli.bundle.mjs, not the ~125 modules of dist/, and answers call grep_search without starting a helper thread', () => {
    const { status, stdout, loaded } = launch(['call', 'grep_search', COUNT, '--root', '.']);
    expect(status).toBe(0);
    expect((JSON.parse(stdout) as { result: { total_matches: number } }).result.total_matches).toBe(300);
    expect(loaded).toContain('dist/node/cli.bundle.mjs');
    expect(loaded.filter((path) => path.startsWith('dist/') && path.endsWith('.js'))).toEqual([]);
    // One call, then the process exits: no helper thread (nor search cache) for it.
    expect(loaded.filter((entry) => entry.startsWith('worker '))).toEqual([]);
  });

  it('answers a one-search call without loading node:crypto or node:fs/promises (the file locks make their token when the first lock is taken; the bundle loads fs/promises on its first call)', () => {
    const search = launch(['call', 'grep_search', COUNT, '--root', '.']);
    expect(search.status).toBe(0);
    expect((JSON.parse(search.stdout) as { result: { total_matches: number } }).result.total_matches).toBe(300);
    expect(search.loaded.filter((entry) => entry.startsWith('builtin '))).toEqual([]);
    // A write takes a file lock: its token is random, so crypto is loaded then (the log sees it).
    const write = launch(['call', 'create_file', JSON.stringify({ file_path: 'new.txt', content: 'x\n' }), '--root', '.']);
    expect(write.status, write.stdout).toBe(0);
    expect(readFileSync(join(tree, 'new.txt'), 'utf8')).toBe('x\n');
    rmSync(join(tree, 'new.txt'));
    expect(write.loaded.filter((entry) => entry.startsWith('builtin '))).toEqual(['builtin node:crypto']);
  });

  it('answers a call with --search-index from the index on disk without loading node:crypto (the index file is named without it)', () => {
    const cache = { XDG_CACHE_HOME: join(temp, 'index-cache') };
    const args = ['call', 'grep_search', COUNT, '--root', '.', '--search-index'];
    const built = launch(args, '', cache);
    expect(built.status, built.stdout).toBe(0);
    const again = launch(args, '', cache);
    expect(again.status).toBe(0);
    expect((JSON.parse(again.stdout) as { result: { total_matches: number } }).result.total_matches).toBe(300);
    // No node:crypto. The index is read without node:fs/promises; it loads only when this call writes the
    // index or the folder listings again (what the first call found racy, written just before it, is read
    // again once settled), which depends on how soon this call follows.
    const builtins = again.loaded.filter((entry) => entry.startsWith('builtin '));
    expect(builtins.filter((entry) => entry !== 'builtin node:fs/promises')).toEqual([]);
  });

  it('starts its search helper thread on the bundled worker module, dist/node/search-worker.bundle.mjs', () => {
    const line = (id: string): string => JSON.stringify({ id, name: 'grep_search', args: JSON.parse(COUNT) });
    const { status, stdout, loaded } = launch(['run', '--root', '.'], `${line('1')}\n${line('2')}\n`);
    expect(status).toBe(0);
    const totals = stdout
      .trim()
      .split('\n')
      .map((text) => (JSON.parse(text) as { result: { total_matches: number } }).result.total_matches);
    expect(totals).toEqual([300, 300]);
    expect(loaded.filter((entry) => entry.startsWith('worker '))).toEqual(['worker dist/node/search-worker.bundle.mjs']);
    expect(loaded).toContain('cached dist/node/cli.bundle.mjs');
  });

  it("turns Node's compile cache on in the search helper thread before it loads the thread's code", () => {
    // The thread of a short run may not have loaded its code when the process ends: here a thread is
    // started on the same module and the process waits (up to 30 s) until the thread has loaded it.
    const log = join(temp, 'worker-loaded.log');
    writeFileSync(log, '');
    const code = join(REPO, 'dist', 'node', 'search-worker.bundle-code.mjs');
    const script = [
      "import { Worker } from 'node:worker_threads';",
      "import { readFileSync } from 'node:fs';",
      `const worker = new Worker(new URL(${JSON.stringify(`file://${join(REPO, 'dist', 'node', 'search-worker.bundle.mjs')}`)}));`,
      'const end = Date.now() + 30_000;',
      // Until the hook has logged the load with the cache on (its second line of that load: the first may come alone).
      `const timer = setInterval(() => { if (readFileSync(process.env.LOADED_LOG, 'utf8').includes(${JSON.stringify(`cached file://${code}`)}) || Date.now() > end) { clearInterval(timer); void worker.terminate(); } }, 20);`,
    ].join('\n');
    const env: NodeJS.ProcessEnv = { ...process.env, LOADED_LOG: log };
    delete env.NODE_DISABLE_COMPILE_CACHE;
    const main = join(temp, 'start-worker.mjs');
    writeFileSync(main, script);
    const run = spawnSync(process.execPath, ['--import', hook, main], { cwd: tree, encoding: 'utf8', env });
    expect(run.status, run.stderr).toBe(0);
    const loaded = readFileSync(log, 'utf8').split('\n').map((url) => url.replace(`file://${REPO}/`, ''));
    // That module turns on Node's compile cache in the thread (it has not the main thread's), then loads the thread's code.
    expect(loaded).toContain('dist/node/search-worker.bundle.mjs');
    expect(loaded).toContain('cached dist/node/search-worker.bundle-code.mjs');
  });

  it('falls back to dist/node/cli.js when the bundle is older than it (a tsc run after the last npm run build)', () => {
    const { atime, mtime } = statSync(BUNDLE);
    const plain = statSync(join(REPO, 'dist', 'node', 'cli.js')).mtimeMs;
    utimesSync(BUNDLE, atime, new Date(plain - 60_000));
    try {
      const { status, stdout, loaded } = launch(['call', 'grep_search', COUNT, '--root', '.']);
      expect(status).toBe(0);
      expect((JSON.parse(stdout) as { result: { total_matches: number } }).result.total_matches).toBe(300);
      expect(loaded).toContain('dist/node/cli.js');
      expect(loaded).not.toContain('dist/node/cli.bundle.mjs');
    } finally {
      utimesSync(BUNDLE, atime, mtime);
    }
  });
});
