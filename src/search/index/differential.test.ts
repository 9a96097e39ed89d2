// The search index, differentially: on a memory platform, random trees changed at random between
// searches (through the tools and through the platform's fs directly, with the clock standing still
// or moving past the racy window), every grep_search answered with the index equals the answer of a
// plain scan of the same workspace, to the byte; searches repeated with no change between (which reuse
// the last walk and the index's verdicts on it) too.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BuiltinTools, ToolRunner } from '../../index.js';
import { createMemoryPlatform } from '../../platform/memory.js';
import type { Platform } from '../../core/types.js';
import { compileSearchPattern } from '../dialect.js';
import { openIndex, serializeIndex } from './format.js';
import { siftWithIndex, worthSifting } from './sift.js';
import { buildWorkspaceIndex, searchIndexIdle, searchIndexOf, setSearchIndex } from './workspace.js';
import { walkWorkspace } from '../../fs/walk.js';
import { seededRandom as prng } from '../../../test/support/random.js';

const TOKENS = [
  'alpha', 'Alpha', 'ALPHA', 'beta', 'gamma_ray', 'foo', 'bar', 'foobar', 'Straße', 'STRASSE', 'straẞe', 'ſtop', 'stop', 'K', 'k',
  'Kelvin', '\u212aelvin', 'привет', 'ПРИВЕТ', 'Привет', 'σς', 'Σ', 'x1', 'x12', '42px', '7px', 'é', 'e\u0301', '中文', '😀', 'fn(',
  'a.b', 'a+b', '\t', ' ', 'zz', 'ta gam', 'İi', 'ı',
];
const BREAKS = ['\n', '\n', '\n', '\r\n', '\r'];
const PATTERNS: Array<[string, boolean?]> = [
  ['alpha'], ['foo|bar'], ['foo(bar)?'], ['gamma_\\w+'], ['Straße'], ['strasse'], ['ſtop'], ['stop'], ['kelvin'], ['k'], ['привет'],
  ['σ'], ['\\d+px'], ['[0-9]{2}px'], ['x1\\b'], ['\\bx1'], ['a\\.b'], ['a.b'], ['fn\\('], ['^alpha'], ['alpha$'], ['中文'], ['😀'],
  ['e\\u0301'], ['é'], ['(?i)ALPHA beta'], ['beta\\s+gamma'], ['zz|alpha'], ['\\w+'], ['ta gam'], ['oba'], ['a\\nb'], ['(?-u)alpha'],
  ['[ſs]top'], ['p[rР]ивет'], ['a.b', true], ['fn(', true], ['Straße', true], ['ПРИВЕТ', true], ['x12 ', true], ['lpha\tb', true],
  ['(foo|zz)(bar|x1)'], ['İ'], ['ı'], ['(?i)i'], ['a{2}lpha'], ['(al|be)(ph|t)a'],
];
const DIRS = ['', 'src/', 'src/deep/', 'docs/', 'lib/'];

/** Random text of a few lines, sometimes with a BOM; or binary bytes (a NUL, or not UTF-8). */
function content(rand: () => number): string | Uint8Array {
  const roll = rand();
  if (roll < 0.04) return new Uint8Array([0x61, 0x6c, 0x70, 0x68, 0x61, 0, 0x62]);
  if (roll < 0.07) return new Uint8Array([0x61, 0x6c, 0x70, 0x68, 0x61, 0xff, 0x0a]);
  if (roll < 0.09) return '';
  let text = rand() < 0.05 ? '\ufeff' : '';
  const lines = 1 + Math.floor(rand() * 6);
  for (let i = 0; i < lines; i += 1) {
    const words = Math.floor(rand() * 7);
    for (let j = 0; j < words; j += 1) text += (j > 0 && rand() < 0.7 ? ' ' : '') + (TOKENS[Math.floor(rand() * TOKENS.length)] as string);
    if (i < lines - 1 || rand() < 0.8) text += BREAKS[Math.floor(rand() * BREAKS.length)] as string;
  }
  return text;
}

const pick = <T>(rand: () => number, items: readonly T[]): T => items[Math.floor(rand() * items.length)] as T;

async function listFiles(platform: Platform): Promise<string[]> {
  return (await walkWorkspace({ fs: platform.fs, root: platform.root, dir: platform.root, includeIgnored: true })).files.map((f) => f.path);
}

