import { appendFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createMemoryPlatform } from '../../platform/memory.js';
import { ToolRunner, type ToolCallResult } from '../../runner.js';
import type { ExecuteTool } from '../../core/tool.js';
import type { Platform } from '../../core/types.js';
import { BuiltinTools } from '../index.js';
import { webFetchTool } from '../web-fetch.js';
import { webSearchFallbackTool } from '../web-search.js';
import { writeOutside } from '../../../test/support/outside.js';
import { toolProfiles } from './index.js';
import { ANTHROPIC_VOCABULARY, GEMINI_VOCABULARY, OPENAI_VOCABULARY, speak } from './vocabulary.js';

type Profile = 'anthropic' | 'gemini' | 'openai';
const TOOL_A = 'str_replace_based_edit_tool';

/** One way to drive a profile tool into one failure or note: what it shows, the files, the call, and what must come back. */
interface Drive {
  what: string;
  tool: string;
  args: Record<string, unknown>;
  /** An error code; 'note' for a result whose note (or, for a text result, whose text) is checked; 'result' for a result that may have no note. */
  expect: string;
  files?: Record<string, string | Uint8Array>;
  /** Calls made first (a read that a later write must respect); their outcome is not checked. */
  before?: Array<{ tool: string; args: Record<string, unknown> }>;
  /** A change made by someone else between `before` and the call. */
  meanwhile?: Record<string, string>;
}

