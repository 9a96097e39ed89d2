import type { BackgroundCommandOutput, RunCommandResult } from '../core/platform.js';
import type { CreateFileResult } from './create-file.js';
import type { EditFileResult } from './edit-file.js';
import type { FindFileResult } from './find-file.js';
import type { FinishResult } from './finish.js';
import type { GenerateImageResult } from './generate-image.js';
import type { GrepSearchResult } from './grep-search.js';
import type { ListDirResult } from './list-dir.js';
import type { CommandListResult, RunCommandBackgroundResult } from './run-command.js';
import type { SearchDirResult } from './search-dir.js';
import type { StartSubagentResult } from './start-subagent.js';
import type { ViewFileResult } from './view-file.js';

/**
 * What each built-in tool returns, by its model-facing name: `ToolResults['list_dir']` is the type of
 * `await runner.execute('list_dir', args)`. One map instead of a type name per tool.
 */
export interface ToolResults {
  view_file: ViewFileResult;
  create_file: CreateFileResult;
  edit_file: EditFileResult;
  find_file: FindFileResult;
  list_dir: ListDirResult;
  search_dir: SearchDirResult;
  grep_search: GrepSearchResult;
  /** A finished command, or `{ background_id, ... }` with `run_in_background: true`. */
  run_command: RunCommandResult | RunCommandBackgroundResult;
  /** One background command's output so far, or the list of them without `background_id`. */
  command_output: BackgroundCommandOutput | CommandListResult;
  stop_command: BackgroundCommandOutput;
  start_subagent: StartSubagentResult;
  generate_image: GenerateImageResult;
  finish: FinishResult;
}
