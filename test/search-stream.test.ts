import { mkdtemp, mkdir, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolRunner } from '../src/runner.js';
import { defineTool } from '../src/core/tool.js';
import type { Platform } from '../src/core/types.js';
import { createMemoryPlatform } from '../src/platform/memory.js';
import { compileSearchPattern } from '../src/search/dialect.js';
import { MAX_SEARCH_TIME_MS, runLineSearch, type LineSearchOptions, type SearchContentResult, type SearchCountResult } from '../src/search/line-search.js';
import { grepSearchTool } from '../src/tools/grep-search.js';
import { createNodePlatform } from '../node/platform.js';
import { seededRandom } from './support/random.js';

const WORDS = ['alpha', 'beta', 'Gamma', 'needle', 'NEEDLE', 'foo_bar', 'x1', '42', 'é', '😀', 'ab', 'abab', '\t', ' ', 'end'];

/**
 * Files whose lines are short, long (past the stream window), empty, CRLF / CR ended, with a BOM, Unicode, and a late invalid byte.
 * 700 lines a file (about 2 MB in all): every pattern below still matches in short lines, in long lines
 * past their first window and near window edges, on lines that start or end a window's run of lines,
 * next to long lines, and (those that can) on empty lines and on the first line after the BOM. It
 * had 3,000 lines a file (9 MB), which found no kind of case more, at four times the time.
 */
function files(): Record<string, string | Uint8Array> {
  const rnd = seededRandom(7);
  const pick = (): string => WORDS[Math.floor(rnd() * WORDS.length)] as string;
  const line = (words: number): string => Array.from({ length: words }, pick).join(rnd() < 0.5 ? ' ' : '');
  const out: Record<string, string | Uint8Array> = {};
  const endings = ['\n', '\r\n', '\r'];
  for (let f = 0; f < 6; f += 1) {
    let text = f === 2 ? '\uFEFF' : '';
    for (let i = 0; i < 700; i += 1) {
      const long = rnd() < 0.01;
      text += (long ? line(12_000) : rnd() < 0.05 ? '' : line(1 + Math.floor(rnd() * 12))) + (f === 3 ? (endings[i % 3] as string) : '\n');
    }
    if (f === 4) text = text.slice(0, -1);
    out[`dir/f${f}.txt`] = text;
  }
  // One line of 300,000 characters with a few needles, one of them near every window edge.
  let one = '';
  while (one.length < 300_000) one += line(50);
  out['one-line.txt'] = `${one.slice(0, 16_000)}needle${one.slice(16_000, 150_000)}NEEDLE end${one.slice(150_000)}\nlast needle line\n`;
  // Valid UTF-8 until a stray byte in its last part: binary on both paths.
  const valid = new TextEncoder().encode(`needle\n${'abc\n'.repeat(20_000)}`);
  const bad = new Uint8Array(valid.length + 3);
  bad.set(valid);
  bad.set([0xff, 0x0a, 0x61], valid.length);
  out['late-binary.txt'] = bad;
  return out;
}

const PATTERNS: Array<{ pattern: string; fixed?: boolean; caseSensitive?: boolean }> = [
  { pattern: 'needle', fixed: true },
  { pattern: 'needle', fixed: true, caseSensitive: false },
  { pattern: '😀', fixed: true },
  { pattern: 'ab(ab)+' },
  { pattern: '^alpha' },
  { pattern: 'end$' },
  { pattern: '\\bx1\\b' },
  { pattern: 'N[A-Z]+LE' },
  { pattern: '(?i)gamma\\s*\\d+' },
  { pattern: '(a|b)+e' },
  { pattern: 'é.?😀' },
  { pattern: '^$' },
  { pattern: 'foo_\\w{3}' },
];

function searchTool(extra: Partial<LineSearchOptions>) {
  return defineTool({
    name: 'search',
    description: 'runLineSearch with internal options',
    parameters: { type: 'object' },
    readOnly: true,
    callWithContext: async (args: Record<string, unknown>, ctx) => {
      const { pattern, fixed, caseSensitive, ...rest } = args as { pattern: string; fixed?: boolean; caseSensitive?: boolean } & Partial<LineSearchOptions>;
      return runLineSearch(ctx, {
        pattern: compileSearchPattern(pattern, { literal: fixed === true, caseSensitive: caseSensitive !== false }),
        maxResults: 2000,
        maxTimeMs: 120_000,
        ...rest,
        ...extra,
      });
    },
  });
}

