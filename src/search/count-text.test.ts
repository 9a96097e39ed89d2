import { beforeAll, describe, expect, it } from 'vitest';
import { createMemoryPlatform } from '../platform/memory.js';
import { compileSearchPattern, loadSearchPatternParser, prepareSearchPattern } from './dialect.js';
import { scanText } from './line-scan.js';
import type { SearchSource } from './source-port.js';
import { cacheOf, COUNT_CHUNK_BYTES, countText, needleOf, SourceCache, spareSlabCount } from './source-cache.js';
import { searchSourceOf } from './engine-source.js';

// In browsers the pattern parser loads on demand (as grep_search awaits it before compiling).
beforeAll(() => loadSearchPatternParser());

/** Lines of every ending (`\n`, `\r\n`, `\r`), empty lines, non-ASCII text, over several count chunks. */
function mixedText(): string {
  const parts: string[] = [];
  const endings = ['\n', '\r\n', '\r', '\n\n'];
  for (let i = 0; i < 9000; i += 1) {
    const line = i % 7 === 0 ? `École ${i} — café` : i % 5 === 0 ? '' : i % 3 === 0 ? `foo bar${i} 😀 a` : `x${'y'.repeat(i % 40)}a`;
    parts.push(line + (endings[i % endings.length] as string));
  }
  return parts.join('') + 'last line without an ending a';
}

/** A search source over `files` (name to text) that reads into the buffer the cache gives it, as the Node source does. */
function readingInto(files: Record<string, string>): SearchSource {
  const encoded = new Map(Object.entries(files).map(([name, text]) => [`/w/${name}`, new TextEncoder().encode(text)]));
  const stat = (path: string): { size: number; mtimeMs: number; ctimeMs: number; ino: number } | undefined => {
    const bytes = encoded.get(path);
    return bytes && { size: bytes.length, mtimeMs: 0, ctimeMs: 0, ino: [...encoded.keys()].indexOf(path) + 1 };
  };
  return {
    readdir: () => [],
    stat,
    read(path, maxBytes, into) {
      const bytes = encoded.get(path);
      const stated = stat(path);
      if (!bytes || !stated) return undefined;
      const size = Math.min(bytes.length, maxBytes);
      const target = into ? into(size) : new Uint8Array(size);
      target.set(bytes.subarray(0, size));
      return { bytes: target, stat: stated };
    },
    indexOf(haystack, needle, from) {
      outer: for (let i = from; i + needle.length <= haystack.length; i += 1) {
        for (let j = 0; j < needle.length; j += 1) if (haystack[i + j] !== needle[j]) continue outer;
        return i;
      }
      return -1;
    },
    isUtf8: () => true,
    decode: (bytes) => new TextDecoder().decode(bytes),
  };
}

/** A file of `lines` lines, every third holding `needle`. */
function linesWith(needle: string, lines: number, filler: string): string {
  return Array.from({ length: lines }, (_, i) => (i % 3 === 0 ? `${filler} ${needle} ${i}` : `${filler} ${i}`)).join('\n');
}