const many = (n: number, prefix: string): Record<string, string> => Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}${String(i).padStart(4, '0')}.txt`, 'x\n']));
const LONG_FILE = 'line\n'.repeat(2100);
const LONG_LINE = `${'y'.repeat(2500)}\n`;
const BINARY = new Uint8Array([0x89, 0x50, 0x00, 0x01, 0xff]);
const FILES = { 'a.txt': 'alpha\nbeta\ngamma\n', 'dup.txt': 'same\nsame\n', 'dir/inner.txt': 'inside\n', 'bin.dat': BINARY, 'long.txt': LONG_FILE, 'wide.txt': LONG_LINE };

const HUGE = { 'huge.txt': 'z'.repeat(33 * 1024 * 1024) };
/** Content over the 32 MiB the editors edit, for a tool that writes a whole file. */
const HUGE_TEXT = 'z'.repeat(33 * 1024 * 1024);
/** A file one byte under the 32 MiB the editors edit, and text that takes it 1 MiB over. */
const NEAR = { 'near.txt': `a\n${'z'.repeat(32 * 1024 * 1024 - 3)}` };
const GROWTH = 'b'.repeat(1024 * 1024);

const E = (tool: string, args: Record<string, unknown>, expect: string, what: string, extra: Partial<Drive> = {}): Drive => ({ what, tool, args, expect, ...extra });

/** Every failure and note each profile tool can give, by profile. */
const DRIVES: Record<Profile, Drive[]> = {
  anthropic: [
    ...(['view', 'str_replace', 'insert', 'create'] as const).flatMap((command) => [
      E('str_replace_based_edit_tool', { command, path: '/etc/passwd', file_text: 'x', old_str: 'a', new_str: 'b', insert_line: 0, insert_text: 'x' }, 'outside_workspace', `${command}: absolute path outside the workspace`),
      E('str_replace_based_edit_tool', { command, path: '../up.txt', file_text: 'x', old_str: 'a', new_str: 'b', insert_line: 0, insert_text: 'x' }, 'outside_workspace', `${command}: relative path leaving the workspace`),
      E('str_replace_based_edit_tool', { command, path: '', file_text: 'x', old_str: 'a', insert_line: 0, insert_text: 'x' }, 'invalid_arguments', `${command}: empty path`),
      E('str_replace_based_edit_tool', { command, path: 'dir', file_text: 'x', old_str: 'a', new_str: command === 'insert' ? 'x' : 'b', insert_line: 0, insert_text: 'x', ...(command === 'view' ? { view_range: [1, 2] } : {}) }, command === 'view' ? 'invalid_arguments' : 'is_a_directory', `${command}: a directory given for a file`),
      E('str_replace_based_edit_tool', { command, path: 'a.txt/', file_text: 'x', old_str: 'a', new_str: 'b', insert_line: 0, insert_text: 'x' }, 'invalid_arguments', `${command}: a file path ending in a slash`),
    ]),
    ...(['view', 'str_replace', 'insert'] as const).flatMap((command) => [
      E('str_replace_based_edit_tool', { command, path: 'missing.txt', old_str: 'a', insert_line: 0, insert_text: 'x' }, 'not_found', `${command}: missing file`),
      E('str_replace_based_edit_tool', { command, path: 'bin.dat', old_str: 'a', insert_line: 0, insert_text: 'x' }, 'binary_file', `${command}: binary file`),
    ]),
    E('str_replace_based_edit_tool', { command: 'view', path: 'a.txt', view_range: [9, 10] }, 'invalid_arguments', 'view: view_range starting past the end'),
    E('str_replace_based_edit_tool', { command: 'view', path: 'a.txt', view_range: [2, 1] }, 'invalid_arguments', 'view: view_range ending before it starts'),
    E('str_replace_based_edit_tool', { command: 'insert', path: 'a.txt', insert_line: 0, insert_text: 'x', new_str: 'y' }, 'invalid_arguments', 'insert: insert_text and new_str with different texts'),
    E('str_replace_based_edit_tool', { command: 'view', path: 'a.txt', view_range: [1, 9] }, 'invalid_arguments', 'view: view_range ending past the end'),
    E('str_replace_based_edit_tool', { command: 'view', path: 'a.txt', view_range: [1] }, 'invalid_arguments', 'view: view_range of one number'),
    E('str_replace_based_edit_tool', { command: 'view', path: 'a.txt', extra: 1 }, 'invalid_arguments', 'view: an unknown argument'),
    E('str_replace_based_edit_tool', { command: 'undo_edit', path: 'a.txt' }, 'invalid_arguments', 'a command the tool does not have'),
    E('str_replace_based_edit_tool', { command: 'create', path: 'a.txt', file_text: 'new' }, 'already_exists', 'create: over an existing file'),
    E('str_replace_based_edit_tool', { command: 'create', path: 'n.txt' }, 'invalid_arguments', 'create: without file_text'),
    E('str_replace_based_edit_tool', { command: 'create', path: 'n.txt', file_text: '\ud800' }, 'invalid_arguments', 'create: half a surrogate pair'),
    E('str_replace_based_edit_tool', { command: 'str_replace', path: 'a.txt' }, 'invalid_arguments', 'str_replace: without old_str'),
    E('str_replace_based_edit_tool', { command: 'str_replace', path: 'a.txt', old_str: '' }, 'invalid_arguments', 'str_replace: empty old_str'),
    E('str_replace_based_edit_tool', { command: 'str_replace', path: 'a.txt', old_str: 'alpha', new_str: 'alpha' }, 'no_change', 'str_replace: the same text'),
    E('str_replace_based_edit_tool', { command: 'str_replace', path: 'a.txt', old_str: 'delta' }, 'no_match', 'str_replace: no match (no close line)'),
    E('str_replace_based_edit_tool', { command: 'str_replace', path: 'a.txt', old_str: 'betta' }, 'no_match', 'str_replace: no match (a close line)'),
    E('str_replace_based_edit_tool', { command: 'str_replace', path: 'a.txt', old_str: ' beta' }, 'no_match', 'str_replace: no match (whitespace)'),
    E('str_replace_based_edit_tool', { command: 'str_replace', path: 'dup.txt', old_str: 'same' }, 'ambiguous_match', 'str_replace: several matches'),
    E('str_replace_based_edit_tool', { command: 'str_replace', path: 'a.txt', old_str: 'a', new_str: '\udc00' }, 'invalid_arguments', 'str_replace: half a surrogate pair'),
    E('str_replace_based_edit_tool', { command: 'insert', path: 'a.txt', insert_text: 'x' }, 'invalid_arguments', 'insert: without insert_line'),
    E('str_replace_based_edit_tool', { command: 'insert', path: 'a.txt', insert_line: 1 }, 'invalid_arguments', 'insert: without the text'),
    E('str_replace_based_edit_tool', { command: 'insert', path: 'a.txt', insert_line: 9, insert_text: 'x' }, 'invalid_arguments', 'insert: insert_line past the end'),
    E('str_replace_based_edit_tool', { command: 'insert', path: 'a.txt', insert_line: -1, insert_text: 'x' }, 'invalid_arguments', 'insert: negative insert_line'),
    E('str_replace_based_edit_tool', { command: 'str_replace', path: 'huge.txt', old_str: 'a' }, 'too_large', 'str_replace: a file over the size limit', { files: HUGE }),
    E('str_replace_based_edit_tool', { command: 'view', path: 'huge.txt' }, 'too_large', 'view: a file over the size limit', { files: HUGE }),
    E('str_replace_based_edit_tool', { command: 'create', path: 'big.txt', file_text: HUGE_TEXT }, 'too_large', 'create: content over the size limit'),
    E('str_replace_based_edit_tool', { command: 'str_replace', path: 'near.txt', old_str: 'a', new_str: GROWTH }, 'too_large', 'str_replace: an edit taking a file over the size limit', { files: NEAR }),
    E('str_replace_based_edit_tool', { command: 'insert', path: 'near.txt', insert_line: 1, insert_text: GROWTH }, 'too_large', 'insert: text taking a file over the size limit', { files: NEAR }),
    E('bash', {}, 'note', 'bash: neither command nor restart, where there is no shell'),
    E('bash', { command: 'ls' }, 'note', 'bash: no shell on the platform'),
    E('bash', { command: 3 }, 'invalid_arguments', 'bash: a number for command'),
  ],
  gemini: [
    E('read_file', { file_path: 'missing.txt' }, 'not_found', 'read_file: missing file'),
    E('read_file', { file_path: 'dir' }, 'is_a_directory', 'read_file: a directory'),
    E('read_file', { file_path: '/etc/passwd' }, 'outside_workspace', 'read_file: outside the workspace'),
    E('read_file', { file_path: '' }, 'invalid_arguments', 'read_file: empty path'),
    E('read_file', { file_path: 'a.txt/' }, 'invalid_arguments', 'read_file: a file path ending in a slash'),
    E('read_file', { file_path: 'a.txt', start_line: 9 }, 'invalid_arguments', 'read_file: start_line past the end'),
    E('read_file', { file_path: 'a.txt', start_line: 3, end_line: 2 }, 'invalid_arguments', 'read_file: end_line before start_line'),
    E('read_file', { file_path: 'a.txt', start_line: 0 }, 'invalid_arguments', 'read_file: start_line below 1'),
    E('read_file', {}, 'invalid_arguments', 'read_file: without file_path'),
    E('read_file', { absolute_path: '/workspace/a.txt', offset: 2 }, 'invalid_arguments', 'read_file: arguments of an older read_file'),
    E('read_file', { file_path: 3 }, 'invalid_arguments', 'read_file: a number for file_path'),
    E('read_file', { file_path: 'long.txt' }, 'note', 'read_file: paging note'),
    E('read_file', { file_path: 'wide.txt' }, 'note', 'read_file: long-line note'),
    E('read_file', { file_path: 'bin.dat' }, 'result', 'read_file: binary file'),
    E('write_file', { file_path: 'dir', content: 'x' }, 'is_a_directory', 'write_file: a directory'),
    E('write_file', { file_path: 'new/', content: 'x' }, 'invalid_arguments', 'write_file: a path ending in a slash'),
    E('write_file', { file_path: 'new/.', content: 'x' }, 'invalid_arguments', 'write_file: a path ending in a dot'),
    E('write_file', { file_path: '../x.txt', content: 'x' }, 'outside_workspace', 'write_file: outside the workspace'),
    E('write_file', { file_path: '.', content: 'x' }, 'invalid_arguments', 'write_file: the workspace root'),
    E('write_file', { file_path: 'a.txt', content: '\ud800' }, 'invalid_arguments', 'write_file: half a surrogate pair'),
    E('write_file', { file_path: 'a.txt', content: 'mine' }, 'stale_file', 'write_file: a file changed since it was read', {
      before: [{ tool: 'read_file', args: { file_path: 'a.txt' } }],
      meanwhile: { 'a.txt': 'theirs\n' },
    }),
    E('write_file', { file_path: 'a.txt/b.txt', content: 'x' }, 'not_a_directory', 'write_file: a file used as a folder'),
    E('write_file', { file_path: 'big.txt', content: HUGE_TEXT }, 'too_large', 'write_file: content over the size limit'),
    E('replace', { file_path: 'missing.txt', old_string: 'a', new_string: 'b' }, 'not_found', 'replace: missing file'),
    E('replace', { file_path: 'big.txt', old_string: '', new_string: HUGE_TEXT }, 'too_large', 'replace: a new file over the size limit'),
    E('replace', { file_path: 'near.txt', old_string: 'a', new_string: GROWTH }, 'too_large', 'replace: an edit taking a file over the size limit', { files: NEAR }),
    E('replace', { file_path: 'dir', old_string: 'a', new_string: 'b' }, 'is_a_directory', 'replace: a directory'),
    E('replace', { file_path: 'bin.dat', old_string: 'a', new_string: 'b' }, 'binary_file', 'replace: binary file'),
    E('replace', { file_path: 'a.txt', old_string: 'delta', new_string: 'b' }, 'no_match', 'replace: no match (no close line)'),
    E('replace', { file_path: 'a.txt', old_string: 'betta', new_string: 'b' }, 'no_match', 'replace: no match (a close line)'),
    E('replace', { file_path: 'a.txt', old_string: '  ', new_string: 'b' }, 'no_match', 'replace: whitespace only'),
    E('replace', { file_path: 'dup.txt', old_string: 'same', new_string: 'b' }, 'ambiguous_match', 'replace: several matches'),
    E('replace', { file_path: 'a.txt', old_string: 'alpha', new_string: 'alpha' }, 'no_change', 'replace: the same text'),
    E('replace', { file_path: 'a.txt', old_string: '', new_string: 'x' }, 'invalid_arguments', 'replace: empty old_string on an existing file'),
    E('replace', { file_path: 'huge.txt', old_string: 'a', new_string: 'b' }, 'too_large', 'replace: a file over the size limit', { files: HUGE }),
    E('replace', { file_path: 'x/', old_string: 'a', new_string: 'b' }, 'invalid_arguments', 'replace: a path ending in a slash'),
    E('replace', { file_path: '/etc/passwd', old_string: 'a', new_string: 'b' }, 'outside_workspace', 'replace: outside the workspace'),
    E('replace', { file_path: 'a.txt', old_string: '\ud800', new_string: 'b' }, 'invalid_arguments', 'replace: half a surrogate pair'),
    E('glob', { pattern: '*.txt', dir_path: 'nowhere' }, 'not_found', 'glob: missing dir_path'),
    E('glob', { pattern: '*.txt', dir_path: 'a.txt' }, 'not_a_directory', 'glob: dir_path a file'),
    E('glob', { pattern: '[' }, 'invalid_pattern', 'glob: bad pattern'),
    E('glob', { pattern: '*.txt', dir_path: '/etc' }, 'outside_workspace', 'glob: outside the workspace'),
    E('glob', { pattern: 'many/*.txt' }, 'note', 'glob: more paths than it shows', { files: many(520, 'many/f') }),
    E('list_directory', { dir_path: 'nowhere' }, 'not_found', 'list_directory: missing directory'),
    E('list_directory', { dir_path: 'a.txt' }, 'not_a_directory', 'list_directory: a file'),
    E('list_directory', { dir_path: '/etc' }, 'outside_workspace', 'list_directory: outside the workspace'),
    E('list_directory', { dir_path: '.', ignore: ['['] }, 'invalid_pattern', 'list_directory: bad ignore glob'),
    E('list_directory', { dir_path: 'many' }, 'note', 'list_directory: more entries than it shows', { files: many(1010, 'many/f') }),
    ...(['grep_search', 'search_file_content'] as const).flatMap((tool) => [
      E(tool, { pattern: '(' }, 'invalid_pattern', `${tool}: bad regular expression`),
      E(tool, { pattern: '(a|b)\\1' }, 'invalid_pattern', `${tool}: a backreference`),
      E(tool, { pattern: 'x', dir_path: 'nowhere' }, 'not_found', `${tool}: missing dir_path`),
      E(tool, { pattern: 'x', dir_path: '/etc' }, 'outside_workspace', `${tool}: outside the workspace`),
      E(tool, { pattern: 'x', include: '[' }, 'invalid_pattern', `${tool}: bad include glob`),
      E(tool, { pattern: 'x', exclude_pattern: '[' }, 'invalid_pattern', `${tool}: bad exclude_pattern`),
      E(tool, { pattern: 'x', include: '*.a', include_pattern: '*.b' }, 'invalid_arguments', `${tool}: include and include_pattern differ`),
      E(tool, { pattern: 'x' }, 'note', `${tool}: more matches than total_max_matches`, { files: many(120, 'm/f') }),
      E(tool, { pattern: 'x', total_max_matches: 3 }, 'note', `${tool}: a small total_max_matches`, { files: many(10, 'm/f') }),
      E(tool, { pattern: 'x', names_only: true, total_max_matches: 3 }, 'note', `${tool}: names_only over total_max_matches`, { files: many(10, 'm/f') }),
      E(tool, { pattern: 'y' }, 'result', `${tool}: a long matching line`),
    ]),
    E('read_many_files', { include: [] }, 'invalid_arguments', 'read_many_files: no include'),
    E('read_many_files', { include: ['*.txt'], exclude: ['['] }, 'invalid_pattern', 'read_many_files: bad exclude glob'),
    E('read_many_files', { include: ['huge.txt', 'bin.dat', 'a.txt'] }, 'result', 'read_many_files: files it skips, with the reason', { files: HUGE }),
    E('run_shell_command', { command: 'ls', is_background: true }, 'invalid_arguments', 'run_shell_command: in the background'),
    E('run_shell_command', { command: 'ls' }, 'note', 'run_shell_command: no shell on the platform'),
    E('run_shell_command', { command: '' }, 'invalid_arguments', 'run_shell_command: empty command'),
    E('google_web_search', { query: 'x' }, 'note', 'google_web_search: no web search on the platform'),
    E('web_fetch', { prompt: 'summarise' }, 'invalid_arguments', 'web_fetch: no URL'),
    E('web_fetch', { prompt: Array.from({ length: 21 }, (_, i) => `https://e.com/${i}`).join(' ') }, 'invalid_arguments', 'web_fetch: too many URLs'),
    E('web_fetch', { prompt: 'read http://127.0.0.1/x' }, 'note', 'web_fetch: a URL that fails'),
  ],
  openai: [
    E('apply_patch', {}, 'invalid_arguments', 'apply_patch: neither input nor operation'),
    E('apply_patch', { input: 'nonsense' }, 'invalid_arguments', 'apply_patch: no Begin Patch'),
    E('apply_patch', { input: '*** Begin Patch\n*** Update File: a.txt\n@@\n-delta\n+x\n*** End Patch' }, 'no_match', 'apply_patch: context not found'),
    E('apply_patch', { input: '*** Begin Patch\n*** Update File: missing.txt\n@@\n-a\n+b\n*** End Patch' }, 'not_found', 'apply_patch: missing file'),
    E('apply_patch', { input: '*** Begin Patch\n*** Delete File: missing.txt\n*** End Patch' }, 'not_found', 'apply_patch: deleting a missing file'),
    E('apply_patch', { input: '*** Begin Patch\n*** Update File: bin.dat\n@@\n-a\n+b\n*** End Patch' }, 'binary_file', 'apply_patch: binary file'),
    E('apply_patch', { input: '*** Begin Patch\n*** Update File: dir\n@@\n-a\n+b\n*** End Patch' }, 'is_a_directory', 'apply_patch: a directory'),
    E('apply_patch', { input: '*** Begin Patch\n*** Add File: ../x.txt\n+x\n*** End Patch' }, 'outside_workspace', 'apply_patch: a path leaving the workspace'),
    E('apply_patch', { input: '*** Begin Patch\n*** Update File: a.txt\n*** Move to: dir\n*** End Patch' }, 'is_a_directory', 'apply_patch: moving a file onto a directory'),
    E('apply_patch', { operation: { type: 'update_file', path: 'a.txt' } }, 'invalid_arguments', 'apply_patch: an operation without diff'),
    E('apply_patch', { operation: { type: 'update_file', path: 'a.txt', diff: '' } }, 'invalid_arguments', 'apply_patch: a diff without hunks'),
    E('apply_patch', { input: '*** Begin Patch\n*** Update File: a.txt\n@@\n-alpha\n+\ud800\n*** End Patch' }, 'invalid_arguments', 'apply_patch: half a surrogate pair'),
    E('apply_patch', { input: '*** Begin Patch\n*** Update File: huge.txt\n@@\n-a\n+b\n*** End Patch' }, 'too_large', 'apply_patch: a file over the size limit', { files: HUGE }),
    E('apply_patch', { input: `*** Begin Patch\n*** Add File: big.txt\n+${HUGE_TEXT}\n*** End Patch` }, 'too_large', 'apply_patch: an added file over the size limit'),
    E('apply_patch', { input: `*** Begin Patch\n*** Update File: near.txt\n@@\n-a\n+${GROWTH}\n*** End Patch` }, 'too_large', 'apply_patch: an update taking a file over the size limit', {
      files: NEAR,
    }),
    E('shell', { commands: ['ls'] }, 'note', 'shell: no shell on the platform'),
    E('shell', { commands: [] }, 'invalid_arguments', 'shell: no commands'),
    E('shell', { commands: 'ls' }, 'invalid_arguments', 'shell: a string for commands'),
  ],
};

