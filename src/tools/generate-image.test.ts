import { describe, expect, it } from 'vitest';
import { createMemoryPlatform } from '../platform/memory.js';
import { ToolRunner } from '../runner.js';
import type { HostHooks } from '../core/tool.js';
import { generateImageTool } from './generate-image.js';

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);

type ImageRequest = Parameters<NonNullable<HostHooks['generateImage']>>[0];

function setup(files: Record<string, string | Uint8Array> = {}, bytes: unknown = PNG) {
  const platform = createMemoryPlatform({ files });
  const requests: ImageRequest[] = [];
  const runner = new ToolRunner({
    platform,
    tools: [generateImageTool],
    conversationId: 'img-conv',
    generateImage: async (request) => {
      requests.push(request);
      return bytes as Uint8Array;
    },
  });
  return { platform, runner, requests };
}

describe('generateImageTool', () => {
  it('is named generate_image, is not read-only and has a closed schema', () => {
    expect(generateImageTool.name).toBe('generate_image');
    expect(generateImageTool.annotations?.readOnlyHint).toBe(false);
    expect((generateImageTool.inputSchema as { additionalProperties?: unknown }).additionalProperties).toBe(false);
  });

  it('writes the bytes the hook returns to image_name and reports the path and size', async () => {
    const { platform, runner, requests } = setup();
    const result = await runner.execute('generate_image', { prompt: 'a red fox', image_name: 'art/fox (1).png' });
    expect(result).toEqual({ file_path: '/workspace/art/fox (1).png', bytes_written: PNG.byteLength });
    expect(Array.from(await platform.fs.readFile('/workspace/art/fox (1).png'))).toEqual(Array.from(PNG));
    expect(requests).toEqual([{ prompt: 'a red fox', image_name: 'art/fox (1).png', conversationId: 'img-conv' }]);
    // No temporary file is left beside it.
    expect(await platform.fs.readdir('/workspace/art')).toEqual(['fox (1).png']);
  });

  it('defaults the name to generated-<timestamp>.png in the workspace', async () => {
    const { platform, runner } = setup();
    const before = Date.now();
    const result = (await runner.execute('generate_image', { prompt: 'a cat' })) as { file_path: string; bytes_written: number };
    const match = /^\/workspace\/generated-(\d+)\.png$/.exec(result.file_path);
    expect(match).not.toBeNull();
    expect(Number(match?.[1])).toBeGreaterThanOrEqual(before);
    expect(Number(match?.[1])).toBeLessThanOrEqual(Date.now());
    expect((await platform.fs.readFile(result.file_path)).byteLength).toBe(PNG.byteLength);
  });

  it('replaces an existing file at image_name', async () => {
    const { platform, runner } = setup({ 'old.png': 'old' });
    await runner.execute('generate_image', { prompt: 'p', image_name: '/workspace/old.png' });
    expect(Array.from(await platform.fs.readFile('/workspace/old.png'))).toEqual(Array.from(PNG));
  });

  it('resolves image_paths in the workspace and hands their absolute paths to the hook', async () => {
    const { runner, requests } = setup({ 'in/a.png': PNG, 'b.jpg': 'x' });
    await runner.execute('generate_image', { prompt: 'merge', image_name: 'out.png', image_paths: ['in/a.png', '/workspace/b.jpg'] });
    expect(requests[0]).toEqual({
      prompt: 'merge',
      image_name: 'out.png',
      image_paths: ['/workspace/in/a.png', '/workspace/b.jpg'],
      conversationId: 'img-conv',
    });
  });

  it('fails with not_found for a missing input image and does not call the hook', async () => {
    const { runner, requests } = setup({ 'a.png': PNG });
    const [result] = await runner.processToolCalls([
      { name: 'generate_image', args: { prompt: 'p', image_paths: ['a.png', 'missing.png'] } },
    ]);
    expect(result).toMatchObject({ code: 'not_found', error: expect.stringContaining('image_paths[1] "missing.png"') });
    expect(requests).toHaveLength(0);
  });

  it('refuses paths outside the workspace and directories', async () => {
    const { runner, requests } = setup({ 'dir/a.png': PNG });
    const results = await runner.processToolCalls([
      { name: 'generate_image', args: { prompt: 'p', image_paths: ['../etc/passwd'] } },
      { name: 'generate_image', args: { prompt: 'p', image_name: '../x.png' } },
      { name: 'generate_image', args: { prompt: 'p', image_paths: ['dir'] } },
      { name: 'generate_image', args: { prompt: 'p', image_name: 'dir' } },
    ]);
    expect(results.map((r) => ('code' in r ? r.code : 'ok'))).toEqual([
      'outside_workspace',
      'outside_workspace',
      'is_a_directory',
      'is_a_directory',
    ]);
    expect(requests).toHaveLength(0);
  });

  it('cuts a long image path to 200 characters in its messages', async () => {
    const { runner } = setup();
    const deep = Array.from({ length: 5 }, (_, i) => String(i).repeat(99)).join('/');
    const [result] = await runner.processToolCalls([{ name: 'generate_image', args: { prompt: 'p', image_paths: [deep] } }]);
    expect(result).toMatchObject({
      code: 'not_found',
      error: `image_paths[0] "${deep.slice(0, 200)}…" (299 more characters) does not exist; give the path of an existing image (find_file can look for it)`,
    });
  });

  it('fails with execution_failed and writes nothing when the hook returns no bytes', async () => {
    for (const bad of [new Uint8Array(0), 'not bytes', null]) {
      const { platform, runner } = setup({}, bad);
      const [result] = await runner.processToolCalls([{ name: 'generate_image', args: { prompt: 'p', image_name: 'x.png' } }]);
      expect(result).toMatchObject({ code: 'execution_failed', error: expect.stringContaining('Uint8Array') });
      expect(await platform.fs.readdir('/workspace')).toEqual([]);
    }
  });

  it('returns file_path null with a note when the host has no generateImage hook', async () => {
    const platform = createMemoryPlatform();
    const runner = new ToolRunner({ platform, tools: [generateImageTool] });
    const result = await runner.execute('generate_image', { prompt: 'p', image_name: 'x.png' });
    expect(result).toEqual({ file_path: null, bytes_written: 0, note: expect.stringMatching(/^no image generator: /) });
    expect(await platform.fs.readdir('/workspace')).toEqual([]);
  });
});