describe('countText', () => {
  it('a count that pauses over a file in the reused read buffer takes that buffer over (no copy), and counts right while other files are read meanwhile', async () => {
    const big = linesWith('needle', 30_000, 'big');
    const source = readingInto({ 'big.txt': big, 'other.txt': linesWith('needle', 1_000, 'zzzzzz') });
    // A cache that keeps nothing (as a one-search process's): every file is read into one reused buffer.
    const cache = new SourceCache(source, 0);
    const file = cache.load('/w/big.txt', undefined, false);
    if (!file || file === 'large' || !file.bytes) throw new Error('big.txt is a text file');
    const held = file.bytes;
    const readMeanwhile: Uint8Array[] = [];
    const pause = async (): Promise<void> => {
      const other = cache.load('/w/other.txt', undefined, false);
      if (!other || other === 'large' || !other.bytes) throw new Error('other.txt is a text file');
      readMeanwhile.push(other.bytes);
    };
    const pattern = await prepareSearchPattern(compileSearchPattern('needle', { literal: true, caseSensitive: true }));
    // From the file's start as a count begun on bytes and left to go on (a literal's rest pauses first).
    const counted = await countText(cache, file, pattern, needleOf(pattern), Date.now() + 60_000, pause, 0);
    expect(counted).toEqual({ count: 10_000, stopped: false });
    expect(readMeanwhile.length).toBeGreaterThanOrEqual(1);
    // The file read during the pause went to a new buffer: the held one was the count's own.
    expect(readMeanwhile[0]?.buffer).not.toBe(held.buffer);
    expect(new TextDecoder().decode(held.subarray(0, 10))).toBe(big.slice(0, 10));
  });

  it("a count that pauses over a cached file pins its slab: released meanwhile, it is given back for reuse only once the count ends, and another cache's reads never overwrite it", async () => {
    const big = linesWith('needle', 30_000, 'big');
    const source = readingInto({ 'big.txt': big, 'other.txt': linesWith('other', 30_000, 'zzz') });
    const cache = new SourceCache(source);
    const file = cache.load('/w/big.txt');
    if (!file || file === 'large' || !file.bytes) throw new Error('big.txt is a text file');
    const spareAtStart = spareSlabCount();
    let spareWhenReleased = -1;
    let spareAfterOther = -1;
    let next: SourceCache | undefined;
    const pause = async (): Promise<void> => {
      if (next) return;
      cache.release();
      spareWhenReleased = spareSlabCount();
      // A new cache takes its slab from the spare ones: never the pinned one.
      next = new SourceCache(source);
      next.load('/w/other.txt');
      spareAfterOther = spareSlabCount();
    };
    const pattern = await prepareSearchPattern(compileSearchPattern('needle', { literal: true, caseSensitive: true }));
    const counted = await countText(cache, file, pattern, needleOf(pattern), Date.now() + 60_000, pause, 0);
    expect(counted).toEqual({ count: 10_000, stopped: false });
    expect(spareWhenReleased).toBe(spareAtStart);
    // Unpinned at the count's end: given back then.
    expect(spareSlabCount()).toBe(spareAfterOther + 1);
    next?.release();
  });


  it('counts a text decoded in chunks of whole lines exactly as a scan of the whole text', async () => {
    const text = mixedText();
    const bytes = new TextEncoder().encode(`\uFEFF${text}`);
    expect(bytes.length).toBeGreaterThan(4 * COUNT_CHUNK_BYTES);
    const platform = createMemoryPlatform({ files: { 'mixed.txt': bytes, 'empty.txt': '' } });
    const source = searchSourceOf(platform);
    if (!source) throw new Error('the memory platform has a search source');
    const cache = cacheOf(source);
    const pause = async (): Promise<void> => undefined;
    const patterns: Array<[string, boolean, boolean]> = [
      ['a$', false, true], ['^$', false, true], ['', false, true], ['École', true, true], ['(?i)école', false, true],
      ['\\bfoo\\b', false, true], ['[^x]+a', false, true], ['^x(y+)a$', false, true], ['😀', true, true], ['CAFÉ', false, false],
      ['\\d{2}\\s', false, true], ['.', false, true],
    ];
    for (const [source_, literal, caseSensitive] of patterns) {
      const pattern = await prepareSearchPattern(compileSearchPattern(source_, { literal, caseSensitive }));
      const whole = await scanText(text, pattern, { deadline: Date.now() + 60_000, wantOffsets: 0, maxHits: Infinity, pause });
      const file = cache.load('/workspace/mixed.txt');
      if (!file || file === 'large' || !file.bytes) throw new Error('mixed.txt is a text file');
      // No needle: every pattern takes the decode-and-scan path.
      const counted = await countText(cache, file, pattern, undefined, Date.now() + 60_000, pause);
      expect(counted, source_).toEqual({ count: whole.count, stopped: false });
      expect(whole.count, source_).toBeGreaterThan(0);
      const empty = cache.load('/workspace/empty.txt');
      if (!empty || empty === 'large' || !empty.bytes) throw new Error('empty.txt is a text file');
      const emptyWhole = await scanText('', pattern, { deadline: Date.now() + 60_000, wantOffsets: 0, maxHits: Infinity, pause });
      expect((await countText(cache, empty, pattern, undefined, Date.now() + 60_000, pause)).count, `${source_} on an empty file`).toBe(emptyWhole.count);
    }
    await platform.dispose();
  });

  it('counts a literal on bytes exactly as a scan of the whole text, whatever ends its lines', async () => {
    // Lone \r inside a \n-ended run, \r\n, \r at the very end, a literal right after a \r, runs of endings.
    const text = `${mixedText()}\nxa\rya\nza\r\na\r\r\na\n\ra\rxx\ra`;
    const platform = createMemoryPlatform({ files: { 'mixed.txt': text, 'cr-only.txt': 'a\ra\rb\ra', 'no-ending.txt': 'aaa' } });
    const source = searchSourceOf(platform);
    if (!source) throw new Error('the memory platform has a search source');
    const cache = cacheOf(source);
    const pause = async (): Promise<void> => undefined;
    for (const [name, body] of [['mixed.txt', text], ['cr-only.txt', 'a\ra\rb\ra'], ['no-ending.txt', 'aaa']] as const) {
      for (const literal of ['a', 'ya', 'foo bar', 'École']) {
        const pattern = await prepareSearchPattern(compileSearchPattern(literal, { literal: true, caseSensitive: true }));
        const whole = await scanText(body, pattern, { deadline: Date.now() + 60_000, wantOffsets: 0, maxHits: Infinity, pause });
        const file = cache.load(`/workspace/${name}`);
        if (!file || file === 'large' || !file.bytes) throw new Error(`${name} is a text file`);
        const counted = await countText(cache, file, pattern, needleOf(pattern), Date.now() + 60_000, pause);
        expect(counted, `${literal} in ${name}`).toEqual({ count: whole.count, stopped: false });
      }
    }
    await platform.dispose();
  });

  it('counts a pattern with a required literal on the lines holding it exactly as a scan of the whole text', async () => {
    const text = mixedText() + '\nbar1 at the end bar2';
    const bytes = new TextEncoder().encode(`\uFEFF${text}`);
    const platform = createMemoryPlatform({ files: { 'mixed.txt': bytes, 'start.txt': 'foo bar at the start\rfoo\r\nbar foo bar' } });
    const source = searchSourceOf(platform);
    if (!source) throw new Error('the memory platform has a search source');
    const cache = cacheOf(source);
    const pause = async (): Promise<void> => undefined;
    const patterns = [
      'bar\\d+ 😀 a$', '^foo bar', 'bar$', '\\bbar\\d{2}\\b', 'École \\d+ — caf.', '(?i)école \\d+', 'foo (bar)+', '^x(yyy)+a$', 'yyy', 'bar[0-9]+ at the end bar\\d',
      // re2js for these (no V8 form): still only the lines holding the literal.
      'foo(?:\\s+bar\\w*){1,3}', 'the (start|end)',
    ];
    for (const name of ['mixed.txt', 'start.txt']) {
      const file = cache.load(`/workspace/${name}`);
      if (!file || file === 'large' || !file.bytes) throw new Error(`${name} is a text file`);
      const whole = new TextDecoder().decode(file.bytes.subarray(file.skip));
      for (const source_ of patterns) {
        const pattern = await prepareSearchPattern(compileSearchPattern(source_, { literal: false, caseSensitive: true }));
        const needle = needleOf(pattern);
        if (!source_.startsWith('(?i)')) expect(needle, source_).toBeDefined();
        const expected = await scanText(whole, pattern, { deadline: Date.now() + 60_000, wantOffsets: 0, maxHits: Infinity, pause });
        const counted = await countText(cache, file, pattern, needle, Date.now() + 60_000, pause);
        expect(counted, `${source_} in ${name}`).toEqual({ count: expected.count, stopped: false });
      }
    }
    await platform.dispose();
  });
});