let base: string;
let node: Platform;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'toolhost-stream-')));
  for (const [path, content] of Object.entries(files())) {
    await mkdir(dirname(join(base, path)), { recursive: true });
    await writeFile(join(base, path), content);
  }
  node = createNodePlatform({ root: base });
});

afterAll(async () => {
  await node?.dispose();
  await rm(base, { recursive: true, force: true });
});

describe('searching a file window by window', () => {
  for (const [name, platform] of [
    ['the memory platform', () => createMemoryPlatform({ files: files() })],
    ['the Node platform on a real folder', () => node],
  ] as const) {
    it(`gives the same results as a whole-file search on ${name}`, async () => {
      const p = platform();
      const whole = new ToolRunner({ platform: p, tools: [searchTool({})] });
      const streamed = new ToolRunner({ platform: p, tools: [searchTool({ streamOver: 0, streamWindow: 16 * 1024, streamOverlap: 4096 })] });
      for (const spec of PATTERNS) {
        for (const rest of [
          { outputMode: 'content' },
          { outputMode: 'content', contextLines: 2 },
          { outputMode: 'count' },
          { outputMode: 'content', maxResults: 7, contextLines: 1 },
        ]) {
          const args = { ...spec, ...rest };
          const expected = await whole.execute('search', args);
          const got = await streamed.execute('search', args);
          expect(got, JSON.stringify(args)).toEqual(expected);
        }
      }
      // About a hundred whole and windowed searches: a few seconds on an idle machine, several times
      // that on a busy one; the bound is for a hang, not for speed.
    }, 180_000);
  }
});

describe('grep_search over big files on the memory platform', () => {
  it('searches a 70 MiB file of short lines and an 80 MiB one-line file window by window, with exact counts, lines and columns', async () => {
    const MiB = 1024 * 1024;
    const lines = new TextEncoder().encode('abcdef\n'.repeat(10 * MiB)); // 70 MiB, 10,485,760 lines
    lines.set(new TextEncoder().encode('abXdef'), 7 * 5_000_000);
    const one = new Uint8Array(80 * MiB + 1).fill(0x61);
    one.set(new TextEncoder().encode('NEEDLE'), 33 * MiB + 5);
    one[one.length - 1] = 0x0a;
    const platform = createMemoryPlatform({ files: { 'lines.txt': lines, 'one.txt': one } });
    const runner = new ToolRunner({ platform, tools: [grepSearchTool] });
    // The searches get the longest time limit: this is about exact results, and a busy machine can
    // take longer than the default 10 s over these 150 MiB.
    const count = (await runner.execute('grep_search', { pattern: 'X', fixed_strings: true, output_mode: 'count', max_time_ms: MAX_SEARCH_TIME_MS })) as SearchCountResult;
    expect(count).toMatchObject({ counts: [{ file_path: '/workspace/lines.txt', count: 1 }], total_matches: 1, files_searched: 2 });
    const found = (await runner.execute('grep_search', { pattern: 'X|NEE+DLE', context_lines: 1, max_time_ms: MAX_SEARCH_TIME_MS })) as SearchContentResult;
    expect(found.matches.map((m) => [m.file_path, m.line_number, m.column, m.before, m.after])).toEqual([
      ['/workspace/lines.txt', 5_000_001, 3, ['abcdef'], ['abcdef']],
      ['/workspace/one.txt', 1, 33 * MiB + 6, [], []],
    ]);
    const at = 33 * MiB + 5;
    const start = at - (2000 - 6) / 2;
    expect(found.matches[1]?.line).toBe(`[... ${start} characters before] ${'a'.repeat(at - start)}NEEDLE${'a'.repeat(2000 - 6 - (at - start))} [... ${80 * MiB - start - 2000} characters after]`);
    expect(found).toMatchObject({ total_matches: 2, truncated: false });
  }, 300_000);
});

describe('grep_search over a text of more than a mebibyte', () => {
  it('finds no empty line where a run of lines V8 matches at once ends', async () => {
    const platform = createMemoryPlatform({ files: { 'big.txt': 'abcdefg\n'.repeat(300_000) + '\nlast\n' } });
    const runner = new ToolRunner({ platform, tools: [grepSearchTool] });
    const found = (await runner.execute('grep_search', { pattern: '^$' })) as SearchContentResult;
    expect(found.matches.map((m) => m.line_number)).toEqual([300_001]);
    expect(found.total_matches).toBe(1);
  });
});
