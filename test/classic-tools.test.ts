import { describe, expect, it } from 'vitest';
import { ToolRunner, defineTool, createMemoryPlatform, MemoryStateStore, type Tool, type ToolContext } from '../src/index.js';

// The Antigravity Rust SDK's WeatherTool example, as a class implementing Tool with a JSON-string
// schema (parameters_json_schema).
class WeatherTool implements Tool<{ city?: string }> {
  readonly name = 'get_weather';
  readonly description = 'Get the current weather for a city.';
  readonly parameters = JSON.stringify({
    type: 'object',
    properties: { city: { type: 'string', description: 'City name' } },
    required: ['city'],
  });
  async call(args: { city?: string }): Promise<unknown> {
    return { temperature: 22, condition: 'sunny', city: args.city ?? 'Unknown' };
  }
}

// Its CounterTool: needs_context, state per conversation.
class CounterTool implements Tool<Record<string, never>> {
  readonly name = 'counter';
  readonly description = 'Increment and return a counter';
  readonly parameters = '{"type":"object"}';
  readonly needsContext = true;
  async call(): Promise<unknown> {
    return null;
  }
  async callWithContext(_args: Record<string, never>, ctx: ToolContext): Promise<unknown> {
    const count = ctx.getState<number>('count') ?? 0;
    ctx.setState('count', count + 1);
    return { count: count + 1 };
  }
}

// Its InventoryTool: shared mutable state held by the tool object (Arc<Mutex<HashMap>>).
function inventoryTool(db: Map<string, number>): Tool {
  return defineTool({
    name: 'check_inventory',
    description: 'Check item inventory',
    parameters: { type: 'object', properties: { item: { type: 'string' } } } as const,
    readOnly: true,
    call: async ({ item }) => ({ item: item ?? '', count: db.get(item ?? '') ?? 0 }),
  });
}

describe('the Antigravity Rust SDK examples in the classic tool form', () => {
  it('runs the weather tool by name', async () => {
    const runner = new ToolRunner();
    await runner.register(new WeatherTool());
    expect(await runner.execute('get_weather', { city: 'Tokyo' })).toEqual({ temperature: 22, condition: 'sunny', city: 'Tokyo' });
    expect(runner.declarations()).toEqual([
      {
        name: 'get_weather',
        description: 'Get the current weather for a city.',
        parameters: { type: 'object', properties: { city: { type: 'string', description: 'City name' } }, required: ['city'] },
      },
    ]);
  });

  it('keeps the counter per conversation across calls and persists it before returning', async () => {
    const state = new MemoryStateStore();
    const runner = new ToolRunner({ platform: createMemoryPlatform({ state }), tools: [new CounterTool()] });
    expect(await runner.execute('counter', {}, { conversationId: 'a' })).toEqual({ count: 1 });
    expect(await state.get('a', 'count')).toBe(1);
    expect(await runner.execute('counter', {}, { conversationId: 'a' })).toEqual({ count: 2 });
    expect(await runner.execute('counter', {}, { conversationId: 'b' })).toEqual({ count: 1 });
    expect(await runner.execute('counter', {}, { conversationId: 'a' })).toEqual({ count: 3 });
    expect(await state.getAll('a')).toEqual({ count: 3 });
    expect(await state.getAll('b')).toEqual({ count: 1 });
    // A new runner on the same store continues where the old one stopped.
    const next = new ToolRunner({ platform: createMemoryPlatform({ state }), tools: [new CounterTool()] });
    expect(await next.execute('counter', {}, { conversationId: 'a' })).toEqual({ count: 4 });
  });

  it('shares the inventory map between calls and with the host', async () => {
    const db = new Map([['apple', 3]]);
    const runner = new ToolRunner({ tools: [inventoryTool(db)] });
    const results = await runner.processToolCalls([
      { id: 'c1', name: 'check_inventory', args: { item: 'apple' } },
      { id: 'c2', name: 'check_inventory', args: { item: 'pear' } },
    ]);
    expect(results).toEqual([
      { id: 'c1', name: 'check_inventory', result: { item: 'apple', count: 3 } },
      { id: 'c2', name: 'check_inventory', result: { item: 'pear', count: 0 } },
    ]);
    db.set('pear', 7);
    expect(await runner.execute('check_inventory', { item: 'pear' })).toEqual({ item: 'pear', count: 7 });
  });
});
