import { describe, expect, it } from 'vitest';
import { patternTree } from '../dialect.js';
import { crc32, IndexRejected, openIndex, serializeIndex, serializeIndexChunks, type StoredIndex } from './format.js';
import { planOf } from './plan.js';
import { FileKind, SearchIndex, type ReadFile } from './search-index.js';
import { fileTrigrams, forEachId, trigramBitmap } from './postings.js';
import { seededRandom } from '../../../test/support/random.js';

const encoder = new TextEncoder();
/** A file read long after its last change (not racy). */
function read(path: string, content: string | Uint8Array, ino = 1, at = 100_000): ReadFile {
  const bytes = typeof content === 'string' ? encoder.encode(content) : content;
  return { path, stat: { size: bytes.length, mtimeMs: 1000, ctimeMs: 1000, ino }, readAt: at, bytes, steady: true };
}

const FILES: Record<string, string> = {
  '/w/a.ts': 'export function alpha() {}\nconst Beta = 1;\n',
  '/w/b.ts': 'import { alpha } from "./a";\n',
  '/w/c.md': 'Straße und STRASSE\nпривет мир\n',
  '/w/d.txt': 'the Kelvin sign \u212a and the long s \u017ftop\n',
  '/w/e.txt': '',
  '/w/f.txt': 'foo\r\nbar\rbaz\n',
};

function indexOf(files: Record<string, string> = FILES): SearchIndex {
  return SearchIndex.build(Object.entries(files).map(([path, content], i) => read(path, content, i + 1)));
}

const candidates = (index: SearchIndex, pattern: string, options: { literal?: boolean; caseSensitive?: boolean } = {}): string[] | 'all' => {
  const found = index.candidates(planOf(patternTree(pattern, { literal: options.literal ?? false, caseSensitive: options.caseSensitive ?? true })));
  return found ? [...found].sort() : 'all';
};

describe('SearchIndex candidates', () => {
  it('a literal finds the files holding all its trigrams', () => {
    const index = indexOf();
    expect(candidates(index, 'alpha', { literal: true })).toEqual(['/w/a.ts', '/w/b.ts']);
    expect(candidates(index, 'function', { literal: true })).toEqual(['/w/a.ts']);
    expect(candidates(index, 'nowhere', { literal: true })).toEqual([]);
  });

  it('letter case: the index keeps letters lower-cased, so a case-sensitive search may get extra candidates, never fewer', () => {
    const index = indexOf();
    expect(candidates(index, 'beta', { literal: true })).toEqual(['/w/a.ts']);
    expect(candidates(index, 'BETA', { literal: true, caseSensitive: false })).toEqual(['/w/a.ts']);
  });

  it('Unicode case folding: the Kelvin sign and the long s are found by k and s, Cyrillic by either case', () => {
    const index = indexOf();
    expect(candidates(index, 'KELVIN SIGN ka', { literal: true, caseSensitive: false })).toEqual([]);
    expect(candidates(index, 'sign k', { literal: true, caseSensitive: false })).toEqual(['/w/d.txt']);
    expect(candidates(index, 'stop', { literal: true, caseSensitive: false })).toEqual(['/w/d.txt']);
    expect(candidates(index, 'stop', { literal: true })).toEqual([]);
    expect(candidates(index, 'ПРИВЕТ', { literal: true, caseSensitive: false })).toEqual(['/w/c.md']);
    expect(candidates(index, 'ПРИВЕТ', { literal: true })).toEqual([]);
  });

  it('no trigram spans a line break, whatever the line ending', () => {
    const index = indexOf();
    expect(candidates(index, 'obar', { literal: true })).toEqual([]);
    expect(candidates(index, 'bar', { literal: true })).toEqual(['/w/f.txt']);
    expect(candidates(index, 'baz', { literal: true })).toEqual(['/w/f.txt']);
  });

  it('a pattern with no usable literal answers all (scan every file)', () => {
    expect(candidates(indexOf(), '\\w+')).toBe('all');
  });

  it('alternations and classes', () => {
    const index = indexOf();
    expect(candidates(index, 'alpha|Straße')).toEqual(['/w/a.ts', '/w/b.ts', '/w/c.md']);
    expect(candidates(index, 'const [A-Z]eta')).toEqual(['/w/a.ts']);
  });

  it('binary files are never candidates; unreadable and racy files always are', () => {
    const index = SearchIndex.build([
      read('/w/bin', new Uint8Array([0x61, 0x6c, 0x70, 0x68, 0x61, 0, 1])),
      read('/w/latin1', new Uint8Array([0x61, 0x6c, 0x70, 0x68, 0x61, 0xe9])),
      { ...read('/w/gone', 'x'), bytes: undefined },
      read('/w/racy', 'nothing here', 9, 1500),
      read('/w/plain', 'nothing here'),
    ]);
    expect(index.file('/w/bin')?.kind).toBe(FileKind.Binary);
    expect(index.file('/w/latin1')?.kind).toBe(FileKind.Binary);
    expect(index.file('/w/gone')?.kind).toBe(FileKind.Unindexed);
    expect(index.file('/w/racy')?.racy).toBe(true);
    expect(index.file('/w/plain')?.racy).toBe(false);
    expect(candidates(index, 'alpha', { literal: true })).toEqual(['/w/gone', '/w/racy']);
  });
});

