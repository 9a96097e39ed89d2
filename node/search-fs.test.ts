import { existsSync, mkdirSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ToolRunner } from '../src/runner.js';
import type { Platform } from '../src/core/types.js';
import { createMemoryPlatform } from '../src/platform/memory.js';
import { pauseRacyClockForTests } from '../src/fs/racy-clock.js';
import { SLAB_BYTES, SourceCache, SPARE_SLAB_MS, spareSlabCount } from '../src/search/source-cache.js';
import { findFileTool } from '../src/tools/find-file.js';
import { grepSearchTool } from '../src/tools/grep-search.js';
import { searchDirTool } from '../src/tools/search-dir.js';
import { createNodePlatform } from './platform.js';
import { createNodeSearchSource, NodeSearchSource, withSearchSourceDefaults } from './search-fs.js';

const LONG = 'x'.repeat(3000);
const TREE: Record<string, string | Uint8Array> = {
  'src/app.ts': 'import { x } from "./x";\nexport function main() {\n  // TODO: wire it up\n  return x + 1;\n}\nexport function helper() { return 2; }\n',
  'src/x.ts': 'export const x = 41; // todo later\n',
  'src/legacy.js': 'function old() {}\r\nvar TODO = 1;\r\n',
  'src/bom.ts': '\uFEFFTODO after a BOM\n',
  'lib/mac.txt': 'one\rTODO two\rthree',
  'lib/long.txt': `${LONG}TODO${LONG}\nshort TODO\n`,
  'lib/emoji.txt': '😀😀 TODO é\n',
  'data.bin': new Uint8Array([0x54, 0x4f, 0x44, 0x4f, 0x00, 0x01, 0x02]),
  'bad-utf8.txt': new Uint8Array([0x54, 0x4f, 0x44, 0x4f, 0xff, 0xfe, 0x0a]),
  'node_modules/m/index.js': 'TODO\n',
  '.git/config': 'TODO\n',
  'dist/out.js': 'TODO\n',
  '.gitignore': 'dist\n*.log\n',
  'keep/.gitignore': '!keep.log\n',
  'keep/keep.log': 'TODO kept\n',
  'keep/drop.log': 'TODO dropped\n',
  'notes/my file (1).md': 'café TODO ü\nline two\nline three\nTODO again\n',
  'empty.txt': '',
  'lines.txt': 'a\n\nb\n',
};

const CALLS: Array<[string, Record<string, unknown>]> = [
  ['grep_search', { pattern: 'TODO' }],
  ['grep_search', { pattern: 'TODO', fixed_strings: true, output_mode: 'count' }],
  ['grep_search', { pattern: 'TODO', output_mode: 'files_with_matches' }],
  ['grep_search', { pattern: '(?i)todo\\b' }],
  ['grep_search', { pattern: 'todo', case_sensitive: false, context_lines: 2 }],
  ['grep_search', { pattern: '^T', context_lines: 1 }],
  ['grep_search', { pattern: 'e$' }],
  ['grep_search', { pattern: 'function\\s+\\w+' }],
  ['grep_search', { pattern: '\\w+TODO' }],
  ['grep_search', { pattern: '(T|t)(O|o)+DO' }],
  ['grep_search', { pattern: '' , output_mode: 'count' }],
  ['grep_search', { pattern: 'TODO', include: '*.ts', exclude: 'x.ts' }],
  ['grep_search', { pattern: 'TODO', exclude: 'lib/' }],
  ['grep_search', { pattern: 'TODO', max_results: 2 }],
  ['grep_search', { pattern: 'TODO', dir_path: 'lib/long.txt' }],
  ['grep_search', { pattern: 'x{3}TODO' }],
  ['search_dir', { query: 'todo' }],
  ['search_dir', { query: 'TODO', case_sensitive: true, include: 'notes/**' }],
  ['find_file', { pattern: '*.ts' }],
  ['find_file', { pattern: '**/*', include_ignored: true }],
  ['find_file', { pattern: '*.log' }],
];

