import { describe, expect, it } from 'vitest';
import { createMemoryPlatform } from '../platform/memory.js';
import { ToolRunner, type ToolCallFailure } from '../runner.js';
import type { Platform } from '../core/types.js';
import { findFileTool, MAX_FIND_RESULTS, type FindFileResult } from './find-file.js';

const W = '/workspace';

const TREE: Record<string, string> = {
  'README.md': '# readme',
  'package.json': '{}',
  'src/index.ts': 'export {}',
  'src/util.ts': 'export {}',
  'src/util.test.ts': 'test',
  'src/deep/nested/thing.test.ts': 'test',
  'src/deep/nested/thing.ts': 'x',
  'src/App.TSX': 'x',
  'a.txt': 'a',
  'b.txt': 'b',
  'c.txt': 'c',
  'd.txt': 'd',
  '.github/workflows/ci.yml': 'on: push',
  '.env': 'X=1',
  '.git/config': '[core]',
  '.git/HEAD': 'ref',
  'node_modules/lib/index.ts': 'x',
  'node_modules/lib/package.json': '{}',
  '.gitignore': 'dist/\n*.log\n',
  'dist/bundle.js': 'x',
  'debug.log': 'x',
  'pkg/.gitignore': 'generated.ts\n!keep.log\n',
  'pkg/generated.ts': 'x',
  'pkg/source.ts': 'x',
  'pkg/keep.log': 'x',
  'pkg/other.log': 'x',
  'docs/my file (1).md': 'x',
  'docs/ünïcödé.md': 'x',
};

function setup(files: Record<string, string> = TREE): { platform: Platform; runner: ToolRunner } {
  const platform = createMemoryPlatform({ files });
  return { platform, runner: new ToolRunner({ platform, tools: [findFileTool] }) };
}

async function find(runner: ToolRunner, args: Record<string, unknown>): Promise<FindFileResult> {
  return (await runner.execute('find_file', args)) as FindFileResult;
}

async function findError(runner: ToolRunner, args: Record<string, unknown>): Promise<ToolCallFailure> {
  const [result] = await runner.processToolCalls([{ name: 'find_file', args }]);
  expect(result).toHaveProperty('code');
  return result as ToolCallFailure;
}

