import { describe, expect, it } from 'vitest';
import { fileTrigrams, forEachId, keyTally, mergePostings, PostingBuilder, putVarint, trigramBitmap, type FrozenPostings } from './postings.js';
import { seededRandom as random } from '../../../test/support/random.js';

/** The trigrams of `bytes` the plain way: every window of three bytes with no line break, letters folded, first-met order. */
function referenceTrigrams(bytes: Uint8Array): number[] {
  const fold = (b: number): number => (b >= 0x41 && b <= 0x5a ? b | 0x20 : b);
  const out: number[] = [];
  const met = new Set<number>();
  for (let i = 2; i < bytes.length; i += 1) {
    const window = [bytes[i - 2] as number, bytes[i - 1] as number, bytes[i] as number];
    if (window.some((b) => b === 10 || b === 13)) continue;
    const key = (fold(window[0] as number) << 16) | (fold(window[1] as number) << 8) | fold(window[2] as number);
    if (!met.has(key)) {
      met.add(key);
      out.push(key);
    }
  }
  return out;
}

/** The frozen form of `files` (file id -> its keys) the plain way: a sorted map of key to ascending ids, delta varints. */
function referencePostings(files: Map<number, number[]>): FrozenPostings {
  const lists = new Map<number, number[]>();
  for (const [id, keys] of [...files].sort((a, b) => a[0] - b[0])) {
    for (const key of keys) {
      let ids = lists.get(key);
      if (!ids) lists.set(key, (ids = []));
      ids.push(id);
    }
  }
  const keys = [...lists.keys()].sort((a, b) => a - b);
  const bytes = new Uint8Array(files.size * 4096 * 5 + 16);
  const offsets: number[] = [];
  let at = 0;
  for (const key of keys) {
    offsets.push(at);
    let last = -1;
    for (const id of lists.get(key) as number[]) {
      at = putVarint(bytes, at, id - last - 1);
      last = id;
    }
  }
  offsets.push(at);
  return { keys: Uint32Array.from(keys), offsets: Uint32Array.from(offsets), bytes: bytes.slice(0, at) };
}

/** Files with ids far apart (varints of one to three bytes), a few with many keys, some with none. */
function sampleFiles(seed: number): Map<number, number[]> {
  const next = random(seed);
  const files = new Map<number, number[]>();
  let id = 0;
  for (let f = 0; f < 120; f += 1) {
    const gap = next() < 0.1 ? 20_000 + Math.floor(next() * 50_000) : next() < 0.2 ? 200 : 1;
    id += gap;
    const many = next() < 0.05 ? 3000 : Math.floor(next() * 60);
    const keys = new Set<number>();
    // Keys from a small set (long lists) and from all 24 bits (lists of one).
    for (let k = 0; k < many; k += 1) keys.add(next() < 0.7 ? Math.floor(next() * 300) * 4099 : Math.floor(next() * 2 ** 24));
    files.set(id, [...keys]);
  }
  return files;
}

function built(files: Map<number, number[]>, batchPairs?: number): { frozen: FrozenPostings; dataBytes: number; keyCount: number } {
  const builder = new PostingBuilder(batchPairs === undefined ? {} : { batchPairs });
  for (const [id, keys] of files) builder.add(id, Uint32Array.from(keys));
  const frozen = builder.freeze();
  return { frozen, dataBytes: builder.dataBytes, keyCount: builder.keyCount };
}

