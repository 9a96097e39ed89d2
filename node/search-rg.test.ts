import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolRunner } from '../src/runner.js';
import type { Platform } from '../src/core/types.js';
import type { SearchContentResult } from '../src/search/line-search.js';
import { findFileTool } from '../src/tools/find-file.js';
import { grepSearchTool } from '../src/tools/grep-search.js';
import { createNodePlatform } from './platform.js';
import { seededRandom } from '../test/support/random.js';

const hasRg = spawnSync('rg', ['--version'], { stdio: 'ignore' }).status === 0;

// These comparisons are the dialect's proof: without rg they fail rather than skip.
it('has ripgrep (rg) to compare with', () => {
  expect(hasRg, 'rg (ripgrep) is not installed: apt-get install ripgrep (.ci/run does)').toBe(true);
});

// ASCII files: rg's byte columns and grep_search's character columns are the same number there.
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

describe('grep_search next to rg on the same ASCII files', () => {
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

// ------------------------------------------------------------------------------------------------
// Non-ASCII text: ripgrep's Unicode defaults, compared byte for byte (rg's columns are bytes; ours are
// code points, turned into UTF-8 byte columns from the line text before comparing).

const PIECES = [
  'Привет', 'привет', 'ПРИВЕТ', 'мир', 'σοφός', 'ΣΟΦΟΣ', 'ς', 'café', 'CAFÉ', 'élan', 'xélan', 'naïve', 'e\u0301lan',
  '中文', '日本語', '😀', '👍🏽', 'ı', 'İ', 'i', 'I', 'straße', 'STRASSE', 'STRAẞE', 'ß', 'ẞ', '\u212a', 'k', 'K', '\u017f', 's',
  '٣٤', '123', '\u00a0', '\u3000', ' ', ' ', '-', '_', 'ab', 'word', 'éab', '(élan)', 'x1',
];

function unicodeCorpus(): Record<string, string> {
  const random = seededRandom(20261206);
  const files: Record<string, string> = {};
  for (let f = 0; f < 4; f += 1) {
    const lines: string[] = [];
    for (let l = 0; l < 60; l += 1) {
      let line = '';
      const n = 1 + Math.floor(random() * 6);
      for (let i = 0; i < n; i += 1) line += PIECES[Math.floor(random() * PIECES.length)];
      lines.push(line);
    }
    files[`u${f}.txt`] = lines.join('\n') + '\n';
  }
  return files;
}

/** Each case: its name (ripgrep's behaviour), the pattern, and rg's flags (-i, -F) with grep_search's arguments. */
const UNICODE_CASES: Array<{ name: string; pattern: string; i?: boolean; F?: boolean }> = [
  { name: '-i folds Cyrillic (привет finds Привет and ПРИВЕТ)', pattern: 'привет', i: true },
  { name: '-i -F folds a fixed string the same way', pattern: 'ПРИВЕТ', i: true, F: true },
  { name: '-i folds final sigma with sigma (σοφός finds ΣΟΦΟΣ)', pattern: 'σοφός', i: true },
  { name: '-i folds the Kelvin sign with k', pattern: 'k', i: true },
  { name: '-i folds long s with s', pattern: '\u017f', i: true },
  { name: '-i folds capital sharp s with ß, never with ss', pattern: 'straße', i: true },
  { name: '-i gives dotted and dotless i no partner (simple folding)', pattern: 'ı|İ', i: true },
  { name: '-i folds accented capitals (café finds CAFÉ)', pattern: 'café', i: true, F: true },
  { name: '(?i) inline folds Unicode as -i does', pattern: '(?i)ΣΟΦ\\w+' },
  { name: '\\w is Unicode: ^\\w+$ finds whole non-ASCII words', pattern: '^\\w+$' },
  { name: '\\w+ runs over letters, marks and digits of every script', pattern: '\\w+' },
  { name: '\\W finds emoji, spaces and punctuation', pattern: '\\W+' },
  { name: '\\b is Unicode: \\bélan\\b finds élan alone only', pattern: '\\bélan\\b' },
  { name: '\\B is Unicode: \\Bélan finds élan inside a word', pattern: '\\Bélan' },
  { name: '\\b around three word characters of any script', pattern: '\\b\\w{3}\\b' },
  { name: '\\b in a pattern only an automaton runs (repeated group)', pattern: '\\b(?:ab|é)+\\b' },
  { name: '\\d is Unicode (Arabic-Indic digits)', pattern: '\\d+' },
  { name: '\\s is Unicode (NBSP, ideographic space)', pattern: '\\S\\s\\S' },
  { name: 'negated classes of Unicode classes', pattern: '[^\\w\\s]+' },
  { name: 'combining marks are word characters', pattern: 'e\\u{301}\\w' },
  { name: 'non-BMP text (emoji) as one character', pattern: '😀\\W' },
  { name: 'CJK words', pattern: '\\b中文\\b' },
  { name: '(?-u) makes \\w ASCII', pattern: '(?-u)^\\w+$' },
  { name: '(?-u) makes \\b ASCII', pattern: '(?-u)\\bcaf\\b' },
  { name: '(?-u:…) scopes ASCII \\w to the group', pattern: '(?-u:\\w)+é' },
  { name: '(?-u) makes \\d ASCII', pattern: '(?-u)\\d+' },
  // (?-u)\S would match single bytes of a multi-byte character, where rg's byte columns and our
  // character columns part; ASCII neighbours show the ASCII \s alone.
  { name: '(?-u) makes \\s ASCII (NBSP and the ideographic space are not spaces)', pattern: '(?-u)\\w\\s\\w' },
  { name: '(?i-u) folds ASCII letters only (k misses the Kelvin sign)', pattern: '(?i-u)k' },
  { name: '(?-u) \\W starts at the first non-ASCII character', pattern: '(?-u)\\W' },
];

/** The 1-based UTF-8 byte column of the code-point column `column` of `line`. */
function byteColumn(line: string, column: number): number {
  return Buffer.byteLength(Array.from(line).slice(0, column - 1).join(''), 'utf8') + 1;
}

describe('grep_search next to rg on non-ASCII text (ripgrep is Unicode-aware by default)', () => {
  let ubase: string;
  let uplatform: Platform;
  beforeAll(async () => {
    ubase = await realpath(await mkdtemp(join(tmpdir(), 'toolhost-rg-unicode-')));
    for (const [name, text] of Object.entries(unicodeCorpus())) await writeFile(join(ubase, name), text);
    uplatform = createNodePlatform({ root: ubase });
  });
  afterAll(async () => {
    await uplatform?.dispose();
    await rm(ubase, { recursive: true, force: true });
  });

  const rgUnicode = (c: { pattern: string; i?: boolean; F?: boolean }): string[] => {
    const flags = [...(c.i ? ['-i'] : []), ...(c.F ? ['-F'] : [])];
    const out = spawnSync('rg', ['-j1', '-uu', '--no-heading', '--line-number', '--column', '--sort', 'path', ...flags, '-e', c.pattern, '.'], { cwd: ubase, encoding: 'utf8' });
    if (out.status !== 0 && out.status !== 1) throw new Error(`rg failed on ${c.pattern}: ${out.stderr}`);
    return out.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => line.split(':').slice(0, 3).join(':').replace(/^\.\//, ''));
  };

  for (const c of UNICODE_CASES) {
    it(`${c.name}: ${c.pattern}${c.i ? ' -i' : ''}${c.F ? ' -F' : ''}`, async () => {
      const runner = new ToolRunner({ platform: uplatform, tools: [grepSearchTool] });
      const result = (await runner.execute('grep_search', { pattern: c.pattern, case_sensitive: !c.i, fixed_strings: c.F === true, max_results: 2000 })) as SearchContentResult;
      const ours = result.matches.map((m) => `${m.file_path.slice(ubase.length + 1)}:${m.line_number}:${byteColumn(m.line, m.column)}`);
      const theirs = rgUnicode(c);
      expect(theirs.length, 'the corpus exercises this case').toBeGreaterThan(0);
      expect(ours).toEqual(theirs);
    });
  }

  it('refuses non-ASCII text under (?-u), as rg does ("Unicode not allowed here")', async () => {
    const runner = new ToolRunner({ platform: uplatform, tools: [grepSearchTool] });
    for (const pattern of ['(?-u)é', '(?-u)\\pL', '(?i-u)привет']) {
      const out = spawnSync('rg', ['-e', pattern, '.'], { cwd: ubase, encoding: 'utf8' });
      expect(out.status, pattern).toBe(2);
      expect(out.stderr, pattern).toContain('Unicode not allowed here');
      const [result] = await runner.processToolCalls([{ name: 'grep_search', args: { pattern } }]);
      expect(result, pattern).toMatchObject({ code: 'invalid_pattern' });
    }
  });
});

describe('grep_search and find_file next to rg on ignore files (.gitignore, .ignore, .rgignore)', () => {
  const TREE: Record<string, string> = {
    '.gitignore': '*.log\n',
    '.ignore': '!keep.log\n*.tmp\nvendor/\n*.dat\n',
    '.rgignore': '!wanted.tmp\n',
    'a.log': 'needle\n',
    'keep.log': 'needle\n',
    'x.tmp': 'needle\n',
    'wanted.tmp': 'needle\n',
    'vendor/v.js': 'needle\n',
    'sub/.ignore': 'local.txt\n',
    'sub/local.txt': 'needle\n',
    'sub/b.log': 'needle\n',
    'sub/keep.log': 'needle\n',
    'other/local.txt': 'needle\n',
    'deep/.gitignore': '!x.dat\n',
    'deep/x.dat': 'needle\n',
    'deep2/.ignore': '!x.dat\n',
    'deep2/x.dat': 'needle\n',
  };
  let ibase: string;
  let iplatform: Platform;
  beforeAll(async () => {
    ibase = await realpath(await mkdtemp(join(tmpdir(), 'toolhost-rg-ignore-')));
    for (const [name, text] of Object.entries(TREE)) {
      await mkdir(dirname(join(ibase, name)), { recursive: true });
      await writeFile(join(ibase, name), text);
    }
    iplatform = createNodePlatform({ root: ibase });
  });
  afterAll(async () => {
    await iplatform?.dispose();
    await rm(ibase, { recursive: true, force: true });
  });

  it('skips the files rg skips (its .gitignore rules applied outside git as --no-require-git does): .ignore over .gitignore, .rgignore over both, kind over depth', async () => {
    const out = spawnSync('rg', ['-j1', '--hidden', '--no-require-git', '-l', '--sort', 'path', 'needle', '.'], { cwd: ibase, encoding: 'utf8' });
    const theirs = out.stdout.split('\n').filter(Boolean).map((line) => line.replace(/^\.\//, '')).sort();
    expect(theirs).toEqual(['deep2/x.dat', 'keep.log', 'other/local.txt', 'sub/keep.log', 'wanted.tmp']);
    const runner = new ToolRunner({ platform: iplatform, tools: [grepSearchTool, findFileTool] });
    const found = (await runner.execute('grep_search', { pattern: 'needle', output_mode: 'files_with_matches' })) as { files: string[] };
    expect(found.files.map((file) => file.slice(ibase.length + 1)).sort()).toEqual(theirs);
    const listed = (await runner.execute('find_file', { pattern: '**/*.{log,tmp,dat,txt,js}' })) as { files: string[] };
    expect(listed.files.map((file) => file.slice(ibase.length + 1)).sort()).toEqual(theirs);
  });
});
