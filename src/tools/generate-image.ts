import { ToolError } from '../core/errors.js';
import { clipForMessage, quoteForMessage } from '../fs/text.js';
import { defineTool, type ExecuteTool } from '../core/tool.js';
import { dirname, resolveWorkspacePath, writeFileAtomic } from '../fs/paths.js';

const inputSchema = {
  type: 'object',
  properties: {
    prompt: {
      type: 'string',
      minLength: 1,
      description: 'What the image should show.',
    },
    image_name: {
      type: 'string',
      description:
        'Workspace path to write the image to, absolute or relative to the workspace (e.g. "assets/logo.png"). ' +
        'An existing file there is replaced. Default: generated-<timestamp>.png in the workspace directory.',
    },
    image_paths: {
      type: 'array',
      items: { type: 'string' },
      description: 'Workspace paths of existing images to use as input (to edit or take style from).',
    },
  },
  required: ['prompt'],
  additionalProperties: false,
} as const;

/** Output of `generate_image`: where the image was written and its size in bytes, or `file_path: null` and a `note`. */
export type GenerateImageResult =
  | { file_path: string; bytes_written: number }
  | { file_path: null; bytes_written: 0; note: string };

/**
 * The built-in `generate_image` tool.
 *
 * Args `{ prompt, image_name?, image_paths? }`. Each of `image_paths` is resolved inside the workspace
 * (`resolveWorkspacePath`, argName `image_paths[i]`) and must be an existing file. The host's
 * `generateImage` hook (the {@link ToolRunner} option, reaching the tool as `ctx.hooks.generateImage`)
 * receives `{ prompt, image_name?, image_paths? (absolute), conversationId }` and returns the image bytes,
 * which are written atomically to `image_name` (default `generated-<ms since epoch>.png` in `ctx.cwd`;
 * parent directories are created, an existing file is replaced) → `{ file_path, bytes_written }` (bytes).
 * Without a hook: `{ file_path: null, bytes_written: 0, note }`, a success, and nothing is written.
 *
 * Errors: `not_found` (an input image is missing), `is_a_directory` (an input image or `image_name` is a
 * directory), `outside_workspace` / `invalid_arguments` (bad paths), `execution_failed` (the hook throws or
 * returns something other than non-empty bytes), `cancelled` / `timeout` from the runner.
 */
export const generateImageTool: ExecuteTool<
  { prompt: string; image_name?: string; image_paths?: string[] },
  GenerateImageResult
> = defineTool({
  name: 'generate_image',
  annotations: { title: 'Generate image', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  description:
    'Generate an image from a text prompt, optionally from existing workspace images (image_paths), and save it in ' +
    'the workspace at image_name (default generated-<timestamp>.png). Returns { file_path, bytes_written }. Where the ' +
    'host has no image generator, file_path is null and a note says so.',
  inputSchema,
  execute: async ({ prompt, image_name, image_paths }, ctx): Promise<GenerateImageResult> => {
    const generate = ctx.hooks.generateImage;
    if (!generate) {
      return {
        file_path: null,
        bytes_written: 0,
        note: 'no image generator: this runner was built without a generateImage hook, so no image was made',
      };
    }
    const scope = { fs: ctx.fs, root: ctx.platform.root, cwd: ctx.cwd };
    const inputs: string[] = [];
    for (const [i, given] of (image_paths ?? []).entries()) {
      const argName = `image_paths[${i}]`;
      const path = await resolveWorkspacePath(scope, given, { argName });
      let stats;
      try {
        stats = await ctx.fs.stat(path);
      } catch (error) {
        if ((error as { code?: unknown } | null)?.code === 'ENOENT') {
          throw new ToolError('not_found', `${argName} ${quoteForMessage(given)} does not exist; give the path of an existing image (find_file can look for it)`);
        }
        throw error;
      }
      if (stats.isDirectory()) {
        throw new ToolError('is_a_directory', `${argName} ${quoteForMessage(given)} is a directory; give the path of an image file`);
      }
      inputs.push(path);
    }
    const target = await resolveWorkspacePath(scope, image_name ?? `generated-${Date.now()}.png`, { argName: 'image_name' });
    const existing = await ctx.fs.stat(target).catch(() => undefined);
    if (existing?.isDirectory()) {
      throw new ToolError('is_a_directory', `image_name ${quoteForMessage(image_name ?? target)} is a directory; give a file name such as ${clipForMessage(target)}/image.png`);
    }
    const request: { prompt: string; image_name?: string; image_paths?: string[]; conversationId: string } = {
      prompt,
      conversationId: ctx.conversationId,
    };
    if (image_name !== undefined) request.image_name = image_name;
    if (image_paths !== undefined) request.image_paths = inputs;
    const bytes: unknown = await generate(request);
    if (!(bytes instanceof Uint8Array) || bytes.byteLength === 0) {
      throw new ToolError(
        'execution_failed',
        'the generateImage hook returned no image bytes (it must resolve to a non-empty Uint8Array); nothing was written',
      );
    }
    if (ctx.signal.aborted) throw ctx.signal.reason;
    await ctx.withPathLock(target, async () => {
      await ctx.fs.mkdir(dirname(target), { recursive: true });
      await writeFileAtomic(ctx.fs, target, bytes, ctx.platform.atomicWrites === true);
    });
    return { file_path: target, bytes_written: bytes.byteLength };
  },
});
