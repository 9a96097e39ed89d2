// Test runner setup shared by worker.ts (dedicated) and shared-worker.ts: a web platform on the
// workspace named in the worker's `name` (JSON config), a ToolRunner with every built-in tool (plus
// test tools outside CSP mode).
import { ToolRunner, type ToolMessage } from '../../src/runner.js';
import { defineTool } from '../../src/core/tool.js';
import * as z from 'zod';
import { BuiltinTools } from '../../src/tools/index.js';
import type { AnyTool, Tool } from '../../src/core/tool.js';
import { opfsWorkspace } from '../../web/folders.js';
import { createWebPlatform } from '../../web/index.js';
import type { WebBackend } from '../../web/platform.js';
import { withoutBatch } from './without-batch.js';

interface WorkerConfig {
  workspace: string;
  backend?: WebBackend;
  /** Patch IDBObjectStore.put so that `arm_quota` can make it throw QuotaExceededError. */
  faults?: boolean;
  /** Hide IndexedDB, as private modes do. */
  noIdb?: boolean;
  /** An IDBFactory whose open() is blocked, as by another tab holding an older version open. */
  blocked?: boolean;
  /** Hide the platform's `batch`: a commit per mutating call instead of one per batch. */
  perCall?: boolean;
  /** Built-ins only: their validators are precompiled, custom schemas would need eval. */
  csp?: boolean;
  /** Count IndexedDB puts and deletes once `arm_crash_point` arms it, and stop the thread at the chosen one. */
  crashPoints?: boolean;
  /**
   * With crashPoints: a URL that never answers. The thread stops at its crash point in a synchronous
   * request to it (blocked, not spinning, so a browser holding several stopped workers leaves the CPUs
   * to the rest); without it, the thread spins there.
   */
  crashHold?: string;
}

const config = JSON.parse(self.name || '{}') as WorkerConfig;
let quotaArmed = false;

if (config.faults) {
  const put = IDBObjectStore.prototype.put;
  IDBObjectStore.prototype.put = function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore['put']>) {
    if (quotaArmed) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    return put.apply(this, args);
  };
}
/** Armed by `arm_crash_point`: the IndexedDB writes (put / delete) since, and the one to stop at (0: none). */
let crash: { at: number; log: string[] } | undefined;
if (config.crashPoints) {
  // The page learns on this channel that the worker reached its crash point (and then closes the browser).
  const channel = new BroadcastChannel('toolhost-crash-points');
  for (const method of ['put', 'delete'] as const) {
    const original = IDBObjectStore.prototype[method] as (...args: unknown[]) => IDBRequest;
    (IDBObjectStore.prototype as unknown as Record<string, unknown>)[method] = function (this: IDBObjectStore, ...args: unknown[]) {
      if (crash) {
        const what = `${this.transaction.db.name} ${this.name} ${method}`;
        crash.log.push(what);
        if (crash.log.length === crash.at) {
          // With every write counted up to this one (this one included): the order of a run's writes.
          channel.postMessage({ at: crash.at, what, log: [...crash.log] });
          // The thread stops here, before this write is made: its transaction never commits, and nothing
          // after it runs. The test closes or kills the browser meanwhile.
          if (config.crashHold) holdThread(config.crashHold);
          for (;;) {
            // spin
          }
        }
      }
      return original.apply(this, args);
    };
  }
}
/** Blocks the thread in a synchronous request to `url` (a server that never answers); returns only if the request fails. */
function holdThread(url: string): void {
  try {
    const request = new XMLHttpRequest();
    request.open('GET', url, false);
    request.send();
  } catch {
    // the request failed: the caller spins instead
  }
}
if (config.noIdb) Object.defineProperty(globalThis, 'indexedDB', { value: undefined, configurable: true });

function blockedFactory(): IDBFactory {
  return {
    open() {
      const request = {} as IDBOpenDBRequest;
      setTimeout(() => request.onblocked?.call(request, new Event('blocked') as IDBVersionChangeEvent));
      return request;
    },
  } as unknown as IDBFactory;
}

