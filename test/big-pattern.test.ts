// Search patterns over the size limit (64 Ki characters, or a program of over 100,000 instructions once
// counts are spelled out) are refused at once with invalid_pattern, saying the limit and what to do, by
// every tool that takes one, without building anything from them: the process stays small and answers
// the next call. A pattern just under the limit still finds its match, with and without the search
// index, and the index's plan lets through the file the scan matches.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BuiltinTools, ToolRunner, toolProfiles } from '../src/index.js';
import type { ToolCallFailure } from '../src/runner.js';
import { createMemoryPlatform } from '../src/platform/memory.js';
import { MAX_PATTERN_LENGTH, MAX_PROGRAM_SIZE, patternTree } from '../src/search/dialect.js';
import { planOf, trigramKey, type TrigramPlan } from '../src/search/index/plan.js';
import { buildWorkspaceIndex } from '../src/search/index/workspace.js';
import { setSearchIndex } from '../src/search/index/engine.js';
import { DIST, ensureBuilt } from './support/build.js';

const MiB = 1024 * 1024;

/** A line of 36-radix numbers with spaces, `length` characters long: no long period, so few partial matches stay alive in an automaton. */
function distinctLine(length: number): string {
  let text = '';
  for (let i = 0; text.length < length; i += 1) text += `${i.toString(36)} `;
  return text.slice(0, length);
}

/** Just under the limit: a literal of MAX_PATTERN_LENGTH characters, and its line in a file. */
const LONG_LINE = distinctLine(MAX_PATTERN_LENGTH);
const FILES: Record<string, string> = {
  'long.txt': `before\n${LONG_LINE}\nafter\n`,
  'other.txt': 'nothing to see here\n',
  'short.txt': 'hello world\n',
};

/** A tool call with a pattern over the limit, and the argument it names. */
const OVER_LIMIT: Array<[string, string, Record<string, unknown>, string]> = [
  ['search_dir, a 4 MiB case-insensitive literal', 'search_dir', { query: 'a'.repeat(4 * MiB) }, 'query'],
  ['search_dir, a 1 MiB case-sensitive literal', 'search_dir', { query: 'a'.repeat(MiB), case_sensitive: true }, 'query'],
  ['grep_search, a 4 MiB case-insensitive fixed string', 'grep_search', { pattern: 'a'.repeat(4 * MiB), fixed_strings: true, case_sensitive: false }, 'pattern'],
  ['grep_search, a 15 MiB regex', 'grep_search', { pattern: '(?:x|y)'.repeat((15 * MiB) / 7) }, 'pattern'],
];

/** The refusal of a pattern of `length` characters given as `argName`. */
const tooLong = (argName: string, length: number): string =>
  `${argName} is ${length} characters long, over the limit of ${MAX_PATTERN_LENGTH} (64 KiB) on search patterns; ` +
  'search for a shorter distinctive part of it (one line, an identifier or a phrase), or split it into several searches';

