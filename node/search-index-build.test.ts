// The index build's reads through the Node search source (one open per file, the descriptor's own
// identity): each kind of file comes out as the build through the platform's fs records it.
import { mkdtemp, realpath, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Platform } from '../src/core/types.js';
import { FileKind, MAX_INDEXED_FILE_BYTES } from '../src/search/index/search-index.js';
import { buildWorkspaceIndex } from '../src/search/index/workspace.js';
import { createMemoryPlatform } from '../src/platform/memory.js';
import { createNodePlatform } from './platform.js';
import { searchSourceOf } from '../src/search/engine-source.js';

/** The trigram key of three ASCII bytes (lower case). */
function key(three: string): number {
  return (three.charCodeAt(0) << 16) | (three.charCodeAt(1) << 8) | three.charCodeAt(2);
}

let base = '';
let platform: Platform;
const files: Record<string, Uint8Array> = {};

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'toolhost-index-build-')));
  const text = (bytes: number, word: string): Uint8Array => {
    const out = new Uint8Array(bytes).fill(0x61);
    for (let i = 79; i < bytes; i += 80) out[i] = 10;
    out.set(new TextEncoder().encode(word), 1000);
    return out;
  };
  files['small.txt'] = new TextEncoder().encode('one zqxsmall line\n');
  // Over 1 MiB: the source first reads 8 KiB, which hold no NUL, then the rest.
  files['large.txt'] = text(2 * 1024 * 1024 + 7, 'zqxlarge');
  // Over 1 MiB with a NUL in its first 8 KiB: the source reads only those 8 KiB.
  const binary = text(2 * 1024 * 1024, 'zqxbinary');
  binary[100] = 0;
  files['large.bin'] = binary;
  // A NUL past the first 8 KiB, not UTF-8 either: read whole, binary by its bytes.
  const late = text(20_000, 'zqxlate');
  late[15_000] = 0xff;
  files['late.bin'] = late;
  files['limit.txt'] = text(MAX_INDEXED_FILE_BYTES, 'zqxlimit');
  files['over.txt'] = text(MAX_INDEXED_FILE_BYTES + 1, 'zqxover');
  for (const [name, bytes] of Object.entries(files)) {
    await writeFile(join(base, name), bytes);
    await utimes(join(base, name), new Date(2020, 0, 1), new Date(2020, 0, 1));
  }
  // Past the files' status-change times: with no racy window (racyMs 0), none is racy.
  await new Promise((resolve) => setTimeout(resolve, 50));
  platform = createNodePlatform({ root: base });
});

afterAll(async () => {
  await platform?.dispose?.();
  if (base) await rm(base, { recursive: true, force: true });
});

describe('index build through the Node search source', () => {
  it('records each file as the build through the fs does: text, binary by its first 8 KiB or its bytes, unindexed past the size limit, none racy', async () => {
    expect(searchSourceOf(platform)).toBeDefined();
    const viaSource = await buildWorkspaceIndex(platform, { racyMs: 0 });
    const { search: _, ...withoutSource } = platform;
    const viaFs = await buildWorkspaceIndex(withoutSource as Platform, { racyMs: 0 });
    const kinds: Record<string, number> = {};
    for (const name of Object.keys(files)) {
      const path = join(base, name);
      const got = viaSource.file(path);
      expect(got).toEqual(viaFs.file(path));
      expect(got?.stat.size).toBe(files[name]?.length);
      expect(got?.racy).toBe(false);
      kinds[name] = got?.kind as number;
    }
    expect(kinds).toEqual({
      'small.txt': FileKind.Text,
      'large.txt': FileKind.Text,
      'large.bin': FileKind.Binary,
      'late.bin': FileKind.Binary,
      'limit.txt': FileKind.Text,
      'over.txt': FileKind.Unindexed,
    });
    // The posting lists are the same bytes.
    expect(viaSource.parts().postings).toEqual(viaFs.parts().postings);
  });

  it('finds a word of a file read in two parts and one of a file of the size limit; a file past the limit is always a candidate', async () => {
    const index = await buildWorkspaceIndex(platform, { racyMs: 0 });
    const candidates = (word: string): string[] => {
      const trigrams = Array.from({ length: word.length - 2 }, (_, i) => key(word.slice(i, i + 3)));
      return [...(index.candidates({ op: 'and', trigrams, subs: [] }) ?? [])].map((path) => path.slice(base.length + 1)).sort();
    };
    expect(candidates('zqxlarge')).toEqual(['large.txt', 'over.txt']);
    expect(candidates('zqxlimit')).toEqual(['limit.txt', 'over.txt']);
    expect(candidates('zqxsmall')).toEqual(['over.txt', 'small.txt']);
    expect(candidates('zqxbinary')).toEqual(['over.txt']);
  });

  it('a source that hands over a prefix of a file past the size limit (the memory one) leaves it unindexed, not racy', async () => {
    const over = new Uint8Array(MAX_INDEXED_FILE_BYTES + 5).fill(0x62);
    const memory = createMemoryPlatform({ root: '/ws', files: { '/ws/over.txt': over, '/ws/small.txt': 'zqx small\n' } });
    expect(searchSourceOf(memory)).toBeDefined();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const index = await buildWorkspaceIndex(memory, { racyMs: 0 });
    expect(index.file('/ws/over.txt')).toMatchObject({ kind: FileKind.Unindexed, racy: false, stat: { size: MAX_INDEXED_FILE_BYTES + 5 } });
    expect(index.file('/ws/small.txt')).toMatchObject({ kind: FileKind.Text, racy: false });
  });
});
