// The search index kept up with the tools' own writes as each is made: the bytes a tool writes are
// indexed with the file's identity right after the write (no read), removals and moves leave it, and
// every search after them answers exactly what a plain scan of the same workspace answers.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BuiltinTools, ToolRunner, toolProfiles } from '../../index.js';
import { ToolRunner as CoreToolRunner } from '../../core/runner.js';
import { wrapFsMethods } from '../../core/fs-proxy.js';
import { createMemoryPlatform } from '../../platform/memory.js';
import type { Platform } from '../../core/types.js';
import { compileSearchPattern } from '../dialect.js';
import { INLINE_BYTES } from './commit.js';
import { FileKind, type SearchIndex } from './search-index.js';
import { sameIdentity } from '../../fs/racy-clock.js';
import { worthSifting } from './sift.js';
import { buildWorkspaceIndex, searchIndexCommitWork, searchIndexIdle, searchIndexOf } from './workspace.js';
import { setSearchIndex } from './engine.js';
import { searchSourceOf } from '../engine-source.js';

const FILES: Record<string, string> = {
  'a.txt': 'alpha one\n',
  'b.txt': 'beta two\n',
  'c.txt': 'gamma three\n',
  'src/d.ts': 'export const delta = 4;\n',
  'src/e.ts': 'export const epsilon = 5;\n',
  'src/f.ts': 'export const zeta = 6;\n',
  'docs/g.md': '# eta\n',
  'docs/h.md': '# theta\n',
};

/** A memory platform under `/ws` counting the reads made through its fs, with its index built while the clock stood well past its files' writes. */
async function indexedWorkspace(options: { atomicWrites?: boolean } = {}): Promise<{ platform: Platform; reads: { count: number }; scan: ToolRunner; search: ToolRunner }> {
  const memory = createMemoryPlatform({ root: '/ws', files: FILES });
  const reads = { count: 0 };
  const fs = wrapFsMethods(memory.fs, (name, method, target) =>
    name === 'readFile'
      ? (...args: unknown[]) => {
          reads.count += 1;
          return method.apply(target, args);
        }
      : undefined,
  );
  const platform: Platform = { ...memory, fs, ...(options.atomicWrites === undefined ? {} : { atomicWrites: options.atomicWrites }) };
  vi.setSystemTime(Date.now() + 5000);
  setSearchIndex(platform, await buildWorkspaceIndex(platform));
  // The same files under another platform object: no index, every search a plain scan.
  const scan = new ToolRunner({ platform: { ...platform }, tools: BuiltinTools.all() });
  return { platform, reads, scan, search: new ToolRunner({ platform, tools: BuiltinTools.all() }) };
}

const indexOf = (platform: Platform): SearchIndex => searchIndexOf(platform) as SearchIndex;

/** grep_search through the indexed runner and through the plain one: the same answer, returned. */
async function sameAsScan(search: ToolRunner, scan: ToolRunner, pattern: string, extra: Record<string, unknown> = {}): Promise<unknown> {
  const args = { pattern, output_mode: 'files_with_matches', ...extra };
  const withIndex = await search.execute('grep_search', args);
  expect(withIndex).toEqual(await scan.execute('grep_search', args));
  return withIndex;
}

/** The file's identity now, as the search checks it. */
const identity = (platform: Platform, path: string) => searchSourceOf(platform)?.stat(path);

