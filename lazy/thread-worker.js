// A worker thread of lazy/threads.js: runs one task at a time and answers `{ id, ok, value }`, or
// `{ id, ok: false, code, message }` for an error with a code (a ToolError of the module it ran).
import { parentPort } from 'node:worker_threads';

const TASKS = {
  /** web_fetch's HTML → Markdown (src/tools/web-fetch/html.ts). */
  async html({ html, options }) {
    const { htmlToMarkdown } = await import('./html-markdown.min.js');
    return htmlToMarkdown(html, options);
  },
  /** edit_file's diff: the diff library's structured patch, as src/tools/edit/diff.ts asks for it. */
  async diff({ path, before, after, options }) {
    const { structuredPatch } = await import('diff/lib/patch/create.js');
    return structuredPatch(path, path, before, after, '', '', options) ?? null;
  },
  /** edit_file's no_match hint (src/tools/edit/hint.ts). */
  async hint({ fileLf, needleLf, fileHasBom }) {
    const { noMatchHint } = await import('./edit-hint.min.js');
    return noMatchHint(fileLf, needleLf, fileHasBom);
  },
};

parentPort.on('message', async ({ id, task, input }) => {
  try {
    const run = TASKS[task];
    if (!run) throw Object.assign(new Error(`no task ${task}`), { code: 'execution_failed' });
    parentPort.postMessage({ id, ok: true, value: await run(input) });
  } catch (error) {
    const code = typeof error?.code === 'string' ? error.code : 'execution_failed';
    parentPort.postMessage({ id, ok: false, code, message: error?.message ?? String(error) });
  }
});
