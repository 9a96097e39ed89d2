import { execFileSync } from 'node:child_process';
import { closeSync, constants, mkdirSync, mkdtempSync, openSync, realpathSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolRunner, type ToolCallResult } from '../src/runner.js';
import type { SearchSource } from '../src/search/source-port.js';
import { skipKindOf } from '../src/search/walk-report.js';
import { SourceCache } from '../src/search/source-cache.js';
import { BuiltinTools } from '../src/tools/index.js';
import { createNodePlatform } from '../node/platform.js';
import { createNodeSearchSource } from '../node/search-fs.js';
import { loadBuilt, type Core, type NodeAdapter } from './support/built-search.js';
import { searchSourceOf } from '../src/search/engine-source.js';

/** 24 folders of 200-character names: a file in the deepest has a path of over 4,800 bytes, past Linux's PATH_MAX (4,096). */
const LEVELS = 24;
const NAME = 'd'.repeat(200);
const DEEP_DIR = Array.from({ length: LEVELS }, () => NAME).join('/');
/** Files in the deepest folder of the tree for the helper thread: over the 256 a count shares with it. */
const SHARED_FILES = 300;
/** A minute ago (older than the caches' one-second racy window): repeated searches come from the caches. */
const OLD = Math.floor(Date.now() / 1000) - 60;

/**
 * Makes `base/<DEEP_DIR>` one folder at a time through the parent's descriptor (`/proc/self/fd/N/name`,
 * as openat does: no call is given the whole path, which the system would refuse), writes `files`
 * there and `top.txt` at the top, and dates every file and folder {@link OLD}.
 */
function makeDeepTree(prefix: string, files: Record<string, string>): string {
  const base = realpathSync(mkdtempSync(join(tmpdir(), `toolhost-${prefix}-`)));
  writeFileSync(join(base, 'top.txt'), 'needle at the top\n');
  utimesSync(join(base, 'top.txt'), OLD, OLD);
  let fd = openSync(base, constants.O_RDONLY | constants.O_DIRECTORY);
  const dirs = [fd];
  for (let i = 0; i < LEVELS; i += 1) {
    mkdirSync(`/proc/self/fd/${fd}/${NAME}`);
    fd = openSync(`/proc/self/fd/${fd}/${NAME}`, constants.O_RDONLY | constants.O_DIRECTORY);
    dirs.push(fd);
  }
  for (const [name, content] of Object.entries(files)) {
    writeFileSync(`/proc/self/fd/${fd}/${name}`, content);
    utimesSync(`/proc/self/fd/${fd}/${name}`, OLD, OLD);
  }
  // Deepest first: dating a folder's entry is a change of its parent's ctime only.
  for (let i = dirs.length - 1; i >= 0; i -= 1) {
    utimesSync(`/proc/self/fd/${dirs[i]}`, OLD, OLD);
    closeSync(dirs[i] as number);
  }
  return base;
}

const bases: string[] = [];
// rm -rf: it walks by descriptors, so the deep path is no obstacle (Node's recursive rm names whole paths).
afterAll(() => {
  for (const base of bases) execFileSync('rm', ['-rf', base]);
});

/** The answer, with the deep folders' 4,800 characters named `D/` each, so a failure stays readable. */
function shortened(answer: ToolCallResult): { result: ToolCallResult; text: string } {
  const text = JSON.stringify(answer).replaceAll(`${NAME}/`, 'D/');
  return { result: JSON.parse(text) as ToolCallResult, text };
}

const CALLS: Array<[string, Record<string, unknown>]> = [
  ['grep_search', { pattern: 'needle' }],
  ['grep_search', { pattern: 'needle', output_mode: 'files_with_matches' }],
  ['grep_search', { pattern: 'needle', output_mode: 'count' }],
  ['grep_search', { pattern: 'ne+dle\\s+in', context_lines: 1 }],
  ['grep_search', { pattern: 'ne+dle', output_mode: 'count' }],
  ['search_dir', { query: 'needle' }],
  ['find_file', { pattern: '*.txt' }],
  ['find_file', { pattern: '**/deep.txt' }],
];

