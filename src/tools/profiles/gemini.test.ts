import { describe, expect, it } from 'vitest';
import { createMemoryPlatform } from '../../platform/memory.js';
import { ToolRunner, type ToolCallResult } from '../../runner.js';
import type { Platform } from '../../core/types.js';
import { toolProfiles } from './index.js';

const decode = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

function setup(files: Record<string, string> = {}): { platform: Platform; runner: ToolRunner } {
  const platform = createMemoryPlatform({ files });
  return { platform, runner: new ToolRunner({ platform, tools: toolProfiles.gemini() }) };
}

const FILES = {
  'src/a.ts': 'const x = 1;\nconst y = 2;\n// TODO one\nconst z = 3;\n// TODO two\n',
  'src/b.ts': 'export const TODO = true;\n',
  'docs/readme.md': '# todo list\n',
  '.gitignore': 'dist/\n',
  'dist/out.ts': '// TODO built\n',
};

describe('Gemini profile', () => {
  it('reads a part of a file with start_line and end_line', async () => {
    const { runner } = setup(FILES);
    expect(await runner.execute('read_file', { file_path: 'src/a.ts', start_line: 2, end_line: 3 })).toMatchObject({ content: 'const y = 2;\n// TODO one', start_line: 2, end_line: 3, total_lines: 5 });
  });

  it('writes a file, and replace needs allow_multiple for several occurrences', async () => {
    const { platform, runner } = setup({ 'f.txt': 'a a a\n' });
    await runner.execute('write_file', { file_path: 'new/g.txt', content: 'made\n' });
    expect(decode(await platform.fs.readFile('/workspace/new/g.txt'))).toBe('made\n');
    const [several] = (await runner.processToolCalls([{ name: 'replace', args: { file_path: 'f.txt', instruction: 'rename', old_string: 'a', new_string: 'b' } }])) as [ToolCallResult];
    expect(several).toMatchObject({ code: 'ambiguous_match' });
    expect(await runner.execute('replace', { file_path: 'f.txt', instruction: 'rename every a', old_string: 'a', new_string: 'b', allow_multiple: true })).toMatchObject({ replacements: 3 });
    expect(decode(await platform.fs.readFile('/workspace/f.txt'))).toBe('b b b\n');
  });

  it('globs with .gitignore respected unless respect_git_ignore is false, and lists a directory without ignored names', async () => {
    const { runner } = setup(FILES);
    // All files here were written just now, so glob lists them newest first; the set is what this case checks.
    const sorted = async (args: Record<string, unknown>): Promise<string[]> => [...((await runner.execute('glob', args)) as { files: string[] }).files].sort();
    expect(await sorted({ pattern: '**/*.ts' })).toEqual(['/workspace/src/a.ts', '/workspace/src/b.ts']);
    expect(await sorted({ pattern: '**/*.ts', respect_git_ignore: false })).toEqual(['/workspace/dist/out.ts', '/workspace/src/a.ts', '/workspace/src/b.ts']);
    const listed = (await runner.execute('list_directory', { dir_path: '.', ignore: ['dist', '*.md', '.*'] })) as { entries: Array<{ name: string }> };
    expect(listed.entries.map((e) => e.name)).toEqual(['docs', 'src']);
  });

  it('greps with ripgrep-style parameters: case-insensitive by default, include, names_only, before/after, per-file caps', async () => {
    const { runner } = setup(FILES);
    const names = await runner.execute('grep_search', { pattern: 'todo', names_only: true });
    expect(names).toMatchObject({ files: ['/workspace/docs/readme.md', '/workspace/src/a.ts', '/workspace/src/b.ts'] });
    const strict = (await runner.execute('grep_search', { pattern: 'TODO', case_sensitive: true, include: '*.ts', max_matches_per_file: 1 })) as { matches: Array<{ file_path: string; line_number: number }> };
    expect(strict.matches.map((m) => `${m.file_path}:${m.line_number}`)).toEqual(['/workspace/src/a.ts:3', '/workspace/src/b.ts:1']);
    const around = (await runner.execute('grep_search', { pattern: 'TODO one', dir_path: 'src', before: 1, after: 2 })) as { matches: Array<{ before: string[]; after: string[] }> };
    expect(around.matches[0]).toMatchObject({ before: ['const y = 2;'], after: ['const z = 3;', '// TODO two'] });
    const alias = await runner.execute('search_file_content', { pattern: 'todo', names_only: true, include_pattern: '*.md' });
    expect(alias).toMatchObject({ files: ['/workspace/docs/readme.md'] });
  });

  it('runs no shell on the memory platform and refuses background commands', async () => {
    const { runner } = setup();
    expect(await runner.execute('run_shell_command', { command: 'ls', description: 'list' })).toMatchObject({ stdout: '', note: 'run_shell_command is not available on the memory platform' });
    const [background] = (await runner.processToolCalls([{ name: 'run_shell_command', args: { command: 'sleep 9', is_background: true } }])) as [ToolCallResult];
    expect(background).toMatchObject({ code: 'invalid_arguments' });
  });

  it('searches the web through the platform, with a note where it cannot', async () => {
    const { runner } = setup();
    expect(await runner.execute('google_web_search', { query: 'toolhost' })).toEqual({ results: [], note: 'Search is not available on the memory platform' });
  });
});

describe('toolProfiles', () => {
  it('pins the profiles\' own model-facing declarations (the built-ins are pinned with the built-ins)', async () => {
    const declarations: Record<string, unknown> = Object.fromEntries(
      (['anthropic', 'openai', 'gemini'] as const).map((name) => [name, new ToolRunner({ tools: toolProfiles.byName(name) }).declarations()]),
    );
    declarations.toolhost_web_fetch = new ToolRunner({ tools: toolProfiles.toolhost() }).declarations().filter((d) => d.name === 'web_fetch');
    await expect(JSON.stringify(declarations, null, 2) + '\n').toMatchFileSnapshot('./__snapshots__/profile-declarations.json');
  });

  it('combines profiles whose names do not collide, and names the tool and both profiles when they do', () => {
    expect(toolProfiles.combine(toolProfiles.anthropic(), toolProfiles.openai(), toolProfiles.toolhost()).map((t) => t.name)).toEqual([
      'str_replace_based_edit_tool', 'bash', 'apply_patch', 'shell',
      ...toolProfiles.toolhost().map((t) => t.name),
    ]);
    expect(() => toolProfiles.combine(toolProfiles.toolhost(), toolProfiles.gemini())).toThrow(
      'tool name collision: grep_search is in both toolhost and gemini with different definitions; one runner cannot host both. Leave one profile out, or drop one of the two tools from its list',
    );
    expect(toolProfiles.combine(toolProfiles.toolhost(), toolProfiles.toolhost())).toHaveLength(toolProfiles.toolhost().length);
  });

  it('shares plan mode and permissions with the built-ins: writing profile tools are refused, reading ones run', async () => {
    const runner = new ToolRunner({ platform: createMemoryPlatform({ files: { 'a.txt': 'a\n' } }), tools: toolProfiles.gemini(), planMode: true });
    const [read, write] = (await runner.processToolCalls([
      { name: 'read_file', args: { file_path: 'a.txt' } },
      { name: 'write_file', args: { file_path: 'a.txt', content: 'b\n' } },
    ])) as [ToolCallResult, ToolCallResult];
    expect(read).toMatchObject({ result: { content: 'a' } });
    expect(write).toMatchObject({ code: 'permission_denied' });
  });
});
