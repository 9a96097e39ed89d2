import { describe, expect, it } from 'vitest';
import { ToolRunner } from '../runner.js';
import { MemoryFs } from '../fs/memfs.js';
import { createMemoryPlatform } from '../platform/memory.js';
import { grepSearchTool, type SearchContentResult, type SearchCountResult } from '../tools/grep-search.js';
import { withTimerWatch } from '../../test/support/timer-watch.js';
import type { Platform } from '../core/types.js';
import type { SearchSource } from './source-port.js';
import { nativeBytes } from '#lazy';
import { isUtf8 as jsIsUtf8 } from './bytes.js';
import { createMemorySearchSource } from './memory-source.js';
import { searchSourceOf } from './engine-source.js';
import { createSearchEngine } from './engine.js';

const W = '/workspace';

function setup(files: Record<string, string | Uint8Array>): { platform: ReturnType<typeof createMemoryPlatform>; runner: ToolRunner } {
  const platform = createMemoryPlatform({ files });
  return { platform, runner: new ToolRunner({ platform, tools: [grepSearchTool] }) };
}

const counts = (result: SearchCountResult): Record<string, number> => Object.fromEntries(result.counts.map((c) => [c.file_path.slice(W.length + 1), c.count]));

describe('createMemorySearchSource', () => {
  it('gives the stored bytes, stats that follow no final symlink, listings and byte helpers', () => {
    const memory = new MemoryFs();
    memory.mkdirSync('/w/d', { recursive: true });
    memory.writeFileSync('/w/a.txt', 'hello function\n');
    memory.symlinkSync('/w/a.txt', '/w/link');
    const source = createMemorySearchSource(() => memory);
    const read = source.read('/w/a.txt', 1000);
    expect(new TextDecoder().decode(read?.bytes)).toBe('hello function\n');
    // The stored bytes, not a copy: a second read gives the same array.
    expect(source.read('/w/a.txt', 1000)?.bytes).toBe(read?.bytes);
    expect(source.read('/w/a.txt', 5)?.bytes.length).toBe(5);
    expect(read?.stat).toEqual(source.stat('/w/a.txt'));
    expect(read?.stat.size).toBe(15);
    expect([source.stat('/w/link'), source.stat('/w/d'), source.stat('/w/missing'), source.stat('/w/a.txt/x'), source.read('/w/link', 10)]).toEqual([undefined, undefined, undefined, undefined, undefined]);
    expect(source.readdir('/w').map((d) => [d.name, d.isFile(), d.isDirectory(), d.isSymbolicLink()])).toEqual([
      ['d', false, true, false],
      ['a.txt', true, false, false],
      ['link', false, false, true],
    ]);
    expect(() => source.readdir('/w/missing')).toThrow(expect.objectContaining({ code: 'ENOENT' }));
    const bytes = read?.bytes as Uint8Array;
    expect(source.indexOf(bytes, new TextEncoder().encode('function'), 0)).toBe(6);
    expect(source.indexOf(bytes, new TextEncoder().encode('function'), 7)).toBe(-1);
    expect(source.indexOf(bytes, new Uint8Array([10]), 0)).toBe(14);
    expect(source.isUtf8(new Uint8Array([0xc3, 0xa9]))).toBe(true);
    expect(source.isUtf8(new Uint8Array([0xc3]))).toBe(false);
    expect(source.decode(new Uint8Array([0xef, 0xbb, 0xbf, 0x61]))).toBe('\uFEFFa');
  });

  it('finds bytes and checks UTF-8 as a plain reference does, with Node\'s Buffer on Node and plain JavaScript in browsers', () => {
    const source = createMemorySearchSource(() => new MemoryFs());
    const native = nativeBytes();
    expect(source.isUtf8 === jsIsUtf8).toBe(native === undefined);
    expect(native === undefined).toBe(typeof (globalThis as { document?: unknown }).document !== 'undefined');
    let seed = 12345;
    const random = (n: number): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return (seed >>> 8) % n;
    };
    const alphabet = [0x61, 0x62, 0x0a, 0x00, 0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x80, 0xed, 0xa0, 0xff];
    const reference = (haystack: Uint8Array, needle: Uint8Array, from: number): number => {
      for (let i = Math.max(0, from); i + needle.length <= haystack.length; i += 1) {
        let k = 0;
        while (k < needle.length && haystack[i + k] === needle[k]) k += 1;
        if (k === needle.length) return i;
      }
      return needle.length === 0 ? Math.min(Math.max(0, from), haystack.length) : -1;
    };
    for (let round = 0; round < 3000; round += 1) {
      // A view at an odd offset of a larger buffer too: the word-at-a-time paths meet every alignment.
      const backing = new Uint8Array(random(300) + 8);
      for (let i = 0; i < backing.length; i += 1) backing[i] = alphabet[random(round % 2 === 0 ? 3 : alphabet.length)] as number;
      const haystack = backing.subarray(random(4), backing.length - random(4));
      const start = random(haystack.length + 1);
      const needle = round % 5 === 0 ? haystack.slice(start, start + random(40)) : Uint8Array.from({ length: random(6) }, () => alphabet[random(3)] as number);
      const from = random(haystack.length + 10) - 5;
      expect(source.indexOf(haystack, needle, from)).toBe(reference(haystack, needle, from));
      let valid = true;
      try {
        new TextDecoder('utf-8', { fatal: true }).decode(haystack);
      } catch {
        valid = false;
      }
      expect(source.isUtf8(haystack)).toBe(valid);
    }
  });

  it('keeps listings and stats while the change count stays, and reads the tree again once it moves', () => {
    const memory = new MemoryFs();
    memory.mkdirSync('/w', { recursive: true });
    memory.writeFileSync('/w/a.txt', 'one');
    let changes = 0;
    const source = createMemorySearchSource(() => memory, () => changes);
    expect(source.readdir('/w').map((d) => d.name)).toEqual(['a.txt']);
    expect(source.stat('/w/a.txt')?.size).toBe(3);
    memory.writeFileSync('/w/a.txt', 'three');
    memory.writeFileSync('/w/b.txt', 'two');
    // Unchanged count: what was listed and stat'ed stands (the platform moves the count with every change).
    expect(source.readdir('/w').map((d) => d.name)).toEqual(['a.txt']);
    expect(source.stat('/w/a.txt')?.size).toBe(3);
    changes += 1;
    expect(source.readdir('/w').map((d) => d.name)).toEqual(['a.txt', 'b.txt']);
    expect(source.stat('/w/a.txt')?.size).toBe(5);
  });
});