describe('PostingBuilder', () => {
  it('sorted runs laid out per key give the same lists as one sorted map, whatever the batch size (one pair, a few, more keys than a batch in one file, all)', () => {
    for (const seed of [1, 2, 3]) {
      const files = sampleFiles(seed);
      const expected = referencePostings(files);
      for (const batchPairs of [1, 7, 100, 2999, 1 << 20, undefined]) {
        const { frozen, dataBytes, keyCount } = built(files, batchPairs);
        expect([...frozen.keys]).toEqual([...expected.keys]);
        expect([...frozen.offsets]).toEqual([...expected.offsets]);
        expect(Buffer.from(frozen.bytes).equals(Buffer.from(expected.bytes))).toBe(true);
        expect(dataBytes).toBe(expected.bytes.length);
        expect(keyCount).toBe(expected.keys.length);
      }
    }
  });

  it('many files one after another (a thousand ids in a row) give the same lists whatever the batch size', () => {
    const next = random(7);
    const files = new Map<number, number[]>();
    for (let id = 0; id < 1000; id += 1) files.set(id, [...new Set(Array.from({ length: Math.floor(next() * 12) }, () => Math.floor(next() * 40) * 65_537))]);
    const expected = referencePostings(files);
    for (const batchPairs of [5, 1 << 20, undefined]) {
      const { frozen } = built(files, batchPairs);
      expect([...frozen.keys]).toEqual([...expected.keys]);
      expect([...frozen.offsets]).toEqual([...expected.offsets]);
      expect(Buffer.from(frozen.bytes).equals(Buffer.from(expected.bytes))).toBe(true);
    }
  });

  it('a list spanning runs decodes to the ids added, ascending, across gaps that need multi-byte varints', () => {
    const builder = new PostingBuilder({ batchPairs: 2 });
    const ids = [0, 1, 130, 131, 20_000, 2_000_000, 2_000_001];
    for (const id of ids) builder.add(id, Uint32Array.of(0x616263, 0x646566));
    const { keys, offsets, bytes } = builder.freeze();
    expect([...keys]).toEqual([0x616263, 0x646566]);
    for (let i = 0; i < keys.length; i += 1) {
      const got: number[] = [];
      forEachId(bytes, offsets[i] as number, offsets[i + 1] as number, (id) => got.push(id));
      expect(got).toEqual(ids);
    }
  });

  it('no files, or files without keys: no lists', () => {
    const builder = new PostingBuilder();
    builder.add(0, new Uint32Array(0));
    builder.add(5, new Uint32Array(0));
    const frozen = builder.freeze();
    expect(frozen.keys.length).toBe(0);
    expect([...frozen.offsets]).toEqual([0]);
    expect(frozen.bytes.length).toBe(0);
  });

  it('counts a pending pair as one byte of data before its batch is sorted', () => {
    const builder = new PostingBuilder();
    builder.add(0, Uint32Array.of(1, 2, 3));
    builder.add(300, Uint32Array.of(1));
    expect(builder.dataBytes).toBe(4);
    builder.freeze();
    // 1: ids 0 and 300 (delta 299, two bytes); 2 and 3: id 0.
    expect(builder.dataBytes).toBe(5);
    expect(builder.keyCount).toBe(3);
  });
});