describe('a search pattern over the size limit', () => {
  const runner = new ToolRunner({ platform: createMemoryPlatform({ files: FILES }), tools: BuiltinTools.all() });

  it.each(OVER_LIMIT)('is refused with invalid_pattern naming the limit: %s', async (_name, tool, args, argName) => {
    const [outcome] = (await runner.processToolCalls([{ name: tool, args }])) as ToolCallFailure[];
    expect(outcome?.code).toBe('invalid_pattern');
    const length = ((args.query ?? args.pattern) as string).length;
    expect(outcome?.error).toBe(tooLong(argName, length));
  });

  it("is refused by the Gemini profile's grep tools too (they share the dialect), exclude_pattern included", async () => {
    const gemini = new ToolRunner({ platform: createMemoryPlatform({ files: FILES }), tools: toolProfiles.gemini() });
    const big = 'a'.repeat(MAX_PATTERN_LENGTH + 1);
    for (const [tool, args, argName] of [
      ['grep_search', { pattern: big }, 'pattern'],
      ['search_file_content', { pattern: big }, 'pattern'],
      ['grep_search', { pattern: 'hello', exclude_pattern: big }, 'exclude_pattern'],
    ] as const) {
      const [outcome] = (await gemini.processToolCalls([{ name: tool, args }])) as ToolCallFailure[];
      expect(outcome?.code, tool).toBe('invalid_pattern');
      expect(outcome?.error).toBe(tooLong(argName, big.length));
    }
  });

  it('is refused by the index plan path too (patternTree), before anything is built', () => {
    expect(() => patternTree('a'.repeat(4 * MiB), { literal: true, caseSensitive: false })).toThrow(expect.objectContaining({ code: 'invalid_pattern' }));
  });

  it.each([
    ['counted repetitions that spell out past it', String.raw`\pL{1000}`.repeat(Math.ceil(MAX_PROGRAM_SIZE / 1000) + 1)],
    ['classes written over and over', String.raw`\w`.repeat(16_384)],
    ['a dot written 60,000 times', '.'.repeat(60_000)],
  ])('a pattern under the length limit whose program passes the size limit is refused the same way: %s', async (_name, pattern) => {
    expect(pattern.length).toBeLessThan(MAX_PATTERN_LENGTH);
    const [outcome] = (await runner.processToolCalls([{ name: 'grep_search', args: { pattern } }])) as ToolCallFailure[];
    expect(outcome?.code).toBe('invalid_pattern');
    expect(outcome?.error).toContain(`compiles to over ${MAX_PROGRAM_SIZE} instructions (counted repetitions spelled out, each character class counted by its size)`);
    expect(outcome?.error).toContain('use smaller counts ({n,m}) and fewer classes, or search for a shorter distinctive part of it');
  });

  it('leaves the runner answering the next call', async () => {
    await runner.processToolCalls([{ name: 'search_dir', args: { query: 'a'.repeat(4 * MiB) } }]);
    const [outcome] = await runner.processToolCalls([{ name: 'search_dir', args: { query: 'HELLO' } }]);
    expect(outcome).toMatchObject({ result: { total_matches: 1, matches: [{ file_path: '/workspace/short.txt', line_number: 1 }] } });
  });
});

describe('a pattern just under the size limit', () => {
  const runner = new ToolRunner({ platform: createMemoryPlatform({ files: FILES }), tools: BuiltinTools.all() });
  const found = { total_matches: 1, matches: [{ file_path: '/workspace/long.txt', line_number: 2 }] };

  it('finds its line as a case-insensitive literal (search_dir)', async () => {
    expect(LONG_LINE.length).toBe(MAX_PATTERN_LENGTH);
    const [outcome] = await runner.processToolCalls([{ name: 'search_dir', args: { query: LONG_LINE.toUpperCase() } }], { timeoutMs: 60_000 });
    expect(outcome).toMatchObject({ result: found });
  });

  it('finds its line as a case-sensitive literal and as a regex (grep_search)', async () => {
    const regex = `${LONG_LINE.slice(0, 1000)}.${LONG_LINE.slice(1001)}`;
    for (const args of [{ pattern: LONG_LINE, fixed_strings: true }, { pattern: regex }, { pattern: regex, case_sensitive: false }]) {
      const [outcome] = await runner.processToolCalls([{ name: 'grep_search', args }], { timeoutMs: 60_000 });
      expect(outcome, JSON.stringify(Object.keys(args))).toMatchObject({ result: { total_matches: 1, matches: [{ file_path: '/workspace/long.txt', line_number: 2 }] } });
    }
  });
});

/** Whether `plan` holds for the trigrams of `text` (ASCII text: the index's lower-cased bytes). */
function holds(plan: TrigramPlan, text: string): boolean {
  const keys = new Set<number>();
  const lower = text.toLowerCase();
  for (let i = 0; i + 3 <= lower.length; i += 1) keys.add(trigramKey(lower.charCodeAt(i), lower.charCodeAt(i + 1), lower.charCodeAt(i + 2)));
  const check = (p: TrigramPlan): boolean => {
    if (p.op === 'all') return true;
    if (p.op === 'none') return false;
    const parts = [...p.trigrams.map((t) => keys.has(t)), ...p.subs.map(check)];
    return p.op === 'and' ? parts.every(Boolean) : parts.some(Boolean);
  };
  return check(plan);
}