/** One random change: through a tool (`runner`) or the fs directly. */
async function mutate(rand: () => number, platform: Platform, runner: ToolRunner): Promise<void> {
  const files = await listFiles(platform);
  const roll = rand();
  const newPath = `/ws/${pick(rand, DIRS)}f${Math.floor(rand() * 40)}.${pick(rand, ['txt', 'ts', 'md'])}`;
  const somePath = files.length > 0 ? pick(rand, files) : newPath;
  const text = (c: string | Uint8Array): string => (typeof c === 'string' ? c : 'plain text');
  try {
    if (roll < 0.25) await runner.execute('create_file', { file_path: rand() < 0.5 ? somePath : newPath, content: text(content(rand)), overwrite: true });
    else if (roll < 0.35) {
      const old = new TextDecoder().decode(await platform.fs.readFile(somePath));
      const token = TOKENS.find((t) => t.trim() !== '' && old.includes(t));
      if (token) await runner.execute('edit_file', { file_path: somePath, old_string: token, new_string: pick(rand, TOKENS), replace_all: true });
    } else if (roll < 0.6) {
      await platform.fs.mkdir(newPath.slice(0, newPath.lastIndexOf('/')), { recursive: true });
      await platform.fs.writeFile(rand() < 0.5 ? somePath : newPath, content(rand));
    } else if (roll < 0.75) {
      // The same size, the same inode: only the racy rule or a moved clock tells it apart.
      const old = await platform.fs.readFile(somePath);
      const fresh = content(rand);
      const bytes = typeof fresh === 'string' ? new TextEncoder().encode(fresh) : fresh;
      const next = new Uint8Array(old.length).fill(0x20);
      next.set(bytes.subarray(0, old.length));
      await platform.fs.writeFile(somePath, next);
    } else if (roll < 0.85) await platform.fs.rm(somePath, { force: true });
    else if (roll < 0.93) {
      await platform.fs.mkdir(newPath.slice(0, newPath.lastIndexOf('/')), { recursive: true });
      await platform.fs.rename(somePath, newPath);
    } else await platform.fs.writeFile('/ws/.gitignore', rand() < 0.5 ? 'docs/\n' : '*.md\n!keep.md\n');
  } catch {
    // A refused change (a name taken by a folder, an edit the tool declines) changes nothing: fine.
  }
}

type Args = Record<string, unknown>;

async function answer(runner: ToolRunner, args: Args): Promise<unknown> {
  try {
    return await runner.execute('grep_search', args);
  } catch (error) {
    return { error: (error as { code?: string }).code, message: (error as Error).message };
  }
}

function searchArgs(rand: () => number): Args {
  const [pattern, literal] = pick(rand, PATTERNS);
  const args: Args = { pattern, output_mode: pick(rand, ['content', 'count', 'files_with_matches']), case_sensitive: rand() < 0.5 };
  if (literal) args.fixed_strings = true;
  if (rand() < 0.2) args.include = pick(rand, ['*.ts', '**/*.md', 'src/**']);
  if (rand() < 0.1) args.dir_path = pick(rand, ['src', 'docs', 'lib']);
  if (args.output_mode === 'content' && rand() < 0.3) args.context_lines = 1;
  return args;
}

const CLOCK_STEPS = [0, 0, 0, 0, 0, 1, 3, 700, 1500, 5000];

