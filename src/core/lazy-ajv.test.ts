import { describe, expect, it } from 'vitest';
import { createMemoryPlatform } from '../platform/memory.js';
import { ToolRunner } from './runner.js';
import { defineTool } from './tool.js';

// Runs in Node and in real Chromium (the vitest browser project): a tool with a JSON Schema of its own
// validates with no set-up step by the app; ajv loads on the first runtime compile (in the browser,
// toolhost's lazy/ajv.min.js fetched by URL; on Node, from node_modules), in each schema's dialect.
const city = defineTool({
  name: 'city_weather',
  description: 'Weather for a city.',
  inputSchema: { type: 'object', properties: { city: { type: 'string', minLength: 2 }, days: { type: 'integer' } }, required: ['city'], additionalProperties: false } as const,
  execute: ({ city, days }) => ({ city, days: days ?? 1 }),
});
const pair = defineTool({
  name: 'pair',
  description: 'A pair, in draft 2020-12.',
  inputSchema: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: { pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }] } },
    required: ['pair'],
  },
  execute: (input) => input,
});

describe('a JSON Schema tool, with no set-up step', () => {
  it('registers, coerces and validates (draft-07 and 2020-12), the messages naming the arguments', async () => {
    const runner = await ToolRunner.create({ platform: createMemoryPlatform(), tools: [city, pair] });
    expect(
      await runner.processToolCalls([
        { name: 'city_weather', args: { city: 'Oslo', days: '3' } },
        { name: 'city_weather', args: { city: 'O' } },
        { name: 'city_weather', args: { town: 'Oslo' } },
        { name: 'pair', args: { pair: ['a', 1] } },
        { name: 'pair', args: { pair: [1, 'a'] } },
      ]),
    ).toEqual([
      { name: 'city_weather', result: { city: 'Oslo', days: 3 } },
      { name: 'city_weather', code: 'invalid_arguments', error: 'invalid arguments for city_weather: city must have at least 2 characters' },
      {
        name: 'city_weather',
        code: 'invalid_arguments',
        error: 'invalid arguments for city_weather: missing required argument "city"; unknown argument "town"; allowed: city, days',
      },
      { name: 'pair', result: { pair: ['a', 1] } },
      { name: 'pair', code: 'invalid_arguments', error: 'invalid arguments for pair: pair[0] must be a string, not a number; pair[1] must be a number, not a string' },
    ]);
  });
});