let base: string;
let nodePlatform: Platform;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'toolhost-search-')));
  for (const [rel, content] of Object.entries(TREE)) {
    await mkdir(dirname(join(base, rel)), { recursive: true });
    await writeFile(join(base, rel), content);
  }
  await symlink('/etc/passwd', join(base, 'src/outside-link.ts'));
  nodePlatform = createNodePlatform({ root: base });
});

afterAll(async () => {
  await nodePlatform?.dispose();
  await rm(base, { recursive: true, force: true });
});

function normalise(value: unknown, root: string): unknown {
  return JSON.parse(JSON.stringify(value).split(root).join('<root>'));
}

describe('search tools on a real folder (Node) and in memory', () => {
  it('give the same results for every search behaviour', async () => {
    const memory = createMemoryPlatform({ files: { ...TREE } });
    await memory.fs.symlink('/etc/passwd', '/workspace/src/outside-link.ts');
    const tools = [grepSearchTool, searchDirTool, findFileTool];
    const onNode = new ToolRunner({ platform: nodePlatform, tools });
    const inMemory = new ToolRunner({ platform: memory, tools });
    for (const [name, args] of CALLS) {
      const expected = normalise((await inMemory.processToolCalls([{ name, args }]))[0], '/workspace');
      const got = normalise((await onNode.processToolCalls([{ name, args }]))[0], base);
      expect(got, `${name} ${JSON.stringify(args)}`).toEqual(expected);
    }
    // Twice: the second search comes from the cache.
    for (const [name, args] of CALLS.slice(0, 6)) {
      const expected = normalise((await inMemory.processToolCalls([{ name, args }]))[0], '/workspace');
      expect(normalise((await onNode.processToolCalls([{ name, args }]))[0], base), `${name} again`).toEqual(expected);
    }
  });

  it('sees a file changed since it was cached (size, mtime or inode)', async () => {
    const runner = new ToolRunner({ platform: nodePlatform, tools: [grepSearchTool] });
    const count = async (): Promise<unknown> => (await runner.execute('grep_search', { pattern: 'fresh', output_mode: 'count' })) as unknown;
    await writeFile(join(base, 'changing.txt'), 'stale\n');
    expect(await count()).toMatchObject({ total_matches: 0 });
    await writeFile(join(base, 'changing.txt'), 'fresh\n');
    expect(await count()).toMatchObject({ total_matches: 1 });
    await rm(join(base, 'changing.txt'));
    expect(await count()).toMatchObject({ total_matches: 0 });
  });

  it('answers a catastrophic corpus over long lines within its deadline, the timer still ticking', async () => {
    const dir = join(base, 'corpus');
    await mkdir(dir);
    await writeFile(join(dir, 'a.txt'), 'a'.repeat(40_000) + '!\n');
    await writeFile(join(dir, 'd.txt'), '1'.repeat(40_000) + 'z\n');
    await writeFile(join(dir, 'w.txt'), 'ab '.repeat(13_000) + '!\n');
    const runner = new ToolRunner({ platform: nodePlatform, tools: [grepSearchTool] });
    await runner.execute('grep_search', { pattern: '(x|y)+z', dir_path: dir });
    for (const pattern of ['(a+)+$', '(a|aa)*b', 'a*a*a*a*a*a*a*a*a*a*b', '(.*a){20}', '(\\w+\\s?)*$', '(x+x+)+y', '^(\\d+)*$', '(\\d{1,3}){1,300}z']) {
      const ticks: number[] = [];
      const timer = setInterval(() => ticks.push(Date.now()), 5);
      const started = Date.now();
      const [result] = await runner.processToolCalls([{ name: 'grep_search', args: { pattern, dir_path: dir } }], { timeoutMs: 3000 });
      const ended = Date.now();
      clearInterval(timer);
      expect(ended - started, pattern).toBeLessThan(3250);
      expect(result, pattern).toHaveProperty('result.files_searched', 3);
      const gaps = [started, ...ticks, ended].map((t, i, all) => (i === 0 ? 0 : t - (all[i - 1] as number)));
      expect(Math.max(...gaps), pattern).toBeLessThan(1000);
    }
  });
});