async function run(seed: number, rounds: number, options: { noSource?: boolean } = {}): Promise<{ skipped: number; scanned: number; used: number }> {
  const rand = prng(seed);
  const files: Record<string, string | Uint8Array> = {};
  const count = 10 + Math.floor(rand() * 30);
  for (let i = 0; i < count; i += 1) files[`${pick(rand, DIRS)}f${i}.${pick(rand, ['txt', 'ts', 'md'])}`] = content(rand);
  const memory = createMemoryPlatform({ root: '/ws', files });
  // Without a search source, files are read through fs and the index checks them with fs.lstat.
  const platform: Platform = options.noSource ? { ...memory, searchSource: undefined } : memory;
  // The same workspace under another platform object: no index, a plain scan.
  const plain: Platform = { ...platform };
  const tools = BuiltinTools.all();
  const indexed = new ToolRunner({ platform, tools });
  const scanned = new ToolRunner({ platform: plain, tools });
  vi.setSystemTime(Date.now() + 5000);
  setSearchIndex(platform, await buildWorkspaceIndex(platform));
  const totals = { skipped: 0, scanned: 0, used: 0 };
  for (let round = 0; round < rounds; round += 1) {
    for (let n = Math.floor(rand() * 3); n > 0; n -= 1) await mutate(rand, platform, rand() < 0.5 ? indexed : scanned);
    vi.setSystemTime(Date.now() + pick(rand, CLOCK_STEPS));
    const roll = rand();
    if (roll < 0.3) await searchIndexIdle(platform);
    else if (roll < 0.35) {
      // Saved and reopened: the same answers without a rebuild.
      setSearchIndex(platform, openIndex(serializeIndex(searchIndexOf(platform) as NonNullable<ReturnType<typeof searchIndexOf>>, '/ws'), '/ws'));
    }
    const args = searchArgs(rand);
    const index = searchIndexOf(platform);
    if (index && typeof args.pattern === 'string' && args.dir_path === undefined && args.include === undefined) {
      try {
        const pattern = compileSearchPattern(args.pattern, { literal: args.fixed_strings === true, caseSensitive: args.case_sensitive as boolean });
        const listed = (await walkWorkspace({ fs: platform.fs, root: '/ws', dir: '/ws', source: platform.searchSource, changeCount: platform.changeCount })).files;
        if (worthSifting(index, pattern)) totals.used += 1;
        const sifted = await siftWithIndex(platform, index, pattern, listed, 64 * 1024 * 1024);
        totals.skipped += sifted.text + sifted.binary;
        totals.scanned += sifted.scan.length;
      } catch {
        // An invalid pattern: both answers are the same error.
      }
    }
    const withIndex = await answer(indexed, args);
    const withoutIndex = await answer(scanned, args);
    if (rand() < 0.5) await searchIndexIdle(platform);
    expect(withIndex, `seed ${seed} round ${round} ${JSON.stringify(args)}`).toEqual(withoutIndex);
    // The same search again with no change between (the kept walk and verdicts), sometimes once the
    // refreshes are done or the clock has moved; or another search over the unchanged workspace.
    for (let again = Math.floor(rand() * 3); again > 0; again -= 1) {
      if (rand() < 0.5) await searchIndexIdle(platform);
      if (rand() < 0.3) vi.setSystemTime(Date.now() + pick(rand, CLOCK_STEPS));
      const repeated = rand() < 0.8 ? args : searchArgs(rand);
      const repeatWith = await answer(indexed, repeated);
      expect(repeatWith, `seed ${seed} round ${round} again ${again} ${JSON.stringify(repeated)}`).toEqual(await answer(scanned, repeated));
    }
  }
  return totals;
}

describe('grep_search with the search index equals a plain scan', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(1_800_000_000_000);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('an index built while its files were fresh (all racy, all scanned) comes into use once their racy window has passed', async () => {
    const platform = createMemoryPlatform({ root: '/ws', files: { 'a.txt': 'alpha\n', 'b.txt': 'beta\n', 'c.txt': 'gamma\n' } });
    const index = await buildWorkspaceIndex(platform);
    setSearchIndex(platform, index);
    const runner = new ToolRunner({ platform, tools: BuiltinTools.all() });
    const pattern = compileSearchPattern('alpha', { literal: true, caseSensitive: true });
    expect(index.file('/ws/a.txt')?.racy).toBe(true);
    expect(worthSifting(index, pattern)).toBe(false);
    vi.setSystemTime(Date.now() + 1500);
    expect(await runner.execute('grep_search', { pattern: 'alpha', output_mode: 'files_with_matches' })).toMatchObject({ files: ['/ws/a.txt'], files_searched: 3 });
    await searchIndexIdle(platform);
    const settled = searchIndexOf(platform) as NonNullable<ReturnType<typeof searchIndexOf>>;
    expect(['/ws/a.txt', '/ws/b.txt', '/ws/c.txt'].map((path) => settled.file(path)?.racy)).toEqual([false, false, false]);
    expect(worthSifting(settled, pattern)).toBe(true);
    const listed = (await walkWorkspace({ fs: platform.fs, root: '/ws', dir: '/ws', source: platform.searchSource })).files;
    expect(await siftWithIndex(platform, settled, pattern, listed, 1 << 20)).toEqual({ scan: [listed[0]], text: 2, binary: 0 });
  });

  it.each([
    [1, false],
    [2, false],
    [3, false],
    [4, false],
    [5, false],
    [6, false],
    [7, true],
    [8, true],
  ])('random trees and changes, seed %i, 250 rounds (no search source: %s)', async (seed, noSource) => {
    const totals = await run(seed, 250, { noSource });
    // The index did its part: files were left unread, and files were still scanned.
    expect(totals.skipped).toBeGreaterThan(0);
    expect(totals.scanned).toBeGreaterThan(0);
    expect(totals.used).toBeGreaterThan(20);
  }, 120_000);
});
