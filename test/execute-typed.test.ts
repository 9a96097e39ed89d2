import { describe, expect, expectTypeOf, it } from 'vitest';
import * as z from 'zod';
import { BuiltinTools, createMemoryPlatform, defineTool, ToolRunner } from '../src/index.js';

const weather = defineTool({
  name: 'get_weather',
  description: 'Weather for a city.',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false } as const,
  execute: async ({ city }) => ({ city, temperature: 22 }),
});

const forecast = defineTool({
  name: 'get_forecast',
  description: 'Forecast.',
  inputSchema: z.object({ city: z.string(), days: z.number().int().default(3) }),
  execute: ({ city, days }) => ({ city, days, sunny: true as boolean }),
});

const classic = defineTool({
  name: 'count',
  description: 'Counts.',
  parameters: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] } as const,
  call: async ({ n }) => n + 1,
});

describe('runner.execute typed by the tool object', () => {
  // Type assertions, checked by tsc (npm run typecheck; test/ is in tsconfig.json): never called, so no call runs.
  function types(runner: ToolRunner): void {
    expectTypeOf(runner.execute(weather, { city: 'Oslo' })).resolves.toEqualTypeOf<{ city: string; temperature: number }>();
    expectTypeOf(runner.execute(forecast, { city: 'Oslo' })).resolves.toEqualTypeOf<{ city: string; days: number; sunny: boolean }>();
    expectTypeOf(runner.execute(classic, { n: 1 })).resolves.toEqualTypeOf<number>();
    // By name the output cannot be known.
    expectTypeOf(runner.execute('get_weather', { city: 'Oslo' })).resolves.toBeUnknown();
    // Not something to call with.
    // @ts-expect-error a number is neither a name nor a tool
    void runner.execute(5, {});
  }

  it('types the result with the tool\'s output, for execute and classic tools (tsc checks the assertions)', () => {
    expect(types).toBeTypeOf('function');
  });

  it('runs the registered tool and returns its output', async () => {
    const runner = new ToolRunner({ platform: createMemoryPlatform({ files: { 'a.txt': 'one\n' } }), tools: [weather, forecast, classic, ...BuiltinTools.all()] });
    expect(await runner.execute(weather, { city: 'Oslo' })).toEqual({ city: 'Oslo', temperature: 22 });
    expect(await runner.execute(forecast, { city: 'Oslo' })).toEqual({ city: 'Oslo', days: 3, sunny: true });
    expect(await runner.execute(classic, { n: '4' })).toBe(5);
    expect(await runner.execute('view_file', { file_path: 'a.txt' })).toMatchObject({ content: 'one' });
    await expect(runner.execute(weather, {})).rejects.toMatchObject({ code: 'invalid_arguments' });
  });

  it('refuses a tool object that is not the one registered under its name, before it runs', async () => {
    const runner = new ToolRunner({ tools: [weather] });
    const impostor = defineTool({ ...{ name: 'get_weather', description: 'other' }, inputSchema: { type: 'object' }, execute: () => 'not weather' });
    const message = 'ToolRunner.execute: the tool "get_weather" given is not registered on this runner; register it first, or pass its name';
    await expect(runner.execute(impostor, {})).rejects.toEqual(new TypeError(message));
    await expect(runner.execute(forecast, { city: 'Oslo' })).rejects.toEqual(
      new TypeError('ToolRunner.execute: the tool "get_forecast" given is not registered on this runner; register it first, or pass its name'),
    );
    // Replaced under the same name: the old object no longer runs.
    await runner.register(impostor, { replace: true });
    await expect(runner.execute(weather, { city: 'Oslo' })).rejects.toEqual(new TypeError(message));
    expect(await runner.execute(impostor, {})).toBe('not weather');
  });
});
