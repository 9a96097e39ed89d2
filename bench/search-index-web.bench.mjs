// The search index of an IndexedDB workspace in Debian Chromium (needs /usr/bin/chromium): a
// repeated literal grep_search on a 20,000-file workspace with `searchIndex: webSearchIndex()` (the index built
// and warm) beside the same search on the same workspace without an index, pairs alternating, the
// answers compared; and the build, and the saved index read back by a reopened workspace. The page
// (test/pages/search-index.html, `tsiBench`) is built with vite and served by vite preview on
// 127.0.0.1. Run alone with `node bench/run.mjs search-index-web`.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { build, preview } from 'vite';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pages = join(root, 'test', 'pages');
const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
const FILES = 20_000;
const PAIRS = 9;

export default async function run() {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium is missing at ${CHROMIUM}: apt-get install -y chromium`);
  const outDir = mkdtempSync(join(tmpdir(), 'toolhost-bench-index-pages-'));
  const profile = mkdtempSync(join(tmpdir(), 'toolhost-bench-index-profile-'));
  let server;
  let context;
  try {
    await build({
      root: pages,
      base: '/test/pages/',
      configFile: false,
      logLevel: 'error',
      build: { outDir, emptyOutDir: true, target: 'es2022', rollupOptions: { input: { 'search-index': join(pages, 'search-index.html') } } },
      worker: { format: 'es' },
    });
    server = await preview({ root: pages, base: '/test/pages/', configFile: false, logLevel: 'error', build: { outDir }, preview: { host: '127.0.0.1', port: 0 } });
    const { port } = server.httpServer.address();
    context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: ARGS });
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(`http://127.0.0.1:${port}/test/pages/search-index.html`);
    await page.waitForFunction(() => document.title === 'toolhost search index page ready');
    const r = await page.evaluate(([files, pairs]) => globalThis.tsiBench.run(files, pairs), [FILES, PAIRS]);
    if (!r.same) throw new Error('the answers with and without the index differ');
    if (r.build?.from !== 'built' || r.reopen?.from !== 'disk') throw new Error(`the index was ${JSON.stringify(r.build)} then ${JSON.stringify(r.reopen)}, not built then read`);
    const note = `${FILES.toLocaleString('en')} files of ~1 KiB, literal "zebraCrossing" (${r.matches} matches in ${FILES / 1000} files), count mode; median of ${PAIRS} pairs, which first alternating, the answers identical`;
    return [
      { figure: 'Chromium, a 20,000-file IndexedDB workspace: repeated search with the search index', value: r.on, unit: 'ms', anchor: 'the same search with the index off', anchorValue: r.off, target: '≤ 0.1x', note },
      { figure: 'Chromium, a 20,000-file IndexedDB workspace: search index build (background, in the worker)', value: r.buildMs, unit: 'ms', anchor: 'loading the workspace from IndexedDB', anchorValue: r.loadMs, note: 'searchIndexReady() after ready(): the walk, reading each file from the loaded tree, and the save to IndexedDB' },
      { figure: 'Chromium, a 20,000-file IndexedDB workspace: saved index read back on reopen', value: r.reopenMs, unit: 'ms', anchor: 'the build', anchorValue: r.buildMs, note: `searchIndexReady() of a new platform: { from: 'disk' }; its first search then took ${r.firstAfterReopenMs.toFixed(0)} ms (loading the workspace included)` },
    ];
  } finally {
    await context?.close().catch(() => undefined);
    await server?.close();
    rmSync(outDir, { recursive: true, force: true });
    rmSync(profile, { recursive: true, force: true });
  }
}