describe('the search index with a pattern just under the size limit', () => {
  beforeAll(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(1_800_000_000_000);
  });
  afterAll(() => {
    vi.useRealTimers();
  });

  it('plans from the pattern a selective condition that the matching file meets and the others fail', () => {
    for (const caseSensitive of [true, false]) {
      const plan = planOf(patternTree(LONG_LINE, { literal: true, caseSensitive }));
      expect(plan.op).toBe('and');
      expect(holds(plan, FILES['long.txt'] as string)).toBe(true);
      expect(holds(plan, FILES['other.txt'] as string)).toBe(false);
    }
  });

  it('answers as the plain scan does', async () => {
    const platform = createMemoryPlatform({ root: '/ws', files: FILES });
    vi.setSystemTime(Date.now() + 5000);
    setSearchIndex(platform, await buildWorkspaceIndex(platform));
    vi.setSystemTime(Date.now() + 5000);
    const indexed = new ToolRunner({ platform, tools: BuiltinTools.all() });
    const scan = new ToolRunner({ platform: { ...platform }, tools: BuiltinTools.all() });
    const regex = `${LONG_LINE.slice(0, 1000)}.${LONG_LINE.slice(1001)}`;
    for (const [tool, args] of [
      ['search_dir', { query: LONG_LINE.toUpperCase() }],
      ['grep_search', { pattern: regex, case_sensitive: false }],
      ['grep_search', { pattern: LONG_LINE, fixed_strings: true }],
    ] as const) {
      const [withIndex] = await indexed.processToolCalls([{ name: tool, args }], { timeoutMs: 60_000 });
      const [plain] = await scan.processToolCalls([{ name: tool, args }], { timeoutMs: 60_000 });
      expect(withIndex).toMatchObject({ result: { total_matches: 1, matches: [{ file_path: '/ws/long.txt', line_number: 2 }] } });
      expect(withIndex).toEqual(plain);
    }
  });
});

describe('memory of a refused pattern, measured in a child process', () => {
  let temp = '';
  beforeAll(() => {
    ensureBuilt();
    temp = mkdtempSync(join(tmpdir(), 'toolhost-big-pattern-'));
  });
  afterAll(() => rmSync(temp, { recursive: true, force: true }));

  it('stays bounded: the 4 MiB literal, the 15 MiB regex and 16,384 written \\w classes grow the process by far less than they used to (gigabytes)', () => {
    const script = join(temp, 'child.mjs');
    writeFileSync(
      script,
      [
        `const { BuiltinTools, ToolRunner, createMemoryPlatform } = await import(${JSON.stringify(join(DIST, 'src', 'index.js'))});`,
        "const runner = new ToolRunner({ platform: createMemoryPlatform({ files: { 'a.txt': 'aaa\\n' } }), tools: BuiltinTools.all() });",
        "await runner.processToolCalls([{ name: 'search_dir', args: { query: 'aaa' } }]);",
        'const calls = [',
        `  { name: 'search_dir', args: { query: 'a'.repeat(${4 * MiB}) } },`,
        `  { name: 'grep_search', args: { pattern: 'a'.repeat(${4 * MiB}), fixed_strings: true, case_sensitive: false } },`,
        `  { name: 'grep_search', args: { pattern: '(?:x|y)'.repeat(${(15 * MiB) / 7}) } },`,
        `  { name: 'grep_search', args: { pattern: '\\\\w'.repeat(16384) } },`,
        "  { name: 'search_dir', args: { query: 'AAA' } },",
        '];',
        'const out = [];',
        'for (const call of calls) {',
        '  const rss = process.memoryUsage().rss;',
        '  const peak = process.resourceUsage().maxRSS * 1024;',
        '  const [outcome] = await runner.processToolCalls([call]);',
        '  const grew = Math.max(process.memoryUsage().rss - rss, process.resourceUsage().maxRSS * 1024 - peak);',
        '  out.push({ code: outcome.code ?? null, total: outcome.result?.total_matches ?? null, grewMiB: grew / 1048576 });',
        '}',
        'console.log(JSON.stringify(out));',
      ].join('\n'),
    );
    const child = spawnSync(process.execPath, [script], { encoding: 'utf8', timeout: 120_000 });
    expect(child.status, child.stderr).toBe(0);
    const results = JSON.parse(child.stdout.trim().split('\n').pop() as string) as Array<{ code: string | null; total: number | null; grewMiB: number }>;
    expect(results.map((r) => r.code)).toEqual(['invalid_pattern', 'invalid_pattern', 'invalid_pattern', 'invalid_pattern', null]);
    expect(results[4]?.total).toBe(1);
    // The patterns themselves take 4 to 30 MiB (two bytes a character where V8 widens them); nothing is built from them.
    for (const result of results) expect(result.grewMiB).toBeLessThan(200);
  });
});
