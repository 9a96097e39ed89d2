import { describe, expect, it } from 'vitest';
import { createMemoryPlatform } from '../../platform/memory.js';
import { ToolRunner, type ToolCallResult } from '../../core/runner.js';
import type { Platform } from '../../core/types.js';
import { toolProfiles } from './index.js';
import { detectOmissionPlaceholders } from './gemini-placeholders.js';
import { boundedDistance } from './gemini-fuzzy.js';
import { matchLadder, applyLadder } from './gemini-ladder.js';
import { minimalEdit } from './gemini-replace.js';
import { sortByRecency } from './gemini-listing.js';
import { png, PNG_SIGNATURE } from '../../../test/support/images.js';

const decode = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

function setup(files: Record<string, string> = {}): { platform: Platform; runner: ToolRunner } {
  const platform = createMemoryPlatform({ files });
  return { platform, runner: new ToolRunner({ platform, tools: toolProfiles.gemini() }) };
}

/** The tool's result on success, else the failure ({ error, code }). */
async function call(runner: ToolRunner, name: string, args: Record<string, unknown>): Promise<unknown> {
  const [outcome] = (await runner.processToolCalls([{ name, args }])) as [ToolCallResult];
  return 'result' in outcome ? outcome.result : outcome;
}

/** A varied source file of `count` lines (a fixed pseudo-random pick of words, so windows differ as real code does). */
export function variedSource(count: number): string[] {
  const words = ['user', 'order', 'total', 'price', 'cache', 'value', 'index', 'buffer', 'result', 'config', 'stream', 'token', 'parser', 'handler', 'queue', 'retry'];
  const verbs = ['load', 'save', 'check', 'merge', 'split', 'parse', 'send', 'flush', 'reset', 'emit'];
  let seed = 12345;
  const next = (n: number): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  const lines: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const a = words[next(words.length)];
    const b = words[next(words.length)];
    const v = verbs[next(verbs.length)];
    lines.push(`${'  '.repeat(1 + next(3))}const ${a}${i} = ${v}(${b}, ${next(100)});`);
  }
  return lines;
}

const read = async (platform: Platform, path: string): Promise<string> => decode(await platform.fs.readFile(`/workspace/${path}`));

describe('Gemini CLI behaviour: omission placeholders', () => {
  it('detects a standalone placeholder line, in parentheses or a // comment, whatever its case', () => {
    expect(detectOmissionPlaceholders('(rest of methods ...)')).toEqual(['rest of methods ...']);
    expect(detectOmissionPlaceholders('  // rest of code ...')).toEqual(['rest of code ...']);
    expect(detectOmissionPlaceholders('(Unchanged Code ...)')).toEqual(['unchanged code ...']);
    expect(detectOmissionPlaceholders('class A {\n  run() {}\n  (rest of methods ...)\n  (unchanged method ...)\n}')).toEqual(['rest of methods ...', 'unchanged method ...']);
  });

  it('detects the leading-ellipsis forms models write: // ... rest of methods ..., # ... existing code ...', () => {
    expect(detectOmissionPlaceholders('    // ... rest of methods ...')).toEqual(['rest of methods ...']);
    expect(detectOmissionPlaceholders('# ... existing code ...')).toEqual(['existing code ...']);
    expect(detectOmissionPlaceholders('/* ... unchanged code ... */')).toEqual(['unchanged code ...']);
  });

  it('does not take the phrase inside a string, after code on the line, or an unrelated ellipsis for a placeholder', () => {
    expect(detectOmissionPlaceholders('const note = "(rest of methods ...)";')).toEqual([]);
    expect(detectOmissionPlaceholders('return value; // rest of methods ...')).toEqual([]);
    expect(detectOmissionPlaceholders('log("loading...");\n// ...')).toEqual([]);
    expect(detectOmissionPlaceholders('// rest of methods ... and more text')).toEqual([]);
  });

  it('replace refuses a placeholder in new_string that old_string does not hold, writing nothing', async () => {
    const { platform, runner } = setup({ 'a.ts': 'class A {\n  one() {}\n  two() {}\n}\n' });
    const refused = await call(runner, 'replace', { file_path: 'a.ts', instruction: 'add three', old_string: '  one() {}\n  two() {}', new_string: '  one() {}\n  // ... rest of methods ...\n  three() {}' });
    expect(refused).toMatchObject({ code: 'invalid_arguments' });
    expect(String((refused as { error: string }).error)).toContain('omission placeholder');
    expect(String((refused as { error: string }).error)).toContain('read_file');
    expect(await read(platform, 'a.ts')).toBe('class A {\n  one() {}\n  two() {}\n}\n');
  });

  it('replace accepts a placeholder line that old_string already held (the model kept it, it deletes nothing)', async () => {
    const { platform, runner } = setup({ 'a.py': 'def f():\n    # ... existing code ...\n    return 1\n' });
    expect(await call(runner, 'replace', { file_path: 'a.py', instruction: 'return 2', old_string: '    # ... existing code ...\n    return 1', new_string: '    # ... existing code ...\n    return 2' })).toMatchObject({ replacements: 1 });
    expect(await read(platform, 'a.py')).toBe('def f():\n    # ... existing code ...\n    return 2\n');
  });

  it('write_file refuses content with a placeholder for a new file or one that lacks it, and accepts it when the file already holds it', async () => {
    const { platform, runner } = setup({ 'old.js': 'a();\n', 'doc.md': 'Example:\n(rest of code ...)\n' });
    expect(await call(runner, 'write_file', { file_path: 'new.js', content: 'start();\n// rest of code ...\n' })).toMatchObject({ code: 'invalid_arguments' });
    expect(await call(runner, 'write_file', { file_path: 'old.js', content: 'b();\n(unchanged code ...)\n' })).toMatchObject({ code: 'invalid_arguments' });
    expect(await read(platform, 'old.js')).toBe('a();\n');
    await expect(platform.fs.stat('/workspace/new.js')).rejects.toThrow();
    expect(await call(runner, 'write_file', { file_path: 'doc.md', content: 'Example, again:\n(rest of code ...)\n' })).toMatchObject({ file_path: '/workspace/doc.md' });
    expect(await read(platform, 'doc.md')).toBe('Example, again:\n(rest of code ...)\n');
  });
});

