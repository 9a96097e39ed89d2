import { describe, expect, it } from 'vitest';
import { ToolRunner, defineTool, isToolErrorCode, type ToolCall } from '../src/index.js';
import { junk, seededRandom } from './support/random.js';

const tools = [
  defineTool({
    name: 'strict',
    description: '',
    parameters: {
      type: 'object',
      properties: { text: { type: 'string', maxLength: 1000 }, count: { type: 'integer', minimum: 0 }, flag: { type: 'boolean' } },
      required: ['text'],
      additionalProperties: false,
    } as const,
    call: async ({ text, count }) => ({ length: text.length, count: count ?? 0 }),
  }),
  defineTool({
    name: 'nested',
    description: '',
    parameters: {
      type: 'object',
      properties: {
        mode: { enum: ['a', 'b'] },
        items: { type: 'array', items: { type: 'number' }, maxItems: 10 },
        nested: { type: 'object', properties: { flag: { type: 'boolean' } }, required: ['flag'], additionalProperties: false },
      },
      additionalProperties: false,
    } as const,
    readOnly: true,
    call: async ({ items }) => ({ sum: (items ?? []).reduce((a, b) => a + b, 0) }),
  }),
  defineTool({
    name: 'loose',
    description: '',
    parameters: '{"type":"object"}',
    callWithContext: async (args, ctx) => {
      ctx.setState('last', typeof args);
      return { keys: Object.keys(args as object).length };
    },
  }),
  defineTool({
    name: 'thrower',
    description: '',
    parameters: { type: 'object', properties: { count: { type: 'number' } } } as const,
    readOnly: true,
    call: async ({ count }) => {
      if ((count ?? 0) > 100) throw new Error('too many');
      return count ?? null;
    },
  }),
];

function objectOrEmpty(value: unknown): object {
  return typeof value === 'object' && value !== null ? value : {};
}

describe('runner fuzz', () => {
  it('answers 10,000 random argument sets with a result or a code, and keeps working', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => void unhandled.push(reason);
    globalThis.addEventListener?.('unhandledrejection', onUnhandled as never);
    const runnerProcess = (globalThis as { process?: { on(e: string, f: (r: unknown) => void): void; off(e: string, f: (r: unknown) => void): void } }).process;
    runnerProcess?.on('unhandledRejection', onUnhandled);
    try {
      const random = seededRandom(20261130);
      const runner = new ToolRunner({ tools });
      const names = ['strict', 'nested', 'loose', 'thrower', 'missing', 'web_search'];
      const codes = new Map<string, number>();
      let successes = 0;
      for (let batch = 0; batch < 500; batch += 1) {
        const calls: ToolCall[] = Array.from({ length: 20 }, (_, i) => ({
          id: `${batch}-${i}`,
          name: names[Math.floor(random() * names.length)] as string,
          args: random() < 0.7 ? { ...objectOrEmpty(junk(random)), ...(random() < 0.5 ? { text: 'ok' } : {}) } : junk(random),
        }));
        const results = await runner.processToolCalls(calls, { conversationId: `c${batch % 7}` });
        expect(results).toHaveLength(calls.length);
        results.forEach((result, i) => {
          expect(result.id).toBe(calls[i]?.id);
          expect(result.name).toBe(calls[i]?.name);
          if ('code' in result) {
            expect(isToolErrorCode(result.code)).toBe(true);
            expect(typeof result.error).toBe('string');
            expect(result.error.length).toBeGreaterThan(0);
            codes.set(result.code, (codes.get(result.code) ?? 0) + 1);
          } else {
            expect('result' in result).toBe(true);
            expect(() => JSON.stringify(result.result)).not.toThrow();
            successes += 1;
          }
        });
      }
      expect(successes).toBeGreaterThan(100);
      expect([...codes.keys()].sort()).toEqual(['execution_failed', 'invalid_arguments', 'unknown_tool']);
      // Still usable afterwards.
      expect(await runner.execute('strict', { text: 'abc', count: '2' })).toEqual({ length: 3, count: 2 });
      await new Promise((r) => setTimeout(r, 10));
      expect(unhandled).toEqual([]);
    } finally {
      runnerProcess?.off('unhandledRejection', onUnhandled);
      globalThis.removeEventListener?.('unhandledrejection', onUnhandled as never);
    }
  });
});