describe('grep_search on the memory platform', () => {
  it('searches through the platform search source', () => {
    expect(searchSourceOf(createMemoryPlatform())).toBeDefined();
  });

  it('answers a repeated search with every change made in between, same-size rewrites within the same millisecond included', async () => {
    const { platform, runner } = setup({ 'a.js': 'function a() {}\nfunction b() {}\n', 'b.js': 'const x = 1;\n', 'sub/c.js': 'function c() {}\n' });
    const count = async (): Promise<Record<string, number>> => counts((await runner.execute('grep_search', { pattern: 'function', fixed_strings: true, output_mode: 'count' })) as SearchCountResult);
    expect(await count()).toEqual({ 'a.js': 2, 'sub/c.js': 1 });
    expect(await count()).toEqual({ 'a.js': 2, 'sub/c.js': 1 });
    // Same size, written right after the search: only the content tells.
    await platform.fs.writeFile(`${W}/b.js`, 'function(){}\n');
    expect(await count()).toEqual({ 'a.js': 2, 'b.js': 1, 'sub/c.js': 1 });
    await platform.fs.writeFile(`${W}/a.js`, 'function a() {}\nfunctiox b() {}\n');
    expect(await count()).toEqual({ 'a.js': 1, 'b.js': 1, 'sub/c.js': 1 });
    await platform.fs.rename(`${W}/sub`, `${W}/moved`);
    expect(await count()).toEqual({ 'a.js': 1, 'b.js': 1, 'moved/c.js': 1 });
    await platform.fs.rm(`${W}/moved`, { recursive: true });
    await platform.fs.mkdir(`${W}/new`);
    await platform.fs.writeFile(`${W}/new/d.js`, 'function d() {} function e() {}\nfunction f() {}\n');
    expect(await count()).toEqual({ 'a.js': 1, 'b.js': 1, 'new/d.js': 2 });
    await platform.fs.unlink(`${W}/b.js`);
    expect(await count()).toEqual({ 'a.js': 1, 'new/d.js': 2 });
  });

  it('answers a regex with a required literal, content mode and counts alike after a repeated literal count', async () => {
    const { runner } = setup({ 'a.ts': 'x\nconst f = function named() {};\nfunction other() {}\n', 'b.ts': 'no match here\n' });
    const countArgs = { pattern: 'function', fixed_strings: true, output_mode: 'count' };
    await runner.execute('grep_search', countArgs);
    await runner.execute('grep_search', countArgs);
    const regex = (await runner.execute('grep_search', { pattern: 'function [a-z]+\\(', output_mode: 'count' })) as SearchCountResult;
    expect(counts(regex)).toEqual({ 'a.ts': 2 });
    const content = (await runner.execute('grep_search', { pattern: 'function', fixed_strings: true })) as SearchContentResult;
    expect(content.matches.map((m) => [m.line_number, m.column, m.line])).toEqual([
      [2, 11, 'const f = function named() {};'],
      [3, 1, 'function other() {}'],
    ]);
    expect(content.total_matches).toBe(2);
  });

  it('turns the event loop while it scans bytes only, so a timer keeps ticking', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 300; i += 1) files[`f${String(i).padStart(3, '0')}.txt`] = i % 3 === 0 ? 'function\n' : 'nothing\n';
    const memory = createMemoryPlatform({ files });
    const inner = searchSourceOf(memory) as SearchSource;
    // Each read blocks the thread for 5 ms: 1.5 s of bytes-only work that must not block it whole.
    const slow: SearchSource = {
      ...inner,
      read(path, maxBytes) {
        const until = performance.now() + 5;
        while (performance.now() < until);
        return inner.read(path, maxBytes);
      },
    };
    const platform: Platform = { ...memory, search: createSearchEngine({ source: slow }) };
    const runner = new ToolRunner({ platform, tools: [grepSearchTool] });
    const { value, gap } = await withTimerWatch(() => runner.execute('grep_search', { pattern: 'function', fixed_strings: true, output_mode: 'count', max_time_ms: 60_000 }));
    expect((value as SearchCountResult).total_matches).toBe(100);
    expect(gap).toBeLessThan(1000);
  });

  it('counts lines ending in \\r, \\r\\n or \\n once each, and skips binary files by their bytes', async () => {
    const { runner } = setup({
      'mac.txt': 'function one\rfunction two function\rthree\r',
      'dos.txt': 'function\r\nx\r\nfunction function\r\n',
      'nul.bin': new Uint8Array([0x66, 0x75, 0x6e, 0x63, 0x74, 0x69, 0x6f, 0x6e, 0x00]),
      'latin1.txt': new Uint8Array([0x66, 0x75, 0x6e, 0x63, 0x74, 0x69, 0x6f, 0x6e, 0x20, 0xe9, 0x0a]),
      'bom.txt': new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('function é\n')]),
    });
    for (let round = 0; round < 2; round += 1) {
      const result = (await runner.execute('grep_search', { pattern: 'function', fixed_strings: true, output_mode: 'count' })) as SearchCountResult;
      expect([counts(result), result.binary_files_skipped, result.files_searched]).toEqual([{ 'bom.txt': 1, 'dos.txt': 2, 'mac.txt': 2 }, 2, 3]);
    }
    const bom = (await runner.execute('grep_search', { pattern: 'é', fixed_strings: true })) as SearchContentResult;
    expect(bom.matches.map((m) => [m.file_path.slice(W.length + 1), m.line_number, m.column, m.line])).toEqual([['bom.txt', 1, 10, 'function é']]);
  });
});