describe('SearchIndex updates', () => {
  it('compact() folds updates into posting lists that hold exactly the live files of each trigram (only additions, and with changes and removals)', () => {
    const random = seededRandom(20261207);
    const words = ['alpha', 'beta', 'gamma', 'delta', 'kappa', 'omega', 'sigma', 'zeta', 'Straße', 'привет'];
    const text = (): string => Array.from({ length: 1 + Math.floor(random() * 12) }, () => words[Math.floor(random() * words.length)]).join(random() < 0.2 ? '\n' : ' ');
    for (const onlyAdded of [true, false]) {
      const contents = new Map<string, string>();
      for (let i = 0; i < 60; i += 1) contents.set(`/w/f${i}.txt`, text());
      let index = SearchIndex.build([...contents].map(([path, content], i) => read(path, content, i + 1)));
      for (let round = 0; round < 4; round += 1) {
        for (let change = 0; change < 25; change += 1) {
          const roll = onlyAdded ? 0 : random();
          const path = roll < 0.5 ? `/w/n${round}-${change}.txt` : `/w/f${Math.floor(random() * 60)}.txt`;
          if (roll < 0.8) {
            contents.set(path, text());
            index.update(read(path, contents.get(path) as string, 1000 + round * 100 + change));
          } else {
            contents.delete(path);
            index.remove(path);
          }
        }
        index = index.compact();
        // The oracle: each key's list, decoded, is the sorted ids of the live files whose text holds that trigram.
        const { paths, postings } = index.parts();
        const expected = new Map<number, number[]>();
        paths.forEach((path, id) => {
          for (const key of fileTrigrams(encoder.encode(contents.get(path) as string), trigramBitmap())) {
            const ids = expected.get(key) ?? [];
            ids.push(id);
            expected.set(key, ids);
          }
        });
        const got = new Map<number, number[]>();
        postings.keys.forEach((key, at) => {
          const ids: number[] = [];
          forEachId(postings.bytes, postings.offsets[at] as number, postings.offsets[at + 1] as number, (id) => ids.push(id));
          got.set(key, ids);
        });
        expect(paths.slice().sort(), `round ${round}`).toEqual([...contents.keys()].sort());
        expect(got, `only added: ${onlyAdded}, round ${round}`).toEqual(expected);
      }
    }
  });

  it('a changed file is found by its new text only; a removed one is gone; compact keeps the answers', () => {
    const index = indexOf();
    index.update(read('/w/b.ts', 'nothing of the kind\n', 2));
    index.update(read('/w/new.ts', 'const alpha = 2;\n', 40));
    index.remove('/w/a.ts');
    expect(index.dirty).toBe(true);
    expect(candidates(index, 'alpha', { literal: true })).toEqual(['/w/new.ts']);
    expect(candidates(index, 'kind', { literal: true })).toEqual(['/w/b.ts']);
    expect(index.file('/w/a.ts')).toBeUndefined();
    const compacted = index.compact();
    expect(compacted.dirty).toBe(false);
    expect(compacted.size).toBe(index.size);
    expect(candidates(compacted, 'alpha', { literal: true })).toEqual(['/w/new.ts']);
    expect(candidates(compacted, 'kind', { literal: true })).toEqual(['/w/b.ts']);
    expect(candidates(compacted, 'Straße', { literal: true })).toEqual(['/w/c.md']);
    expect(compacted.file('/w/new.ts')?.stat).toEqual({ size: 17, mtimeMs: 1000, ctimeMs: 1000, ino: 40 });
  });

  it('adding the same path twice to a build is a mistake of the caller', () => {
    expect(() => SearchIndex.build([read('/w/a', 'x'), read('/w/a', 'y')])).toThrow(TypeError);
  });
});