describe('mergePostings', () => {
  it('two builders over consecutive id ranges, merged, give byte for byte what one builder over all gives, wherever the split falls (first delta re-counted from the first part\'s last id, across multi-byte varints)', () => {
    for (const seed of [4, 5, 6]) {
      const files = sampleFiles(seed);
      const expected = referencePostings(files);
      const ids = [...files.keys()];
      for (const cut of [0, 1, 17, Math.floor(ids.length / 2), ids.length - 1, ids.length]) {
        const first = new PostingBuilder({ batchPairs: 50 });
        const second = new PostingBuilder({ batchPairs: 1 << 20 });
        ids.forEach((id, i) => (i < cut ? first : second).add(id, Uint32Array.from(files.get(id) as number[])));
        const { postings, last } = first.freezePart();
        const merged = mergePostings(postings, last, second.freeze());
        expect([...merged.keys]).toEqual([...expected.keys]);
        expect([...merged.offsets]).toEqual([...expected.offsets]);
        expect(Buffer.from(merged.bytes).equals(Buffer.from(expected.bytes))).toBe(true);
      }
    }
  });

  it('tells its size before it makes a byte, then each final stretch of the lists as it makes them, the last at the end', () => {
    const files = sampleFiles(8);
    const ids = [...files.keys()];
    const first = new PostingBuilder();
    const second = new PostingBuilder();
    ids.forEach((id, i) => (i < ids.length / 2 ? first : second).add(id, Uint32Array.from(files.get(id) as number[])));
    const { postings, last } = first.freezePart();
    const tail = second.freeze();
    const sized: number[][] = [];
    const stretches: Uint8Array[] = [];
    let made = 0;
    const merged = mergePostings(postings, last, tail, {
      every: 100,
      sized: (keys, bytes) => sized.push([keys, bytes, stretches.length]),
      made: (bytes, end) => {
        expect(end).toBeGreaterThanOrEqual(made);
        // Copied now: a stretch told is final, so what is copied now is what the merge returns.
        stretches.push(bytes.slice(made, end));
        made = end;
      },
    });
    expect(sized).toEqual([[merged.keys.length, merged.bytes.length, 0]]);
    expect(stretches.length).toBeGreaterThan(3);
    expect(made).toBe(merged.bytes.length);
    expect(Buffer.concat(stretches).equals(Buffer.from(merged.bytes))).toBe(true);
  });

  it('freezePart gives each list\'s last id beside its key', () => {
    const builder = new PostingBuilder({ batchPairs: 2 });
    builder.add(3, Uint32Array.of(9, 4));
    builder.add(200, Uint32Array.of(9));
    builder.add(70_000, Uint32Array.of(5, 9));
    const { postings, last } = builder.freezePart();
    expect([...postings.keys]).toEqual([4, 5, 9]);
    expect([...last]).toEqual([3, 70_000, 70_000]);
  });
});

describe('fileTrigrams', () => {
  it('takes every three-byte window without a line break (\\n or \\r), ASCII letters folded, each key once in first-met order, NUL and high bytes included', () => {
    const next = random(99);
    const alphabet = [0x41, 0x5a, 0x61, 0x7a, 0x40, 0x5b, 10, 13, 0, 0x20, 0xc3, 0xa9, 0xff, 0x30];
    const seen = trigramBitmap();
    const fresh = trigramBitmap();
    const tally = keyTally();
    const met = new Set<number>();
    for (let round = 0; round < 200; round += 1) {
      const length = Math.floor(next() * 300);
      const bytes = Uint8Array.from({ length }, () => (next() < 0.5 ? (alphabet[Math.floor(next() * alphabet.length)] as number) : Math.floor(next() * 256)));
      const keys = [...fileTrigrams(bytes, seen, tally)];
      expect(keys).toEqual(referenceTrigrams(bytes));
      // The map is left as made for the next file; the tally counts the keys no earlier file had.
      expect(Buffer.compare(new Uint8Array(seen.buffer), new Uint8Array(fresh.buffer))).toBe(0);
      for (const key of keys) met.add(key);
      expect(tally.keys).toBe(met.size);
    }
  });

  it('a window right after a line break, or at the start, is taken only once three bytes follow the break', () => {
    const seen = trigramBitmap();
    const keys = (text: string): string[] => [...fileTrigrams(new TextEncoder().encode(text), seen)].map((k) => String.fromCharCode(k >>> 16, (k >>> 8) & 255, k & 255));
    expect(keys('ab\ncdE\r\nFgh')).toEqual(['cde', 'fgh']);
    expect(keys('ab')).toEqual([]);
    expect(keys('\0ab\0ab')).toEqual(['\0ab', 'ab\0', 'b\0a']);
  });

  it('a file with more distinct keys than the scratch buffer starts with gets them all', () => {
    const seen = trigramBitmap();
    const bytes = new Uint8Array(3 * 70_000);
    for (let i = 0; i < 70_000; i += 1) {
      // Distinct three-byte groups, none holding a line break.
      bytes[i * 3] = 0x20 + (i % 90);
      bytes[i * 3 + 1] = 0x20 + (Math.floor(i / 90) % 90);
      bytes[i * 3 + 2] = 0x80 + Math.floor(i / 8100);
    }
    const got = fileTrigrams(bytes, seen);
    expect([...got]).toEqual(referenceTrigrams(bytes));
    expect(got.length).toBeGreaterThan(70_000);
  });
});
