import { describe, expect, it } from 'vitest';
import { BuiltinTools } from '../../src/tools/index.js';
import { openTestPage } from './harness.js';

declare const bridges: { session(): Promise<Record<string, unknown>>; remote(): Promise<Record<string, unknown>> };

const opened = openTestPage('bridges.html', 'toolhost bridges page ready');

describe('toolhost/mcp and toolhost/ai-sdk in Chromium', () => {
  it('a page talks MCP to the worker over a MessagePort; an AI SDK tool runs inside the worker runner', async () => {
    const result = await opened.session.page.evaluate(() => bridges.session());
    expect(result['names']).toEqual([...BuiltinTools.all().map((tool) => tool.name), 'weather']);
    expect(result['weatherAnnotations']).toEqual({ readOnlyHint: true });
    expect(result['edit']).toMatchObject({ replacements: 1 });
    expect(result['view']).toMatchObject({ content: 'alpha gamma' });
    expect(result['weather']).toEqual({ city: 'OSLO', degrees: 21, toolCallId: expect.stringMatching(/^mcp-/), inWorker: true });
    expect(result['badWeather']).toEqual({ isError: true, code: 'invalid_arguments' });
    expect(result['secondClientTools']).toBe(BuiltinTools.all().length + 1);
  });

  it('a page-side runner hosts the worker’s tools through mcpTools, with its own permissions', async () => {
    const result = await opened.session.page.evaluate(() => bridges.remote());
    expect(result['results']).toEqual([
      { id: '1', result: expect.objectContaining({ content: expect.stringMatching(/^alpha /), total_lines: 1 }) },
      { id: '2', code: 'permission_denied' },
      { id: '3', result: expect.objectContaining({ city: 'ROME', degrees: 21, inWorker: true }) },
    ]);
  });
});
