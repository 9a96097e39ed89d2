import { type Tool } from '../core/tool.js';
import type { JsonValue } from '../core/types.js';
/** Output of `start_subagent`: the host's answer, or `null` with a `note` when there is no subagent host. */
export interface StartSubagentResult {
    result: JsonValue;
    note?: string;
}
/**
 * The built-in `start_subagent` tool.
 *
 * Args `{ task, tools? }` are handed, with the call's `conversationId`, to the host's `startSubagent` hook
 * (a {@link ToolRunner} option, reaching the tool as `ctx.hooks.startSubagent`); its JSON answer comes back
 * as `{ result }`. Without a hook: `{ result: null, note: 'no subagent host: ...' }`, a success.
 * Errors: `invalid_arguments` for an empty task; a throwing hook becomes `execution_failed` with its
 * message; `cancelled` / `timeout` from the runner. Not read-only (a subagent may change the workspace).
 */
export declare const startSubagentTool: Tool<{
    task: string;
    tools?: string[];
}, StartSubagentResult>;