export function buildRunner(onMessage: (message: ToolMessage) => void): ToolRunner {
  // The test tools below (and page-side tools) have schemas of their own: compiled at run time by ajv,
  // which loads on the first such compile (under a CSP without 'unsafe-eval' that compile is refused,
  // which csp.test.ts checks).
  const platform = createWebPlatform({
    workspace: config.workspace,
    // backend 'opfs' is a folder workspace: its value (and code) comes from toolhost/web/folders.
    backend: config.backend === 'opfs' ? opfsWorkspace() : config.backend === 'memory' ? 'memory' : 'indexeddb',
    ...(config.blocked ? { idbFactory: blockedFactory() } : {}),
  });
  const tools: AnyTool[] = [...BuiltinTools.all()];
  if (!config.csp) {
    tools.push(
      defineTool({
        name: 'remember',
        description: 'Sets tool state key to value.',
        parameters: { type: 'object', properties: { key: { type: 'string' }, value: {} }, required: ['key', 'value'], additionalProperties: false },
        needsContext: true,
        callWithContext: async (args: { key: string; value: unknown }, ctx) => {
          ctx.setState(args.key, args.value as never);
          return { stored: args.key };
        },
      }) as Tool,
      defineTool({
        name: 'recall',
        description: 'Reads tool state.',
        readOnly: true,
        parameters: { type: 'object', properties: { keys: { type: 'array', items: { type: 'string' } } }, required: ['keys'], additionalProperties: false },
        needsContext: true,
        callWithContext: async (args: { keys: string[] }, ctx) => Object.fromEntries(args.keys.map((k) => [k, ctx.getState(k) ?? null])),
      }) as Tool,
      defineTool({
        name: 'spin',
        description: 'Blocks the worker thread for ms milliseconds (test tool: a hung tool the page must replace).',
        readOnly: true,
        parameters: { type: 'object', properties: { ms: { type: 'integer', minimum: 1 } }, required: ['ms'], additionalProperties: false },
        call: async (args: { ms: number }) => {
          const end = Date.now() + args.ms;
          while (Date.now() < end) {
            // busy: no timer, message or signal can run
          }
          return { spun: args.ms };
        },
      }) as Tool,
      defineTool({
        name: 'platform_info',
        description: 'The platform as the worker sees it.',
        readOnly: true,
        parameters: { type: 'object', additionalProperties: false },
        call: async () => ({
          name: platform.name,
          root: platform.root,
          backend: platform.backend,
          capabilities: platform.capabilities,
          hasRunCommand: typeof platform.runCommand === 'function',
          hasWebSearch: typeof platform.webSearch === 'function',
        }),
      }) as Tool,
      defineTool({
        name: 'move',
        description: 'Renames a workspace path (test tool: exercises directory renames).',
        parameters: { type: 'object', properties: { from: { type: 'string' }, to: { type: 'string' } }, required: ['from', 'to'], additionalProperties: false },
        needsContext: true,
        callWithContext: async (args: { from: string; to: string }, ctx) => {
          await ctx.fs.rename(`${platform.root}/${args.from}`, `${platform.root}/${args.to}`);
          return { moved: args.to };
        },
      }) as Tool,
      defineTool({
        name: 'remove',
        description: 'Removes a workspace path recursively (test tool).',
        parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'], additionalProperties: false },
        needsContext: true,
        callWithContext: async (args: { path: string }, ctx) => {
          await ctx.fs.rm(`${platform.root}/${args.path}`, { recursive: true });
          return { removed: args.path };
        },
      }) as Tool,
      // The execute form with a zod schema, beside the classic tools above: zod validates in the worker.
      defineTool({
        name: 'word_count',
        description: 'Counts the words of a text (execute form, zod schema).',
        inputSchema: z.object({
          text: z.string().transform((text) => text.trim()),
          min: z.number().int().refine((n) => n % 2 === 0, 'min must be even').default(0),
        }),
        annotations: { readOnlyHint: true, title: 'Word count' },
        execute: (input, ctx) => {
          const words = input.text === '' ? 0 : input.text.split(/\s+/).length;
          return { words, trimmed: input.text, enough: words >= input.min, conversation: ctx.conversationId };
        },
      }) as unknown as Tool,
      defineTool({
        name: 'arm_crash_point',
        description: 'Counts the IndexedDB writes from now on and stops the worker thread at write number `at` (0: only count; with config crashPoints).',
        readOnly: true,
        parameters: { type: 'object', properties: { at: { type: 'integer', minimum: 0 } }, required: ['at'], additionalProperties: false },
        call: async (args: { at: number }) => {
          crash = { at: args.at, log: [] };
          return { armed: args.at };
        },
      }) as Tool,
      defineTool({
        name: 'crash_log',
        description: 'The IndexedDB writes counted since arm_crash_point ("<database> <store> <put|delete>"), in order.',
        readOnly: true,
        parameters: { type: 'object', additionalProperties: false },
        call: async () => ({ writes: crash?.log ?? [] }),
      }) as Tool,
      defineTool({
        name: 'arm_quota',
        description: 'Makes every later IndexedDB put throw QuotaExceededError (test fault).',
        readOnly: true,
        parameters: { type: 'object', properties: { armed: { type: 'boolean' } }, required: ['armed'], additionalProperties: false },
        call: async (args: { armed: boolean }) => {
          quotaArmed = args.armed;
          return { armed: quotaArmed };
        },
      }) as Tool,
    );
  }
  // Default: one commit per batch (the runner honours `platform.batch`); `perCall` hides `batch`, so each mutating call commits.
  return new ToolRunner({ platform: config.perCall ? withoutBatch(platform) : platform, tools, onMessage });
}
