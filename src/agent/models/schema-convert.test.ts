import { describe, expect, it } from 'vitest';
import { anthropicToolProblems, geminiDeclarationProblems, openAIToolProblems } from '../../../test/fixtures/model-servers/wire-schemas.js';
import { ToolRunner } from '../../runner.js';
import { BuiltinTools } from '../../tools/index.js';
import type { JsonSchema } from '../../core/types.js';
import { toAnthropicTools } from './anthropic.js';
import { toGeminiFunctionDeclarations } from './gemini.js';
import { toOpenAITools } from './openai.js';
import { openAIStrictCompatibility, toGeminiSchema } from './schema-convert.js';

const builtinDeclarations = new ToolRunner({ tools: BuiltinTools.all() }).declarations();
const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

describe('toGeminiSchema', () => {
  it('drops what Gemini refuses and says where', () => {
    const schema: JsonSchema = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: {
        mode: { const: 'fast', description: 'Only fast.' },
        size: { type: ['integer', 'null'], minimum: 1, default: 10 },
        either: { type: ['string', 'number'] },
        tags: { type: 'array', items: { type: 'string', examples: ['a'] }, uniqueItems: true },
        level: { type: 'integer', enum: [1, 2] },
        when: { type: 'string', format: 'date-time' },
        mail: { type: 'string', format: 'email' },
        pick: { oneOf: [{ type: 'string' }, { type: 'object', properties: { x: { type: 'number' } }, additionalProperties: false }] },
      },
      required: ['mode', 'ghost'],
      additionalProperties: false,
    };
    const before = JSON.stringify(schema);
    const { schema: out, notes } = toGeminiSchema(schema, 't');
    expect(JSON.stringify(schema)).toBe(before);
    expect(out).toEqual({
      type: 'object',
      properties: {
        mode: { description: 'Only fast.', enum: ['fast'] },
        size: { type: 'integer', nullable: true, minimum: 1 },
        either: { type: 'string' },
        tags: { type: 'array', items: { type: 'string' } },
        level: { type: 'integer' },
        when: { type: 'string', format: 'date-time' },
        mail: { type: 'string' },
        pick: { anyOf: [{ type: 'string' }, { type: 'object', properties: { x: { type: 'number' } } }] },
      },
      required: ['mode'],
    });
    expect(notes.map((n) => `${n.action} ${n.path || '/'} ${n.keyword}`)).toEqual([
      'converted /properties/mode const',
      'converted /properties/size type',
      'dropped /properties/size default',
      'converted /properties/either type',
      'dropped /properties/tags/items examples',
      'dropped /properties/tags uniqueItems',
      'dropped /properties/level enum',
      'dropped /properties/mail format',
      'converted /properties/pick oneOf',
      'dropped /properties/pick/oneOf/1 additionalProperties',
      'dropped / required',
      'dropped / $schema',
      'dropped / additionalProperties',
    ]);
    expect(notes.every((n) => n.tool === 't')).toBe(true);
    expect(notes.find((n) => n.keyword === 'required')?.detail).toBe('"ghost" not among the properties');
    expect(notes.find((n) => n.path === '/properties/either')?.detail).toBe('union [string, number] became "string"; number dropped');
  });

  it('omits the parameters of a tool that takes none', () => {
    const { functionDeclarations, notes } = toGeminiFunctionDeclarations([{ name: 'ping', description: 'Ping.', parameters: { type: 'object' } }]);
    expect(functionDeclarations).toEqual([{ name: 'ping', description: 'Ping.' }]);
    expect(notes).toEqual([expect.objectContaining({ tool: 'ping', keyword: 'properties', action: 'dropped' })]);
  });
});

describe('openAIStrictCompatibility', () => {
  it('is strict only when every property is required and closed at every level', () => {
    const closed: JsonSchema = {
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'object', properties: { c: { type: ['number', 'null'] } }, required: ['c'], additionalProperties: false } },
      required: ['a', 'b'],
      additionalProperties: false,
    };
    expect(openAIStrictCompatibility(closed)).toEqual({ strict: true, reasons: [] });
    const nestedOpen: JsonSchema = { ...closed, properties: { ...closed.properties, b: { type: 'object', properties: { c: { type: 'number' } }, required: ['c'] } } };
    expect(openAIStrictCompatibility(nestedOpen)).toEqual({ strict: false, reasons: ['/properties/b: additionalProperties is not false'] });
    const optional: JsonSchema = { type: 'object', properties: { a: { type: 'string', minLength: 1 }, b: { type: 'string' } }, required: ['a'], additionalProperties: false };
    expect(openAIStrictCompatibility(optional).reasons).toEqual([
      '/: optional properties b (strict mode needs every property required)',
      '/properties/a: minLength is not supported in strict mode',
    ]);
  });
});

