import { describe, expect, it } from 'vitest';
import { createMemoryPlatform } from '../platform/memory.js';
import { ToolRunner, type ToolCallFailure } from '../runner.js';
import type { Platform } from '../core/types.js';
import { withTimerWatch } from '../../test/support/timer-watch.js';
import { grepSearchTool, type SearchContentResult, type SearchCountResult, type SearchFilesResult } from './grep-search.js';

const W = '/workspace';


const TREE: Record<string, string | Uint8Array> = {
  'src/app.ts': [
    'import { x } from "./x";',
    'export function main() {',
    '  // TODO: wire it up',
    '  return x + 1;',
    '}',
    'export function helper() { return 2; }',
    '',
  ].join('\n'),
  'src/x.ts': 'export const x = 41; // todo later\n',
  'src/x.test.ts': 'test("x", () => {}); // TODO\n',
  'src/legacy.js': 'function old() {}\r\nvar TODO = 1;\r\n',
  'lib/mac.txt': 'one\rTODO two\rthree',
  'data.bin': new Uint8Array([0x54, 0x4f, 0x44, 0x4f, 0x00, 0x01, 0x02]),
  'node_modules/m/index.js': 'TODO\n',
  'dist/out.js': 'TODO\n',
  '.gitignore': 'dist\n',
  'notes/my file (1).md': 'café TODO ü\n',
};

function setup(files: Record<string, string | Uint8Array> = TREE): { platform: Platform; runner: ToolRunner } {
  const platform = createMemoryPlatform({ files });
  return { platform, runner: new ToolRunner({ platform, tools: [grepSearchTool] }) };
}

async function grep(runner: ToolRunner, args: Record<string, unknown>): Promise<SearchContentResult> {
  return (await runner.execute('grep_search', args)) as SearchContentResult;
}

async function grepError(runner: ToolRunner, args: Record<string, unknown>, timeoutMs?: number): Promise<ToolCallFailure> {
  const [result] = await runner.processToolCalls([{ name: 'grep_search', args }], timeoutMs === undefined ? {} : { timeoutMs });
  expect(result).toHaveProperty('code');
  return result as ToolCallFailure;
}

const where = (result: SearchContentResult): string[] => result.matches.map((m) => `${m.file_path.slice(W.length + 1)}:${m.line_number}:${m.column}`);