describe('find_file', () => {
  it('pins its model-facing schema', () => {
    expect(findFileTool.name).toBe('find_file');
    expect(findFileTool.annotations?.readOnlyHint).toBe(true);
    expect(findFileTool.inputSchema).toMatchInlineSnapshot(`
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
          "include_ignored": {
            "description": "Also search .git/, node_modules/ and paths ignored by .gitignore files (default false).",
            "type": "boolean",
          },
          "max_results": {
            "description": "Most paths to return (default 500); total says how many matched.",
            "maximum": 10000,
            "minimum": 1,
            "type": "integer",
          },
          "pattern": {
            "description": "Glob: * ? [abc] {a,b} (nested too) and ** for any number of directories. Without "/" it matches file names at any depth ("*.ts", "README*"); with "/" it matches the path relative to dir_path ("src/**/*.test.ts"); an absolute path is taken relative to dir_path. A leading "!" finds the files the rest does not match ("!*.test.ts").",
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

  it('matches a pattern without / against names at any depth', async () => {
    const { runner } = setup();
    expect(await find(runner, { pattern: '*.ts' })).toEqual({
      files: [
        `${W}/pkg/source.ts`,
        `${W}/src/deep/nested/thing.test.ts`,
        `${W}/src/deep/nested/thing.ts`,
        `${W}/src/index.ts`,
        `${W}/src/util.test.ts`,
        `${W}/src/util.ts`,
      ],
      total: 6,
      truncated: false,
    });
  });

  it('matches a pattern with / against the path relative to dir_path, ** spanning zero or more directories', async () => {
    const { runner } = setup();
    expect((await find(runner, { pattern: 'src/**/*.test.ts' })).files).toEqual([
      `${W}/src/deep/nested/thing.test.ts`,
      `${W}/src/util.test.ts`,
    ]);
    expect((await find(runner, { pattern: 'src/*.ts' })).files).toEqual([
      `${W}/src/index.ts`,
      `${W}/src/util.test.ts`,
      `${W}/src/util.ts`,
    ]);
    expect((await find(runner, { pattern: './src/deep/**' })).files).toEqual([
      `${W}/src/deep/nested/thing.test.ts`,
      `${W}/src/deep/nested/thing.ts`,
    ]);
  });

  it('expands braces, nested braces, ? and [...]', async () => {
    const { runner } = setup();
    expect((await find(runner, { pattern: '{a,b}.txt' })).files).toEqual([`${W}/a.txt`, `${W}/b.txt`]);
    expect((await find(runner, { pattern: '{a,{b,c}}.txt' })).files).toEqual([`${W}/a.txt`, `${W}/b.txt`, `${W}/c.txt`]);
    expect((await find(runner, { pattern: '?.txt' })).files).toEqual([`${W}/a.txt`, `${W}/b.txt`, `${W}/c.txt`, `${W}/d.txt`]);
    expect((await find(runner, { pattern: '[bd].txt' })).files).toEqual([`${W}/b.txt`, `${W}/d.txt`]);
    expect((await find(runner, { pattern: '[!abc].txt' })).files).toEqual([`${W}/d.txt`]);
  });

  it('walks dot-directories and finds dot-files', async () => {
    const { runner } = setup();
    expect((await find(runner, { pattern: '.github/workflows/ci.yml' })).files).toEqual([`${W}/.github/workflows/ci.yml`]);
    expect((await find(runner, { pattern: '*.yml' })).files).toEqual([`${W}/.github/workflows/ci.yml`]);
    expect((await find(runner, { pattern: '.env' })).files).toEqual([`${W}/.env`]);
  });

  it('skips .git/ and node_modules/ and respects .gitignore files, nested ones too', async () => {
    const { runner } = setup();
    const all = await find(runner, { pattern: '**/*' });
    expect(all.files).toEqual([
      `${W}/.env`,
      `${W}/.github/workflows/ci.yml`,
      `${W}/.gitignore`,
      `${W}/README.md`,
      `${W}/a.txt`,
      `${W}/b.txt`,
      `${W}/c.txt`,
      `${W}/d.txt`,
      `${W}/docs/my file (1).md`,
      `${W}/docs/ünïcödé.md`,
      `${W}/package.json`,
      `${W}/pkg/.gitignore`,
      `${W}/pkg/keep.log`,
      `${W}/pkg/source.ts`,
      `${W}/src/App.TSX`,
      `${W}/src/deep/nested/thing.test.ts`,
      `${W}/src/deep/nested/thing.ts`,
      `${W}/src/index.ts`,
      `${W}/src/util.test.ts`,
      `${W}/src/util.ts`,
    ]);
    expect(all.total).toBe(20);
  });

  it('applies the .gitignore files above dir_path', async () => {
    const { runner } = setup();
    expect((await find(runner, { pattern: '*.log', dir_path: 'pkg' })).files).toEqual([`${W}/pkg/keep.log`]);
  });

  it('brings ignored paths back with include_ignored', async () => {
    const { runner } = setup();
    expect((await find(runner, { pattern: '*.{log,js}', include_ignored: true })).files).toEqual([
      `${W}/debug.log`,
      `${W}/dist/bundle.js`,
      `${W}/pkg/keep.log`,
      `${W}/pkg/other.log`,
    ]);
    expect((await find(runner, { pattern: 'index.ts', include_ignored: true })).files).toEqual([
      `${W}/node_modules/lib/index.ts`,
      `${W}/src/index.ts`,
    ]);
    expect((await find(runner, { pattern: '.git/*', include_ignored: true })).files).toEqual([`${W}/.git/HEAD`, `${W}/.git/config`]);
    expect((await find(runner, { pattern: 'generated.ts', include_ignored: true })).files).toEqual([`${W}/pkg/generated.ts`]);
    expect((await find(runner, { pattern: 'generated.ts' })).files).toEqual([]);
  });

  it('is case-insensitive by default and exact with case_sensitive', async () => {
    const { runner } = setup();
    expect((await find(runner, { pattern: '*.tsx' })).files).toEqual([`${W}/src/App.TSX`]);
    expect((await find(runner, { pattern: 'readme.MD' })).files).toEqual([`${W}/README.md`]);
    expect((await find(runner, { pattern: '*.tsx', case_sensitive: true })).files).toEqual([]);
    expect((await find(runner, { pattern: '*.TSX', case_sensitive: true })).files).toEqual([`${W}/src/App.TSX`]);
  });

  it('refuses an unbalanced brace or bracket with invalid_pattern', async () => {
    const { runner } = setup();
    for (const pattern of ['{a,b.txt', 'a,b}.txt', '[ab.txt', '{a,{b,c}.txt']) {
      const failure = await findError(runner, { pattern });
      expect(failure.code, pattern).toBe('invalid_pattern');
      expect(failure.error).toContain(pattern);
    }
    expect((await find(runner, { pattern: '\\{a.txt' })).files).toEqual([]);
  });

  it('reports truncation with the full total, and a note saying what is shown and what to do next', async () => {
    const { runner } = setup();
    expect(await find(runner, { pattern: '*.txt', max_results: 2 })).toEqual({
      files: [`${W}/a.txt`, `${W}/b.txt`],
      total: 4,
      truncated: true,
      note: 'Showing 2 of 4 paths (max_results is 2): raise max_results (at most 10000), or narrow the pattern or dir_path.',
    });
  });

  it('leaves raising max_results out of the note when it is at its largest', async () => {
    // Short paths under a root of "/", so 10,000 of them fit the character budget.
    const files = Object.fromEntries(Array.from({ length: MAX_FIND_RESULTS + 2 }, (_, i) => [`/${String(i).padStart(5, '0')}`, '']));
    const runner = new ToolRunner({ platform: createMemoryPlatform({ root: '/', files }), tools: [findFileTool] });
    const result = await find(runner, { pattern: '*', max_results: MAX_FIND_RESULTS });
    expect({ ...result, files: result.files.length }).toEqual({
      files: MAX_FIND_RESULTS,
      total: MAX_FIND_RESULTS + 2,
      truncated: true,
      note: 'Showing 10000 of 10002 paths (max_results is 10000): narrow the pattern or dir_path.',
    });
    expect(result.files.at(-1)).toBe('/09999');
  });

  it('says what the character budget cut, of the whole total, instead of the max_results note', async () => {
    const files = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`deep/folder/name/${String(i).padStart(4, '0')}.txt`, '']));
    const { runner } = setup(files);
    const result = await find(runner, { pattern: '*.txt', max_results: 4000 });
    expect({ ...result, files: result.files.length }).toEqual({
      files: 2547,
      total: 5000,
      truncated: true,
      note: 'Showing 2547 of 5000 paths: the result is capped at 100000 characters; narrow the pattern or dir_path to see the others.',
    });
    expect(JSON.stringify(result).length).toBeLessThanOrEqual(100_000);
  });

  it('notes a walk stopped at its 200,000-entry cap, and the max_results cut after it', async () => {
    const files = Object.fromEntries(Array.from({ length: 200_100 }, (_, i) => [`d${Math.floor(i / 1000)}/${i}.txt`, '']));
    const { runner } = setup(files);
    const result = await find(runner, { pattern: '*.txt', max_results: 3 });
    expect(result.files).toEqual([`${W}/d0/0.txt`, `${W}/d0/1.txt`, `${W}/d0/10.txt`]);
    expect({ ...result, files: undefined }).toEqual({
      files: undefined,
      total: 199_799,
      truncated: true,
      note:
        'The walk stopped after 200000 entries (files and directories), so total counts the matches among those only: narrow dir_path. ' +
        'Showing 3 of 199799 paths (max_results is 3): raise max_results (at most 10000), or narrow the pattern or dir_path.',
    });
  }, 60_000);

  it('sorts by path in UTF-16 code-unit order', async () => {
    const { runner } = setup({ 'b/z.md': '', 'B/a.md': '', 'a.md': '', 'a-b.md': '', 'a/b.md': '', 'é.md': '', 'Z.md': '' });
    expect((await find(runner, { pattern: '*.md' })).files).toEqual([
      `${W}/B/a.md`,
      `${W}/Z.md`,
      `${W}/a-b.md`,
      `${W}/a.md`,
      `${W}/a/b.md`,
      `${W}/b/z.md`,
      `${W}/é.md`,
    ]);
  });

  it('takes dir_path relative to the working directory or absolute', async () => {
    const { runner } = setup();
    const expected = [`${W}/src/deep/nested/thing.test.ts`, `${W}/src/deep/nested/thing.ts`];
    expect((await find(runner, { pattern: '*.ts', dir_path: 'src/deep' })).files).toEqual(expected);
    expect((await find(runner, { pattern: '*.ts', dir_path: `${W}/src/deep` })).files).toEqual(expected);
    expect((await find(runner, { pattern: 'nested/*.ts', dir_path: './src/deep/' })).files).toEqual(expected);
  });

  it('finds names with spaces, parentheses and unicode', async () => {
    const { runner } = setup();
    expect((await find(runner, { pattern: 'my file (1).md' })).files).toEqual([`${W}/docs/my file (1).md`]);
    expect((await find(runner, { pattern: 'ÜNÏ*' })).files).toEqual([`${W}/docs/ünïcödé.md`]);
  });

  it('refuses dir_path outside the workspace, missing or a file', async () => {
    const { runner } = setup();
    expect((await findError(runner, { pattern: '*', dir_path: '/etc' })).code).toBe('outside_workspace');
    expect((await findError(runner, { pattern: '*', dir_path: '../..' })).code).toBe('outside_workspace');
    expect((await findError(runner, { pattern: '*', dir_path: 'nope' })).code).toBe('not_found');
    expect((await findError(runner, { pattern: '*', dir_path: 'a.txt' })).code).toBe('not_a_directory');
  });

  it('never follows symlinks, so a symlink loop cannot hang it', async () => {
    const { platform, runner } = setup({ 'loop/real.ts': 'x' });
    await platform.fs.symlink(`${W}/loop`, `${W}/loop/self`);
    await platform.fs.symlink(`${W}/loop/b`, `${W}/loop/a`);
    await platform.fs.symlink(`${W}/loop/a`, `${W}/loop/b`);
    const result = await runner.execute('find_file', { pattern: '**/*' }, { timeoutMs: 5000 });
    expect(result).toEqual({
      files: [`${W}/loop/a`, `${W}/loop/b`, `${W}/loop/real.ts`, `${W}/loop/self`],
      total: 4,
      truncated: false,
    });
  });

  // picomatch's RegExp backtracked for more than 300 s on this (80-character name), blocking the thread,
  // so the 2 s deadline could not fire. It must now answer, whatever the time.
  it('answers a glob with many stars against a long name instead of blocking the thread', { timeout: 20_000 }, async () => {
    const { runner } = setup({ [`${'a'.repeat(80)}`]: 'x', [`${'a'.repeat(79)}b`]: 'x' });
    const result = await runner.execute('find_file', { pattern: `${'*a'.repeat(8)}b` }, { timeoutMs: 2000 });
    expect(result).toEqual({ files: [`${W}/${'a'.repeat(79)}b`], total: 1, truncated: false });
  });

  it('finds names holding line breaks with every pattern that matches them', async () => {
    const { platform, runner } = setup({ 'a.txt': 'a' });
    await platform.fs.writeFile(`${W}/line\nbreak`, 'x');
    await platform.fs.writeFile(`${W}/cr\rname.txt`, 'x');
    const both = [`${W}/a.txt`, `${W}/cr\rname.txt`, `${W}/line\nbreak`];
    expect((await find(runner, { pattern: '**' })).files).toEqual(both);
    expect((await find(runner, { pattern: '*' })).files).toEqual(both);
    expect((await find(runner, { pattern: '**/*' })).files).toEqual(both);
    expect((await find(runner, { pattern: 'line?break' })).files).toEqual([`${W}/line\nbreak`]);
    expect((await find(runner, { pattern: '!*.txt' })).files).toEqual([`${W}/line\nbreak`]);
  });

  it('takes an absolute pattern relative to dir_path, matching whole paths', async () => {
    const { runner } = setup();
    expect(await find(runner, { pattern: `${W}/*.txt` })).toEqual({
      files: [`${W}/a.txt`, `${W}/b.txt`, `${W}/c.txt`, `${W}/d.txt`],
      total: 4,
      truncated: false,
    });
    expect((await find(runner, { pattern: `${W}/src/**/*.test.ts` })).files).toEqual([
      `${W}/src/deep/nested/thing.test.ts`,
      `${W}/src/util.test.ts`,
    ]);
    expect((await find(runner, { pattern: `${W}/src/*.ts`, dir_path: 'src' })).files).toEqual([
      `${W}/src/index.ts`,
      `${W}/src/util.test.ts`,
      `${W}/src/util.ts`,
    ]);
    expect((await find(runner, { pattern: `${W}/**/thing.ts`, dir_path: 'src' })).files).toEqual([`${W}/src/deep/nested/thing.ts`]);
    expect((await find(runner, { pattern: `${W}/README.md` })).files).toEqual([`${W}/README.md`]);
  });

  it('refuses an absolute pattern outside the workspace (outside_workspace) or outside dir_path (invalid_pattern)', async () => {
    const { runner } = setup();
    for (const pattern of ['/etc/*', '../*', '/*', `${W}/../etc/passwd`]) {
      const failure = await findError(runner, { pattern });
      expect(failure.code, pattern).toBe('outside_workspace');
      expect(failure.error, pattern).toContain('outside the workspace (/workspace)');
    }
    expect(await findError(runner, { pattern: `${W}/pkg/*.ts`, dir_path: 'src' })).toMatchObject({
      code: 'invalid_pattern',
      error: `pattern "${W}/pkg/*.ts" is not under the searched directory ${W}/src; set dir_path to ${W}/pkg or give a glob relative to ${W}/src`,
    });
  });

  it('negates a pattern with a leading !', async () => {
    const { runner } = setup();
    expect((await find(runner, { pattern: '!*.ts', dir_path: 'pkg' })).files).toEqual([`${W}/pkg/.gitignore`, `${W}/pkg/keep.log`]);
    expect((await find(runner, { pattern: '!deep/**', dir_path: 'src' })).files).toEqual([
      `${W}/src/App.TSX`,
      `${W}/src/index.ts`,
      `${W}/src/util.test.ts`,
      `${W}/src/util.ts`,
    ]);
  });

  it('quotes at most 200 characters of a long pattern in its error', async () => {
    const { runner } = setup();
    const failure = await findError(runner, { pattern: `{${'x'.repeat(10_000)}` });
    expect(failure.code).toBe('invalid_pattern');
    expect(failure.error).toBe(
      `pattern "{${'x'.repeat(199)}…" (9801 more characters) is 10001 characters long; at most 1000: use wildcards ` +
        '(*.ts, src/**) instead of listing names, or search in several calls',
    );
  });

  it('validates its arguments in the runner', async () => {
    const { runner } = setup();
    expect((await findError(runner, {})).code).toBe('invalid_arguments');
    expect((await findError(runner, { pattern: '*', max_results: 0 })).code).toBe('invalid_arguments');
    expect((await findError(runner, { pattern: '*', extra: 1 })).code).toBe('invalid_arguments');
    expect((await findError(runner, { pattern: '' })).code).toBe('invalid_pattern');
  });
});