describe('Gemini CLI behaviour: the replace matching ladder', () => {
  it('exact match first: a unique literal is replaced with no strategy reported', async () => {
    const { platform, runner } = setup({ 'f.ts': 'let a = 1;\nlet b = 2;\n' });
    const done = await call(runner, 'replace', { file_path: 'f.ts', instruction: 'b is 3', old_string: 'let b = 2;', new_string: 'let b = 3;' });
    expect(done).toMatchObject({ replacements: 1 });
    expect((done as { strategy?: string }).strategy).toBeUndefined();
    expect(await read(platform, 'f.ts')).toBe('let a = 1;\nlet b = 3;\n');
  });

  it('flexible match: old_string with other indentation matches per trimmed line, and new_string takes the file\'s indentation', async () => {
    const file = 'function f() {\n    if (x) {\n        go();\n    }\n}\n';
    const { platform, runner } = setup({ 'f.js': file });
    const done = await call(runner, 'replace', { file_path: 'f.js', instruction: 'stop', old_string: 'if (x) {\n    go();\n}', new_string: 'if (x) {\n    stop();\n    go();\n}' });
    expect(done).toMatchObject({ replacements: 1, strategy: 'flexible' });
    expect(await read(platform, 'f.js')).toBe('function f() {\n    if (x) {\n        stop();\n        go();\n    }\n}\n');
  });

  it('flexible match keeps a CRLF file CRLF', async () => {
    const { platform, runner } = setup({ 'w.txt': 'a\r\n\t\tb = 1\r\n\t\tc = 2\r\nd\r\n' });
    expect(await call(runner, 'replace', { file_path: 'w.txt', instruction: 'c', old_string: 'b = 1\nc = 2', new_string: 'b = 1\nc = 3' })).toMatchObject({ strategy: 'flexible' });
    expect(await read(platform, 'w.txt')).toBe('a\r\n\t\tb = 1\r\n\t\tc = 3\r\nd\r\n');
  });

  it('whitespace-tolerant match: tokens in order with other spacing around delimiters match, re-indented', async () => {
    const { platform, runner } = setup({ 'g.py': 'def g():\n    total=compute( a,b )\n    return total\n' });
    const done = await call(runner, 'replace', { file_path: 'g.py', instruction: 'spacing', old_string: 'total = compute(a,b)', new_string: 'total = compute(a, b, c)' });
    expect(done).toMatchObject({ replacements: 1, strategy: 'whitespace' });
    expect(await read(platform, 'g.py')).toBe('def g():\n    total = compute(a, b, c)\n    return total\n');
  });

  it('fuzzy match: a block with a small typo (under 10 % weighted difference) is replaced and the lines are named', async () => {
    const file = 'class Cart {\n  addItem(item) {\n    this.items.push(item);\n    this.total += item.price;\n  }\n}\n';
    const { platform, runner } = setup({ 'c.js': file });
    const done = await call(runner, 'replace', {
      file_path: 'c.js',
      instruction: 'count',
      old_string: '  addItem(item) {\n    this.items.push(iten);\n    this.total += item.price;\n  }',
      new_string: '  addItem(item) {\n    this.items.push(item);\n    this.count += 1;\n  }',
    });
    expect(done).toMatchObject({ replacements: 1, strategy: 'fuzzy' });
    expect((done as { note: string }).note).toContain('lines 2-5');
    expect(await read(platform, 'c.js')).toBe('class Cart {\n  addItem(item) {\n    this.items.push(item);\n    this.count += 1;\n  }\n}\n');
  });

  it('fuzzy match refuses a block that differs by more than the threshold: no_match, nothing written', async () => {
    const file = 'alpha beta gamma\ndelta epsilon\n';
    const { platform, runner } = setup({ 'x.txt': file });
    expect(await call(runner, 'replace', { file_path: 'x.txt', instruction: 'x', old_string: 'omega sigma tau\nphi chi psi', new_string: 'z' })).toMatchObject({ code: 'no_match' });
    expect(await read(platform, 'x.txt')).toBe(file);
  });

  it('short old_string (under 10 characters) never fuzzy-matches', async () => {
    const { runner } = setup({ 's.txt': 'value\n' });
    expect(await call(runner, 'replace', { file_path: 's.txt', instruction: 'x', old_string: 'valeu', new_string: 'v' })).toMatchObject({ code: 'no_match' });
  });

  it('allow_multiple: several flexible matches need it; with it every one is replaced', async () => {
    const file = 'if a:\n  x = 1\nif b:\n      x = 1\n';
    const { platform, runner } = setup({ 'm.py': file });
    const refused = await call(runner, 'replace', { file_path: 'm.py', instruction: 'x', old_string: '\tx = 1', new_string: 'x = 2' });
    expect(refused).toMatchObject({ code: 'ambiguous_match' });
    expect(String((refused as { error: string }).error)).toContain('allow_multiple');
    expect(await read(platform, 'm.py')).toBe(file);
    expect(await call(runner, 'replace', { file_path: 'm.py', instruction: 'x', old_string: '\tx = 1', new_string: 'x = 2', allow_multiple: true })).toMatchObject({ replacements: 2, strategy: 'flexible' });
    expect(await read(platform, 'm.py')).toBe('if a:\n  x = 2\nif b:\n      x = 2\n');
  });

  it('ambiguity with at most 3 matches shows each one\'s lines with the lines around them, and names allow_multiple', async () => {
    const { runner } = setup({ 'r.ts': 'a();\nreset();\nb();\nreset();\nc();\n' });
    const refused = await call(runner, 'replace', { file_path: 'r.ts', instruction: 'x', old_string: 'reset();', new_string: 'clear();' });
    expect(refused).toMatchObject({ code: 'ambiguous_match' });
    const message = (refused as { error: string }).error;
    expect(message).toContain('Expected 1 occurrence but found 2');
    expect(message).toContain('1: a();\n2: reset();\n3: b();');
    expect(message).not.toContain('replace_all');
  });

  it('an old_string whose only occurrence overlaps another (aaa in aaaa) is ambiguous: found 2, both shown (deliberate: Gemini CLI counts without overlaps)', async () => {
    const { platform, runner } = setup({ 'a.txt': 'x\naaaa\n' });
    const refused = await call(runner, 'replace', { file_path: 'a.txt', instruction: 'x', old_string: 'aaa', new_string: 'X' });
    expect(refused).toMatchObject({ code: 'ambiguous_match' });
    const message = (refused as { error: string }).error;
    expect(message).toContain('Expected 1 occurrence but found 2');
    expect(message).toContain('lines 2-2:\n1: x\n2: aaaa\n3: ');
    expect(await read(platform, 'a.txt')).toBe('x\naaaa\n');
  });

  it('ambiguity with more than 3 matches gives the count without listing them', async () => {
    const { runner } = setup({ 'r.ts': 'x;\nx;\nx;\nx;\n' });
    const refused = await call(runner, 'replace', { file_path: 'r.ts', instruction: 'x', old_string: 'x;', new_string: 'y;' });
    expect(refused).toMatchObject({ code: 'ambiguous_match' });
    expect((refused as { error: string }).error).toContain('found 4');
    expect((refused as { error: string }).error).not.toContain('The matches');
  });

  it('the ladder\'s change is written as one unique span (minimal whole-line edit), widened when the changed lines repeat', () => {
    expect(minimalEdit('a\nb\nc\n', 'a\nB\nc\n')).toEqual({ old: 'b', replacement: 'B' });
    const widened = minimalEdit('x\nsame\ny\nsame\n', 'x\nsame\ny\nSAME\n');
    expect(widened.old).not.toBe('same');
    expect('x\nsame\ny\nsame\n'.split(widened.old).length - 1).toBe(1);
  });

  it('the bounded edit distance equals Levenshtein within the band and says "over" past it', () => {
    const work = { cells: 0 };
    expect(boundedDistance('kitten', 'sitting', 5, work)).toBe(3);
    expect(boundedDistance('kitten', 'sitting', 2, work)).toBe(3);
    expect(boundedDistance('abc', 'abc', 0, work)).toBe(0);
    expect(boundedDistance('', 'abc', 5, work)).toBe(3);
  });

  it('a 10,000-line file with the fuzzy fallback finds the one near block (the filter keeps the scan linear)', async () => {
    const lines = variedSource(10_000);
    const text = `${lines.join('\n')}\n`;
    const needle = lines.slice(5000, 5004).join('\n').replace('const', 'cnst');
    const match = await matchLadder(text, needle, 'X');
    expect(match).toMatchObject({ strategy: 'fuzzy', spans: [{ line: 5001, endLine: 5004 }] });
    expect(applyLadder(text, match!).split('\n')[5000]).toBe(`${/^ */.exec(lines[5000]!)![0]}X`);
  });
});