describe('tools\' writes update the search index as they are made', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(1_800_000_000_000);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('create_file and edit_file: the file is indexed with its new identity at once, before any search, without reading it', async () => {
    const { platform, reads, scan, search } = await indexedWorkspace();
    const before = indexOf(platform).version;
    reads.count = 0;
    await search.execute('edit_file', { file_path: '/ws/a.txt', old_string: 'alpha', new_string: 'omega' });
    await search.execute('create_file', { file_path: '/ws/src/new.ts', content: 'export const omega = 1;\n' });
    const index = indexOf(platform);
    expect(index.version).toBeGreaterThan(before);
    for (const path of ['/ws/a.txt', '/ws/src/new.ts']) {
      const entry = index.file(path);
      expect(entry?.kind).toBe(FileKind.Text);
      expect(sameIdentity(entry?.stat as NonNullable<typeof entry>['stat'], identity(platform, path) as NonNullable<ReturnType<typeof identity>>)).toBe(true);
    }
    expect(index.size).toBe(Object.keys(FILES).length + 1);
    expect(searchIndexCommitWork(platform).changes).toBe(2);
    // The same two calls on a workspace without an index read as much: the index read nothing.
    const readsWith = reads.count;
    const without = await indexedWorkspace();
    setSearchIndex(without.platform, undefined);
    without.reads.count = 0;
    await without.search.execute('edit_file', { file_path: '/ws/a.txt', old_string: 'alpha', new_string: 'omega' });
    await without.search.execute('create_file', { file_path: '/ws/src/new.ts', content: 'export const omega = 1;\n' });
    expect(readsWith).toBe(without.reads.count);
    expect(await sameAsScan(search, scan, 'omega')).toMatchObject({ files: ['/ws/a.txt', '/ws/src/new.ts'] });
    expect(await sameAsScan(search, scan, 'alpha')).toMatchObject({ files: [] });
  });

  it('a tool write whose time lands in the same racy tick as a same-size write behind its back: the entry is racy, so the next search reads the other write', async () => {
    const { platform, scan, search } = await indexedWorkspace();
    await search.execute('edit_file', { file_path: '/ws/b.txt', old_string: 'beta', new_string: 'kapa' });
    // The clock stands still: the other write keeps the size, times and inode the index recorded.
    await platform.fs.writeFile('/ws/b.txt', 'iota two\n');
    const entry = indexOf(platform).file('/ws/b.txt');
    expect(entry?.racy).toBe(true);
    expect(sameIdentity(entry?.stat as NonNullable<typeof entry>['stat'], identity(platform, '/ws/b.txt') as NonNullable<ReturnType<typeof identity>>)).toBe(true);
    expect(await sameAsScan(search, scan, 'iota')).toMatchObject({ files: ['/ws/b.txt'] });
    expect(await sameAsScan(search, scan, 'kapa')).toMatchObject({ files: [] });
    // Past the racy window the file is read once more and trusted: the index then leaves it unread.
    vi.setSystemTime(Date.now() + 1500);
    expect(await sameAsScan(search, scan, 'iota')).toMatchObject({ files: ['/ws/b.txt'] });
    await searchIndexIdle(platform);
    expect(indexOf(platform).file('/ws/b.txt')?.racy).toBe(false);
    expect(worthSifting(indexOf(platform), compileSearchPattern('iota', { literal: false, caseSensitive: true }))).toBe(true);
    expect(await sameAsScan(search, scan, 'iota')).toMatchObject({ files: ['/ws/b.txt'], files_searched: 8 });
  });

  it('apply_patch: a deleted file leaves the index; a moved file leaves its old path and is indexed at its new one', async () => {
    const { platform, scan, search } = await indexedWorkspace();
    const patcher = new ToolRunner({ platform, tools: toolProfiles.openai() });
    const patch = '*** Begin Patch\n*** Delete File: b.txt\n*** Update File: c.txt\n*** Move to: moved/c2.txt\n@@\n-gamma three\n+gamma moved\n*** End Patch';
    const [result] = await patcher.processToolCalls([{ id: 'p', name: 'apply_patch', args: { input: patch } }]);
    expect(result).not.toHaveProperty('code');
    const index = indexOf(platform);
    expect(index.file('/ws/b.txt')).toBeUndefined();
    expect(index.file('/ws/c.txt')).toBeUndefined();
    expect(index.file('/ws/moved/c2.txt')?.kind).toBe(FileKind.Text);
    expect(index.paths().sort()).toEqual(['/ws/a.txt', '/ws/docs/g.md', '/ws/docs/h.md', '/ws/moved/c2.txt', '/ws/src/d.ts', '/ws/src/e.ts', '/ws/src/f.ts']);
    expect(await sameAsScan(search, scan, 'gamma')).toMatchObject({ files: ['/ws/moved/c2.txt'] });
    expect(await sameAsScan(search, scan, 'beta')).toMatchObject({ files: [] });
    vi.setSystemTime(Date.now() + 1500);
    expect(await sameAsScan(search, scan, 'moved')).toMatchObject({ files: ['/ws/moved/c2.txt'] });
    await searchIndexIdle(platform);
    expect(await sameAsScan(search, scan, 'moved', { output_mode: 'count' })).toMatchObject({ files_searched: 7 });
  });

  it('a file over the inline limit is indexed from the bytes written, in the background once the write returned, never read for it', async () => {
    const { platform, reads, scan, search } = await indexedWorkspace();
    const big = `${'const filler = 1;\n'.repeat(Math.ceil(INLINE_BYTES / 18))}const psiBig = 2;\n`;
    reads.count = 0;
    await search.execute('create_file', { file_path: '/ws/big.ts', content: big });
    await searchIndexIdle(platform);
    const entry = indexOf(platform).file('/ws/big.ts');
    expect(entry?.kind).toBe(FileKind.Text);
    expect(entry?.stat).toEqual(identity(platform, '/ws/big.ts'));
    const readsWith = reads.count;
    const without = await indexedWorkspace();
    setSearchIndex(without.platform, undefined);
    without.reads.count = 0;
    await without.search.execute('create_file', { file_path: '/ws/big.ts', content: big });
    expect(readsWith).toBe(without.reads.count);
    expect(await sameAsScan(search, scan, 'psiBig')).toMatchObject({ files: ['/ws/big.ts'] });
  });

  it('the text editor (Anthropic profile): create and str_replace are indexed as they are written', async () => {
    const { platform, scan, search } = await indexedWorkspace();
    const editor = new ToolRunner({ platform, tools: toolProfiles.anthropic() });
    await editor.execute('str_replace_based_edit_tool', { command: 'create', path: '/ws/notes.txt', file_text: 'lambda note\n' });
    await editor.execute('str_replace_based_edit_tool', { command: 'str_replace', path: '/ws/src/d.ts', old_str: 'delta', new_str: 'lambda' });
    const index = indexOf(platform);
    for (const path of ['/ws/notes.txt', '/ws/src/d.ts']) expect(sameIdentity(index.file(path)?.stat as NonNullable<ReturnType<typeof identity>>, identity(platform, path) as NonNullable<ReturnType<typeof identity>>)).toBe(true);
    expect(await sameAsScan(search, scan, 'lambda')).toMatchObject({ files: ['/ws/notes.txt', '/ws/src/d.ts'] });
    expect(await sameAsScan(search, scan, 'delta')).toMatchObject({ files: [] });
  });

  it('a write through a temporary file renamed into place (a platform whose writes are not atomic) indexes the target, never the temporary file', async () => {
    const { platform, scan, search } = await indexedWorkspace({ atomicWrites: false });
    await search.execute('create_file', { file_path: '/ws/src/e.ts', content: 'export const sigma = 5;\n', overwrite: true });
    const index = indexOf(platform);
    expect(index.paths().filter((path) => path.includes('.toolhost-'))).toEqual([]);
    expect(sameIdentity(index.file('/ws/src/e.ts')?.stat as NonNullable<ReturnType<typeof identity>>, identity(platform, '/ws/src/e.ts') as NonNullable<ReturnType<typeof identity>>)).toBe(true);
    expect(index.size).toBe(Object.keys(FILES).length);
    expect(await sameAsScan(search, scan, 'sigma')).toMatchObject({ files: ['/ws/src/e.ts'] });
  });

  it('a runner without a change journal updates the index too; a staged write of review mode does not reach it', async () => {
    const { platform, scan, search } = await indexedWorkspace();
    const bare = new CoreToolRunner({ platform, tools: BuiltinTools.all() });
    await bare.execute('create_file', { file_path: '/ws/bare.txt', content: 'rho\n' });
    expect(indexOf(platform).file('/ws/bare.txt')?.kind).toBe(FileKind.Text);
    const reviewed = new ToolRunner({ platform, tools: BuiltinTools.all(), review: true });
    const version = indexOf(platform).version;
    await reviewed.execute('create_file', { file_path: '/ws/staged.txt', content: 'rho staged\n' });
    expect(indexOf(platform).version).toBe(version);
    expect(indexOf(platform).file('/ws/staged.txt')).toBeUndefined();
    expect(await sameAsScan(search, scan, 'rho')).toMatchObject({ files: ['/ws/bare.txt'] });
  });

  it('once the index is taken away, writes no longer touch it; many writes are folded into its postings after the calls', async () => {
    const { platform, scan, search } = await indexedWorkspace();
    for (let i = 0; i < 300; i += 1) await search.execute('create_file', { file_path: `/ws/many/f${i}.txt`, content: `tau ${i}\n` });
    await searchIndexIdle(platform);
    const index = indexOf(platform);
    expect(index.pending).toBeLessThan(300);
    expect(index.size).toBe(Object.keys(FILES).length + 300);
    expect(await sameAsScan(search, scan, 'tau 29\\b', { output_mode: 'count' })).toMatchObject({ total_matches: 1 });
    setSearchIndex(platform, undefined);
    await search.execute('create_file', { file_path: '/ws/after.txt', content: 'upsilon\n' });
    expect(index.file('/ws/after.txt')).toBeUndefined();
  });
});
