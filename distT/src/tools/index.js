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
/**
 * The built-in tools by PascalCase names (the Antigravity Rust SDK's built-in tool table), each with a
 * snake_case model-facing name. `readOnly()` gives FindFile, ListDir, SearchDir, ViewFile, GrepSearch;
 * `all()` gives all thirteen (both return fresh arrays). Register them with
 * `new ToolRunner({ tools: BuiltinTools.all() })`. Importing this module does no work.
 */
export const BuiltinTools = {
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
    readOnly() {
        return [findFileTool, listDirTool, searchDirTool, viewFileTool, grepSearchTool];
    },
    all() {
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
//# sourceMappingURL=index.js.map