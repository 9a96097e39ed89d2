import { describe, expect, it } from 'vitest';
import { createMemoryPlatform } from '../platform/memory.js';
import { ToolRunner, type ToolCallFailure } from '../runner.js';
import type { Platform } from '../core/types.js';
import type { SearchContentResult } from './grep-search.js';
import { searchDirTool } from './search-dir.js';

const W = '/workspace';

const TREE: Record<string, string | Uint8Array> = {
  'src/a.ts': 'const a = 1;\nconst b = a.b;\nCONST C = 3;\n',
  'src/b.js': 'let ab = 2;\r\nlet aXb = 3;\r\n',
  'src/notes.md': 'a.b in markdown\n',
  'docs/my notes (draft).txt': 'café a.b\n',
  'docs/ünï.txt': 'naïve a.b\n',
  'image.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0x61, 0x2e, 0x62]),
  'bad-utf8.bin': new Uint8Array([0x61, 0x2e, 0x62, 0xff, 0xfe]),
  'node_modules/x/index.js': 'a.b\n',
  '.git/config': 'a.b\n',
  '.gitignore': 'ignored/\n',
  'ignored/x.ts': 'a.b\n',
  '.github/ci.yml': 'run: a.b\n',
};

function setup(files: Record<string, string | Uint8Array> = TREE): { platform: Platform; runner: ToolRunner } {
  const platform = createMemoryPlatform({ files });
  return { platform, runner: new ToolRunner({ platform, tools: [searchDirTool] }) };
}

async function search(runner: ToolRunner, args: Record<string, unknown>): Promise<SearchContentResult> {
  return (await runner.execute('search_dir', args)) as SearchContentResult;
}

async function searchError(runner: ToolRunner, args: Record<string, unknown>): Promise<ToolCallFailure> {
  const [result] = await runner.processToolCalls([{ name: 'search_dir', args }]);
  expect(result).toHaveProperty('code');
  return result as ToolCallFailure;
}

