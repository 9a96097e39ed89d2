// The result memo of a kept listing's verdicts: a repeated search over a workspace that vouches for
// itself (`changeCount`) takes the matching-line counts it found before in the files the index trusts,
// and reads only what it does not know, for any pattern (one in most files, or one with no literal).
// Every answer is checked against a plain scan of the same files.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BuiltinTools, ToolRunner } from '../../index.js';
import { createMemoryPlatform } from '../../platform/memory.js';
import type { Platform } from '../../core/types.js';
import type { SearchSource } from '../source-port.js';
import { buildWorkspaceIndex, searchIndexIdle } from './workspace.js';
import { setSearchIndex } from './engine.js';
import { searchSourceOf } from '../engine-source.js';
import { createSearchEngine } from '../engine.js';

const FILES: Record<string, string> = {};
for (let i = 0; i < 40; i += 1) FILES[`${['', 'src/', 'docs/'][i % 3]}g${i}.ts`] = `const shared${i} = ${i};\nexport const other${i} = shared${i} + 1;\n`;
FILES['src/g10.ts'] = 'const lonelyPlanet = 1;\nconst alsoPlanet = lonelyPlanet;\n';
FILES['docs/g20.ts'] = 'no such word here\n';
const FILE_COUNT = Object.keys(FILES).length;

/** A memory platform under `/ws` whose search source logs every file it stats or reads, indexed with the clock past its writes; and a runner without the index on the same files. */
async function memoWorkspace(): Promise<{ platform: Platform; reads: string[]; search: ToolRunner; scan: ToolRunner }> {
  const memory = createMemoryPlatform({ root: '/ws', files: FILES });
  const reads: string[] = [];
  const inner = searchSourceOf(memory) as SearchSource;
  const source: SearchSource = { ...inner, stat: (path) => (reads.push(path), inner.stat(path)), read: (path, maxBytes) => (reads.push(path), inner.read(path, maxBytes)) };
  const platform: Platform = { ...memory, search: createSearchEngine({ source }) };
  vi.setSystemTime(Date.now() + 5000);
  setSearchIndex(platform, await buildWorkspaceIndex(platform));
  return { platform, reads, search: new ToolRunner({ platform, tools: BuiltinTools.all() }), scan: new ToolRunner({ platform: { ...platform }, tools: BuiltinTools.all() }) };
}

/** grep_search with the index and as a plain scan: the same answer (returned), with the paths the indexed search stated or read (a file its cache holds is stated, not read). */
async function checked(setup: { reads: string[]; search: ToolRunner; scan: ToolRunner }, args: Record<string, unknown>): Promise<{ answer: Record<string, unknown>; read: string[] }> {
  setup.reads.length = 0;
  const answer = (await setup.search.execute('grep_search', args)) as Record<string, unknown>;
  const read = [...new Set(setup.reads)].sort();
  expect(answer).toEqual(await setup.scan.execute('grep_search', args));
  return { answer, read };
}

/**
 * Moves the clock past every racy window, then searches `args` until the memo holds every count (a
 * search whose verdicts stand, then one that reuses them): the result of a third, settled search.
 */
async function settled(setup: Awaited<ReturnType<typeof memoWorkspace>>, args: Record<string, unknown>): Promise<{ answer: Record<string, unknown>; read: string[] }> {
  vi.setSystemTime(Date.now() + 1500);
  await checked(setup, args);
  await searchIndexIdle(setup.platform);
  await checked(setup, args);
  await searchIndexIdle(setup.platform);
  return checked(setup, args);
}

const COMMON = { pattern: 'const', fixed_strings: true, output_mode: 'count' };
const NO_LITERAL = { pattern: String.raw`[a-z]+[0-9]+\b`, output_mode: 'count' };

