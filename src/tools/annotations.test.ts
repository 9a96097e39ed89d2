import { describe, expect, it } from 'vitest';
import { ToolRunner } from '../runner.js';
import type { ExecuteTool } from '../core/tool.js';
import { createFileTool } from './create-file.js';
import { editFileTool } from './edit-file.js';
import { findFileTool } from './find-file.js';
import { finishTool } from './finish.js';
import { generateImageTool } from './generate-image.js';
import { grepSearchTool } from './grep-search.js';
import { listDirTool } from './list-dir.js';
import { commandOutputTool, runCommandTool, stopCommandTool } from './run-command.js';
import { searchDirTool } from './search-dir.js';
import { startSubagentTool } from './start-subagent.js';
import { viewFileTool } from './view-file.js';
import { webFetchTool } from './web-fetch.js';
import { webSearchFallbackTool } from './web-search.js';
import { toolProfiles } from './profiles/index.js';

/** Every built-in of src/tools/*.ts. */
const ALL: ExecuteTool[] = [
  viewFileTool,
  findFileTool,
  listDirTool,
  searchDirTool,
  grepSearchTool,
  createFileTool,
  editFileTool,
  runCommandTool,
  commandOutputTool,
  stopCommandTool,
  startSubagentTool,
  generateImageTool,
  finishTool,
  webFetchTool,
  webSearchFallbackTool,
] as ExecuteTool[];

describe('built-in tool annotations', () => {
  it('declares MCP annotations on every built-in, readOnlyHint agreeing with readOnly (a change here is a reviewed change)', () => {
    const runner = new ToolRunner({ tools: ALL });
    const table = runner.tools().map((t) => [t.name, t.annotations]);
    expect(table).toEqual([
      ['view_file', { title: 'View file', readOnlyHint: true, openWorldHint: false }],
      ['find_file', { title: 'Find files', readOnlyHint: true, openWorldHint: false }],
      ['list_dir', { title: 'List directory', readOnlyHint: true, openWorldHint: false }],
      ['search_dir', { title: 'Search directory', readOnlyHint: true, openWorldHint: false }],
      ['grep_search', { title: 'Search file contents', readOnlyHint: true, openWorldHint: false }],
      // overwrite: true replaces a file; the same call twice leaves the same file.
      ['create_file', { title: 'Create file', readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false }],
      // new_string may contain old_string: the same edit twice can change the file twice.
      ['edit_file', { title: 'Edit file', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false }],
      ['run_command', { title: 'Run shell command', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true }],
      ['command_output', { title: 'Background command output', readOnlyHint: true, openWorldHint: false }],
      ['stop_command', { title: 'Stop background command', readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false }],
      ['start_subagent', { title: 'Start subagent', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true }],
      // It calls the host's image model and writes (or overwrites) image_name.
      ['generate_image', { title: 'Generate image', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true }],
      ['finish', { title: 'Finish', readOnlyHint: true, openWorldHint: false }],
      ['web_fetch', { title: 'Fetch web page', readOnlyHint: true, openWorldHint: true }],
      ['web_search', { title: 'Web search', readOnlyHint: true, openWorldHint: true }],
    ]);
    for (const tool of ALL) expect([tool.name, typeof tool.annotations?.readOnlyHint, 'readOnly' in tool]).toEqual([tool.name, 'boolean', false]);
  });

  it('declares them on every tool of every profile too', () => {
    const profiles = { anthropic: toolProfiles.anthropic(), openai: toolProfiles.openai(), gemini: toolProfiles.gemini() };
    const table = Object.entries(profiles).flatMap(([profile, tools]) =>
      new ToolRunner({ tools }).tools().map((t) => [profile, t.name, t.annotations.title, t.annotations.readOnlyHint, t.annotations.openWorldHint]),
    );
    expect(table).toEqual([
      ['anthropic', 'str_replace_based_edit_tool', 'View and edit files', false, false],
      ['anthropic', 'bash', 'Bash shell', false, true],
      ['openai', 'apply_patch', 'Apply patch', false, false],
      ['openai', 'shell', 'Shell', false, true],
      ['gemini', 'read_file', 'Read file', true, false],
      ['gemini', 'read_many_files', 'Read many files', true, false],
      ['gemini', 'write_file', 'Write file', false, false],
      ['gemini', 'replace', 'Replace text in a file', false, false],
      ['gemini', 'glob', 'Find files', true, false],
      ['gemini', 'list_directory', 'List directory', true, false],
      ['gemini', 'grep_search', 'Search file contents', true, false],
      ['gemini', 'run_shell_command', 'Run shell command', false, true],
      ['gemini', 'google_web_search', 'Web search', true, true],
      ['gemini', 'web_fetch', 'Fetch web pages', true, true],
      ['gemini', 'search_file_content', 'Search file contents', true, false],
    ]);
    for (const tool of Object.values(profiles).flat()) expect([tool.name, typeof tool.annotations?.readOnlyHint, 'readOnly' in tool]).toEqual([tool.name, 'boolean', false]);
  });
});
