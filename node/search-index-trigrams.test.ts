import { beforeAll, describe, expect, it } from 'vitest';
import { DIST, ensureBuilt, loadBuiltModule } from '../test/support/build.js';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';

// The build thread's second thread runs a built module, so these tests load the shared build in dist/.
type Trigrams = typeof import('./search-index-trigrams.js');
type Index = typeof import('../src/search/index/search-index.js');

let trigrams: Trigrams;
let index: Index;
let workerUrl: URL;

beforeAll(async () => {
  ensureBuilt();
  trigrams = await loadBuiltModule<Trigrams>('node/search-index-trigrams.js');
  index = await loadBuiltModule<Index>('src/search/index/search-index.js');
  workerUrl = pathToFileURL(join(DIST, 'node/search-index-trigram-worker.js'));
}, 600_000);

/** Text of `length` bytes from a seed: letters of both cases, digits, spaces, line breaks and UTF-8 lead and continuation bytes. */
function text(seed: number, length: number): Uint8Array {
  const alphabet = new TextEncoder().encode('abcdefgABCDEFG0123  \n\r_(){}.;é');
  const out = new Uint8Array(length);
  let x = (seed * 2654435761) >>> 0 || 1;
  for (let i = 0; i < length; i += 1) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = alphabet[(x >>> 0) % alphabet.length] as number;
  }
  return out;
}

describe('trigrams taken on a second thread', () => {
  it('give lists byte for byte equal to this thread\'s, through ring wraps and files close to the largest indexed (16 MiB)', () => {
    const sink = trigrams.offThreadTrigramSink(workerUrl);
    expect(sink).toBeDefined();
    const local = index.localTrigramSink();
    // Sizes that leave the ring's end too short for the next record, twice, and empty files.
    const sizes = [0, 10, 5000, 15 * 1024 * 1024, 3, 9 * 1024 * 1024, 12 * 1024 * 1024, 70_000, 0, 100];
    let id = 0;
    for (let round = 0; round < 2; round += 1) {
      // The second round smaller: other offsets in the ring.
      for (const [i, size] of sizes.entries()) {
        // Ids with gaps, as binary and unindexed files leave.
        id += 1 + (i % 3) * 150;
        const bytes = text(id, round === 0 ? size : size >> (i % 4));
        sink?.add(id, bytes);
        local.add(id, bytes);
        // The caller may reuse its buffer as soon as add returns.
        bytes.fill(0x41);
      }
    }
    const there = sink?.freeze();
    const here = local.freeze();
    expect(there?.keys.length).toBeGreaterThan(1000);
    expect([...(there?.keys ?? [])]).toEqual([...here.keys]);
    expect([...(there?.offsets ?? [])]).toEqual([...here.offsets]);
    expect(Buffer.from(there?.bytes ?? []).equals(Buffer.from(here.bytes))).toBe(true);
  }, 300_000);

  it('a sink let go before its lists are taken refuses more files with a TypeError; a missing thread module gives no sink', () => {
    const sink = trigrams.offThreadTrigramSink(workerUrl);
    sink?.add(0, new TextEncoder().encode('some text'));
    sink?.close();
    expect(() => sink?.add(1, new TextEncoder().encode('more'))).toThrow(TypeError);
    expect(trigrams.offThreadTrigramSink(pathToFileURL(join(DIST, 'node/no-such-module.js')))).toBeUndefined();
  });
});
