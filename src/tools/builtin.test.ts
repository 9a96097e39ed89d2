import { describe, expect, it } from 'vitest';
import { ToolRunner } from '../runner.js';
import type { JsonSchema } from '../core/types.js';
import { BuiltinTools } from './index.js';

const BUILTIN_NAMES = [
  'CreateFile',
  'EditFile',
  'FindFile',
  'ListDir',
  'RunCommand',
  'SearchDir',
  'ViewFile',
  'StartSubagent',
  'GenerateImage',
  'Finish',
  'GrepSearch',
  'CommandOutput',
  'StopCommand',
] as const;

/** Every object schema inside `schema` (itself, properties, items, combinators), with its JSON pointer. */
function objectSchemas(schema: JsonSchema, path = '#'): Array<[string, JsonSchema]> {
  const found: Array<[string, JsonSchema]> = [];
  if (schema.type === 'object' || schema.properties !== undefined) found.push([path, schema]);
  for (const [name, sub] of Object.entries(schema.properties ?? {})) found.push(...objectSchemas(sub, `${path}/properties/${name}`));
  const items = schema.items;
  if (items && !Array.isArray(items)) found.push(...objectSchemas(items as JsonSchema, `${path}/items`));
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const list = schema[key];
    if (Array.isArray(list)) list.forEach((sub, i) => found.push(...objectSchemas(sub as JsonSchema, `${path}/${key}/${i}`)));
  }
  return found;
}

describe('BuiltinTools', () => {
  it('holds the eleven original built-ins under their PascalCase names, then CommandOutput and StopCommand', () => {
    expect(Object.keys(BuiltinTools).filter((key) => key !== 'readOnly' && key !== 'all')).toEqual([...BUILTIN_NAMES]);
    expect(BuiltinTools.all()).toEqual(BUILTIN_NAMES.map((name) => BuiltinTools[name]));
  });

  it('gives snake_case model-facing names, thirteen distinct ones', () => {
    const names = BuiltinTools.all().map((tool) => tool.name);
    expect(names).toEqual([
      'create_file',
      'edit_file',
      'find_file',
      'list_dir',
      'run_command',
      'search_dir',
      'view_file',
      'start_subagent',
      'generate_image',
      'finish',
      'grep_search',
      'command_output',
      'stop_command',
    ]);
    expect(new Set(names).size).toBe(13);
  });

  it('readOnly() returns FindFile, ListDir, SearchDir, ViewFile, GrepSearch, all flagged read-only', () => {
    const tools = BuiltinTools.readOnly();
    expect(tools.map((tool) => tool.name)).toEqual(['find_file', 'list_dir', 'search_dir', 'view_file', 'grep_search']);
    expect(tools).toEqual([BuiltinTools.FindFile, BuiltinTools.ListDir, BuiltinTools.SearchDir, BuiltinTools.ViewFile, BuiltinTools.GrepSearch]);
    for (const tool of tools) expect(tool.annotations?.readOnlyHint, tool.name).toBe(true);
  });

  it('flags the tools that change things as not read-only', () => {
    for (const tool of [BuiltinTools.CreateFile, BuiltinTools.EditFile, BuiltinTools.RunCommand, BuiltinTools.StartSubagent, BuiltinTools.GenerateImage, BuiltinTools.StopCommand]) {
      expect(tool.annotations?.readOnlyHint, tool.name).toBe(false);
    }
  });

  it('returns fresh arrays from readOnly() and all()', () => {
    const all = BuiltinTools.all();
    all.pop();
    expect(BuiltinTools.all()).toHaveLength(13);
    expect(BuiltinTools.all()).not.toBe(BuiltinTools.all());
    const readOnly = BuiltinTools.readOnly();
    readOnly.length = 0;
    expect(BuiltinTools.readOnly()).toHaveLength(5);
    const { all: detached } = BuiltinTools;
    expect(detached()).toHaveLength(13);
  });

  it('registers in a runner, in BuiltinTools.all() order', () => {
    const runner = new ToolRunner({ tools: BuiltinTools.all() });
    expect(runner.declarations().map((d) => d.name)).toEqual(BuiltinTools.all().map((tool) => tool.name));
  });

  it('closes every object schema with additionalProperties: false', () => {
    const runner = new ToolRunner({ tools: BuiltinTools.all() });
    for (const declaration of runner.declarations()) {
      expect(declaration.parameters.type, declaration.name).toBe('object');
      for (const [path, schema] of objectSchemas(declaration.parameters)) {
        expect(schema.additionalProperties, `${declaration.name} ${path}`).toBe(false);
      }
      for (const name of declaration.parameters.required ?? []) {
        expect(Object.keys(declaration.parameters.properties ?? {}), `${declaration.name} requires ${name}`).toContain(name);
      }
    }
  });

  it('describes every tool and every argument', () => {
    const runner = new ToolRunner({ tools: BuiltinTools.all() });
    for (const declaration of runner.declarations()) {
      expect(declaration.description.length, declaration.name).toBeGreaterThan(20);
      for (const [name, schema] of Object.entries(declaration.parameters.properties ?? {})) {
        expect(typeof schema.description === 'string' && schema.description.length > 0, `${declaration.name}.${name}`).toBe(true);
      }
    }
  });

  // A schema or description change is a reviewed change: it shows as a diff of this JSON file (key order
  // kept, as the model sees it). After a deliberate change: `npx vitest run -u src/tools/builtin.test.ts`,
  // then `npm run gen:validators`.
  it('keeps the model-facing declarations as reviewed (file snapshot __snapshots__/builtin-declarations.json)', async () => {
    const runner = new ToolRunner({ tools: BuiltinTools.all() });
    await expect(`${JSON.stringify(runner.declarations(), null, 2)}\n`).toMatchFileSnapshot('./__snapshots__/builtin-declarations.json');
  });
});