/**
 * The error codes each profile tool answers for a bad call (its docstring's list), each of which the
 * drives above must reach. Left out: codes the runner gives in the tool's own name (`permission_denied`,
 * `cancelled`, `timeout`), and a text editor edit meeting a concurrent writer (`stale_file`, in
 * test/stale-edits.test.ts, which asserts its words).
 */
const CODES: Record<Profile, Record<string, string[]>> = {
  anthropic: {
    str_replace_based_edit_tool: ['outside_workspace', 'invalid_arguments', 'is_a_directory', 'not_found', 'binary_file', 'already_exists', 'no_change', 'no_match', 'ambiguous_match', 'too_large'],
    bash: [],
  },
  gemini: {
    read_file: ['not_found', 'is_a_directory', 'outside_workspace', 'invalid_arguments'],
    write_file: ['is_a_directory', 'invalid_arguments', 'outside_workspace', 'stale_file', 'not_a_directory', 'too_large'],
    replace: ['not_found', 'is_a_directory', 'binary_file', 'no_match', 'ambiguous_match', 'no_change', 'invalid_arguments', 'outside_workspace', 'too_large'],
    glob: ['not_found', 'not_a_directory', 'invalid_pattern', 'outside_workspace'],
    list_directory: ['not_found', 'not_a_directory', 'outside_workspace', 'invalid_pattern'],
    grep_search: ['invalid_pattern', 'not_found', 'outside_workspace', 'invalid_arguments'],
    search_file_content: ['invalid_pattern', 'not_found', 'outside_workspace', 'invalid_arguments'],
    run_shell_command: ['invalid_arguments'],
    read_many_files: ['invalid_arguments', 'invalid_pattern'],
    google_web_search: [],
    web_fetch: ['invalid_arguments'],
  },
  openai: {
    apply_patch: ['invalid_arguments', 'no_match', 'not_found', 'binary_file', 'is_a_directory', 'outside_workspace', 'too_large'],
    shell: ['invalid_arguments'],
  },
};