describe('Gemini CLI behaviour: glob order and list_directory order, with ignore files', () => {
  const HOUR = 60 * 60 * 1000;

  it('glob order: files changed in the last 24 hours first, newest first; then the older ones alphabetically', () => {
    const now = 1_000 * HOUR;
    const order = sortByRecency(
      [
        { path: '/w/b-old.ts', mtimeMs: now - 48 * HOUR },
        { path: '/w/a-old.ts', mtimeMs: now - 30 * HOUR },
        { path: '/w/z-new.ts', mtimeMs: now - 1 * HOUR },
        { path: '/w/y-newer.ts', mtimeMs: now - 10 },
        { path: '/w/c-edge.ts', mtimeMs: now - 24 * HOUR },
      ],
      now,
    );
    expect(order).toEqual(['/w/y-newer.ts', '/w/z-new.ts', '/w/a-old.ts', '/w/b-old.ts', '/w/c-edge.ts']);
  });

  it('glob answers in that order on a workspace (file times from the file system)', async () => {
    const { platform, runner } = setup({ 'src/old.ts': '', 'src/alpha.ts': '', 'src/fresh.ts': '', 'src/fresher.ts': '' });
    const now = Date.now();
    const times: Record<string, number> = { '/workspace/src/old.ts': now - 72 * HOUR, '/workspace/src/alpha.ts': now - 90 * HOUR, '/workspace/src/fresh.ts': now - 2 * HOUR, '/workspace/src/fresher.ts': now - HOUR };
    const lstat = platform.fs.lstat.bind(platform.fs);
    (platform.fs as { lstat: typeof lstat }).lstat = async (path: string) => {
      const stats = await lstat(path);
      return times[path] === undefined ? stats : Object.assign(Object.create(Object.getPrototypeOf(stats) as object) as typeof stats, stats, { mtimeMs: times[path] });
    };
    expect(await call(runner, 'glob', { pattern: '*.ts' })).toMatchObject({ files: ['/workspace/src/fresher.ts', '/workspace/src/fresh.ts', '/workspace/src/alpha.ts', '/workspace/src/old.ts'] });
  });

  it('glob honours .geminiignore unless respect_gemini_ignore is false', async () => {
    const { runner } = setup({ '.geminiignore': 'secret/\n*.gen.ts\n', 'a.ts': '', 'b.gen.ts': '', 'secret/k.ts': '' });
    expect(await call(runner, 'glob', { pattern: '**/*.ts' })).toMatchObject({ files: ['/workspace/a.ts'], total: 1 });
    const all = (await call(runner, 'glob', { pattern: '**/*.ts', respect_gemini_ignore: false })) as { files: string[] };
    expect([...all.files].sort()).toEqual(['/workspace/a.ts', '/workspace/b.gen.ts', '/workspace/secret/k.ts']);
  });

  it('list_directory: directories first, then files, each alphabetically (letter case does not split the list)', async () => {
    const { runner } = setup({ 'b.txt': '', 'A.md': '', 'zdir/x': '', 'Cdir/y': '', 'a.ts': '' });
    const listed = (await call(runner, 'list_directory', { dir_path: '.' })) as { entries: Array<{ name: string; type: string }> };
    expect(listed.entries.map((e) => e.name)).toEqual(['Cdir', 'zdir', 'A.md', 'a.ts', 'b.txt']);
  });

  it('list_directory leaves out .gitignore and .geminiignore entries unless file_filtering_options turns them off', async () => {
    const files = { '.gitignore': 'build/\n*.log\n', '.geminiignore': 'notes.md\n', 'build/o.js': '', 'run.log': '', 'notes.md': '', 'src/a.ts': '', 'src/.gitignore': 'gen/\n', 'src/gen/g.ts': '', 'src/b.ts': '' };
    const { runner } = setup(files);
    const names = async (args: Record<string, unknown>): Promise<string[]> => ((await call(runner, 'list_directory', args)) as { entries: Array<{ name: string }> }).entries.map((e) => e.name);
    expect(await names({ dir_path: '.' })).toEqual(['src', '.geminiignore', '.gitignore']);
    expect(await names({ dir_path: '.', file_filtering_options: { respect_git_ignore: false } })).toEqual(['build', 'src', '.geminiignore', '.gitignore', 'run.log']);
    expect(await names({ dir_path: '.', file_filtering_options: { respect_gemini_ignore: false } })).toEqual(['src', '.geminiignore', '.gitignore', 'notes.md']);
    expect(await names({ dir_path: 'src' })).toEqual(['.gitignore', 'a.ts', 'b.ts']);
  });
});

