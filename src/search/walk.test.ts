import { describe, expect, it } from 'vitest';
import type { FsDirent } from '../core/types.js';
import type { SearchSource } from './source-port.js';
import { createMemoryPlatform } from '../platform/memory.js';
import { noSkippedEntries, countSkipped, reportWalk, skippedNote } from './walk-report.js';
import { walkWorkspace, type WalkFile } from './walk.js';
import { W, walkMemoryTree } from '../../test/support/walk.js';

const walk = walkMemoryTree;

describe('walkWorkspace', () => {
  it('lists files with paths relative to the start, walking dot-directories', async () => {
    const { rels, files } = await walk({ 'a.ts': '', 'src/b.ts': '', '.github/ci.yml': '', '.env': '' });
    expect(rels).toEqual(['.env', '.github/ci.yml', 'a.ts', 'src/b.ts']);
    expect(files.find((f) => f.rel === 'src/b.ts')?.path).toBe(`${W}/src/b.ts`);
  });

  it('caps the number of entries and says so', async () => {
    const files = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`f${i}.txt`, '']));
    const result = await walk(files, { maxEntries: 5 });
    expect(result.capped).toBe(true);
    expect(result.files).toHaveLength(5);
  });

  it('walks a deep tree without recursion and never follows symlinks', async () => {
    const deep = Array.from({ length: 200 }, (_, i) => `d${i}`).join('/');
    const platform = createMemoryPlatform({ files: { [`${deep}/leaf.txt`]: 'x' } });
    await platform.fs.symlink(W, `${W}/d0/up`);
    const result = await walkWorkspace({ fs: platform.fs, root: W, dir: W });
    expect(result.files.map((f) => f.rel)).toEqual([`${deep}/leaf.txt`]);
    const withLinks = await walkWorkspace({ fs: platform.fs, root: W, dir: W, includeSymlinks: true });
    expect(withLinks.files.map((f) => f.rel).sort()).toEqual([`${deep}/leaf.txt`, 'd0/up']);
  });

  it('rejects with the signal reason once aborted', async () => {
    const platform = createMemoryPlatform({ files: { 'a/b.txt': '' } });
    const controller = new AbortController();
    controller.abort(Object.assign(new Error('stop'), { code: 'cancelled' }));
    await expect(walkWorkspace({ fs: platform.fs, root: W, dir: W, signal: controller.signal })).rejects.toMatchObject({ code: 'cancelled' });
  });
});
describe('walkWorkspace over a source that answers the same listing while a directory is unchanged', () => {
  const entry = (name: string, kind: 'file' | 'dir' | 'link'): FsDirent => ({
    name,
    isFile: () => kind === 'file',
    isDirectory: () => kind === 'dir',
    isSymbolicLink: () => kind === 'link',
  });
  /** A source over fixed listings (the same array each time), as the Node source's listing cache answers. */
  const sourceOf = (listings: Map<string, FsDirent[]>): SearchSource => ({
    readdir: (path) => {
      const listing = listings.get(path);
      if (!listing) throw Object.assign(new Error(`ENOENT: ${path}`), { code: 'ENOENT' });
      return listing;
    },
    stat: () => undefined,
    read: () => undefined,
    indexOf: () => -1,
    isUtf8: () => true,
    decode: () => '',
  });
  const platform = createMemoryPlatform();
  const rels = (result: { files: WalkFile[] }) => result.files.map((file) => `${file.rel}${file.symlink ? ' (link)' : ''}`).sort();

  it('gives each walk what its own options select, and a changed listing its new entries', async () => {
    const listings = new Map<string, FsDirent[]>([
      [W, [entry('a.ts', 'file'), entry('link.ts', 'link'), entry('src', 'dir'), entry('node_modules', 'dir')]],
      [`${W}/src`, [entry('b.ts', 'file'), entry('c.md', 'file')]],
      [`${W}/node_modules`, [entry('m.js', 'file')]],
    ]);
    const source = sourceOf(listings);
    const base = { fs: platform.fs, root: W, dir: W, source };
    expect(rels(await walkWorkspace(base))).toEqual(['a.ts', 'src/b.ts', 'src/c.md']);
    // The same listings again: the same files, and a second walk's options still apply.
    const again = await walkWorkspace(base);
    expect(rels(again)).toEqual(['a.ts', 'src/b.ts', 'src/c.md']);
    expect(again.directories).toBe(2);
    expect(rels(await walkWorkspace({ ...base, includeSymlinks: true }))).toEqual(['a.ts', 'link.ts (link)', 'src/b.ts', 'src/c.md']);
    expect(rels(await walkWorkspace({ ...base, includeIgnored: true }))).toEqual(['a.ts', 'node_modules/m.js', 'src/b.ts', 'src/c.md']);
    expect(rels(await walkWorkspace({ ...base, fileFilter: (rel) => rel.endsWith('.ts') }))).toEqual(['a.ts', 'src/b.ts']);
    expect(rels(await walkWorkspace({ ...base, pruneDir: (rel) => rel === 'src' }))).toEqual(['a.ts']);
    expect(rels(await walkWorkspace({ ...base, dir: `${W}/src` }))).toEqual(['b.ts', 'c.md']);
    expect(rels(await walkWorkspace(base))).toEqual(['a.ts', 'src/b.ts', 'src/c.md']);
    // A changed directory is a new listing.
    listings.set(`${W}/src`, [entry('b.ts', 'file'), entry('d.ts', 'file')]);
    expect(rels(await walkWorkspace(base))).toEqual(['a.ts', 'src/b.ts', 'src/d.ts']);
    // The entry cap still stops a walk that would reuse a listing past it.
    const capped = await walkWorkspace({ ...base, maxEntries: 5 });
    expect([capped.capped, rels(capped)]).toEqual([true, ['a.ts', 'src/b.ts']]);
  });
});


describe('reportWalk', () => {
  it('adds what the walk skipped after a note the result already has, as a sentence of its own', () => {
    const skipped = noSkippedEntries();
    countSkipped(skipped, 'unreadable', '/workspace/locked');
    const result = reportWalk({ note: 'the search stopped at its time limit (10 ms) after 3 of 9 files' }, { skipped, ignoreDropped: [] });
    expect(result).toEqual({ note: `the search stopped at its time limit (10 ms) after 3 of 9 files. ${skippedNote(skipped)}`, skipped_entries: 1 });
    expect(reportWalk<{ note?: string }>({}, { skipped, ignoreDropped: [] }).note).toBe(skippedNote(skipped));
  });
});