/** Names of every tool and parameter a profile or the built-ins declare: the words a message could borrow from another tool set. */
function declaredNames(tools: ExecuteTool[]): { tools: Set<string>; params: Set<string> } {
  const params = new Set<string>();
  for (const tool of tools) {
    const schema = tool.inputSchema as { properties?: Record<string, unknown> };
    for (const key of Object.keys(schema.properties ?? {})) params.add(key);
  }
  return { tools: new Set(tools.map((t) => t.name)), params };
}

const profileTools: Record<Profile, ExecuteTool[]> = { anthropic: toolProfiles.anthropic(), gemini: toolProfiles.gemini(), openai: toolProfiles.openai() };
const builtins = declaredNames([...BuiltinTools.all(), webFetchTool as ExecuteTool, webSearchFallbackTool as ExecuteTool]);
const everyName = new Set<string>([...builtins.tools, ...builtins.params]);
for (const tools of Object.values(profileTools)) {
  const names = declaredNames(tools);
  for (const name of [...names.tools, ...names.params]) everyName.add(name);
}

/**
 * The names in `text` that are another tool set's: a tool or parameter name (one with an underscore,
 * so that words such as "pattern" or "path" in a sentence do not count, plus `exclude`, and
 * `overwrite` used as a parameter) that the profile does not declare. Paths are left out.
 */