describe('createNodeSearchSource', () => {
  it('lists, stats and reads regular files only, never through a symlink, and only inside the root', () => {
    const source = createNodeSearchSource(base);
    expect(source.readdir(join(base, 'keep')).map((d) => d.name).sort()).toEqual(['.gitignore', 'drop.log', 'keep.log']);
    expect(source.stat(join(base, 'src/x.ts'))).toMatchObject({ size: 35 });
    expect(source.stat(join(base, 'src/outside-link.ts'))).toBeUndefined();
    // A symlink is never followed: ELOOP, which a search counts as a skipped entry.
    expect(() => source.read(join(base, 'src/outside-link.ts'), 100)).toThrow(expect.objectContaining({ code: 'ELOOP' }));
    expect(source.read(join(base, 'src'), 100)).toBeUndefined();
    expect(new TextDecoder().decode(source.read(join(base, 'src/x.ts'), 6)?.bytes)).toBe('export');
    expect(() => source.read('/etc/passwd', 100)).toThrow(expect.objectContaining({ code: 'outside_workspace' }));
    expect(() => source.readdir(`${base}/../`)).toThrow(expect.objectContaining({ code: 'outside_workspace' }));
    expect(source.isUtf8(new Uint8Array([0xff]))).toBe(false);
    expect(source.indexOf(new Uint8Array([1, 2, 3, 2, 3]), new Uint8Array([2, 3]), 2)).toBe(3);
  });
});