describe('grep_search', () => {
  it('pins its model-facing schema and names its regex dialect', () => {
    expect(grepSearchTool.name).toBe('grep_search');
    expect(grepSearchTool.annotations?.readOnlyHint).toBe(true);
    expect(grepSearchTool.description).toContain(
      "The pattern is RE2 regex syntax, as ripgrep's default: Unicode-aware, so \\d \\w \\s \\b and case-insensitive matching follow " +
        'Unicode (^\\w+$ matches café, case-insensitive привет matches Привет); (?-u) or (?-u:...) makes them ASCII. One ' +
        'difference: a lone \\r ends a line as \\n and \\r\\n do (ripgrep ends lines at \\n only).',
    );
    expect(grepSearchTool.description).toContain('No lookahead/lookbehind and no backreferences');
    expect(grepSearchTool.inputSchema).toMatchInlineSnapshot(`
      {
        "additionalProperties": false,
        "properties": {
          "case_sensitive": {
            "description": "Match the pattern's letter case exactly (default true); include and exclude ignore case either way.",
            "type": "boolean",
          },
          "context_lines": {
            "description": "Lines of context before and after each match, as before/after arrays (default 0, at most 20).",
            "maximum": 20,
            "minimum": 0,
            "type": "integer",
          },
          "dir_path": {
            "description": "Directory to search (absolute workspace path or relative to the working directory); default: the working directory. A file searches just that file.",
            "type": "string",
          },
          "exclude": {
            "description": "Skip files (and directories) matching this glob, e.g. "*.min.js" or "dist"; a trailing / ("dist/") skips folders only. Letter case is ignored, as in include.",
            "type": "string",
          },
          "fixed_strings": {
            "description": "Treat pattern as literal text, not a regular expression (default false).",
            "type": "boolean",
          },
          "include": {
            "description": "Only search files matching this glob, e.g. "*.ts" or "*.{ts,tsx}" (name at any depth) or "src/**/*.ts" (path relative to dir_path). Letter case is ignored ("*.TS" also matches a.ts), whatever case_sensitive says.",
            "type": "string",
          },
          "max_results": {
            "description": "Most matches (content) or files (other modes) to return (default 100).",
            "maximum": 2000,
            "minimum": 1,
            "type": "integer",
          },
          "max_time_ms": {
            "description": "Time limit in ms (default 10000, and at most 80 % of what is left of the call's deadline); at the limit the search returns what it found so far with truncated and a note.",
            "maximum": 120000,
            "minimum": 1,
            "type": "integer",
          },
          "output_mode": {
            "description": "content: matching lines (default); files_with_matches: just the file paths; count: matching lines per file.",
            "enum": [
              "content",
              "files_with_matches",
              "count",
            ],
            "type": "string",
          },
          "pattern": {
            "description": "Regular expression in RE2 regex syntax, as ripgrep's default: Unicode-aware, so \\d \\w \\s \\b and case-insensitive matching follow Unicode (^\\w+$ matches café, case-insensitive привет matches Привет); (?-u) or (?-u:...) makes them ASCII. One difference: a lone \\r ends a line as \\n and \\r\\n do (ripgrep ends lines at \\n only). Syntax: . (any character but a line ending), [a-z] [^...] [[:alpha:]], \\pL \\p{Greek} Unicode classes, groups (...) (?:...) (?P<name>...) (?<name>...), alternation a|b, * + ? {n} {n,m} and lazy *? +?, inline flags (?i) (?s) (?U) (?-u) and (?i:...), ^ $ \\A \\z, escapes \\x{263A} \\u263A \\t \\Q...\\E. No lookahead/lookbehind and no backreferences (they are refused), and at most 1000 levels of nesting. Matched against each line separately (^ and $ are the ends of the line; a line ending never matches). Matching takes time linear in the text for every pattern.",
            "type": "string",
          },
        },
        "required": [
          "pattern",
        ],
        "type": "object",
      }
    `);
  });

  it('matches a regex per line, case-sensitive by default, skipping ignored and binary files', async () => {
    const { runner } = setup();
    expect(await grep(runner, { pattern: 'TO+DO' })).toEqual({
      matches: [
        { file_path: `${W}/lib/mac.txt`, line_number: 2, column: 1, line: 'TODO two' },
        { file_path: `${W}/notes/my file (1).md`, line_number: 1, column: 6, line: 'café TODO ü' },
        { file_path: `${W}/src/app.ts`, line_number: 3, column: 6, line: '  // TODO: wire it up' },
        { file_path: `${W}/src/legacy.js`, line_number: 2, column: 5, line: 'var TODO = 1;' },
        { file_path: `${W}/src/x.test.ts`, line_number: 1, column: 25, line: 'test("x", () => {}); // TODO' },
      ],
      total_matches: 5,
      truncated: false,
      files_searched: 7,
      binary_files_skipped: 1,
    });
  });

  it('ignores case with case_sensitive: false', async () => {
    const { runner } = setup();
    expect(where(await grep(runner, { pattern: 'todo', case_sensitive: false, dir_path: 'src' }))).toEqual([
      'src/app.ts:3:6',
      'src/legacy.js:2:5',
      'src/x.test.ts:1:25',
      'src/x.ts:1:25',
    ]);
    expect(where(await grep(runner, { pattern: 'todo', dir_path: 'src' }))).toEqual(['src/x.ts:1:25']);
  });

  it('treats regex syntax as regex, and literally with fixed_strings', async () => {
    const { runner } = setup({ 'a.txt': 'a.c\nabc\nx(1)\n' });
    expect(where(await grep(runner, { pattern: 'a.c' }))).toEqual(['a.txt:1:1', 'a.txt:2:1']);
    expect(where(await grep(runner, { pattern: 'a.c', fixed_strings: true }))).toEqual(['a.txt:1:1']);
    expect(where(await grep(runner, { pattern: 'x(1)', fixed_strings: true }))).toEqual(['a.txt:3:1']);
    expect(where(await grep(runner, { pattern: 'x\\(\\d\\)' }))).toEqual(['a.txt:3:1']);
  });

  it('anchors ^ and $ at line ends, for LF, CRLF and CR files alike', async () => {
    const { runner } = setup({ 'lf.txt': 'ab\nb\nba\n', 'crlf.txt': 'ab\r\nb\r\nba\r\n', 'cr.txt': 'ab\rb\rba' });
    for (const name of ['lf.txt', 'crlf.txt', 'cr.txt']) {
      expect(where(await grep(runner, { pattern: '^b', include: name })), name).toEqual([`${name}:2:1`, `${name}:3:1`]);
      expect(where(await grep(runner, { pattern: 'b$', include: name })), name).toEqual([`${name}:1:2`, `${name}:2:1`]);
      expect(where(await grep(runner, { pattern: '^b$', include: name })), name).toEqual([`${name}:2:1`]);
    }
  });

  it('never matches across a line ending, and still finds the lines such a match would hide', async () => {
    const { runner } = setup({ 'm.txt': 'foo\nbar baz\nqux\n' });
    expect(where(await grep(runner, { pattern: 'foo\\sbar' }))).toEqual([]);
    expect(where(await grep(runner, { pattern: 'o\\s+b|baz' }))).toEqual(['m.txt:2:5']);
    expect(where(await grep(runner, { pattern: '[^x]+' }))).toEqual(['m.txt:1:1', 'm.txt:2:1', 'm.txt:3:1']);
  });

  it('treats U+2028 as part of a line, not a line end', async () => {
    const { runner } = setup({ 's.txt': 'a\u2028b\nb\n' });
    expect(where(await grep(runner, { pattern: '^b' }))).toEqual(['s.txt:2:1']);
    // . is any character but a line ending, as in RE2 and ripgrep (JavaScript's . also stops at U+2028).
    expect(where(await grep(runner, { pattern: 'a.b' }))).toEqual(['s.txt:1:1']);
    expect(where(await grep(runner, { pattern: 'a\\u2028b' }))).toEqual(['s.txt:1:1']);
  });

  it('matches every line, empty ones too, with an empty pattern', async () => {
    const { runner } = setup({ 'e.txt': 'a\n\nb\n' });
    expect(where(await grep(runner, { pattern: '' }))).toEqual(['e.txt:1:1', 'e.txt:2:1', 'e.txt:3:1']);
    expect(where(await grep(runner, { pattern: '^$' }))).toEqual(['e.txt:2:1']);
  });

  it('filters files with include and exclude globs', async () => {
    const { runner } = setup();
    expect(where(await grep(runner, { pattern: 'TODO', include: '*.ts' }))).toEqual(['src/app.ts:3:6', 'src/x.test.ts:1:25']);
    expect(where(await grep(runner, { pattern: 'TODO', include: '*.ts', exclude: '*.test.ts' }))).toEqual(['src/app.ts:3:6']);
    expect(where(await grep(runner, { pattern: 'TODO', exclude: 'src' }))).toEqual(['lib/mac.txt:2:1', 'notes/my file (1).md:1:6']);
    expect(where(await grep(runner, { pattern: 'TODO', include: 'src/*.{js,ts}' }))).toEqual([
      'src/app.ts:3:6',
      'src/legacy.js:2:5',
      'src/x.test.ts:1:25',
    ]);
  });

  it('takes an exclude ending in / as folders only, as .gitignore does', async () => {
    const { runner } = setup({ 'dist/a.js': 'TODO', 'src/dist/b.js': 'TODO', 'lib/dist': 'TODO file named dist', 'keep.js': 'TODO' });
    expect(where(await grep(runner, { pattern: 'TODO', exclude: 'dist/' }))).toEqual(['keep.js:1:1', 'lib/dist:1:1']);
    expect(where(await grep(runner, { pattern: 'TODO', exclude: 'dist' }))).toEqual(['keep.js:1:1']);
  });

  it('takes absolute include and exclude globs relative to dir_path, and refuses one outside the workspace', async () => {
    const { runner } = setup();
    expect(where(await grep(runner, { pattern: 'TODO', include: `${W}/src/*.ts` }))).toEqual(['src/app.ts:3:6', 'src/x.test.ts:1:25']);
    expect(where(await grep(runner, { pattern: 'TODO', exclude: `${W}/src` }))).toEqual(['lib/mac.txt:2:1', 'notes/my file (1).md:1:6']);
    expect(where(await grep(runner, { pattern: 'TODO', dir_path: 'src', include: `${W}/src/*.js` }))).toEqual(['src/legacy.js:2:5']);
    expect((await grepError(runner, { pattern: 'TODO', include: '/etc/*' })).code).toBe('outside_workspace');
  });

  it('adds before/after context arrays with context_lines', async () => {
    const { runner } = setup();
    const result = await grep(runner, { pattern: 'TODO|return 2', dir_path: 'src/app.ts', context_lines: 2 });
    expect(result.matches).toEqual([
      {
        file_path: `${W}/src/app.ts`,
        line_number: 3,
        column: 6,
        line: '  // TODO: wire it up',
        before: ['import { x } from "./x";', 'export function main() {'],
        after: ['  return x + 1;', '}'],
      },
      {
        file_path: `${W}/src/app.ts`,
        line_number: 6,
        column: 28,
        line: 'export function helper() { return 2; }',
        before: ['  return x + 1;', '}'],
        after: [],
      },
    ]);
    const first = await grep(runner, { pattern: 'import', dir_path: 'src', context_lines: 1 });
    expect(first.matches[0]?.before).toEqual([]);
    expect(first.matches[0]?.after).toEqual(['export function main() {']);
    const crlf = await grep(runner, { pattern: 'old', include: '*.js', context_lines: 3 });
    expect(crlf.matches[0]).toMatchObject({ before: [], after: ['var TODO = 1;'] });
  });

  it('lists files with output_mode files_with_matches and counts lines with count', async () => {
    const { runner } = setup();
    const files = (await runner.execute('grep_search', { pattern: 'function|TODO', output_mode: 'files_with_matches' })) as SearchFilesResult;
    expect(files).toEqual({
      files: [`${W}/lib/mac.txt`, `${W}/notes/my file (1).md`, `${W}/src/app.ts`, `${W}/src/legacy.js`, `${W}/src/x.test.ts`],
      total_files: 5,
      total_matches: 8,
      truncated: false,
      files_searched: 7,
      binary_files_skipped: 1,
    });
    const counts = (await runner.execute('grep_search', { pattern: 'function|TODO', output_mode: 'count', max_results: 2 })) as SearchCountResult;
    expect(counts).toEqual({
      counts: [
        { file_path: `${W}/lib/mac.txt`, count: 1 },
        { file_path: `${W}/notes/my file (1).md`, count: 1 },
      ],
      total_files: 5,
      total_matches: 8,
      truncated: true,
      files_searched: 7,
      binary_files_skipped: 1,
      note: 'Showing 2 of 5 files (max_results is 2): raise max_results (at most 2000), or narrow the pattern, dir_path or include.',
    });
    const all = (await runner.execute('grep_search', { pattern: 'function|TODO', output_mode: 'count', dir_path: 'src' })) as SearchCountResult;
    expect(all.counts).toEqual([
      { file_path: `${W}/src/app.ts`, count: 3 },
      { file_path: `${W}/src/legacy.js`, count: 2 },
      { file_path: `${W}/src/x.test.ts`, count: 1 },
    ]);
  });

  it('skips binary files and counts them, even when their bytes would match', async () => {
    const { runner } = setup({ 'bin.dat': new Uint8Array([0x68, 0x69, 0, 0x68, 0x69]), 'latin1.txt': new Uint8Array([0x68, 0x69, 0xe9]), 'ok.txt': 'hi\n' });
    const result = await grep(runner, { pattern: 'hi' });
    expect(where(result)).toEqual(['ok.txt:1:1']);
    expect(result.binary_files_skipped).toBe(2);
    expect(result.files_searched).toBe(1);
  });

  it('refuses an invalid regex with invalid_pattern and what is wrong, never an empty result', async () => {
    const { runner } = setup();
    const reasons: Record<string, string> = {
      '(': 'missing ) to close a group',
      'a[': 'missing ] to close a character class',
      '*a': 'missing argument to repetition operator *',
      '\\': 'trailing backslash',
      'a{2,1}': 'invalid repeat count {2,1}',
      '(?<n>a)(?<n>b)': 'duplicate group name "n"',
      'a**': 'bad repetition operator (a quantifier right after another)',
      'a{1001}': 'repeat count over 1000 in {1001}',
      '\\pQ': 'unknown Unicode class \\p{Q}',
    };
    for (const [pattern, reason] of Object.entries(reasons)) {
      const failure = await grepError(runner, { pattern });
      expect(failure.code, pattern).toBe('invalid_pattern');
      expect(failure.error, pattern).toBe(
        `pattern ${pattern} is not a valid regular expression (ripgrep/RE2 syntax): ${reason}; fix the pattern, or set fixed_strings to search for the text literally`,
      );
    }
    expect((await grep(runner, { pattern: '(', fixed_strings: true })).total_matches).toBe(4);
  });

  it('cuts a long pattern to 200 characters in the invalid_pattern message', async () => {
    const { runner } = setup();
    const pattern = '(' + 'a'.repeat(60_000); // under the 64 KiB limit on patterns, so it is parsed
    expect(await grepError(runner, { pattern })).toMatchObject({
      code: 'invalid_pattern',
      error:
        `pattern (${'a'.repeat(199)}… (59801 more characters) is not a valid regular expression (ripgrep/RE2 syntax): ` +
        'missing ) to close a group; fix the pattern, or set fixed_strings to search for the text literally',
    });
  });

  it('cuts a long dir_path in the not_found message', async () => {
    const { runner } = setup();
    const deep = Array.from({ length: 5 }, (_, i) => String(i).repeat(99)).join('/');
    expect(await grepError(runner, { pattern: 'x', dir_path: deep })).toMatchObject({
      code: 'not_found',
      error: `dir_path ${W}/${deep.slice(0, 189)}… (310 more characters) does not exist; check the path with list_dir or find_file`,
    });
  });

  it('counts columns in code points after emoji and astral characters', async () => {
    const { runner } = setup({ 'e.txt': '😀 x\n😀😀🎉 find me\n' });
    expect(where(await grep(runner, { pattern: 'find' }))).toEqual(['e.txt:2:5']);
    expect(where(await grep(runner, { pattern: '\\p{Emoji_Presentation}{2}' }))).toEqual(['e.txt:2:1']);
    expect(where(await grep(runner, { pattern: '🎉' }))).toEqual(['e.txt:2:3']);
  });

  it('caps matches at max_results and keeps the total', async () => {
    const text = Array.from({ length: 50 }, (_, i) => `row ${i}`).join('\n');
    const { runner } = setup({ 'r.txt': text });
    const result = await grep(runner, { pattern: 'row \\d+', max_results: 3 });
    expect(result.matches.map((m) => m.line)).toEqual(['row 0', 'row 1', 'row 2']);
    expect(result).toMatchObject({ total_matches: 50, truncated: true });
  });

  it('shows an excerpt of a long matching line and clips long context lines', async () => {
    const long = 'a'.repeat(3000) + 'MARK' + 'b'.repeat(3000);
    const { runner } = setup({ 'l.txt': `${'c'.repeat(2500)}\n${long}\n` });
    const [match] = (await grep(runner, { pattern: 'MARK', context_lines: 1 })).matches;
    expect(match?.column).toBe(3001);
    expect(match?.line).toContain('MARK');
    expect(match?.line).toMatch(/^\[\.\.\. \d+ characters before\] a+MARKb+ \[\.\.\. \d+ characters after\]$/);
    expect(match?.before).toEqual([`${'c'.repeat(2000)} [... 500 more characters]`]);
  });

  it('searches a single file given as dir_path, and refuses paths outside the workspace', async () => {
    const { runner } = setup();
    expect(where(await grep(runner, { pattern: '\\bx\\b', dir_path: `${W}/src/x.ts` }))).toEqual(['src/x.ts:1:14']);
    expect((await grepError(runner, { pattern: 'x', dir_path: '/etc' })).code).toBe('outside_workspace');
  });

  it('answers every pattern of a catastrophic corpus over long lines within its deadline, the event loop still turning', async () => {
    const long = 40_000;
    const { runner } = setup({
      'a.txt': 'a'.repeat(long) + '!\n',
      'x.txt': 'x'.repeat(long) + '\n',
      'digits.txt': '1'.repeat(long) + 'z\n',
      'words.txt': 'ab '.repeat(long / 3) + '!\n',
      'mixed.txt': ('aaaa'.repeat(50) + '\n').repeat(200),
    });
    const corpus = [
      '(a+)+$',
      '(a|aa)*b',
      '(a|a?)+b',
      'a*a*a*a*a*a*a*a*a*a*a*a*b',
      '(.*a){20}',
      '(\\w+\\s?)*$',
      '((a{1,10}){1,10}){1,10}b',
      '(x+x+)+y',
      '^(\\d+)*$',
      '(\\d{1,3}){1,300}z',
      '([a-z]|a)*!',
      '(.*)*b',
    ];
    const deadline = 3000;
    // The first re2js match in a process compiles its engine (a one-off ~0.1 s, whatever the pattern).
    await grep(runner, { pattern: '(x|y)+z' });
    for (const pattern of corpus) {
      // How late the answer was (less the time a busy machine kept the process waiting, where that can
      // be told), and the longest stretch the thread was held between two ticks of a 5 ms timer (its own
      // CPU time on Node, the wall clock in browsers).
      const { value, ms, waited, gap } = await withTimerWatch(() => runner.processToolCalls([{ name: 'grep_search', args: { pattern } }], { timeoutMs: deadline }));
      expect(ms - waited, pattern).toBeLessThan(deadline + 250);
      expect(value[0], pattern).toHaveProperty('result.files_searched', 5);
      // The timer keeps ticking: the longest engine call is one re2js DFA build (~0.2 s for the counted
      // repetition), never a blocked thread.
      expect(gap, pattern).toBeLessThan(1000);
    }
    expect(where(await grep(runner, { pattern: '(a+)+!' }))).toEqual(['a.txt:1:1']);
  });

  it('counts a file of five million matching lines and shows the first ones', async () => {
    const { runner } = setup({ 'many.txt': 'ab\n'.repeat(5_000_000) });
    for (const pattern of ['ab', 'a+b', '(a|x)b']) {
      const count = (await runner.execute('grep_search', { pattern, output_mode: 'count' })) as SearchCountResult;
      expect(count, pattern).toMatchObject({ counts: [{ file_path: `${W}/many.txt`, count: 5_000_000 }], total_matches: 5_000_000, truncated: false });
    }
    const content = await grep(runner, { pattern: 'b$', max_results: 3 });
    expect(where(content)).toEqual(['many.txt:1:2', 'many.txt:2:2', 'many.txt:3:2']);
    expect(content).toMatchObject({ total_matches: 5_000_000, truncated: true });
  });

  it('stops at max_time_ms with the matches found so far, truncated and a note', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 40; i += 1) files[`f${String(i).padStart(2, '0')}.txt`] = ('a'.repeat(900) + '\n').repeat(5);
    const { runner } = setup(files);
    const args = { pattern: '(.*a){100}', max_results: 90 };
    const partial = await grep(runner, { ...args, max_time_ms: 40 });
    expect(partial.truncated).toBe(true);
    // On a busy machine the limit may come while the files are still being listed: each form names how far it got.
    expect(partial.note).toMatch(
      /^the search stopped at its time limit \(40 ms\) (after \d+ of 40 files; the results cover those files only|while listing files, (after \d+ of the \d+ files listed so far; the results cover those files only|before it had listed any; no file was searched)): /,
    );
    const full = await grep(runner, args);
    expect(full).toMatchObject({ total_matches: 200, truncated: true, files_searched: 40 });
    expect(full.note).toBe(
      'Showing 90 of 200 matching lines (max_results is 90): raise max_results (at most 2000), narrow the pattern, dir_path or include, ' +
        'or use output_mode "count" for the number of matching lines per file.',
    );
    expect(full.matches.length).toBe(90);
    expect(partial.matches.length).toBeLessThan(90);
    expect(partial.matches).toEqual(full.matches.slice(0, partial.matches.length));
  });

  it('says no file was searched when the time limit comes before the walk has listed any', async () => {
    const memory = createMemoryPlatform({ files: { 'd/a.txt': 'hit\n' } });
    const slowList = (path: string, options?: { withFileTypes: true }): Promise<never> =>
      new Promise((resolve) => setTimeout(resolve, 150)).then(() => (options ? memory.fs.readdir(path, options) : memory.fs.readdir(path)) as Promise<never>);
    const fs = new Proxy(memory.fs, { get: (target, key) => (key === 'readdir' ? slowList : Reflect.get(target, key, target)) });
    const { search: _search, changeCount: _count, ...rest } = memory;
    const runner = new ToolRunner({ platform: { ...rest, fs }, tools: [grepSearchTool] });
    const result = await grep(runner, { pattern: 'hit', max_time_ms: 20 });
    expect(result).toMatchObject({ matches: [], total_matches: 0, truncated: true, files_searched: 0 });
    expect(result.note).toBe(
      'the search stopped at its time limit (20 ms) while listing files, before it had listed any; no file was searched: ' +
        'narrow dir_path or include, use a simpler pattern, or raise max_time_ms.',
    );
  });

  it("follows ripgrep's Unicode \\w \\d \\s \\b and case folding, ASCII under (?-u), and ends lines at a lone CR where ripgrep differs, as the description says", async () => {
    const { runner } = setup({ 'u.txt': 'λ\n٣\na\u00a0b\nλx\nA\rb\n', 'p.TXT': 'λ\n' });
    const lines = async (pattern: string, extra: Record<string, unknown> = {}): Promise<string[]> => where(await grep(runner, { pattern, ...extra }));
    expect(await lines('^\\w$')).toEqual(['p.TXT:1:1', 'u.txt:1:1', 'u.txt:2:1', 'u.txt:5:1', 'u.txt:6:1']);
    expect(await lines('^\\d$')).toEqual(['u.txt:2:1']);
    expect(await lines('a\\sb')).toEqual(['u.txt:3:1']);
    expect(await lines('\\bx')).toEqual([]);
    expect(await lines('(?-u)^\\w$')).toEqual(['u.txt:5:1', 'u.txt:6:1']);
    expect(await lines('(?-u)^\\d$')).toEqual([]);
    expect(await lines('(?-u)a\\sb')).toEqual([]);
    expect(await lines('(?-u)\\bx')).toEqual(['u.txt:4:2']);
    expect(await lines('Λ', { case_sensitive: false })).toEqual(['p.TXT:1:1', 'u.txt:1:1', 'u.txt:4:1']);
    expect(await lines('Λ', { case_sensitive: false, fixed_strings: true })).toEqual(['p.TXT:1:1', 'u.txt:1:1', 'u.txt:4:1']);
    expect(await lines('^[\\p{L}\\p{N}_]$')).toEqual(['p.TXT:1:1', 'u.txt:1:1', 'u.txt:2:1', 'u.txt:5:1', 'u.txt:6:1']);
    expect(await lines('^\\p{Greek}$')).toEqual(['p.TXT:1:1', 'u.txt:1:1']);
    expect(await lines('^b$')).toEqual(['u.txt:6:1']);
    expect(await lines('A.b')).toEqual([]);
    // The include glob ignores case even when the pattern does not.
    expect(await lines('λ', { include: '*.txt', case_sensitive: true })).toEqual(['p.TXT:1:1', 'u.txt:1:1', 'u.txt:4:1']);
    expect(await lines('Λ', { include: '*.txt', case_sensitive: true })).toEqual([]);
  });

  it('answers a catastrophic pattern over a long line in linear time, then works again', async () => {
    const { runner } = setup({ 'evil.txt': 'a'.repeat(50_000) + '!\n', 'ok.txt': 'fine\n' });
    const [result] = await runner.processToolCalls([{ name: 'grep_search', args: { pattern: '(a+)+$' } }], { timeoutMs: 2000 });
    expect(result).toMatchObject({ result: { total_matches: 0, truncated: false, files_searched: 2 } });
    expect(where(await grep(runner, { pattern: 'fi(n)e' }))).toEqual(['ok.txt:1:1']);
  });
});

