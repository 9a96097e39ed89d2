import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../test/support/build.js';
import { main } from './cli.js';
import { searchIndexFile } from './search-index-store.js';

// `toolhost call … --search-index`: the first process builds the index after answering and saves it
// under $XDG_CACHE_HOME; the next reads it; every answer is the one without the flag.
const BIN = join(import.meta.dirname, '..', 'bin', 'toolhost.mjs');
const base = realpathSync(mkdtempSync(join(tmpdir(), 'toolhost-cli-index-')));
const root = join(base, 'ws');
const cache = join(base, 'cache');
beforeAll(() => ensureBuilt(), 240_000);
afterAll(() => rmSync(base, { recursive: true, force: true }));

function call(args: Record<string, unknown>, flags: string[]): unknown {
  const run = spawnSync(process.execPath, [BIN, 'call', 'grep_search', JSON.stringify(args), '--root', root, ...flags], {
    encoding: 'utf8',
    env: { ...process.env, XDG_CACHE_HOME: cache },
  });
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  return JSON.parse(run.stdout);
}

describe('toolhost call --search-index', () => {
  it('saves the index when the first call exits, reads it in the next, and answers as without it', () => {
    for (let i = 0; i < 300; i += 1) {
      mkdirSync(join(root, `d${i % 10}`), { recursive: true });
      writeFileSync(join(root, `d${i % 10}/f${i}.txt`), `line ${i}\n${i % 100 === 3 ? 'quokka here\n' : ''}`.repeat(10));
    }
    const args = { pattern: 'quokka', output_mode: 'count' };
    const plain = call(args, []);
    expect(plain).toMatchObject({ result: { total_matches: 30, total_files: 3 } });
    const file = searchIndexFile(root, join(cache, 'toolhost', 'search-index'));
    expect(existsSync(file)).toBe(false);
    expect(call(args, ['--search-index'])).toEqual(plain);
    expect(statSync(file).size).toBeGreaterThan(0);
    expect(call(args, ['--search-index'])).toEqual(plain);
    writeFileSync(join(root, 'd0/new.txt'), 'quokka again\n');
    expect(call(args, ['--search-index'])).toMatchObject({ result: { total_matches: 31, total_files: 4 } });
  }, 60_000);

  it.each([
    ['a file', (path: string) => writeFileSync(path, 'not a folder\n'), 'a regular file'],
    ['a FIFO', (path: string) => execFileSync('mkfifo', [path]), 'a FIFO \\(named pipe\\)'],
  ])('says on stderr when the index cannot be saved (XDG_CACHE_HOME names %s): the real cause, and to remove it; answers as without it', (what, plant, kind) => {
    if (what === 'a FIFO' && process.platform === 'win32') return;
    const blocked = join(base, `cache-is-${what === 'a file' ? 'a-file' : 'a-fifo'}`);
    plant(blocked);
    const args = { pattern: 'quokka', output_mode: 'count' };
    const run = spawnSync(process.execPath, [BIN, 'call', 'grep_search', JSON.stringify(args), '--root', root, '--search-index'], {
      encoding: 'utf8',
      env: { ...process.env, XDG_CACHE_HOME: blocked },
      timeout: 50_000,
      killSignal: 'SIGKILL',
    });
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(call(args, []));
    // The cause is the path through the file (not the removal of a temporary that was never made).
    const shown = blocked.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    expect(run.stderr).toMatch(
      new RegExp(`^toolhost: search index in use, but it could not be saved \\(ENOTDIR: not a directory, stat '${shown}/toolhost/search-index'\\): the next start builds it again; ${shown} is ${kind}, not a folder: remove it, or set XDG_CACHE_HOME \\(or the searchIndex cacheDir option\\) to a folder of your own\n$`),
    );
  }, 60_000);

  it('ends when the index cannot be saved under /proc (where Node\'s own recursive mkdir never returns), saying so on stderr', () => {
    if (process.platform !== 'linux') return;
    const args = { pattern: 'quokka', output_mode: 'count' };
    // A deadline on behaviour: the process must end, however long a busy machine makes it take.
    const run = spawnSync(process.execPath, [BIN, 'call', 'grep_search', JSON.stringify(args), '--root', root, '--search-index'], {
      encoding: 'utf8',
      env: { ...process.env, XDG_CACHE_HOME: '/proc/sys' },
      timeout: 50_000,
    });
    expect(run.signal).toBeNull();
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(call(args, []));
    expect(run.stderr).toMatch(/^toolhost: search index in use, but it could not be saved \(E[A-Z]+: [^\n]*\/proc\/sys\/toolhost[^\n]*\): the next start builds it again; the folder \/proc\/sys\/toolhost\/search-index could not be made: make \/proc\/sys writable, or set XDG_CACHE_HOME \(or the searchIndex cacheDir option\) to a folder of your own\n$/);
  }, 60_000);

  it('keeps no index for `tools`, which runs no tool', () => {
    const other = join(base, 'tools-only');
    mkdirSync(other, { recursive: true });
    for (let i = 0; i < 20; i += 1) writeFileSync(join(other, `f${i}.txt`), `line ${i}\n`);
    const run = spawnSync(process.execPath, [BIN, 'tools', '--root', other, '--search-index'], { encoding: 'utf8', env: { ...process.env, XDG_CACHE_HOME: cache } });
    expect(run.status).toBe(0);
    expect(run.stderr).toBe('');
    expect((JSON.parse(run.stdout) as { name: string }[]).map((tool) => tool.name)).toContain('grep_search');
    expect(existsSync(searchIndexFile(other, join(cache, 'toolhost', 'search-index')))).toBe(false);
  }, 60_000);
});

