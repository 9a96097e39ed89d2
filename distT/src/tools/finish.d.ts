import { type Tool } from '../core/tool.js';
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
export declare const finishTool: Tool<{
    result?: string;
}, FinishResult>;