describe('grep_search on an unchanged workspace', () => {
  it('reuses listings and texts without a stat per file, and sees every change made since', async () => {
    const base = createMemoryPlatform({ files: { 'a.txt': 'needle one\n', 'sub/b.txt': 'hay\n' } });
    let stats = 0;
    const fs = { ...base.fs, stat: (path: string) => ((stats += 1), base.fs.stat(path)) } as typeof base.fs;
    const runner = new ToolRunner({ platform: { ...base, fs }, tools: [grepSearchTool] });
    const count = async () => ((await runner.execute('grep_search', { pattern: 'needle', output_mode: 'count' })) as { counts: unknown[] }).counts;
    expect(await count()).toEqual([{ file_path: '/workspace/a.txt', count: 1 }]);
    const afterFirst = stats;
    expect(await count()).toEqual([{ file_path: '/workspace/a.txt', count: 1 }]);
    expect(stats - afterFirst).toBe(1); // only the dir_path check, none per file
    await fs.writeFile('/workspace/sub/b.txt', 'needle two\n');
    expect(await count()).toEqual([
      { file_path: '/workspace/a.txt', count: 1 },
      { file_path: '/workspace/sub/b.txt', count: 1 },
    ]);
    await fs.mkdir('/workspace/new', { recursive: true });
    await fs.writeFile('/workspace/new/c.txt', 'needle three\n');
    expect((await count()).length).toBe(3);
  });
});

