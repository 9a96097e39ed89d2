// Builds the README's worker example as a user's Vite app would (default settings unless `format` is
// given), with toolhost pointed at this checkout's sources. Shared by the bundle test and the bench.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';
import { ensureLazyBundles } from './build-lazy.mjs';

const ROOT = join(import.meta.dirname, '..');

/** The README's ```ts block that starts with `// worker.ts`, split into the worker and the page. */
export function readmeWorkerExample() {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const example = /```ts\n(\/\/ worker\.ts\n[\s\S]*?)```/.exec(readme)?.[1];
  if (!example) throw new Error('README has no ```ts block starting with // worker.ts');
  const [worker, page] = example.split(/^\/\/ page\.ts\n/m);
  if (page === undefined) throw new Error('the README worker example has no // page.ts part');
  return { worker, page };
}

/**
 * Builds `files.worker` / `files.page` (default: the README's example) and returns the worker bundle:
 * `{ code: Buffer, gzipBytes, modules: Map<id, renderedLength>, assets: string[] }`, built with Vite's
 * default worker format (iife, which inlines every dynamic import). `outDir`: where the app is built
 * and left (index.html, assets/), for a test to serve; by default a temporary folder, removed.
 */
export async function buildReadmeWorker({ files = readmeWorkerExample(), outDir } = {}) {
  await ensureLazyBundles();
  // Inside this checkout's node_modules, so the example's own imports (comlink, ...) resolve as in an app.
  const dir = mkdtempSync(join(ROOT, 'node_modules', '.toolhost-readme-worker-'));
  const modules = new Map();
  const recorder = {
    name: 'record-modules',
    generateBundle(_options, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type === 'chunk') for (const [id, m] of Object.entries(chunk.modules)) modules.set(id, m.renderedLength);
      }
    },
  };
  try {
    writeFileSync(join(dir, 'worker.ts'), files.worker);
    writeFileSync(join(dir, 'page.ts'), files.page);
    writeFileSync(join(dir, 'index.html'), '<!doctype html><html><head><title>app</title></head><body><script type="module" src="./page.ts"></script></body></html>');
    await build({
      root: dir,
      configFile: false,
      logLevel: 'error',
      resolve: {
        alias: [
          { find: /^toolhost\/web$/, replacement: join(ROOT, 'web', 'index.ts') },
          // The entries of optional features (toolhost/web/search-index, ...), for variants of the example.
          { find: /^toolhost\/web\/([a-z-]+)$/, replacement: join(ROOT, 'web', '$1.ts') },
          { find: /^toolhost$/, replacement: join(ROOT, 'src', 'index.ts') },
        ],
      },
      worker: { plugins: () => [recorder] },
      build: { outDir: outDir ?? join(dir, 'dist'), emptyOutDir: true },
    });
    const assets = join(outDir ?? join(dir, 'dist'), 'assets');
    const names = readdirSync(assets);
    const workers = names.filter((name) => name.startsWith('worker') && name.endsWith('.js'));
    if (workers.length !== 1) throw new Error(`expected one worker bundle, found ${workers.length}`);
    const code = readFileSync(join(assets, workers[0]));
    return { code, gzipBytes: gzipSync(code).length, modules, assets: names };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
