import { defineTool, type ExecuteTool } from '../core/tool.js';
import type { JsonValue } from '../core/types.js';

const inputSchema = {
  type: 'object',
  properties: {
    task: {
      type: 'string',
      minLength: 1,
      description: 'What the subagent should do, stated completely: it does not see this conversation.',
    },
    tools: {
      type: 'array',
      items: { type: 'string' },
      description: 'Names of the tools the subagent may use. Default: the host decides.',
    },
  },
  required: ['task'],
  additionalProperties: false,
} as const;

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
export const startSubagentTool: ExecuteTool<{ task: string; tools?: string[] }, StartSubagentResult> = defineTool({
  name: 'start_subagent',
  annotations: { title: 'Start subagent', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  description:
    'Start a subagent on a self-contained task and wait for its answer, returned as { result }. Describe the task ' +
    'completely: the subagent does not see this conversation. Optionally limit the tools it may use. Where the ' +
    'host runs no subagents, result is null and a note says so.',
  inputSchema,
  execute: async ({ task, tools }, ctx): Promise<StartSubagentResult> => {
    const start = ctx.hooks.startSubagent;
    if (!start) {
      return {
        result: null,
        note: 'no subagent host: this runner was built without a startSubagent hook, so no subagent ran; do the task yourself',
      };
    }
    const request: { task: string; tools?: string[]; conversationId: string } = { task, conversationId: ctx.conversationId };
    if (tools !== undefined) request.tools = tools;
    const result = await start(request);
    return { result: result === undefined ? null : result };
  },
});