describe('search_dir', () => {
  it('pins its model-facing schema', () => {
    expect(searchDirTool.name).toBe('search_dir');
    expect(searchDirTool.annotations?.readOnlyHint).toBe(true);
    expect(searchDirTool.inputSchema).toMatchInlineSnapshot(`
      {
        "additionalProperties": false,
        "properties": {
          "case_sensitive": {
            "description": "Match letter case exactly (default false).",
            "type": "boolean",
          },
          "dir_path": {
            "description": "Directory to search (absolute workspace path or relative to the working directory); default: the working directory.",
            "type": "string",
          },
          "include": {
            "description": "Only search files matching this glob, e.g. "*.ts" or "*.{ts,tsx}" (name at any depth) or "src/**/*.ts" (path relative to dir_path). Letter case is ignored ("*.TS" also matches a.ts), whatever case_sensitive says.",
            "type": "string",
          },
          "max_results": {
            "description": "Most matching lines to return (default 100).",
            "maximum": 2000,
            "minimum": 1,
            "type": "integer",
          },
          "query": {
            "description": "The text to find, literally (no wildcards or regex; "a.b" finds only "a.b").",
            "type": "string",
          },
        },
        "required": [
          "query",
        ],
        "type": "object",
      }
    `);
  });

  it('finds literal text: "." is a plain dot; skips ignored paths and binary files', async () => {
    const { runner } = setup();
    expect(await search(runner, { query: 'a.b' })).toEqual({
      matches: [
        { file_path: `${W}/.github/ci.yml`, line_number: 1, column: 6, line: 'run: a.b' },
        { file_path: `${W}/docs/my notes (draft).txt`, line_number: 1, column: 6, line: 'café a.b' },
        { file_path: `${W}/docs/ünï.txt`, line_number: 1, column: 7, line: 'naïve a.b' },
        { file_path: `${W}/src/a.ts`, line_number: 2, column: 11, line: 'const b = a.b;' },
        { file_path: `${W}/src/notes.md`, line_number: 1, column: 1, line: 'a.b in markdown' },
      ],
      total_matches: 5,
      truncated: false,
      files_searched: 7,
      binary_files_skipped: 2,
    });
  });

  it('is case-insensitive by default and exact with case_sensitive', async () => {
    const { runner } = setup();
    const loose = await search(runner, { query: 'const c', dir_path: 'src' });
    expect(loose.matches).toEqual([{ file_path: `${W}/src/a.ts`, line_number: 3, column: 1, line: 'CONST C = 3;' }]);
    const exact = await search(runner, { query: 'const c', dir_path: 'src', case_sensitive: true });
    expect(exact.matches).toEqual([]);
    expect(exact.total_matches).toBe(0);
    const upper = await search(runner, { query: 'CONST', dir_path: 'src', case_sensitive: true });
    expect(upper.matches.map((m) => m.line_number)).toEqual([3]);
  });

  it('reports one entry per matching line with the first match column; CRLF lines come without \\r', async () => {
    const { runner } = setup();
    const result = await search(runner, { query: 'b', include: '*.js' });
    expect(result.matches).toEqual([
      { file_path: `${W}/src/b.js`, line_number: 1, column: 6, line: 'let ab = 2;' },
      { file_path: `${W}/src/b.js`, line_number: 2, column: 7, line: 'let aXb = 3;' },
    ]);
    expect(result.files_searched).toBe(1);
  });

  it('filters files with include, by name at any depth or by relative path', async () => {
    const { runner } = setup();
    expect((await search(runner, { query: 'a.b', include: '*.{md,txt}' })).matches.map((m) => m.file_path)).toEqual([
      `${W}/docs/my notes (draft).txt`,
      `${W}/docs/ünï.txt`,
      `${W}/src/notes.md`,
    ]);
    expect((await search(runner, { query: 'a.b', include: 'src/*.md' })).matches.map((m) => m.file_path)).toEqual([
      `${W}/src/notes.md`,
    ]);
    expect((await searchError(runner, { query: 'a', include: '{a,b' })).code).toBe('invalid_pattern');
  });

  it('counts columns in code points (a line starting with an emoji)', async () => {
    const { runner } = setup({ 'e.txt': '😀😀 x 😀 needle\n' });
    expect((await search(runner, { query: 'needle' })).matches).toEqual([
      { file_path: `${W}/e.txt`, line_number: 1, column: 8, line: '😀😀 x 😀 needle' },
    ]);
  });

  it('shows a line over 2000 characters as an excerpt around the first match with markers', async () => {
    const long = 'x'.repeat(5000) + 'NEEDLE' + 'y'.repeat(5000);
    const { runner } = setup({ 'long.txt': `short\n${long}\n` });
    const [match] = (await search(runner, { query: 'needle' })).matches;
    expect(match?.line_number).toBe(2);
    expect(match?.column).toBe(5001);
    const line = match?.line ?? '';
    expect(line).toMatch(/^\[\.\.\. \d+ characters before\] x+NEEDLEy+ \[\.\.\. \d+ characters after\]$/);
    const excerpt = line.replace(/^\[[^\]]*\] /, '').replace(/ \[[^\]]*\]$/, '');
    expect(excerpt.length).toBe(2000);
    const before = Number(/^\[\.\.\. (\d+)/.exec(line)?.[1]);
    const after = Number(/\[\.\.\. (\d+) characters after\]$/.exec(line)?.[1]);
    expect(before + excerpt.length + after).toBe(long.length);
  });

  it('caps matches at max_results and reports the full total', async () => {
    const text = Array.from({ length: 30 }, (_, i) => `hit ${i + 1}`).join('\n');
    const { runner } = setup({ 'many.txt': text });
    const result = await search(runner, { query: 'hit', max_results: 5 });
    expect(result.matches.map((m) => m.line)).toEqual(['hit 1', 'hit 2', 'hit 3', 'hit 4', 'hit 5']);
    expect(result.total_matches).toBe(30);
    expect(result.truncated).toBe(true);
  });

  it('sees edits made after an earlier search (the text cache is validated)', async () => {
    const { platform, runner } = setup({ 'f.txt': 'old value\n' });
    expect((await search(runner, { query: 'value' })).matches[0]?.line).toBe('old value');
    await platform.fs.writeFile(`${W}/f.txt`, 'new value\n');
    expect((await search(runner, { query: 'value' })).matches[0]?.line).toBe('new value');
    await platform.fs.writeFile(`${W}/g.txt`, 'another value\n');
    expect((await search(runner, { query: 'value' })).total_matches).toBe(2);
    await platform.fs.rm(`${W}/f.txt`);
    expect((await search(runner, { query: 'value' })).matches.map((m) => m.file_path)).toEqual([`${W}/g.txt`]);
  });

  it('refuses an empty query, a missing directory and a path outside the workspace', async () => {
    const { runner } = setup();
    expect((await searchError(runner, { query: '' })).code).toBe('invalid_arguments');
    expect((await searchError(runner, { query: 'x', dir_path: 'missing' })).code).toBe('not_found');
    expect((await searchError(runner, { query: 'x', dir_path: '/tmp' })).code).toBe('outside_workspace');
  });

  it('finds regex metacharacters literally', async () => {
    const { runner } = setup({ 'r.txt': 'a(b)*c [x] $1 \\d {2} a|b ^\n' });
    for (const query of ['(b)*', '[x]', '$1', '\\d', '{2}', 'a|b', '^']) {
      expect((await search(runner, { query })).total_matches, query).toBe(1);
    }
  });

  it('gives shown and total matching lines and what to do next when max_results cuts the matches', async () => {
    const files: Record<string, string> = {};
    for (let f = 0; f < 4; f += 1) files[`f${f}.txt`] = 'hit one\nhit two\nhit three\n';
    const result = await search(setup(files).runner, { query: 'HIT', max_results: 7 });
    expect([result.matches.length, result.total_matches, result.truncated]).toEqual([7, 12, true]);
    expect(result.note).toBe('Showing 7 of 12 matching lines (max_results is 7): raise max_results (at most 2000), or narrow the query, dir_path or include.');
  });
});