describe('the serialized index', () => {
  const words = ['alpha', 'beta', 'gamma', 'delta', 'Straße', 'привет', 'K', 'ſ'];
  const big: Record<string, string> = {};
  for (let i = 0; i < 300; i += 1) big[`/w/d${i % 7}/f${i}.txt`] = `${words[i % words.length]} ${i}\n${words[(i * 3) % words.length]}-${i * 7}\n`;

  it('reopens to the same answers, without reading a file', () => {
    const index = indexOf(big);
    index.update(read('/w/d0/f0.txt', 'changed\n', 999));
    const bytes = serializeIndex(index, '/w');
    const reopened = openIndex(bytes, '/w');
    expect(reopened.size).toBe(300);
    for (const pattern of ['alpha', 'Straße', 'привет', 'changed', '7-', 'a 1']) {
      expect(candidates(reopened, pattern, { literal: true }), pattern).toEqual(candidates(index, pattern, { literal: true }));
      expect(candidates(reopened, pattern, { literal: true, caseSensitive: false }), pattern).toEqual(candidates(index, pattern, { literal: true, caseSensitive: false }));
    }
    expect(reopened.file('/w/d0/f0.txt')).toEqual(index.file('/w/d0/f0.txt'));
    expect(serializeIndex(reopened, '/w')).toEqual(bytes);
  });

  it('keeps each path apart when paths are not ASCII (lone surrogates too)', () => {
    const files = { '/w/Straße.md': 'alpha', '/w/中文/a.txt': 'beta', '/w/x\uD800': 'gamma', '/w/\uDC00y': 'delta', '/w/plain.ts': 'alpha beta' };
    const reopened = openIndex(serializeIndex(indexOf(files), '/w'), '/w');
    const utf8 = (path: string): string => new TextDecoder().decode(new TextEncoder().encode(path));
    expect(reopened.paths()).toEqual(Object.keys(files).map(utf8));
    expect(candidates(reopened, 'alpha', { literal: true })).toEqual(['/w/Straße.md', '/w/plain.ts']);
  });

  it('serializes in two pieces, tables then the index\'s own posting bytes (not a copy), that read back as the whole', () => {
    const index = indexOf(big);
    const [tables, postings] = serializeIndexChunks(index, '/w');
    expect(postings.buffer).toBe(index.parts().postings.bytes.buffer);
    const whole = serializeIndex(index, '/w');
    expect(tables.length + postings.length).toBe(whole.length);
    expect(new Uint8Array([...tables, ...postings])).toEqual(whole);
    expect(candidates(openIndex(whole, '/w'), 'alpha', { literal: true })).toEqual(candidates(index, 'alpha', { literal: true }));
  });

  it('rejects every truncation', () => {
    const bytes = serializeIndex(indexOf(), '/w');
    for (let length = 0; length < bytes.length; length += 1) expect(() => openIndex(bytes.subarray(0, length), '/w'), String(length)).toThrow(IndexRejected);
  });

  it('rejects a flipped bit in the header or the tables when opened', () => {
    const bytes = serializeIndex(indexOf(), '/w');
    const tables = 24 + new DataView(bytes.buffer).getUint32(20, true);
    expect(tables).toBeLessThan(bytes.length);
    for (let at = 0; at < tables; at += 1) {
      const corrupt = bytes.slice();
      corrupt[at] = (corrupt[at] as number) ^ (1 << (at % 8));
      expect(() => openIndex(corrupt, '/w'), String(at)).toThrow(IndexRejected);
    }
  });

  it('never uses a posting list whose block has a flipped bit: its plans answer every file, and it is neither compacted nor saved again', () => {
    const index = indexOf();
    const bytes = serializeIndex(index, '/w');
    const tables = 24 + new DataView(bytes.buffer).getUint32(20, true);
    const patterns = ['alpha', 'Straße', 'kind', 'foo', 'bar'];
    for (let at = tables; at < bytes.length; at += 1) {
      const corrupt = bytes.slice();
      corrupt[at] = (corrupt[at] as number) ^ (1 << (at % 8));
      const reopened = openIndex(corrupt, '/w') as StoredIndex;
      for (const pattern of patterns) {
        const answer = candidates(reopened, pattern, { literal: true });
        // Each answer is the intact one, or every file (the scan's own answer) once a list it needs is corrupt.
        if (reopened.corrupt === undefined) expect(answer, `${at} ${pattern}`).toEqual(candidates(index, pattern, { literal: true }));
        else expect(answer === 'all' || JSON.stringify(answer) === JSON.stringify(candidates(index, pattern, { literal: true })), `${at} ${pattern}`).toBe(true);
      }
      expect(() => reopened.checkAll(), String(at)).toThrow(/corrupt postings/);
      expect(reopened.corrupt?.message, String(at)).toMatch(/checksum mismatch \(corrupt postings, block 0\)/);
      expect(() => serializeIndex(reopened, '/w'), String(at)).toThrow(IndexRejected);
      reopened.update(read('/w/new.txt', 'fresh alpha\n', 5));
      expect(() => reopened.compact(), String(at)).toThrow(IndexRejected);
    }
  });

  it('checks only the posting blocks a search reads, and answers every file for a list in a corrupt block', () => {
    // Enough distinct trigrams for several blocks of postings.
    const files: Record<string, string> = {};
    for (let i = 0; i < 4000; i += 1) files[`/w/f${i}.txt`] = `${(i * 7919).toString(36)}${(i * 104729).toString(36)} common\n`;
    const index = indexOf(files);
    const bytes = serializeIndex(index, '/w');
    const view = new DataView(bytes.buffer);
    const tables = 24 + view.getUint32(20, true);
    const blocks = view.getUint32(24 + 28, true);
    expect(blocks).toBeGreaterThan(2);
    // The last block corrupt: lists in the first block are still used, a list in the last one is not.
    const corrupt = bytes.slice();
    corrupt[bytes.length - 1] = (corrupt[bytes.length - 1] as number) ^ 1;
    const reopened = openIndex(corrupt, '/w') as StoredIndex;
    expect(candidates(reopened, 'common', { literal: true })?.length).toBe(4000);
    expect(reopened.corrupt).toBeUndefined();
    const answers = Object.values(files).map((text) => text.slice(0, 6)).map((needle) => candidates(reopened, needle, { literal: true }));
    expect(reopened.corrupt?.message).toMatch(/corrupt postings, block \d+/);
    expect(answers.filter((answer) => answer === 'all').length).toBeGreaterThan(0);
    const intact = answers.filter((answer) => answer !== 'all');
    expect(intact.length).toBeGreaterThan(0);
    for (const answer of intact) expect(answer?.length).toBeGreaterThanOrEqual(1);
    expect(tables).toBeLessThan(bytes.length);
  });

  it('rejects another version (an index saved by an older toolhost), another workspace, and tables whose checksum was forged', () => {
    const bytes = serializeIndex(indexOf(), '/w');
    const older = bytes.slice();
    older[8] = 1;
    expect(() => openIndex(older, '/w')).toThrow(/format 1, expected 2/);
    expect(() => openIndex(bytes, '/other')).toThrow(/is for \/w, not \/other/);
    // The tables changed and their checksum recomputed: they must still fit together.
    const forged = bytes.slice();
    const tables = new DataView(forged.buffer).getUint32(20, true);
    const body = forged.subarray(24, 24 + tables);
    body[4] = (body[4] as number) + 1; // one more key than the tables hold
    new DataView(forged.buffer).setUint32(16, crc32(body), true);
    expect(() => openIndex(forged, '/w')).toThrow(IndexRejected);
  });
});

describe('the saved form\'s checksum', () => {
  it('is the same CRC-32 natively and from the table, on a known value and on random bytes', async () => {
    const { crc32, provideCrc32, tableCrc32 } = await import('./format.js');
    // What toolhost/node provides (Node's zlib.crc32), where the test runs on Node.
    const zlib = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule?.('node:zlib') as { crc32?: (b: Uint8Array) => number } | undefined;
    if (zlib?.crc32) provideCrc32((bytes) => (zlib.crc32 as (b: Uint8Array) => number)(bytes));
    const check = new TextEncoder().encode('123456789');
    expect(tableCrc32(check)).toBe(0xcbf43926);
    expect(crc32(check)).toBe(0xcbf43926);
    const random = new Uint8Array(100_003);
    for (let i = 0; i < random.length; i += 1) random[i] = (i * 2654435761) >>> 24;
    expect(crc32(random)).toBe(tableCrc32(random));
  });
});