describe('createNodeSearchSource listings', () => {
  it('reuses a listing while its directory is unchanged and lists again after an entry is added, removed or the folder replaced', async () => {
    const dir = await realpath(await mkdtemp(join(tmpdir(), 'toolhost-listing-')));
    try {
      const sub = join(dir, 'sub');
      await mkdir(sub);
      await writeFile(join(sub, 'a.txt'), 'a');
      const old = Date.now() / 1000 - 10;
      await utimes(sub, old, old);
      pauseRacyClockForTests(1100);
      const source = createNodeSearchSource(dir);
      const names = (): string[] => source.readdir(sub).map((entry) => entry.name).sort();
      const first = source.readdir(sub);
      expect(source.readdir(sub)).toBe(first);
      await writeFile(join(sub, 'b.txt'), 'b');
      expect(names()).toEqual(['a.txt', 'b.txt']);
      // Changed within the last second: listed again every time until it settles.
      expect(source.readdir(sub)).not.toBe(source.readdir(sub));
      await rm(join(sub, 'a.txt'));
      expect(names()).toEqual(['b.txt']);
      await utimes(sub, old, old);
      // The mtime is set back, but the ctime is that of the utimes: listed again until it settles.
      expect(source.readdir(sub)).not.toBe(source.readdir(sub));
      pauseRacyClockForTests(1100);
      const settled = source.readdir(sub);
      expect(source.readdir(sub)).toBe(settled);
      // Another folder at the path (its own mtime, whether or not the inode number is reused).
      await rm(sub, { recursive: true });
      await mkdir(sub);
      await writeFile(join(sub, 'c.txt'), 'c');
      await utimes(sub, old - 5, old - 5);
      expect(names()).toEqual(['c.txt']);
      await rm(sub, { recursive: true });
      expect(() => source.readdir(sub)).toThrow(expect.objectContaining({ code: 'ENOENT' }));
      source.close?.();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('lists a folder again after an entry is removed and its mtime set back within the clock tick of the last listing (tmpfs keeps the old ctime)', async () => {
    // tmpfs stamps a folder once per clock tick: a removal right after a listing leaves the mtime and
    // the ctime the listing was read with, and setting the mtime back leaves nothing newer to see. Only
    // a ctime older than the read by the racy window may be trusted. (Elsewhere the ctime moves.)
    const base = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();
    const dir = await realpath(await mkdtemp(join(base, 'toolhost-listing-tick-')));
    try {
      const source = createNodeSearchSource(dir);
      const old = Date.now() / 1000 - 10;
      for (let round = 0; round < 20; round += 1) {
        const sub = join(dir, `r${round}`);
        mkdirSync(sub);
        for (const name of ['a.txt', 'b.txt']) writeFileSync(join(sub, name), name);
        utimesSync(sub, old, old);
        expect(source.readdir(sub).map((entry) => entry.name).sort()).toEqual(['a.txt', 'b.txt']);
        unlinkSync(join(sub, 'a.txt'));
        utimesSync(sub, old, old);
        expect(source.readdir(sub).map((entry) => entry.name)).toEqual(['b.txt']);
      }
      source.close?.();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('SourceCache over a Node folder', () => {
  it('packs files into slabs within its budget, keeps binary files as entries only, and re-reads what changed', async () => {
    const dir = await realpath(await mkdtemp(join(tmpdir(), 'toolhost-slab-')));
    try {
      await writeFile(join(dir, 'a.txt'), 'alpha\n');
      await writeFile(join(dir, 'b.txt'), 'beta\n');
      await writeFile(join(dir, 'c.bin'), new Uint8Array([1, 0, 2]));
      await writeFile(join(dir, 'big.txt'), 'x'.repeat(5 * 1024 * 1024));
      const bigBinary = new Uint8Array(3 * 1024 * 1024).fill(0x41);
      bigBinary[8191] = 0;
      await writeFile(join(dir, 'big.bin'), bigBinary);
      const old = Date.now() / 1000 - 10;
      for (const name of ['a.txt', 'b.txt', 'c.bin', 'big.txt', 'big.bin']) await utimes(join(dir, name), old, old);
      // utimes sets the status-change time to now: past the cache's one-second rule for it as well (its clock moved on, as a real wait would).
      pauseRacyClockForTests(1100);
      const source = createNodeSearchSource(dir);
      const cache = new SourceCache(source, 40 * 1024 * 1024);
      const text = (name: string): string => {
        const file = cache.load(join(dir, name));
        if (!file || file === 'large' || !file.bytes) throw new Error(`${name} is not a text file`);
        return new TextDecoder().decode(file.bytes);
      };
      expect(text('a.txt')).toBe('alpha\n');
      // One shared slab and the entry's overhead.
      expect(cache.used).toBe(SLAB_BYTES + 256);
      const a = cache.load(join(dir, 'a.txt'));
      expect(text('b.txt')).toBe('beta\n');
      expect(cache.load(join(dir, 'a.txt'))).toBe(a);
      expect(cache.load(join(dir, 'c.bin'))).toMatchObject({ bytes: null });
      expect(cache.used).toBe(SLAB_BYTES + 3 * 256);
      // A NUL in the first 8 KiB: binary after reading those only; past them it takes the UTF-8 check.
      expect(source.read(join(dir, 'big.bin'), 64 * 1024 * 1024)?.bytes.length).toBe(8192);
      expect(cache.load(join(dir, 'big.bin'))).toMatchObject({ bytes: null });
      bigBinary[8191] = 0x41;
      bigBinary[8192] = 0;
      await writeFile(join(dir, 'late-nul.txt'), bigBinary);
      expect(source.read(join(dir, 'late-nul.txt'), 64 * 1024 * 1024)?.bytes.length).toBe(3 * 1024 * 1024);
      expect(cache.used).toBe(SLAB_BYTES + 4 * 256);
      // Over a quarter of a slab: a slab of its own, exactly its size.
      expect(text('big.txt').length).toBe(5 * 1024 * 1024);
      expect(cache.used).toBe(SLAB_BYTES + 5 * 1024 * 1024 + 5 * 256);
      // Decoded texts are not kept.
      const file = cache.load(join(dir, 'a.txt'));
      if (!file || file === 'large') throw new Error('a.txt is gone');
      expect(cache.text(file)).toBe('alpha\n');
      expect(cache.used).toBe(SLAB_BYTES + 5 * 1024 * 1024 + 5 * 256);
      // A changed file is read again; the old bytes' slab space stays counted until the slab empties.
      await writeFile(join(dir, 'a.txt'), 'ALPHA!\n');
      expect(text('a.txt')).toBe('ALPHA!\n');
      expect(text('b.txt')).toBe('beta\n');
      // Dropping the big file frees its own slab.
      await rm(join(dir, 'big.txt'));
      expect(cache.load(join(dir, 'big.txt'))).toBeUndefined();
      expect(cache.used).toBe(SLAB_BYTES + 4 * 256);
      cache.release();
      expect(cache.used).toBe(0);
      source.close?.();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('reads a fresh cache into the slab a released cache gave back, and no longer holds spare slabs 10 s after the last release', async () => {
    const dir = await realpath(await mkdtemp(join(tmpdir(), 'toolhost-slab-')));
    try {
      await writeFile(join(dir, 'a.txt'), 'alpha\n');
      await writeFile(join(dir, 'b.txt'), 'beta\n');
      const source = createNodeSearchSource(dir, { helper: false });
      const bufferOf = (cache: SourceCache, name: string): ArrayBufferLike => {
        const file = cache.load(join(dir, name));
        if (!file || file === 'large' || !file.bytes) throw new Error(`${name} is not a text file`);
        return file.bytes.buffer;
      };
      const first = new SourceCache(source);
      const slab = bufferOf(first, 'a.txt');
      expect(slab.byteLength).toBe(SLAB_BYTES);
      vi.useFakeTimers();
      try {
        first.release();
        const second = new SourceCache(source);
        expect(bufferOf(second, 'b.txt')).toBe(slab);
        second.release();
        vi.advanceTimersByTime(SPARE_SLAB_MS - 1);
        expect(spareSlabCount()).toBeGreaterThanOrEqual(1);
        vi.advanceTimersByTime(1);
        expect(spareSlabCount()).toBe(0);
      } finally {
        vi.useRealTimers();
      }
      source.close?.();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('reads files past a full budget into a reused buffer and does not keep them', async () => {
    const dir = await realpath(await mkdtemp(join(tmpdir(), 'toolhost-slab-')));
    try {
      for (let i = 0; i < 4; i += 1) await writeFile(join(dir, `${i}.txt`), `file ${i}\n`);
      const source = createNodeSearchSource(dir);
      // Room for one slab only.
      const cache = new SourceCache(source, SLAB_BYTES + 1000);
      const loaded = [0, 1, 2, 3].map((i) => cache.load(join(dir, `${i}.txt`)));
      expect(cache.used).toBe(SLAB_BYTES + 3 * 256);
      const last = loaded[3];
      if (!last || last === 'large' || !last.bytes) throw new Error('3.txt is not a text file');
      expect(new TextDecoder().decode(last.bytes)).toBe('file 3\n');
      expect(cache.load(join(dir, '3.txt'))).not.toBe(last);
      const small = new SourceCache(source, 1000);
      const first = small.load(join(dir, '0.txt'));
      const second = small.load(join(dir, '1.txt'));
      if (!first || first === 'large' || !first.bytes || !second || second === 'large' || !second.bytes) throw new Error('not text files');
      // The same buffer: the first file's bytes are only good until the next load.
      expect(second.bytes.buffer).toBe(first.bytes.buffer);
      expect(new TextDecoder().decode(second.bytes)).toBe('file 1\n');
      expect(small.used).toBe(0);
      source.close?.();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('the first search of a one-search process', () => {
  it('reads a large binary file no further than its first 8 KiB, and a large text file whole', async () => {
    const dir = await realpath(await mkdtemp(join(tmpdir(), 'toolhost-sniff-')));
    try {
      const binary = new Uint8Array(3 * 1024 * 1024).fill(0x61);
      binary[100] = 0;
      await writeFile(join(dir, 'big.bin'), binary);
      await writeFile(join(dir, 'big.txt'), `${'needle\n'.repeat(300_000)}`);
      const source = createNodeSearchSource(dir, { helper: false });
      const asked: number[] = [];
      const into = (size: number): Uint8Array => {
        asked.push(size);
        return new Uint8Array(size);
      };
      const sniffed = source.read(join(dir, 'big.bin'), 64 * 1024 * 1024, into);
      expect(sniffed?.bytes.length).toBe(8192);
      expect(sniffed?.stat.size).toBe(3 * 1024 * 1024);
      // Never asked for a buffer of the file's size: nothing past the first block was read.
      expect(asked).toEqual([]);
      expect(source.read(join(dir, 'big.txt'), 64 * 1024 * 1024, into)?.bytes.length).toBe(2_100_000);
      expect(asked).toEqual([2_100_000]);
      source.close();
      const platform = withSearchSourceDefaults({ cacheBytes: 0, helper: false, keepListings: false }, () => createNodePlatform({ root: dir }));
      const runner = new ToolRunner({ platform, tools: [grepSearchTool] });
      expect(await runner.execute('grep_search', { pattern: 'needle', fixed_strings: true, output_mode: 'count' })).toMatchObject({ total_matches: 300_000, files_searched: 1, binary_files_skipped: 1 });
      await platform.dispose();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('takes no stat of the listed files when its source keeps nothing (a one-search process), and one per cached file on a repeated search where it keeps them', async () => {
    const dir = await realpath(await mkdtemp(join(tmpdir(), 'toolhost-nostat-')));
    const stat = vi.spyOn(NodeSearchSource.prototype, 'stat');
    try {
      for (let i = 0; i < 20; i += 1) {
        await mkdir(join(dir, `d${i % 4}`), { recursive: true });
        await writeFile(join(dir, `d${i % 4}`, `f${i}.txt`), i % 2 === 0 ? 'match here\n' : 'nothing\n');
      }
      const count = { pattern: 'match', fixed_strings: true, output_mode: 'count' };
      const once = withSearchSourceDefaults({ cacheBytes: 0, helper: false, keepListings: false }, () => createNodePlatform({ root: dir }));
      const oneSearch = new ToolRunner({ platform: once, tools: [grepSearchTool] });
      expect(await oneSearch.execute('grep_search', count)).toMatchObject({ total_matches: 10, files_searched: 20 });
      expect(stat).toHaveBeenCalledTimes(0);
      await once.dispose();
      // A long-lived platform keeps what it read: its next search checks each cached file with one stat.
      const kept = withSearchSourceDefaults({ helper: false }, () => createNodePlatform({ root: dir }));
      const runner = new ToolRunner({ platform: kept, tools: [grepSearchTool] });
      expect(await runner.execute('grep_search', count)).toMatchObject({ total_matches: 10 });
      stat.mockClear();
      expect(await runner.execute('grep_search', count)).toMatchObject({ total_matches: 10 });
      expect(stat).toHaveBeenCalledTimes(20);
      await kept.dispose();
    } finally {
      stat.mockRestore();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('a literal counted a block at a time (a one-search process)', () => {
  it('answers exactly as a search over whole reads: BOM, CRLF and lone CR, NULs early and late, bytes that are not UTF-8, characters and matches across 256 KiB blocks, a 20 MB line', async () => {
    const dir = await realpath(await mkdtemp(join(tmpdir(), 'toolhost-blocks-')));
    const enc = (text: string): Uint8Array => new TextEncoder().encode(text);
    const block = 256 * 1024;
    // A match and a character each cut by a block border, and a long line with its match after it.
    const acrossMatch = `${'a'.repeat(block - 3)}needle\n${'b'.repeat(block)}\nneedle\n`;
    const acrossChar = `${'a'.repeat(block - 1)}é needle\n😀${'c'.repeat(block - 2)}😀needle`;
    const badLate = new Uint8Array([...enc(`needle\n${'d'.repeat(block + 10)}`), 0xc3, 0x28, ...enc('\nneedle\n')]);
    const files: Record<string, string | Uint8Array> = {
      'bom.txt': '\uFEFFneedle at start\nneedle 2\n',
      'crlf.txt': 'needle a\r\nb\r\nneedle c\r\nneedle\r\n',
      'cr.txt': 'needle a\rneedle b\rc\rneedle',
      'mixed.txt': 'needle\r\rneedle\n\rneedle\r\n',
      'nul-early.bin': new Uint8Array([...enc('needle\n'), 0, ...enc('needle\n')]),
      'nul-late.txt': new Uint8Array([...enc(`needle\n${'a'.repeat(9000)}\n`), 0, ...enc('needle\n')]),
      'latin1.txt': new Uint8Array([0x6e, 0x65, 0x65, 0x64, 0x6c, 0x65, 0xe9, 0x0a]),
      'bad-late.txt': badLate,
      'cut-char.txt': new Uint8Array([...enc(`${'e'.repeat(block - 1)}needle\n`), 0xe6, 0x97]),
      'across-match.txt': acrossMatch,
      'across-char.txt': acrossChar,
      'many.txt': `needle line\n${'x'.repeat(100)}\n`.repeat(46_000),
      'one-line.txt': `${'z'.repeat(10_000_000)}needle${'z'.repeat(10_000_000)}needle`,
    };
    try {
      for (const [name, content] of Object.entries(files)) await writeFile(join(dir, name), content);
      const once = withSearchSourceDefaults({ cacheBytes: 0, helper: false, keepListings: false }, () => createNodePlatform({ root: dir }));
      const whole = withSearchSourceDefaults({ helper: false }, () => createNodePlatform({ root: dir }));
      const inBlocks = new ToolRunner({ platform: once, tools: [grepSearchTool] });
      const wholeReads = new ToolRunner({ platform: whole, tools: [grepSearchTool] });
      const blocks = vi.spyOn(NodeSearchSource.prototype, 'readBlocks');
      try {
        await inBlocks.execute('grep_search', { pattern: 'needle', fixed_strings: true, output_mode: 'count' });
        // Every file through the block reader (the caching platform reads none that way).
        expect(blocks).toHaveBeenCalledTimes(13);
        await wholeReads.execute('grep_search', { pattern: 'needle', fixed_strings: true, output_mode: 'count' });
        expect(blocks).toHaveBeenCalledTimes(13);
        for (const literal of ['needle', 'e', 'needle\u00e9', '😀needle', 'é needle', 'zneedlez']) {
          for (const output_mode of ['count', 'files_with_matches'] as const) {
            const args = { pattern: literal, fixed_strings: true, output_mode, max_results: 2000 };
            expect(await inBlocks.execute('grep_search', args), `${literal} ${output_mode}`).toEqual(await wholeReads.execute('grep_search', args));
          }
        }
        const counted = (await inBlocks.execute('grep_search', { pattern: 'needle', fixed_strings: true, output_mode: 'count', max_results: 2000 })) as { counts: Array<{ file_path: string; count: number }> };
        expect(Object.fromEntries(counted.counts.map(({ file_path, count }) => [file_path.slice(dir.length + 1), count]))).toEqual({
          'across-char.txt': 2,
          'across-match.txt': 2,
          'bom.txt': 2,
          'cr.txt': 3,
          'crlf.txt': 3,
          'many.txt': 46_000,
          'mixed.txt': 3,
          'nul-late.txt': 2,
          'one-line.txt': 1,
        });
        expect(await inBlocks.execute('grep_search', { pattern: 'needle', fixed_strings: true, output_mode: 'count' })).toMatchObject({ files_searched: 9, binary_files_skipped: 4 });
      } finally {
        blocks.mockRestore();
        await once.dispose();
        await whole.dispose();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