function foreignNames(profile: Profile, text: string): string[] {
  const own = declaredNames(profileTools[profile]);
  const words = text.replace(/\/[\w./-]*/g, ' ').match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? [];
  const foreign = words.filter((w) => everyName.has(w) && (w.includes('_') || w === 'exclude') && !own.tools.has(w) && !own.params.has(w));
  // `overwrite` is also an English verb: only its use as a parameter counts.
  if (!own.params.has('overwrite') && /\boverwrite (?:to|is|=|:) ?true\b|\bwith overwrite\b/.test(text)) foreign.push('overwrite');
  return [...new Set(foreign)];
}

async function drive(profile: Profile, d: Drive): Promise<{ platform: Platform; runner: ToolRunner; outcome: ToolCallResult }> {
  const platform = createMemoryPlatform({ files: { ...FILES, ...d.files } });
  const runner = new ToolRunner({ platform, tools: profileTools[profile] });
  for (const call of d.before ?? []) await runner.processToolCalls([{ name: call.tool, args: call.args }], { conversationId: 'c' });
  for (const [path, text] of Object.entries(d.meanwhile ?? {})) await platform.fs.writeFile(`/workspace/${path}`, new TextEncoder().encode(text));
  const [outcome] = (await runner.processToolCalls([{ name: d.tool, args: d.args }], { conversationId: 'c' })) as [ToolCallResult];
  return { platform, runner, outcome };
}

