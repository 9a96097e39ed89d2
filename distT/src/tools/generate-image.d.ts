import { type Tool } from '../core/tool.js';
/** Output of `generate_image`: where the image was written and its size in bytes, or `file_path: null` and a `note`. */
export type GenerateImageResult = {
    file_path: string;
    bytes_written: number;
} | {
    file_path: null;
    bytes_written: 0;
    note: string;
};
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
export declare const generateImageTool: Tool<{
    prompt: string;
    image_name?: string;
    image_paths?: string[];
}, GenerateImageResult>;