describe('function names', () => {
  it('flags names OpenAI and Anthropic refuse', () => {
    const declarations = [{ name: 'mcp.read', description: 'R.', parameters: { type: 'object', properties: { a: { type: 'string' } } } }];
    expect(toOpenAITools(declarations).notes[0]).toEqual({
      tool: 'mcp.read', path: '', keyword: 'name', action: 'unsupported', detail: 'OpenAI function names must match ^[a-zA-Z0-9_-]{1,64}$; rename the tool',
    });
    expect(toAnthropicTools(declarations).notes).toEqual([expect.objectContaining({ keyword: 'name', action: 'unsupported' })]);
    expect(toGeminiFunctionDeclarations(declarations).notes).toEqual([]);
  });
});

describe('built-in declarations in each wire format', () => {
  it('Gemini functionDeclarations (file snapshot)', async () => {
    await expect(json(toGeminiFunctionDeclarations(builtinDeclarations))).toMatchFileSnapshot('./__snapshots__/gemini-builtins.json');
  });

  it('OpenAI tools (file snapshot)', async () => {
    await expect(json(toOpenAITools(builtinDeclarations))).toMatchFileSnapshot('./__snapshots__/openai-builtins.json');
  });

  it('Anthropic tools (file snapshot)', async () => {
    await expect(json(toAnthropicTools(builtinDeclarations))).toMatchFileSnapshot('./__snapshots__/anthropic-builtins.json');
  });

  it('drops only additionalProperties for Gemini, and makes only list_dir strict for OpenAI', () => {
    const gemini = toGeminiFunctionDeclarations(builtinDeclarations).notes;
    expect(new Set(gemini.map((n) => `${n.action} ${n.keyword}`))).toEqual(new Set(['dropped additionalProperties']));
    expect(gemini.map((n) => n.tool)).toEqual(builtinDeclarations.map((d) => d.name));
    const openai = toOpenAITools(builtinDeclarations).tools;
    expect(openai.filter((t) => t.function.strict).map((t) => t.function.name)).toEqual(['list_dir']);
    expect(toAnthropicTools(builtinDeclarations).notes).toEqual([]);
  });

  it('every converted declaration passes the format validator (written from the documented shapes)', () => {
    for (const declaration of toGeminiFunctionDeclarations(builtinDeclarations).functionDeclarations) {
      expect(geminiDeclarationProblems(declaration), declaration.name).toEqual([]);
    }
    for (const tool of toOpenAITools(builtinDeclarations).tools) expect(openAIToolProblems(tool), tool.function.name).toEqual([]);
    for (const tool of toAnthropicTools(builtinDeclarations).tools) expect(anthropicToolProblems(tool), tool.name).toEqual([]);
  });

  it('the validators refuse what the APIs refuse', () => {
    // Unconverted JSON Schema (additionalProperties) is not a Gemini Schema.
    const raw = builtinDeclarations.find((d) => d.name === 'list_dir');
    expect(geminiDeclarationProblems(raw)).toEqual([expect.stringContaining('must NOT have additional properties')]);
    expect(geminiDeclarationProblems({ name: '1bad', description: 'x' })).toEqual([expect.stringContaining('/name must match pattern')]);
    expect(openAIToolProblems({ type: 'function', function: { name: 'a.b', parameters: { type: 'object' }, strict: false } })).toEqual([
      expect.stringContaining('/function/name must match pattern'),
    ]);
    expect(openAIToolProblems({ type: 'function', function: { name: 'a', parameters: { type: 'object', properties: { x: {} } }, strict: true } })).toEqual([
      '/: strict needs additionalProperties false',
      '/properties/x: strict needs it required',
    ]);
    expect(anthropicToolProblems({ name: 'a', input_schema: { type: 'array' } })).toEqual([expect.stringContaining('/input_schema/type must be equal to constant')]);
    expect(anthropicToolProblems({ name: 'a', input_schema: { type: 'object', required: 'x' } })).not.toEqual([]);
  });
});