/** The text of a drive's outcome a model reads: the error, or the result's note (a text result whole). */
function spokenText(outcome: ToolCallResult): string {
  if ('error' in outcome) return outcome.error;
  const result = outcome.result as unknown;
  if (typeof result === 'string') return result;
  const record = result as { note?: unknown; results?: Array<{ error?: string; note?: string }>; skipped?: Array<{ reason?: string }> };
  const parts = [
    typeof record.note === 'string' ? record.note : '',
    ...(record.results ?? []).flatMap((r) => [r.error ?? '', r.note ?? '']),
    ...(record.skipped ?? []).map((r) => r.reason ?? ''),
  ];
  return parts.filter((p) => p !== '').join(' ');
}

describe('messages speak the profile language', () => {
  for (const profile of Object.keys(DRIVES) as Profile[]) {
    describe(profile, () => {
      it.each(DRIVES[profile].map((d) => [d.what, d] as const))('%s: names only the profile tools and parameters', async (_what, d) => {
        const { outcome } = await drive(profile, d);
        const text = spokenText(outcome);
        if (process.env.SHOW_MESSAGES) appendFileSync(process.env.SHOW_MESSAGES, `[${profile}] ${d.what} => ${'error' in outcome ? outcome.code : 'result'}: ${text.slice(0, 700)}\n`);
        if (d.expect === 'note' || d.expect === 'result') expect(outcome).toHaveProperty('result');
        else expect(outcome).toMatchObject({ code: d.expect });
        if (d.expect !== 'result') expect(text).not.toBe('');
        expect(foreignNames(profile, text)).toEqual([]);
      });
    });
  }

  it('drives every tool of every profile into each error code it answers', () => {
    for (const profile of Object.keys(DRIVES) as Profile[]) {
      expect(Object.keys(CODES[profile]).sort()).toEqual(profileTools[profile].map((t) => t.name).sort());
      for (const [tool, codes] of Object.entries(CODES[profile])) {
        const driven = new Set(DRIVES[profile].filter((d) => d.tool === tool).map((d) => d.expect));
        expect({ tool, missing: codes.filter((code) => !driven.has(code)) }).toEqual({ tool, missing: [] });
      }
    }
  });

  it('covers every tool of every profile', () => {
    for (const profile of Object.keys(DRIVES) as Profile[]) {
      const driven = new Set(DRIVES[profile].map((d) => d.tool));
      expect([...profileTools[profile].map((t) => t.name)].filter((name) => !driven.has(name))).toEqual([]);
    }
  });
});