describe('Gemini CLI behaviour: grep_search parameters and ignore files', () => {
  const SRC = {
    'src/app.ts': 'import x from "y";\nconst debug = true; // TODO remove\nlog("TODO later");\nconst z = 1;\n',
    'src/lib.ts': 'export const TODO_LIST = [];\n',
    '.geminiignore': 'vendor/\n',
    'vendor/dep.ts': '// TODO vendored\n',
  };

  it('exclude_pattern is a line regex: a matching line that also matches it is left out (case-insensitive)', async () => {
    const { runner } = setup(SRC);
    const found = (await call(runner, 'grep_search', { pattern: 'TODO', exclude_pattern: 'REMOVE|list', context: 0 })) as { matches: Array<{ file_path: string; line_number: number }> };
    expect(found.matches.map((m) => `${m.file_path}:${m.line_number}`)).toEqual(['/workspace/src/app.ts:3']);
  });

  it('exclude_pattern that is not a valid regular expression is invalid_pattern, naming the parameter', async () => {
    const { runner } = setup(SRC);
    const refused = (await call(runner, 'grep_search', { pattern: 'TODO', exclude_pattern: '(' })) as { code: string; error: string };
    expect(refused.code).toBe('invalid_pattern');
    expect(refused.error).toContain('exclude_pattern');
  });

  it('.geminiignore is honoured by grep_search; no_ignore searches those files too', async () => {
    const { runner } = setup(SRC);
    expect(await call(runner, 'grep_search', { pattern: 'vendored', names_only: true })).toMatchObject({ files: [] });
    expect(await call(runner, 'grep_search', { pattern: 'vendored', names_only: true, no_ignore: true })).toMatchObject({ files: ['/workspace/vendor/dep.ts'] });
  });

  it('automatic context: one match without context asked for comes back with the lines around it', async () => {
    const { runner } = setup(SRC);
    const found = (await call(runner, 'grep_search', { pattern: 'debug' })) as { matches: Array<{ line_number: number; before: string[]; after: string[] }> };
    expect(found.matches).toHaveLength(1);
    expect(found.matches[0]).toMatchObject({ line_number: 2, before: ['import x from "y";'], after: ['log("TODO later");', 'const z = 1;'] });
  });

  it('automatic context is not added when context was asked for, for names_only, or past 3 matches', async () => {
    const { runner } = setup({ 'a.txt': 'k1\nk2\nk3\nk4\nother\n' });
    const asked = (await call(runner, 'grep_search', { pattern: 'k1', context: 0 })) as { matches: Array<{ before?: string[] }> };
    expect(asked.matches[0]?.before ?? []).toEqual([]);
    const many = (await call(runner, 'grep_search', { pattern: 'k' })) as { matches: Array<{ before?: string[] }> };
    expect(many.matches).toHaveLength(4);
    expect(many.matches.every((m) => m.before === undefined)).toBe(true);
  });

  it('accepts Gemini CLI\'s declared grep parameters together without unknown-parameter errors', async () => {
    const { runner } = setup(SRC);
    const found = await call(runner, 'grep_search', {
      pattern: 'todo', dir_path: '.', include_pattern: '*.ts', exclude_pattern: 'later', names_only: false, case_sensitive: false,
      fixed_strings: true, context: 1, after: 1, before: 0, no_ignore: false, max_matches_per_file: 5, total_max_matches: 10,
    });
    expect((found as { matches: Array<{ file_path: string }> }).matches.map((m) => m.file_path)).toEqual(['/workspace/src/app.ts', '/workspace/src/lib.ts']);
  });
});

