import { defineTool, type ExecuteTool } from '../core/tool.js';

const inputSchema = {
  type: 'object',
  properties: {
    result: {
      type: 'string',
      description: 'A short summary of what was done, or the final answer.',
    },
  },
  additionalProperties: false,
} as const;

/** What `finish` returns. */
export interface FinishResult {
  finished: true;
}

/**
 * The built-in `finish` tool: marks the conversation finished.
 *
 * Args `{ result? }` → `{ finished: true }`. Calls the host's `onFinish` hook (the {@link ToolRunner}
 * option, reaching the tool as `ctx.hooks.onFinish`) with `{ conversationId, result? }`; without a hook it
 * only returns. A throwing hook becomes `execution_failed`. It changes no file, so it is read-only (plan
 * mode allows it), but not concurrency-safe: it runs after every earlier call of the batch has ended.
 */
export const finishTool: ExecuteTool<{ result?: string }, FinishResult> = defineTool({
  name: 'finish',
  annotations: { title: 'Finish', readOnlyHint: true, openWorldHint: false },
  description:
    'Signal that the task is complete. Call it once, last, with an optional short summary or final answer as result.',
  inputSchema,
  concurrencySafe: false,
  execute: async ({ result }, ctx): Promise<FinishResult> => {
    const onFinish = ctx.hooks.onFinish;
    if (onFinish) {
      const event: { conversationId: string; result?: string } = { conversationId: ctx.conversationId };
      if (result !== undefined) event.result = result;
      await onFinish(event);
    }
    return { finished: true };
  },
});
