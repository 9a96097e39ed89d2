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

/** The shape of {@link BuiltinTools}: every built-in by its PascalCase name, plus the two list helpers. */
export interface BuiltinToolSet {
  /** `create_file`. */
  readonly CreateFile: ExecuteTool;
  /** `edit_file`. */
  readonly EditFile: ExecuteTool;
  /** `find_file`, read-only. */
  readonly FindFile: ExecuteTool;
  /** `list_dir`, read-only. */
  readonly ListDir: ExecuteTool;
  /** `run_command`. */
  readonly RunCommand: ExecuteTool;
  /** `search_dir`, read-only. */
  readonly SearchDir: ExecuteTool;
  /** `view_file`, read-only. */
  readonly ViewFile: ExecuteTool;
  /** `start_subagent`. */
  readonly StartSubagent: ExecuteTool;
  /** `generate_image`. */
  readonly GenerateImage: ExecuteTool;
  /** `finish`. */
  readonly Finish: ExecuteTool;
  /** `grep_search`, read-only. */
  readonly GrepSearch: ExecuteTool;
  /** `command_output`: the output of a `run_command` started with `run_in_background`. */
  readonly CommandOutput: ExecuteTool;
  /** `stop_command`: ends a background command. */
  readonly StopCommand: ExecuteTool;
  /** FindFile, ListDir, SearchDir, ViewFile, GrepSearch, in that order; a fresh array. */
  readOnly(): ExecuteTool[];
  /** All thirteen built-ins: the original eleven in their fixed order, then CommandOutput and StopCommand; a fresh array. */
  all(): ExecuteTool[];
}

/**
 * The built-in tools by PascalCase names (the Antigravity Rust SDK's built-in tool table), each with a
 * snake_case model-facing name. `readOnly()` gives FindFile, ListDir, SearchDir, ViewFile, GrepSearch;
 * `all()` gives all thirteen (both return fresh arrays). Register them with
 * `new ToolRunner({ tools: BuiltinTools.all() })`. Importing this module does no work.
 */
export const BuiltinTools: BuiltinToolSet = {
  CreateFile: createFileTool,
  EditFile: editFileTool,
  FindFile: findFileTool,
  ListDir: listDirTool,
  RunCommand: runCommandTool,
  SearchDir: searchDirTool,
  ViewFile: viewFileTool,
  StartSubagent: startSubagentTool,
  GenerateImage: generateImageTool,
  Finish: finishTool,
  GrepSearch: grepSearchTool,
  CommandOutput: commandOutputTool,
  StopCommand: stopCommandTool,
  readOnly(): ExecuteTool[] {
    return [findFileTool, listDirTool, searchDirTool, viewFileTool, grepSearchTool];
  },
  all(): ExecuteTool[] {
    return [
      createFileTool,
      editFileTool,
      findFileTool,
      listDirTool,
      runCommandTool,
      searchDirTool,
      viewFileTool,
      startSubagentTool,
      generateImageTool,
      finishTool,
      grepSearchTool,
      commandOutputTool,
      stopCommandTool,
    ];
  },
};

export { commandOutputTool, stopCommandTool, createFileTool, editFileTool, findFileTool, finishTool, generateImageTool, grepSearchTool, listDirTool, runCommandTool, searchDirTool, startSubagentTool, viewFileTool };