// --search-index-max-bytes / --search-index-max-build-bytes: the index's two budgets from the command
// line; an index that would pass one is not kept, searches scan (the same answers) and stderr says
// which flag to give what.
describe('toolhost --search-index-max-bytes / --search-index-max-build-bytes', () => {
  const small = join(base, 'small');
  const smallCache = join(base, 'small-cache');
  const args = { pattern: 'wombat', output_mode: 'count' };
  let plain: unknown;

  /** `toolhost call grep_search` on the small tree with `flags`: its exit code, stdout (parsed) and stderr. */
  function callSmall(flags: string[], cacheDir = smallCache): { status: number | null; result: unknown; stderr: string } {
    const run = spawnSync(process.execPath, [BIN, 'call', 'grep_search', JSON.stringify(args), '--root', small, ...flags], {
      encoding: 'utf8',
      env: { ...process.env, XDG_CACHE_HOME: cacheDir },
    });
    return { status: run.status, result: run.stdout === '' ? undefined : JSON.parse(run.stdout), stderr: run.stderr };
  }
  const indexFile = (cacheDir: string): string => searchIndexFile(small, join(cacheDir, 'toolhost', 'search-index'));
  const fresh = (name: string): string => {
    const dir = join(base, name);
    rmSync(dir, { recursive: true, force: true });
    return dir;
  };

  beforeAll(() => {
    for (let i = 0; i < 120; i += 1) {
      mkdirSync(join(small, `d${i % 4}`), { recursive: true });
      writeFileSync(join(small, `d${i % 4}/f${i}.txt`), `row ${i} ${(i * 2654435761).toString(36)}\n${i % 40 === 5 ? 'wombat here\n' : ''}`.repeat(8));
    }
    const run = callSmall([]);
    expect(run).toMatchObject({ status: 0, stderr: '' });
    plain = run.result;
    expect(plain).toMatchObject({ result: { total_matches: 24, total_files: 3 } });
  });

  it.each([
    [['--search-index', '--search-index-max-bytes', 'abc'], /^toolhost: --search-index-max-bytes takes a size written as a whole number of bytes, or one with a K, M or G suffix \(powers of 1024\) such as 512M or 1G, got "abc"\n$/],
    [['--search-index', '--search-index-max-bytes', '0'], /--search-index-max-bytes takes a size above 0 as a whole number .*, got "0"/],
    [['--search-index', '--search-index-max-bytes', '1.5G'], /--search-index-max-bytes takes a size written as a whole number .*, got "1\.5G"/],
    [['--search-index', '--search-index-max-bytes', '12T'], /--search-index-max-bytes takes a size written as a whole number .*, got "12T"/],
    [['--search-index', '--search-index-max-bytes=-5'], /--search-index-max-bytes takes a size above 0 as a whole number .*, got "-5"/],
    [['--search-index', '--search-index-max-bytes', '99999999999G'], /--search-index-max-bytes takes a size of at most 9007199254740991 bytes \(8 PiB\) as a whole number .*, got "99999999999G"/],
    [['--search-index', '--search-index-max-build-bytes', '1 G'], /--search-index-max-build-bytes takes a size written as a whole number .*, got "1 G"/],
    [['--search-index-max-bytes', '1G'], /^toolhost: --search-index-max-bytes sets a budget of the search index: give --search-index too\n$/],
    [['--search-index-max-build-bytes', '1G'], /^toolhost: --search-index-max-build-bytes sets a budget of the search index: give --search-index too\n$/],
  ])('%j is a usage error (exit 2) naming the flag, what was given and what it takes', async (flags, message) => {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    let out = '';
    let err = '';
    stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    const code = await main(['call', 'grep_search', '{"pattern":"x"}', '--root', small, ...flags], { stdout, stderr, handleSignals: false });
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err).toMatch(message);
  });

  it.each([
    ['1K', 'maxIndex', '1.0 KiB'],
    ['2048', 'maxIndex', '2.0 KiB'],
    ['3k', 'maxIndex', '3.0 KiB'],
    ['1M', 'maxBuild', '1.0 MiB'],
    ['1MiB', 'maxBuild', '1.0 MiB'],
    ['1048576', 'maxBuild', '1.0 MiB'],
  ])('a budget of %s (%s): no index kept, the same answer, and stderr names the flag, the limit given and what to give it', (size, which, limit) => {
    const flag = which === 'maxIndex' ? '--search-index-max-bytes' : '--search-index-max-build-bytes';
    const what = which === 'maxIndex' ? 'index size' : 'build memory';
    const cacheDir = fresh(`cache-${which}-${size}`);
    const run = callSmall(['--search-index', flag, size], cacheDir);
    expect(run.status).toBe(0);
    expect(run.result).toEqual(plain);
    const head = `^toolhost: search index off, searches scan every file: its ${what} reached [\\d.]+ (?:KiB|MiB) after \\d+ of 120 files, [\\d.]+ (?:B|KiB|MiB) over ${flag} \\([\\d.]+ (?:KiB|MiB)\\); set ${flag} `;
    // Stopped early: only the bound it reached (no projected figure); late: the figure for the whole.
    const early = new RegExp(`${head}above [\\d.]+ (?:KiB|MiB) \\((?<bound>\\d+) bytes\\): the build had done \\d+ of 120 files, and the whole (?:index is larger|build needs more), how much is known only once a build gets further\\n$`);
    const late = new RegExp(`${head}to \\d+ MiB \\((?<figure>\\d+) bytes\\) or more to index this workspace \\(projected from the \\d+ of 120 files done\\)\\n$`);
    // Measured whole (a build's end): its figure.
    const built = new RegExp(`^toolhost: search index off, searches scan every file: its ${what} is [\\d.]+ (?:KiB|MiB) once built, [\\d.]+ (?:B|KiB|MiB) over ${flag} \\([\\d.]+ (?:KiB|MiB)\\); set ${flag} to \\d+ MiB \\((?<figure>\\d+) bytes\\) or more to index this workspace\\n$`);
    // One of the three (not one regex of all three: named groups repeated across alternatives need Node 24's V8).
    const isNote = (text: string): boolean => [early, late, built].some((form) => form.test(text));
    expect(run.stderr).toContain(` over ${flag} (${limit}); `);
    expect(isNote(run.stderr), run.stderr).toBe(true);
    expect(existsSync(indexFile(cacheDir))).toBe(false);
    // Following the notes admits the index: above each bound an early stop gives (twice it here),
    // and a projected figure admits it at once.
    let note = run.stderr;
    for (let tries = 0; ; tries += 1) {
      expect(tries).toBeLessThan(12);
      const projected = late.exec(note) ?? built.exec(note);
      const bytes = projected ? (projected.groups?.figure as string) : String(2 * Number(early.exec(note)?.groups?.bound));
      const again = callSmall(['--search-index', flag, bytes], cacheDir);
      if (projected) {
        expect(again).toEqual({ status: 0, result: plain, stderr: '' });
        break;
      }
      if (again.stderr === '') break;
      note = again.stderr;
      expect(isNote(note), note).toBe(true);
    }
    expect(statSync(indexFile(cacheDir)).size).toBeGreaterThan(0);
  }, 60_000);

  it('budgets that admit the index (1G, 2g, 512MiB): the index is kept as with --search-index alone, nothing on stderr', () => {
    const cacheDir = fresh('cache-roomy');
    expect(callSmall(['--search-index', '--search-index-max-bytes', '1G', '--search-index-max-build-bytes', '2g'], cacheDir)).toEqual({ status: 0, result: plain, stderr: '' });
    expect(statSync(indexFile(cacheDir)).size).toBeGreaterThan(0);
    const other = fresh('cache-roomy-2');
    expect(callSmall(['--search-index', '--search-index-max-bytes', '512MiB'], other)).toEqual({ status: 0, result: plain, stderr: '' });
    expect(statSync(indexFile(other)).size).toBeGreaterThan(0);
  }, 60_000);

  it('run: the note comes on stderr while the process runs, and the searches after it answer as a scan', async () => {
    const cacheDir = fresh('cache-run');
    const child = spawn(process.execPath, [BIN, 'run', '--root', small, '--search-index', '--search-index-max-bytes', '1K'], {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, XDG_CACHE_HOME: cacheDir },
    });
    let stdout = '';
    let stderr = '';
    const waitFor = async (what: () => boolean, label: string): Promise<void> => {
      for (const until = Date.now() + 30_000; !what(); ) {
        if (Date.now() > until) throw new Error(`no ${label} within 30 s (stdout ${JSON.stringify(stdout)}, stderr ${JSON.stringify(stderr)})`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    const line = (id: string): string => `${JSON.stringify({ id, name: 'grep_search', args })}\n`;
    child.stdin.write(line('1'));
    await waitFor(() => stderr.includes('\n'), 'note on stderr');
    expect(stderr).toMatch(/^toolhost: search index off, searches scan every file: its index size reached .* over --search-index-max-bytes \(1\.0 KiB\); set --search-index-max-bytes (above|to) /);
    child.stdin.end(line('2'));
    expect(await exited).toBe(0);
    const results = stdout.trim().split('\n').map((text) => JSON.parse(text) as { id: string; result: unknown });
    const expected = (plain as { result: unknown }).result;
    expect(results).toEqual([
      { id: '1', name: 'grep_search', result: expected },
      { id: '2', name: 'grep_search', result: expected },
    ]);
    expect(stderr.split('\n').filter(Boolean)).toHaveLength(1);
    expect(existsSync(indexFile(cacheDir))).toBe(false);
  }, 60_000);
});