describe('grep_search notes when results are left out', () => {
  /** 40 files of 10 matching lines each, every line 2,000 characters: 400 matching lines in 40 files. */
  function wide(): ToolRunner {
    const line = `hit ${'x'.repeat(1996)}`;
    const files: Record<string, string> = {};
    for (let f = 0; f < 40; f += 1) files[`d/f${String(f).padStart(2, '0')}.txt`] = `${Array.from({ length: 10 }, () => line).join('\n')}\n`;
    return setup(files).runner;
  }

  it('gives shown and total matching lines and what to do next when max_results cuts the matches', async () => {
    const result = await grep(wide(), { pattern: 'hit', max_results: 20 });
    expect([result.matches.length, result.total_matches, result.truncated]).toEqual([20, 400, true]);
    expect(result.note).toBe(
      'Showing 20 of 400 matching lines (max_results is 20): raise max_results (at most 2000), narrow the pattern, dir_path or include, ' +
        'or use output_mode "count" for the number of matching lines per file.',
    );
  });

  it('gives shown of total_matches, not of the lines collected, when the result budget cuts the matches', async () => {
    const runner = wide();
    const note =
      'Showing 47 of 400 matching lines: the result is capped at 100000 characters; narrow the pattern, dir_path or include, ' +
      'or use output_mode "count" for the number of matching lines per file.';
    for (const max_results of [98, 2000]) {
      const result = await grep(runner, { pattern: 'hit', max_results });
      expect([result.matches.length, result.total_matches, result.truncated], String(max_results)).toEqual([47, 400, true]);
      expect(result.note, String(max_results)).toBe(note);
    }
  });

  it('gives shown and total files when max_results cuts the files or counts, and no note when nothing is left out', async () => {
    const runner = wide();
    const files = (await runner.execute('grep_search', { pattern: 'hit', output_mode: 'files_with_matches', max_results: 5 })) as SearchFilesResult;
    expect([files.files.length, files.total_files, files.total_matches, files.truncated]).toEqual([5, 40, 400, true]);
    expect(files.note).toBe(
      'Showing 5 of 40 files (max_results is 5): raise max_results (at most 2000), narrow the pattern, dir_path or include, ' +
        'or use output_mode "count" for the number of matching lines per file.',
    );
    const counts = (await runner.execute('grep_search', { pattern: 'hit', output_mode: 'count', max_results: 5 })) as SearchCountResult;
    expect([counts.counts.length, counts.total_files, counts.truncated]).toEqual([5, 40, true]);
    expect(counts.note).toBe('Showing 5 of 40 files (max_results is 5): raise max_results (at most 2000), or narrow the pattern, dir_path or include.');
    const all = (await runner.execute('grep_search', { pattern: 'hit', output_mode: 'count' })) as SearchCountResult;
    expect([all.counts.length, all.total_files, all.truncated, all.note]).toEqual([40, 40, false, undefined]);
    // max_results reached, but every matching file is there: nothing to say.
    const atMost = (await runner.execute('grep_search', { pattern: 'hit', output_mode: 'files_with_matches', max_results: 10, include: 'f0*.txt' })) as SearchFilesResult;
    expect([atMost.files.length, atMost.total_files, atMost.note]).toEqual([10, 10, undefined]);
  });
});
