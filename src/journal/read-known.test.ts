import { describe, expect, it } from 'vitest';
import type { FsPromises } from '../core/fs-port.js';
import type { Platform } from '../core/platform.js';
import { defineTool, type ToolContext } from '../core/tool.js';
import { createMemoryPlatform } from '../platform/memory.js';
import { ToolRunner } from '../runner.js';
import { BuiltinTools } from '../tools/index.js';

const text = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);
const bytes = (value: string): Uint8Array => new TextEncoder().encode(value);

/** A memory platform whose `fs.readFile` calls are counted per path (its change count kept, unless `counted` is false). */
function countingPlatform(files: Record<string, string>, counted = true): { platform: Platform; reads: (path: string) => number } {
  const inner = createMemoryPlatform({ files });
  const reads = new Map<string, number>();
  const fs: FsPromises = {
    ...inner.fs,
    readFile: ((path: string) => {
      reads.set(path, (reads.get(path) ?? 0) + 1);
      return inner.fs.readFile(path);
    }) as FsPromises['readFile'],
  };
  const platform: Platform = { ...inner, fs };
  if (!counted) delete (platform as { changeCount?: unknown }).changeCount;
  return { platform, reads: (path) => reads.get(path) ?? 0 };
}

/** A mutating tool that runs `body` with the call's context. */
function contextTool(name: string, body: (ctx: ToolContext) => Promise<void>) {
  return defineTool({ name, description: name, parameters: { type: 'object' }, callWithContext: async (_args: unknown, ctx: ToolContext) => body(ctx) });
}

const PATH = '/workspace/a.txt';

describe('change journal: a call\'s read standing for the pre-image', () => {
  it('takes an edit\'s pre-image from the tool\'s own read of content the journal kept, on a platform that counts its changes: the file is read once', async () => {
    const { platform, reads } = countingPlatform({});
    const runner = new ToolRunner({ platform, tools: BuiltinTools.all() });
    await runner.execute('create_file', { file_path: 'a.txt', content: 'one\ntwo\n' });
    const before = reads(PATH);
    await runner.execute('edit_file', { file_path: 'a.txt', old_string: 'two', new_string: 'three' });
    expect(reads(PATH) - before).toBe(1);
    const [, edit] = (await runner.changes()).turns;
    expect(edit?.calls[0]?.files[0]?.diff).toContain('-two\n+three');
    expect((await runner.rewind('default', { toTurn: 1 })).restored).toEqual([PATH]);
    expect(text(await platform.fs.readFile(PATH))).toBe('one\ntwo\n');
  });

  it('reads the file again on a platform without a change count, with the same record', async () => {
    const { platform, reads } = countingPlatform({}, false);
    const runner = new ToolRunner({ platform, tools: BuiltinTools.all() });
    await runner.execute('create_file', { file_path: 'a.txt', content: 'one\ntwo\n' });
    const before = reads(PATH);
    await runner.execute('edit_file', { file_path: 'a.txt', old_string: 'two', new_string: 'three' });
    expect(reads(PATH) - before).toBe(2);
    expect((await runner.changes()).turns[1]?.calls[0]?.files[0]?.diff).toContain('-two\n+three');
  });

  it('keeps what is there when the call writes, not what it read, when the platform changed in between', async () => {
    const { platform } = countingPlatform({});
    const racer = contextTool('racer', async (ctx) => {
      await ctx.fs.readFile(PATH);
      // Not through the journal's view: the platform counts it, so the read no longer stands for the file.
      await ctx.platform.fs.writeFile(PATH, bytes('changed behind\n'));
      await ctx.fs.writeFile(PATH, bytes('final\n'));
    });
    const runner = new ToolRunner({ platform, tools: [...BuiltinTools.all(), racer] });
    await runner.execute('create_file', { file_path: 'a.txt', content: 'first\n' });
    await runner.execute('racer', {});
    const diff = (await runner.changes()).turns[1]?.calls[0]?.files[0]?.diff;
    expect(diff).toContain('-changed behind\n+final');
    expect((await runner.rewind('default', { toTurn: 1 })).restored).toEqual([PATH]);
    expect(text(await platform.fs.readFile(PATH))).toBe('changed behind\n');
  });

  it('keeps the content that was read though the tool changes the bytes it was given before writing', async () => {
    const { platform } = countingPlatform({});
    const scribbler = contextTool('scribbler', async (ctx) => {
      const read = await ctx.fs.readFile(PATH);
      read.fill(0x7a);
      await ctx.fs.writeFile(PATH, bytes('rewritten\n'));
    });
    const runner = new ToolRunner({ platform, tools: [...BuiltinTools.all(), scribbler] });
    await runner.execute('create_file', { file_path: 'a.txt', content: 'original\n' });
    await runner.execute('scribbler', {});
    expect((await runner.changes()).turns[1]?.calls[0]?.files[0]?.diff).toContain('-original\n+rewritten');
    await runner.rewind('default', { toTurn: 1 });
    expect(text(await platform.fs.readFile(PATH))).toBe('original\n');
  });

  it('reads the file when what the call read is not the content the journal kept there (changed behind the journal before the call)', async () => {
    const { platform, reads } = countingPlatform({});
    const runner = new ToolRunner({ platform, tools: BuiltinTools.all() });
    await runner.execute('create_file', { file_path: 'a.txt', content: 'one\n' });
    await platform.fs.writeFile(PATH, bytes('one\nmore\n'));
    const before = reads(PATH);
    await runner.execute('edit_file', { file_path: 'a.txt', old_string: 'more', new_string: 'less' });
    expect(reads(PATH) - before).toBe(2);
    expect((await runner.changes()).turns[1]?.calls[0]?.files[0]?.diff).toContain('-more\n+less');
  });
});