describe('messages in the profile language, exactly', () => {
  const exact: Array<[Profile, string, string]> = [
    ['gemini', 'read_file: missing file', 'file_path "missing.txt" does not exist (/workspace/missing.txt); check the name with list_directory or glob'],
    ['gemini', 'read_file: paging note', 'Showing lines 1-2000 of 2100. To read more, call read_file with start_line 2001.'],
    ['gemini', 'read_file: long-line note', '1 line was longer than 2000 characters and cut (marked "… [N characters cut]"); use grep_search to find text inside them.'],
    [
      'gemini',
      'replace: several matches',
      'Expected 1 occurrence but found 2 for old_string in /workspace/dup.txt; nothing was changed. Add surrounding lines to old_string to make it unique, or set allow_multiple to true to replace every occurrence.\nThe matches:\nlines 1-1:\n1: same\n2: same\nlines 2-2:\n1: same\n2: same\n3: ',
    ],
    ['gemini', 'write_file: a file changed since it was read', '/workspace/a.txt has changed since you last viewed it; read it again with read_file, then retry so you do not overwrite those changes'],
    ['gemini', 'glob: more paths than it shows', 'Showing 500 of 520 paths (glob shows at most 500): narrow the pattern or dir_path.'],
    [
      'gemini',
      'grep_search: a small total_max_matches',
      'Showing 3 of 10 matching lines (total_max_matches is 3): raise total_max_matches (at most 2000), narrow the pattern, dir_path or include, or set names_only to list only the matching files.',
    ],
    ['gemini', 'grep_search: bad exclude_pattern', 'exclude_pattern [ is not a valid regular expression (ripgrep/RE2 syntax): missing ] to close a character class; fix exclude_pattern (put \\ before a special character to match it literally)'],
    ['anthropic', 'str_replace: no match (no close line)', 'No replacement was performed, old_str `delta` did not appear verbatim in /workspace/a.txt. No line resembles the first line of old_str; view the file to see its current content.'],
    ['anthropic', 'str_replace: the same text', 'old_str and new_str are the same, so the edit would change nothing; give the new text in new_str'],
    ['anthropic', 'str_replace: absolute path outside the workspace', 'path "/etc/passwd" is outside the workspace; use a path inside /workspace'],
    // Unknown arguments: the allowed ones said once.
    [
      'gemini',
      'read_file: arguments of an older read_file',
      'invalid arguments for read_file: missing required argument "file_path" (the path to the file to read); unknown arguments "absolute_path", "offset"; allowed: file_path, start_line, end_line',
    ],
    // A schema problem: the profile tool's own argument, what it is for in its own words, what was sent.
    ['gemini', 'read_file: a number for file_path', 'invalid arguments for read_file: file_path must be a string (the path to the file to read), not a number'],
    ['anthropic', 'bash: a number for command', 'invalid arguments for bash: command must be a string (the bash command to run), not a number'],
    // A file too large to edit: a next step with the profile's own tools, and no tool it lacks.
    [
      'anthropic',
      'str_replace: a file over the size limit',
      '/workspace/huge.txt is 33.0 MiB (34603008 bytes); str_replace edits files up to 32 MiB: change it with bash (sed, or a short script) where commands run, or split it into smaller files',
    ],
    [
      'gemini',
      'replace: a file over the size limit',
      '/workspace/huge.txt is 33.0 MiB (34603008 bytes); replace edits files up to 32 MiB: change it with run_shell_command (sed, or a short script) where commands run, or split it into smaller files',
    ],
    // Content over the size limit: no file the profile's editors could not change afterwards.
    [
      'anthropic',
      'create: content over the size limit',
      '/workspace/big.txt would be 33.0 MiB (34603008 bytes); create writes files up to 32 MiB, the largest str_replace can edit afterwards: split the content into smaller files, or write it with bash where commands run (a script that generates it, or appends it in parts); nothing was written',
    ],
    [
      'gemini',
      'write_file: content over the size limit',
      '/workspace/big.txt would be 33.0 MiB (34603008 bytes); write_file writes files up to 32 MiB, the largest replace can edit afterwards: split the content into smaller files, or write it with run_shell_command where commands run (a script that generates it, or appends it in parts); nothing was written',
    ],
    [
      'openai',
      'apply_patch: an added file over the size limit',
      '/workspace/big.txt would be 34603009 bytes; patches apply to files up to 33554432 bytes, so "*** Add File:" adds none larger: split the content into smaller files, or write it with shell where commands run (a script that generates it, or appends it in parts); nothing was changed',
    ],
    // An edit that would take a file over the size limit: refused, in the profile's own tools.
    [
      'gemini',
      'replace: a new file over the size limit',
      '/workspace/big.txt would be 33.0 MiB (34603008 bytes); replace creates files up to 32 MiB, the largest it can edit afterwards: split the content into smaller files, or write it with run_shell_command where commands run (a script that generates it, or appends it in parts); nothing was written',
    ],
    [
      'gemini',
      'replace: an edit taking a file over the size limit',
      '/workspace/near.txt would be 33.0 MiB (34603006 bytes) after the edit; replace edits files up to 32 MiB: make the change with run_shell_command (sed, or a short script) where commands run, or split the file into smaller files; nothing was written',
    ],
    [
      'anthropic',
      'str_replace: an edit taking a file over the size limit',
      '/workspace/near.txt would be 33.0 MiB (34603006 bytes) after the edit; str_replace edits files up to 32 MiB: make the change with bash (sed, or a short script) where commands run, or split the file into smaller files; nothing was written',
    ],
    [
      'anthropic',
      'insert: text taking a file over the size limit',
      '/workspace/near.txt would be 33.0 MiB (34603008 bytes) after the insert; insert edits files up to 32 MiB: make the change with bash (sed, or a short script) where commands run, or split the file into smaller files; nothing was written',
    ],
    [
      'openai',
      'apply_patch: an update taking a file over the size limit',
      '/workspace/near.txt would be 34603006 bytes after the patch; patches apply to files up to 33554432 bytes, so "*** Update File:" makes none larger: make the change with shell (sed, or a short script) where commands run, or split the file into smaller files; nothing was changed',
    ],
    [
      'openai',
      'apply_patch: a file over the size limit',
      '/workspace/huge.txt is 34603008 bytes; patches apply to files up to 33554432 bytes: change it with shell (sed, or a short script) where commands run, or split it into smaller files',
    ],
  ];
  it.each(exact)('%s %s', async (profile, what, message) => {
    const d = DRIVES[profile].find((x) => x.what === what) as Drive;
    expect(spokenText((await drive(profile, d)).outcome)).toBe(message);
  });
});

describe('an edit over the size limit writes nothing', () => {
  const refused: Array<[Profile, string]> = [
    ['anthropic', 'str_replace: an edit taking a file over the size limit'],
    ['anthropic', 'insert: text taking a file over the size limit'],
    ['gemini', 'replace: an edit taking a file over the size limit'],
    ['gemini', 'replace: a new file over the size limit'],
    ['openai', 'apply_patch: an update taking a file over the size limit'],
  ];
  it.each(refused)('%s %s: the files are as they were, and the journal has no turn', async (profile, what) => {
    const d = DRIVES[profile].find((x) => x.what === what) as Drive;
    const { platform, runner, outcome } = await drive(profile, d);
    expect(outcome).toMatchObject({ code: 'too_large' });
    // Compared as text: a deep equality of 32 MiB of bytes would take the test's whole heap.
    for (const [path, text] of Object.entries(d.files ?? {})) expect(new TextDecoder().decode(await platform.fs.readFile(`/workspace/${path}`)) === text).toBe(true);
    expect(await platform.fs.lstat('/workspace/big.txt').then(() => true, () => false)).toBe(false);
    expect((await runner.changes('c')).turns).toEqual([]);
  });
});

