import { describe, expect, it } from 'vitest';
import { ToolRunner as CoreToolRunner } from '../src/core/runner.js';
import { createMemoryPlatform } from '../src/platform/memory.js';
import { ToolRunner } from '../src/index.js';
import { BUILTIN_VALIDATORS, TOOLHOST_DEFAULTS } from '../src/runner.js';
import { BuiltinTools } from '../src/tools/index.js';

// The core's runner has no defaults of its own; the package's ToolRunner passes toolhost's to it.
describe("the package's ToolRunner", () => {
  it('runs on a fresh memory platform of its own when given none: two runners share no files', async () => {
    const first = new ToolRunner({ tools: BuiltinTools.all() });
    const second = new ToolRunner({ tools: BuiltinTools.all() });
    expect(first.platform.name).toBe('memory');
    expect(first.platform).not.toBe(second.platform);
    await first.execute('create_file', { file_path: 'a.txt', content: 'one' });
    const [seen] = await second.processToolCalls([{ name: 'view_file', args: { file_path: 'a.txt' } }]);
    expect(seen).toMatchObject({ name: 'view_file', code: 'not_found' });
    expect(await first.execute('view_file', { file_path: 'a.txt' })).toMatchObject({ content: expect.stringContaining('one') });
  });

  it('answers web_search and google_search with the fallback when no tool holds those names', async () => {
    const runner = new ToolRunner();
    expect(await runner.execute('web_search', { query: 'toolhost' })).toEqual({ results: [], note: 'Search is not available on the memory platform' });
    expect(await runner.execute('google_search', { query: 'toolhost' })).toEqual({ results: [], note: 'Search is not available on the memory platform' });
    const [unknown] = await runner.processToolCalls([{ name: 'bing_search', args: { query: 'x' } }]);
    expect(unknown).toMatchObject({ code: 'unknown_tool' });
  });

  it('is a core runner, and ToolRunner.create builds the package runner with its defaults', async () => {
    const runner = await ToolRunner.create();
    expect(runner).toBeInstanceOf(ToolRunner);
    expect(runner).toBeInstanceOf(CoreToolRunner);
    expect(runner.platform.name).toBe('memory');
  });

  it("passes the built-in tools' generated validators, a check under each key, in frozen defaults", () => {
    expect(TOOLHOST_DEFAULTS.validators).toBe(BUILTIN_VALIDATORS);
    expect(Object.keys(BUILTIN_VALIDATORS.validators).length).toBeGreaterThan(10);
    expect(Object.keys(BUILTIN_VALIDATORS.checks).sort()).toEqual(Object.keys(BUILTIN_VALIDATORS.validators).sort());
    expect(Object.isFrozen(TOOLHOST_DEFAULTS)).toBe(true);
  });
});

describe("the core's runner without defaults", () => {
  it('requires a platform: a TypeError naming what to pass', () => {
    expect(() => new CoreToolRunner()).toThrow(TypeError);
    expect(() => new CoreToolRunner()).toThrow('ToolRunner: platform is required here (no default platform); pass one such as createMemoryPlatform()');
  });

  it('has no fallback tools: web_search is an unknown tool', async () => {
    const runner = new CoreToolRunner({ platform: createMemoryPlatform() });
    const [result] = await runner.processToolCalls([{ name: 'web_search', args: { query: 'x' } }]);
    expect(result).toMatchObject({ name: 'web_search', code: 'unknown_tool' });
  });

  it('takes the defaults it is given, per runner', async () => {
    const made: string[] = [];
    const defaults = { platform: () => (made.push('platform'), createMemoryPlatform()) };
    const runner = new CoreToolRunner({}, defaults);
    new CoreToolRunner({ platform: createMemoryPlatform() }, defaults);
    expect(made).toEqual(['platform']);
    expect(runner.platform.root).toBe('/workspace');
  });
});