describe('a file under a path longer than PATH_MAX (Node platform, real disk)', () => {
  it('is found by every search, in every output mode, the same way every time', async () => {
    // A .gitignore down there applies as anywhere (read through the confined fs, by descriptors).
    const base = makeDeepTree('deep-path', { 'deep.txt': 'needle in the deep\n', '.gitignore': 'ignored.txt\n', 'ignored.txt': 'needle ignored\n' });
    bases.push(base);
    const platform = createNodePlatform({ root: base });
    const runner = new ToolRunner({ platform, tools: BuiltinTools.all() });
    const deep = `${base}/${'D/'.repeat(LEVELS)}deep.txt`;
    expect(Buffer.byteLength(`${base}/${DEEP_DIR}/deep.txt`)).toBeGreaterThan(4096);
    try {
      const first = new Map<string, ToolCallResult>();
      for (let round = 0; round < 4; round += 1) {
        for (const [name, args] of CALLS) {
          const key = `${name} ${JSON.stringify(args)}`;
          const { result, text } = shortened((await runner.processToolCalls([{ name, args }]))[0] as ToolCallResult);
          expect(result, `${key}, round ${round}`).not.toHaveProperty('code');
          expect(text, `${key}, round ${round}`).not.toContain('skipped_entries');
          expect(text, `${key}, round ${round}`).toContain(deep);
          expect(text, `${key}, round ${round}`).not.toContain('ignored.txt');
          if (round === 0) first.set(key, result);
          else expect(result, `${key}, round ${round}`).toEqual(first.get(key));
        }
      }
      expect(first.get('grep_search {"pattern":"needle","output_mode":"count"}')).toEqual({
        name: 'grep_search',
        result: { counts: [{ file_path: deep, count: 1 }, { file_path: `${base}/top.txt`, count: 1 }], total_files: 2, total_matches: 2, truncated: false, files_searched: 3, binary_files_skipped: 0 },
      });
      expect(first.get('find_file {"pattern":"*.txt"}')).toEqual({ name: 'find_file', result: { files: [deep, `${base}/top.txt`], total: 2, truncated: false } });
      // With include_ignored the file the deep .gitignore names is there: it was left out by that rule.
      expect(shortened((await runner.processToolCalls([{ name: 'find_file', args: { pattern: 'ignored.txt', include_ignored: true } }]))[0] as ToolCallResult).result).toEqual({
        name: 'find_file',
        result: { files: [`${base}/${'D/'.repeat(LEVELS)}ignored.txt`], total: 1, truncated: false },
      });
    } finally {
      await platform.dispose();
    }
  });

  it('gives the search source the stat of a deep file, and a name too long as ENAMETOOLONG (too_long), never as gone', () => {
    const base = makeDeepTree('deep-stat', { 'deep.txt': 'needle in the deep\n' });
    bases.push(base);
    const source: SearchSource = createNodeSearchSource(base, { helper: false });
    try {
      const cache = new SourceCache(source);
      const deep = `${base}/${DEEP_DIR}/deep.txt`;
      for (let round = 0; round < 3; round += 1) {
        expect(source.stat(deep), `round ${round}`).toMatchObject({ size: 19, mtimeMs: OLD * 1000 });
        const file = cache.load(deep);
        expect(file !== undefined && file !== 'large' && new TextDecoder().decode(file.bytes as Uint8Array), `round ${round}`).toBe('needle in the deep\n');
      }
      // A name of 300 bytes: the system refuses it (ENAMETOOLONG), which is no file removed meanwhile.
      const long = `${base}/${'n'.repeat(300)}`;
      let thrown: unknown;
      try {
        source.stat(long);
      } catch (error) {
        thrown = error;
      }
      expect(skipKindOf(thrown)).toBe('too_long');
    } finally {
      source.close?.();
    }
  });
});

describe('a count shared with the search helper thread under a path longer than PATH_MAX (built package)', () => {
  let core: Core;
  let node: NodeAdapter;
  beforeAll(async () => {
    ({ core, node } = await loadBuilt());
  }, 180_000);

  it('counts every deep file, on either thread, the same way every time', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < SHARED_FILES; i += 1) files[`f${String(i).padStart(3, '0')}.txt`] = `needle ${i}\n${i % 2 === 0 ? 'needle again\n' : ''}`;
    const base = makeDeepTree('deep-shared', files);
    bases.push(base);
    const platform = node.createNodePlatform({ root: base });
    const runner = new core.ToolRunner({ platform, tools: core.BuiltinTools.all() });
    try {
      expect(searchSourceOf(platform)?.helper).toBeDefined();
      const calls: Array<Record<string, unknown>> = [
        { pattern: 'needle', output_mode: 'count', max_results: 2000 },
        { pattern: 'needle', output_mode: 'files_with_matches', max_results: 2000 },
        { pattern: 'ne+dle', output_mode: 'count', max_results: 2000 },
      ];
      const deepFiles = Object.keys(files).map((name) => `${base}/${'D/'.repeat(LEVELS)}${name}`);
      const first = new Map<string, ToolCallResult>();
      for (let round = 0; round < 4; round += 1) {
        for (const args of calls) {
          const key = `${JSON.stringify(args)}, round ${round}`;
          const { result, text } = shortened((await runner.processToolCalls([{ name: 'grep_search', args }]))[0] as ToolCallResult);
          expect(text, key).not.toContain('skipped_entries');
          // Each deep path is 4,800 characters: the 100,000-character budget lists the first twenty of them.
          const answer = (result as { result: { counts?: Array<{ file_path: string }>; files?: string[]; files_searched: number; total_files: number; total_matches: number } }).result;
          expect({ searched: answer.files_searched, files: answer.total_files, matches: answer.total_matches }, key).toEqual({
            searched: SHARED_FILES + 1,
            files: SHARED_FILES + 1,
            matches: SHARED_FILES + SHARED_FILES / 2 + 1,
          });
          const listed = answer.counts?.map((count) => count.file_path) ?? answer.files ?? [];
          expect(listed.length, key).toBeGreaterThan(10);
          expect(listed, key).toEqual(deepFiles.slice(0, listed.length));
          if (round === 0) first.set(JSON.stringify(args), result);
          else expect(result, key).toEqual(first.get(JSON.stringify(args)));
        }
      }
    } finally {
      await platform.dispose();
    }
  });
});
