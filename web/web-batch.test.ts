import { describe, expect, it } from 'vitest';
import { ToolError } from '../src/core/errors.js';
import { createMemoryPlatform } from '../src/platform/memory.js';
import { defineTool, type Tool } from '../src/core/tool.js';
import { BuiltinTools } from '../src/tools/index.js';
import { ToolRunner } from '../src/runner.js';
import type { WebPlatform } from './platform.js';

/** A memory platform posing as a web platform whose batch commit can be made to fail. */
function fakeWebPlatform(failWith?: ToolError): WebPlatform & { batches: number; flushes: number } {
  const base = createMemoryPlatform();
  let deferred = 0;
  const platform = {
    ...base,
    name: 'web' as const,
    workspace: 'fake',
    backend: 'indexeddb' as const,
    batches: 0,
    flushes: 0,
    async ready() {},
    async flush() {
      if (deferred === 0) platform.flushes += 1;
    },
    async batch<T>(fn: () => Promise<T>): Promise<T> {
      deferred += 1;
      try {
        return await fn();
      } finally {
        deferred -= 1;
        platform.batches += 1;
        if (failWith) throw failWith;
      }
    },
  };
  return platform as WebPlatform & { batches: number; flushes: number };
}

describe('ToolRunner on a platform with batch', () => {
  it('runs a batch inside one platform batch, with no per-call flush', async () => {
    const platform = fakeWebPlatform();
    const runner = new ToolRunner({ platform, tools: BuiltinTools.all() });
    const results = await runner.processToolCalls([
      { id: 'a', name: 'create_file', args: { file_path: 'a.txt', content: 'a' } },
      { id: 'b', name: 'create_file', args: { file_path: 'b.txt', content: 'b' } },
    ]);
    expect(results.map((r) => 'code' in r)).toEqual([false, false]);
    expect([platform.batches, platform.flushes]).toEqual([1, 0]);
    await runner.execute('create_file', { file_path: 'c.txt', content: 'c' });
    expect(platform.flushes).toBe(1);
  });

  it('turns the successes of mutating calls into the commit error and keeps read-only results and earlier failures', async () => {
    const platform = fakeWebPlatform(new ToolError('quota_exceeded', 'browser storage is full'));
    const late = defineTool({ name: 'late_tool', description: '', parameters: { type: 'object' }, readOnly: true, call: async () => 'read' });
    const runner = new ToolRunner({ platform, tools: BuiltinTools.all() });
    await runner.register(late as Tool);
    const results = await runner.processToolCalls([
      { id: 'w', name: 'create_file', args: { file_path: 'a.txt', content: 'a' } },
      { id: 'r', name: 'list_dir', args: { dir_path: '/workspace' } },
      { id: 'f', name: 'view_file', args: { file_path: 'missing.txt' } },
      { name: 'late_tool', args: {} },
      { id: 's', name: 'web_search', args: { query: 'x' } },
      { id: 'x', name: 'edit_file', args: { file_path: 'a.txt', old_string: 'zzz', new_string: 'y' } },
    ]);
    expect(results.map((r) => ('code' in r ? r.code : 'ok'))).toEqual(['quota_exceeded', 'ok', 'not_found', 'ok', 'ok', 'no_match']);
    expect(results[0]).toEqual({ id: 'w', name: 'create_file', error: 'browser storage is full', code: 'quota_exceeded' });
  });

  it('runs calls from several callers one at a time', async () => {
    const platform = fakeWebPlatform();
    let running = 0;
    let most = 0;
    const slow = defineTool({
      name: 'slow',
      description: '',
      parameters: { type: 'object' },
      readOnly: true,
      call: async () => {
        running += 1;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, 5));
        running -= 1;
        return null;
      },
    });
    const runner = new ToolRunner({ platform, tools: [slow as Tool] });
    await Promise.all([
      runner.processToolCalls([{ name: 'slow', args: {} }]),
      runner.execute('slow', {}),
      runner.processToolCalls([{ name: 'slow', args: {} }]),
    ]);
    expect(most).toBe(1);
  });

  it('forgets an unregistered tool: its name then reaches the read-only search fallback, whose result a failed commit keeps', async () => {
    const platform = fakeWebPlatform(new ToolError('quota_exceeded', 'browser storage is full'));
    const runner = new ToolRunner({ platform });
    const own = defineTool({ name: 'web_search', description: 'mutating', parameters: { type: 'object' }, call: async () => 'own' });
    await runner.register(own as Tool);
    expect(runner.unregister('web_search')).toBe(true);
    const results = await runner.processToolCalls([{ id: 's', name: 'web_search', args: { query: 'x' } }]);
    expect(results).toEqual([{ id: 's', name: 'web_search', result: { results: [], note: 'Search is not available in the browser' } }]);
  });

  it('decides read-only by the tool that ran, not by one registered later under the same name', async () => {
    const platform = fakeWebPlatform(new ToolError('unavailable', 'storage went away'));
    const runner = new ToolRunner({ platform });
    const reader = defineTool({ name: 'swap', description: '', parameters: { type: 'object' }, readOnly: true, call: async () => 'read' });
    const writer = defineTool({ name: 'swap', description: '', parameters: { type: 'object' }, call: async () => 'wrote' });
    await runner.register(reader as Tool);
    const batch = runner.processToolCalls([{ id: 'a', name: 'swap', args: {} }]);
    await runner.register(writer as Tool, { replace: true });
    expect(await batch).toEqual([{ id: 'a', name: 'swap', result: 'read' }]);
  });
});
