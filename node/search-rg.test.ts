import { spawnSync } from 'node:child_process';
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolRunner } from '../src/runner.js';
import type { Platform } from '../src/core/types.js';
import type { SearchContentResult } from '../src/search/line-search.js';
import { grepSearchTool } from '../src/tools/grep-search.js';
import { createNodePlatform } from './platform.js';

const hasRg = spawnSync('rg', ['--version'], { stdio: 'ignore' }).status === 0;
if (!hasRg) console.warn('note: rg (ripgrep) is not installed, so grep_search is not compared with it here; .ci/run installs Debian ripgrep');

// ASCII files: rg's Unicode-aware \w \d \s \b and byte columns agree with the dialect's ASCII ones there.
const FILES: Record<string, string> = {
  'a.txt': ['Hello World', 'hello world', 'HELLO', 'fooBar bazQux', 'camelCaseName and AnotherOne', 'x = 42; y = 7', 'tabs\tand  spaces', 'end.'].join('\n') + '\n',
  'b.js': ['function add(a, b) { return a + b; }', 'const re = /ab+c/;', 'require("fs"); require(\'path\')', 'if (x == 10) {}', 'aaaa bbbb', 'abcabcabc', ''].join('\n'),
  'c.md': ['# Title', '- item one', '- item two', '', 'The end_of the word_boundary test', '2026-12-01 and 1999-01-31'].join('\r\n') + '\r\n',
};

const PATTERNS = [
  '(?i)hello',
  '(?i:HELLO) world',
  'hel(?i)LO',
  '(?s)a.c',
  '\\pL+\\s\\pL+',
  '\\p{Lu}\\p{Ll}+',
  '\\PL+',
  '(?P<first>\\w+)\\s(?P<second>\\w+)',
  '\\bword\\b',
  '\\Bord',
  '\\d{4}-\\d{2}-\\d{2}',
  'a{2,3}',
  'b{2}',
  '(abc){2,}',
  '[A-Z][a-z]+[A-Z]\\w*',
  "require\\(['\"][^'\"]+['\"]\\)",
  '^-\\s\\w+',
  '\\.$',
  '^$',
  '[[:upper:]]{2,}',
  '[^a-z ]+',
  'x|y|z',
  '(?U)a+',
  'a+?b',
  '\\x41|\\x{42}',
  '[\\d\\s]+',
  '^\\s*#',
];

let base: string;
let platform: Platform;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'toolhost-rg-')));
  for (const [name, text] of Object.entries(FILES)) await writeFile(join(base, name), text);
  platform = createNodePlatform({ root: base });
});

afterAll(async () => {
  await platform?.dispose();
  await rm(base, { recursive: true, force: true });
});

function rg(pattern: string): string[] {
  const out = spawnSync('rg', ['-j1', '-uu', '--no-heading', '--line-number', '--column', '--sort', 'path', '--crlf', '-e', pattern, '.'], { cwd: base, encoding: 'utf8' });
  if (out.status !== 0 && out.status !== 1) throw new Error(`rg failed on ${pattern}: ${out.stderr}`);
  return out.stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => line.split(':').slice(0, 3).join(':').replace(/^\.\//, ''));
}

describe.skipIf(!hasRg)('grep_search next to rg on the same ASCII files', () => {
  it('finds the same lines at the same columns for inline flags, Unicode classes, named groups, \\b and counted repetition', async () => {
    const runner = new ToolRunner({ platform, tools: [grepSearchTool] });
    for (const pattern of PATTERNS) {
      const result = (await runner.execute('grep_search', { pattern, max_results: 2000 })) as SearchContentResult;
      const ours = result.matches.map((m) => `${m.file_path.slice(base.length + 1)}:${m.line_number}:${m.column}`);
      expect(ours, pattern).toEqual(rg(pattern));
    }
    // Debian's rg 13 predates (?<name>…); the dialect reads it as (?P<name>…).
    const named = async (pattern: string): Promise<unknown> => ((await runner.execute('grep_search', { pattern })) as SearchContentResult).matches;
    expect(await named('(?<first>\\w+)\\s(?<second>\\w+)')).toEqual(await named('(?P<first>\\w+)\\s(?P<second>\\w+)'));
  });

  it('refuses lookaround and backreferences as rg does without -P', async () => {
    const runner = new ToolRunner({ platform, tools: [grepSearchTool] });
    for (const pattern of ['a(?=b)', '(?<!a)b', '(a)\\1']) {
      const out = spawnSync('rg', ['-e', pattern, '.'], { cwd: base, encoding: 'utf8' });
      expect(out.status, pattern).toBe(2);
      const [result] = await runner.processToolCalls([{ name: 'grep_search', args: { pattern } }]);
      expect(result, pattern).toMatchObject({ code: 'invalid_pattern' });
    }
  });
});