describe('a repeated search takes the line counts remembered in its kept verdicts, exactly', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(1_800_000_000_000);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('a literal in most files (the index alone leaves them all): the first count checks every file, the repeat none, and answers the same', async () => {
    const setup = await memoWorkspace();
    const first = await checked(setup, COMMON);
    expect(first.answer).toMatchObject({ total_files: FILE_COUNT - 1, files_searched: FILE_COUNT });
    expect(first.read.length).toBe(FILE_COUNT);
    await searchIndexIdle(setup.platform);
    for (let round = 0; round < 2; round += 1) {
      const again = await checked(setup, COMMON);
      expect(again.read).toEqual([]);
      expect(again.answer).toEqual(first.answer);
    }
  });

  it('a regex with no literal (plan "all"): the repeat reads no file; files_with_matches of the same pattern takes the same counts', async () => {
    const setup = await memoWorkspace();
    const first = await checked(setup, NO_LITERAL);
    expect(first.answer).toMatchObject({ total_matches: 2 * (FILE_COUNT - 2), files_searched: FILE_COUNT });
    expect(first.read.length).toBe(FILE_COUNT);
    await searchIndexIdle(setup.platform);
    expect((await checked(setup, NO_LITERAL)).read).toEqual([]);
    const files = await checked(setup, { ...NO_LITERAL, output_mode: 'files_with_matches' });
    expect(files.read).toEqual([]);
    expect(files.answer).toMatchObject({ total_files: FILE_COUNT - 2 });
  });

  it('a repeat past max_results lists the first files and counts the rest, as a plain scan does (count and files_with_matches)', async () => {
    const setup = await memoWorkspace();
    for (const output_mode of ['count', 'files_with_matches']) {
      const args = { ...COMMON, output_mode, max_results: 5 };
      const first = await checked(setup, args);
      await searchIndexIdle(setup.platform);
      const again = await checked(setup, args);
      expect(again.read).toEqual([]);
      expect(again.answer).toEqual(first.answer);
      expect(again.answer).toMatchObject({ total_files: FILE_COUNT - 1, truncated: true });
      expect((again.answer.counts ?? again.answer.files) as unknown[]).toHaveLength(5);
    }
  });

  it('content mode reads only the files remembered with a match; a file remembered with none is left unread', async () => {
    const setup = await memoWorkspace();
    await checked(setup, { pattern: 'Planet', fixed_strings: true, output_mode: 'count' });
    await searchIndexIdle(setup.platform);
    const content = await checked(setup, { pattern: 'Planet', fixed_strings: true, output_mode: 'content' });
    expect(content.read).toEqual(['/ws/src/g10.ts']);
    expect(content.answer).toMatchObject({ total_matches: 2, files_searched: FILE_COUNT });
  });

  it('different patterns and case rules are remembered apart; a pattern not counted before reads the files again', async () => {
    const setup = await memoWorkspace();
    await checked(setup, COMMON);
    await searchIndexIdle(setup.platform);
    const folded = await checked(setup, { ...COMMON, pattern: 'CONST', case_sensitive: false });
    expect(folded.read.length).toBe(FILE_COUNT - 1);
    expect(folded.answer).toMatchObject({ total_files: FILE_COUNT - 1 });
    const exact = await checked(setup, { ...COMMON, pattern: 'CONST' });
    expect(exact.answer).toMatchObject({ total_matches: 0 });
    await searchIndexIdle(setup.platform);
    expect((await checked(setup, COMMON)).read).toEqual([]);
    expect((await checked(setup, { ...COMMON, pattern: 'CONST', case_sensitive: false })).read).toEqual([]);
  });

  it('a change through the platform (even a same-size rewrite) forgets every count: the next search reads again and finds the new lines', async () => {
    const setup = await memoWorkspace();
    await checked(setup, COMMON);
    await searchIndexIdle(setup.platform);
    const before = FILES['src/g1.ts'] as string;
    const rewritten = 'const a = 1; const b = 2;\nconst c = 3;\n'.padEnd(before.length, ' ');
    expect(rewritten.length).toBe(before.length);
    await setup.platform.fs.writeFile('/ws/src/g1.ts', rewritten);
    const after = await checked(setup, COMMON);
    expect(after.read.length).toBeGreaterThan(0);
    const counts = after.answer.counts as Array<{ file_path: string; count: number }>;
    expect(counts.find((entry) => entry.file_path === '/ws/src/g1.ts')?.count).toBe(2);
    // Past the written file's racy window, its new count is remembered too.
    const settledAfter = await settled(setup, COMMON);
    expect(settledAfter.read).toEqual([]);
    expect((settledAfter.answer.counts as Array<{ file_path: string; count: number }>).find((entry) => entry.file_path === '/ws/src/g1.ts')?.count).toBe(2);
  });

  it('while a file is racy (written in the tick it was read) every search checks every file again; once its window has passed, the repeat reads none', async () => {
    const setup = await memoWorkspace();
    await setup.platform.fs.writeFile('/ws/fresh.ts', 'const fresh = 1;\n');
    for (let round = 0; round < 2; round += 1) {
      const again = await checked(setup, COMMON);
      expect(again.read).toContain('/ws/fresh.ts');
      expect(again.read.length).toBe(FILE_COUNT + 1);
      expect(again.answer).toMatchObject({ total_files: FILE_COUNT });
      await searchIndexIdle(setup.platform);
    }
    const repeat = await settled(setup, COMMON);
    expect(repeat.read).toEqual([]);
    expect(repeat.answer).toMatchObject({ total_files: FILE_COUNT });
  });
});