describe('Gemini CLI behaviour: read_many_files and inline data', () => {
  const PDF = '%PDF-1.4\n%\u00e2\u00e3\n1 0 obj\n<<>>\nendobj\n';
  const PNG = png(2, 2);

  it('concatenates text files with --- <path> --- separators and ends with --- End of content ---', async () => {
    const { runner } = setup({ 'docs/a.md': '# A', 'docs/b.md': 'bee\n', 'src/x.ts': 'x' });
    const read = (await call(runner, 'read_many_files', { include: ['docs/*.md'] })) as { content: string; files: string[] };
    expect(read.files).toEqual(['/workspace/docs/a.md', '/workspace/docs/b.md']);
    expect(read.content).toBe('--- /workspace/docs/a.md ---\n\n# A\n\n--- /workspace/docs/b.md ---\n\nbee\n\n\n--- End of content ---');
  });

  it('a folder in include reads everything under it; exclude globs and default excludes leave files out', async () => {
    const { runner } = setup({ 'app/main.ts': 'm', 'app/debug.log': 'l', 'app/node_modules/dep/i.js': 'd', 'app/lib.zip': 'PK' });
    const read = (await call(runner, 'read_many_files', { include: ['app/'], exclude: ['*.log'] })) as { files: string[]; skipped?: Array<{ file_path: string }> };
    expect(read.files).toEqual(['/workspace/app/main.ts']);
    expect(read.skipped?.map((s) => s.file_path)).toEqual(['/workspace/app/lib.zip']);
    const all = (await call(runner, 'read_many_files', { include: ['app/**'], useDefaultExcludes: false, file_filtering_options: { respect_git_ignore: false } })) as { files: string[] };
    expect(all.files).toContain('/workspace/app/node_modules/dep/i.js');
  });

  it('.geminiignore leaves files out of read_many_files unless respect_gemini_ignore is false', async () => {
    const { runner } = setup({ '.geminiignore': 'secret.txt\n', 'secret.txt': 's', 'open.txt': 'o' });
    expect(await call(runner, 'read_many_files', { include: ['*.txt'] })).toMatchObject({ files: ['/workspace/open.txt'] });
    expect(await call(runner, 'read_many_files', { include: ['*.txt'], file_filtering_options: { respect_gemini_ignore: false } })).toMatchObject({ files: ['/workspace/open.txt', '/workspace/secret.txt'] });
  });

  it('images and PDFs come back as inline data only when include names them by name or extension', async () => {
    const platform = createMemoryPlatform({ files: { 'doc/spec.pdf': PDF, 'doc/notes.md': 'n' } });
    await platform.fs.writeFile('/workspace/doc/logo.png', PNG);
    const runner = new ToolRunner({ platform, tools: toolProfiles.gemini() });
    const plain = (await call(runner, 'read_many_files', { include: ['doc/'] })) as { files: string[]; skipped: Array<{ reason: string }>; inline?: unknown };
    expect(plain.files).toEqual(['/workspace/doc/notes.md']);
    expect(plain.inline).toBeUndefined();
    expect(plain.skipped.map((s) => s.reason)).toEqual([expect.stringContaining('not explicitly requested'), expect.stringContaining('not explicitly requested')]);
    const asked = (await call(runner, 'read_many_files', { include: ['doc/*.pdf', 'doc/logo.png'] })) as { inline: Array<{ file_path: string; mime_type: string; data_base64: string }> };
    expect(asked.inline.map((f) => [f.file_path, f.mime_type])).toEqual([['/workspace/doc/logo.png', 'image/png'], ['/workspace/doc/spec.pdf', 'application/pdf']]);
    expect(asked.inline[1]!.data_base64).toBe(Buffer.from(PDF).toString('base64'));
  });

  it('an image a model would refuse (truncated, not valid, over 8000 px per side) is skipped with why, in read_many_files and read_file alike', async () => {
    const platform = createMemoryPlatform({ files: { 'img/cut.png': new Uint8Array([...PNG_SIGNATURE, 0, 0]), 'img/huge.png': png(100_000, 100_000), 'img/ok.png': PNG } });
    const runner = new ToolRunner({ platform, tools: toolProfiles.gemini() });
    const read = (await call(runner, 'read_many_files', { include: ['img/*.png'] })) as { files: string[]; inline: Array<{ file_path: string }>; skipped: Array<{ file_path: string; reason: string }> };
    expect(read.inline.map((f) => f.file_path)).toEqual(['/workspace/img/ok.png']);
    expect(read.skipped).toEqual([
      { file_path: '/workspace/img/cut.png', reason: expect.stringContaining('it is truncated: the file ends inside its IHDR header chunk (10 bytes)') },
      { file_path: '/workspace/img/huge.png', reason: expect.stringContaining('100000×100000 px is larger than the 8000 px per side models take') },
    ]);
    const one = await call(runner, 'read_file', { file_path: 'img/huge.png' });
    expect(one).not.toHaveProperty('data_base64');
    expect(one).toMatchObject({ binary: true, mime_type: 'image/png', note: expect.stringContaining('larger than the 8000 px per side') });
  });

  it('read_file returns a PDF as inline data (base64 with its MIME type)', async () => {
    const { runner } = setup({ 'r.pdf': PDF });
    expect(await call(runner, 'read_file', { file_path: 'r.pdf' })).toMatchObject({ binary: true, mime_type: 'application/pdf', data_base64: Buffer.from(PDF).toString('base64') });
  });

  it('an empty include is invalid_arguments with an example', async () => {
    const { runner } = setup();
    expect(await call(runner, 'read_many_files', { include: [] })).toMatchObject({ code: 'invalid_arguments' });
  });
});

describe('Gemini CLI behaviour: flexible deletion', () => {
  it('flexible match with an empty new_string removes the matched lines with their line breaks', async () => {
    const { platform, runner } = setup({ 'd.py': 'def f():\n    a = 1\n    b = 2\n    return a\n' });
    expect(await call(runner, 'replace', { file_path: 'd.py', instruction: 'drop b', old_string: 'b = 2 ', new_string: '' })).toMatchObject({ replacements: 1, strategy: 'flexible' });
    expect(await read(platform, 'd.py')).toBe('def f():\n    a = 1\n    return a\n');
    expect(await call(runner, 'replace', { file_path: 'd.py', instruction: 'drop a', old_string: '  a = 1\n  return a', new_string: '' })).toMatchObject({ strategy: 'flexible' });
    expect(await read(platform, 'd.py')).toBe('def f():\n');
  });
});