describe('a link out of the workspace: the hint names what the profile\'s own tools show', () => {
  const lead = (arg: string): string =>
    `${arg} "out/secret.txt" goes through /workspace/out, a symbolic link that leads outside the workspace, to /outside; ` +
    'links out of the workspace are not followed. Use a path inside /workspace that does not go through this link ';
  async function linked(profile: Profile): Promise<ToolRunner> {
    const platform = createMemoryPlatform({ files: FILES });
    await writeOutside(platform.fs, { '/outside/secret.txt': 'secret\n' });
    await platform.fs.symlink('/outside', '/workspace/out');
    return new ToolRunner({ platform, tools: profileTools[profile] });
  }

  it('anthropic: a directory view lists names only, so the hint is ls -l in bash', async () => {
    const runner = await linked('anthropic');
    const [outcome] = await runner.processToolCalls([{ name: TOOL_A, args: { command: 'view', path: 'out/secret.txt' } }]);
    expect(outcome).toMatchObject({ code: 'outside_workspace', error: `${lead('path')}(ls -l in bash shows each link as name -> target)` });
  });

  it('openai: plain ls prints no link types, so the hint is ls -l in shell, also for a patch given to shell', async () => {
    const runner = await linked('openai');
    const patch = '*** Begin Patch\n*** Update File: out/secret.txt\n@@\n-secret\n+open\n*** End Patch';
    const [outcome] = await runner.processToolCalls([{ name: 'apply_patch', args: { input: patch } }]);
    expect(outcome).toMatchObject({ code: 'outside_workspace', error: `${lead('patch path')}(ls -l in shell shows each link as name -> target)` });
    const [viaShell] = await runner.processToolCalls([{ name: 'shell', args: { command: ['apply_patch', patch] } }]);
    expect(viaShell).toMatchObject({
      result: { output: [{ stdout: '', stderr: `${lead('patch path')}(ls -l in shell shows each link as name -> target)\n`, outcome: { type: 'exit', exitCode: 1 } }] },
    });
  });

  it('gemini: list_directory does show links as type "symlink"', async () => {
    const runner = await linked('gemini');
    const [outcome] = await runner.processToolCalls([{ name: 'read_file', args: { file_path: 'out/secret.txt' } }]);
    expect(outcome).toMatchObject({ code: 'outside_workspace', error: `${lead('file_path')}(list_directory shows links as type "symlink")` });
    const [listing] = await runner.processToolCalls([{ name: 'list_directory', args: { dir_path: '.' } }]);
    expect((listing as { result: { entries: Array<{ name: string; type: string }> } }).result.entries).toContainEqual(expect.objectContaining({ name: 'out', type: 'symlink' }));
  });
});

describe('speak', () => {
  it('rewrites tool and parameter names but never a name inside a path or a longer identifier', () => {
    expect(speak(GEMINI_VOCABULARY, 'read_file', 'see /src/view_file.ts or my_view_file_x; use view_file')).toBe('see /src/view_file.ts or my_view_file_x; use read_file');
    expect(speak(ANTHROPIC_VOCABULARY, TOOL_A, 'file_path "x" is empty; old_string, new_string')).toBe('path "x" is empty; old_str, new_str');
  });

  it('drops advice about parameters the profile tools do not declare (a search time limit, another tool sharing a limit)', () => {
    expect(speak(GEMINI_VOCABULARY, 'grep_search', 'the search stopped at its time limit (5000 ms): narrow dir_path or include, use a simpler pattern, or raise max_time_ms.')).toBe(
      'the search stopped at its time limit (5000 ms): narrow dir_path or include, or use a simpler pattern.',
    );
    expect(speak(ANTHROPIC_VOCABULARY, TOOL_A, 'edit_file edits files up to 32 MiB: change it with run_command (sed)')).toBe('str_replace edits files up to 32 MiB: change it with bash (sed)');
  });

  it('leaves quoted text alone: a line of the file or the old text the model sent stays as it was', () => {
    expect(speak(GEMINI_VOCABULARY, 'replace', 'The closest line is 3: "view_file(file_path)"; view_file the lines around it')).toBe(
      'The closest line is 3: "view_file(file_path)"; read the lines around it with read_file',
    );
    expect(speak(ANTHROPIC_VOCABULARY, TOOL_A, 'old_str `old_string = edit_file()` did not appear; file_path')).toBe('old_str `old_string = edit_file()` did not appear; path');
  });

  it("applies a tool's own parameter names only to that tool", () => {
    expect(speak(GEMINI_VOCABULARY, 'replace', 'set replace_all to replace every occurrence')).toBe('set allow_multiple to replace every occurrence');
    expect(speak(GEMINI_VOCABULARY, 'grep_search', 'raise max_results (at most 2000)')).toBe('raise total_max_matches (at most 2000)');
    expect(speak(GEMINI_VOCABULARY, 'glob', 'Showing 5 of 9 paths (max_results is 5): narrow it.')).toBe('Showing 5 of 9 paths (glob shows at most 5): narrow it.');
  });

  it('turns advice about a tool the profile lacks into what the profile can do', () => {
    expect(speak(OPENAI_VOCABULARY, 'apply_patch', 'check the path with list_dir or find_file')).toBe('check the path with shell (ls) or shell (rg --files)');
    expect(speak(ANTHROPIC_VOCABULARY, TOOL_A, 'check the path with list_dir or find_file, or create the file with create_file (or edit_file with an empty old_string)')).toBe(
      'view the parent directory to check the name, or create the file with create',
    );
  });

  it('keeps the same wrapped tools across calls, so combining a profile with itself keeps one of each', () => {
    const twice = toolProfiles.combine(toolProfiles.gemini(), toolProfiles.gemini());
    expect(twice.map((t) => t.name)).toEqual(toolProfiles.gemini().map((t) => t.name));
    expect(toolProfiles.openai()[0]).toBe(toolProfiles.openai()[0]);
  });
});

