import type { Tool } from '../core/tool.js';
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
    readonly CreateFile: Tool;
    /** `edit_file`. */
    readonly EditFile: Tool;
    /** `find_file`, read-only. */
    readonly FindFile: Tool;
    /** `list_dir`, read-only. */
    readonly ListDir: Tool;
    /** `run_command`. */
    readonly RunCommand: Tool;
    /** `search_dir`, read-only. */
    readonly SearchDir: Tool;
    /** `view_file`, read-only. */
    readonly ViewFile: Tool;
    /** `start_subagent`. */
    readonly StartSubagent: Tool;
    /** `generate_image`. */
    readonly GenerateImage: Tool;
    /** `finish`. */
    readonly Finish: Tool;
    /** `grep_search`, read-only. */
    readonly GrepSearch: Tool;
    /** `command_output`: the output of a `run_command` started with `run_in_background`. */
    readonly CommandOutput: Tool;
    /** `stop_command`: ends a background command. */
    readonly StopCommand: Tool;
    /** FindFile, ListDir, SearchDir, ViewFile, GrepSearch, in that order; a fresh array. */
    readOnly(): Tool[];
    /** All thirteen built-ins: the original eleven in their fixed order, then CommandOutput and StopCommand; a fresh array. */
    all(): Tool[];
}
/**
 * The built-in tools by PascalCase names (the Antigravity Rust SDK's built-in tool table), each with a
 * snake_case model-facing name. `readOnly()` gives FindFile, ListDir, SearchDir, ViewFile, GrepSearch;
 * `all()` gives all thirteen (both return fresh arrays). Register them with
 * `new ToolRunner({ tools: BuiltinTools.all() })`. Importing this module does no work.
 */
export declare const BuiltinTools: BuiltinToolSet;
export { commandOutputTool, stopCommandTool, createFileTool, editFileTool, findFileTool, finishTool, generateImageTool, grepSearchTool, listDirTool, runCommandTool, searchDirTool, startSubagentTool, viewFileTool };
