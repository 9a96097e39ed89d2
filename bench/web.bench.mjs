// Web platform figures in Debian Chromium (needs /usr/bin/chromium; `apt-get install -y chromium`):
// the durable write path, opening a large workspace, and the worker bundle size. The bench page
// (web/test-pages/bench.html) is built with vite and served by vite preview on 127.0.0.1.
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { build, preview } from 'vite';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pages = join(root, 'web', 'test-pages');
const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

async function bundleSize(entry) {
  const outDir = mkdtempSync(join(tmpdir(), 'toolhost-bundle-'));
  try {
    await build({
      configFile: false,
      logLevel: 'error',
      build: { outDir, minify: true, target: 'es2022', lib: { entry: join(pages, entry), formats: ['es'], fileName: 'worker' }, rollupOptions: { output: { codeSplitting: false } } },
    });
    const files = readdirSync(outDir).filter((f) => f.endsWith('.js'));
    return files.reduce((sum, f) => sum + gzipSync(readFileSync(join(outDir, f))).length, 0) / 1024;
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

export default async function run() {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium is missing at ${CHROMIUM}: apt-get install -y chromium`);
  const outDir = mkdtempSync(join(tmpdir(), 'toolhost-bench-pages-'));
  const profile = mkdtempSync(join(tmpdir(), 'toolhost-bench-profile-'));
  let server;
  let context;
  try {
    await build({
      root: pages,
      base: '/web/test-pages/',
      configFile: false,
      logLevel: 'error',
      build: { outDir, emptyOutDir: true, target: 'es2022', rollupOptions: { input: { bench: join(pages, 'bench.html') } } },
      worker: { format: 'es' },
    });
    server = await preview({ root: pages, base: '/web/test-pages/', configFile: false, logLevel: 'error', build: { outDir }, preview: { host: '127.0.0.1', port: 0 } });
    const { port } = server.httpServer.address();
    context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: ARGS });
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(`http://127.0.0.1:${port}/web/test-pages/bench.html`);
    await page.waitForFunction(() => document.title === 'toolhost bench page ready');
    const keyval = await page.evaluate(() => globalThis.bench.idbKeyvalSetMany());
    const batched = await page.evaluate(() => globalThis.bench.createFileCalls('strict', true));
    const keyval2 = await page.evaluate(() => globalThis.bench.idbKeyvalSetMany());
    const perCall = await page.evaluate(() => globalThis.bench.createFileCalls('strict', false));
    const zenfs = await page.evaluate(() => globalThis.bench.zenfsDomPromises());
    const open = await page.evaluate(() => globalThis.bench.openWorkspace(5000));
    const anchor = (keyval + keyval2) / 2;
    const worker = await bundleSize('bench-worker.ts');
    const baseline = await bundleSize('bench-baseline-worker.ts');
    return [
      { figure: 'web: 1,000 create_file (4 KiB) in one processToolCalls, WebToolRunner (one strict commit per batch)', value: batched.ms, unit: 'ms', anchor: 'idb-keyval setMany of 1,000 × 4 KiB', anchorValue: anchor, target: '≤ 3x' },
      { figure: 'web: the same through ToolRunner (one strict commit per call)', value: perCall.ms, unit: 'ms', anchor: 'idb-keyval setMany of 1,000 × 4 KiB', anchorValue: anchor },
      { figure: 'web: 1,000 writeFile through @zenfs/dom IndexedDB promise API', value: zenfs, unit: 'ms', anchor: 'idb-keyval setMany of 1,000 × 4 KiB', anchorValue: anchor, note: 'for comparison: one transaction per operation' },
      { figure: 'web: open a 5,000-file workspace to the first tool result', value: open.ms, unit: 'ms', anchor: 'idb-keyval entries() of the same 5,000 values', anchorValue: open.anchorMs },
      { figure: 'web: worker bundle (platform + built-ins + bridge), min+gzip', value: worker, unit: 'KiB', anchor: 'comlink + @zenfs/core + @zenfs/dom worker, min+gzip', anchorValue: baseline, target: '≤ 110 KB' },
    ];
  } finally {
    await context?.close().catch(() => undefined);
    await server?.close();
    rmSync(outDir, { recursive: true, force: true });
    rmSync(profile, { recursive: true, force: true });
  }
}
