// Test page: a web platform (IndexedDB workspace) and a ToolRunner in the page itself, whose change
// journal keeps its turns in the workspace's journal database; exposed as `window.tj` for
// Playwright's page.evaluate, so a test can reload the page and find the journal again.
import { ToolRunner, type CallOptions, type ToolCall, type ToolCallResult } from '../../src/runner.js';
import type { ConversationChanges, RewindOptions, RewindResult } from '../../src/core/journal-port.js';
import { BuiltinTools } from '../../src/tools/index.js';
import { createWebPlatform, deleteWorkspace, type WebPlatform } from '../../web/index.js';

let platform: WebPlatform | undefined;
let runner: ToolRunner | undefined;

const tj = {
  /** Opens workspace `workspace` (IndexedDB) with a runner of the built-in tools; answers whether the platform offers a journal store. */
  async start(workspace: string, backend: 'indexeddb' | 'memory' = 'indexeddb'): Promise<boolean> {
    platform = createWebPlatform({ workspace, backend });
    runner = new ToolRunner({ platform, tools: BuiltinTools.all() });
    await platform.ready();
    return typeof platform.journalStore === 'function';
  },
  call(calls: ToolCall[], options?: CallOptions): Promise<ToolCallResult[]> {
    return (runner as ToolRunner).processToolCalls(calls, options);
  },
  changes(conversationId?: string): Promise<ConversationChanges> {
    return (runner as ToolRunner).changes(conversationId);
  },
  rewind(conversationId: string, options: RewindOptions): Promise<RewindResult> {
    return (runner as ToolRunner).rewind(conversationId, options);
  },
  /** Deletes `workspace` (deleteWorkspace); answers the names of the databases left. */
  async remove(workspace: string): Promise<string[]> {
    await deleteWorkspace(workspace);
    return (await indexedDB.databases()).map((db) => db.name ?? '').sort();
  },
  /** A workspace file's text, or null when there is none. */
  async read(path: string): Promise<string | null> {
    try {
      return new TextDecoder().decode(await (platform as WebPlatform).fs.readFile(`/workspace/${path}`));
    } catch {
      return null;
    }
  },
};

(globalThis as { tj?: typeof tj }).tj = tj;
document.title = 'toolhost journal page ready';
