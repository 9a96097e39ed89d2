// Web platform figures in Debian Chromium (needs /usr/bin/chromium; `apt-get install -y chromium`): the
// bridge round trip (execute through connectToolRunner next to a bare comlink call, bench-rpc-worker.ts),
// the durable write path, importing 5,000 files, create_file on a folder workspace, opening a large workspace, and the worker bundle size. The bench page
// (test/pages/bench.html) is built with vite and served by vite preview on 127.0.0.1.
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { build, preview } from 'vite';
import { LAZY_MODULES, lazyFile } from '../scripts/build-lazy.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pages = join(root, 'test', 'pages');
const CHROMIUM = '/usr/bin/chromium';
const PAIRS = 5;
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

/**
 * Builds `entry` as an app builds an ES worker (code splitting; assets such as re2js's file emitted
 * beside the chunks, where a library build would inline them as data URLs) and returns min+gzip KiB
 * of: `start`, what the worker loads to answer its first file tool call (the entry chunk and its
 * static imports: the workspace filesystem, MemoryFs, is among them), and `total`, every chunk.
 */
async function bundleSize(entry) {
  const outDir = mkdtempSync(join(tmpdir(), 'toolhost-bundle-'));
  try {
    const result = await build({
      configFile: false,
      logLevel: 'error',
      build: { outDir, minify: true, target: 'es2022', rollupOptions: { input: join(pages, entry), output: { format: 'es' } } },
    });
    const chunks = (Array.isArray(result) ? result : [result]).flatMap((r) => r.output).filter((o) => o.type === 'chunk');
    const byName = new Map(chunks.map((c) => [c.fileName, c]));
    const size = (c) => gzipSync(Buffer.from(c.code)).length / 1024;
    const start = new Set();
    const add = (c) => {
      if (!c || start.has(c)) return;
      start.add(c);
      for (const name of c.imports) add(byName.get(name));
    };
    for (const c of chunks) if (c.isEntry) add(c);
    const sum = (list) => list.reduce((acc, c) => acc + size(c), 0);
    return { start: sum([...start]), total: sum(chunks), chunks: chunks.map((c) => `${c.fileName} ${size(c).toFixed(1)}`).join(', ') };
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
      base: '/test/pages/',
      configFile: false,
      logLevel: 'error',
      build: { outDir, emptyOutDir: true, target: 'es2022', rollupOptions: { input: { bench: join(pages, 'bench.html') } } },
      worker: { format: 'es' },
    });
    server = await preview({ root: pages, base: '/test/pages/', configFile: false, logLevel: 'error', build: { outDir }, preview: { host: '127.0.0.1', port: 0 } });
    const { port } = server.httpServer.address();
    context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: ARGS });
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(`http://127.0.0.1:${port}/test/pages/bench.html`);
    await page.waitForFunction(() => document.title === 'toolhost bench page ready');
    const trips = await page.evaluate(() => globalThis.bench.roundTrips());
    // The batch figure and its anchor, paired and interleaved: this machine's load varies by seconds.
    const median = (xs) => [...xs].sort((x, y) => x - y)[xs.length >> 1];
    const anchors = [];
    const batches = [];
    for (let round = 0; round < PAIRS; round += 1) {
      anchors.push(await page.evaluate(() => globalThis.bench.idbKeyvalSetMany()));
      const batched = await page.evaluate(() => globalThis.bench.createFileCalls('strict', true));
      if (batched.stored !== 1000) throw new Error(`the batch stored ${batched.stored} files, not 1000`);
      batches.push(batched.ms);
    }
    const perCall = await page.evaluate(() => globalThis.bench.createFileCalls('strict', false));
    const zenfs = await page.evaluate(() => globalThis.bench.zenfsDomPromises());
    const open = await page.evaluate(() => globalThis.bench.openWorkspace(5000));
    // Each run measures the figure and its anchor back to back; the median of the runs is reported.
    const imports = [];
    const folders = [];
    for (let round = 0; round < 3; round += 1) {
      const imported = await page.evaluate(() => globalThis.bench.importFiles(5000, 10_000));
      if (imported.stored !== 50) throw new Error(`the import stored ${imported.stored} folders, not 50`);
      imports.push(imported);
      const folder = await page.evaluate(() => globalThis.bench.folderCreateFiles());
      if (folder.stored !== 1000) throw new Error(`the folder workspace stored ${folder.stored} files, not 1000`);
      folders.push(folder);
    }
    const anchor = median(anchors);
    const worker = await bundleSize('bench-worker.ts');
    const baseline = await bundleSize('bench-baseline-worker.ts');
    const lazy = LAZY_MODULES.map(({ file }) => `${file} ${(gzipSync(readFileSync(lazyFile(file))).length / 1024).toFixed(1)}`).join(', ');
    return [
      {
        figure: 'web: execute of a trivial tool through connectToolRunner (median per round trip)',
        value: trips.executeUs,
        unit: 'µs',
        anchor: 'bare comlink no-op round trip, same page',
        anchorValue: trips.comlinkUs,
        target: '≤ 1.3x',
        note: `medians of ${trips.rounds} interleaved rounds of ${trips.calls} calls each, after a 2 s warm-up; median of the rounds' own ratios: ${trips.ratio.toFixed(2)}x`,
      },
      { figure: 'web: 1,000 create_file (4 KiB) in one processToolCalls, ToolRunner with platform.batch (one strict commit per batch)', value: median(batches), unit: 'ms', anchor: 'idb-keyval setMany of 1,000 × 4 KiB', anchorValue: anchor, target: '≤ 3x', note: `median of ${PAIRS}, each run paired with its anchor; ours commits with durability 'strict', setMany with the browser's default` },
      { figure: 'web: the same through ToolRunner (one strict commit per call)', value: perCall.ms, unit: 'ms', anchor: 'idb-keyval setMany of 1,000 × 4 KiB', anchorValue: anchor },
      { figure: 'web: 1,000 writeFile through @zenfs/dom IndexedDB promise API', value: zenfs, unit: 'ms', anchor: 'idb-keyval setMany of 1,000 × 4 KiB', anchorValue: anchor, note: 'for comparison: one transaction per operation' },
      { figure: 'web: import 5,000 files / 50 MB into a new IndexedDB workspace (bytes transferred to its worker, createWebPlatform({ files }): one transaction)', value: median(imports.map((r) => r.ms)), unit: 'ms', anchor: 'idb-keyval setMany of the same 5,000 entries, same page', anchorValue: median(imports.map((r) => r.anchorMs)), target: '≤ 1.5x', note: `median of 3 paired runs; longest main-thread task during the import: ${Math.max(...imports.map((r) => r.longestTaskMs))} ms (0: none over 50 ms; target: none over 100 ms)` },
      { figure: 'web: 1,000 create_file (4 KiB) in one processToolCalls on a folder workspace (an OPFS directory handle)', value: median(folders.map((r) => r.ms)), unit: 'ms', anchor: 'the same files written with the File System Access API directly, same page', anchorValue: median(folders.map((r) => r.anchorMs)), target: '≤ 1.5x', note: 'median of 3 paired runs; each write awaits its writable stream\'s close' },
      { figure: 'web: open a 5,000-file workspace to the first tool result', value: open.ms, unit: 'ms', anchor: 'idb-keyval entries() of the same 5,000 values', anchorValue: open.anchorMs },
      { figure: 'web: worker bundle (platform + built-ins + bridge) loaded at start, min+gzip', value: worker.start, unit: 'KiB', anchor: 'comlink + @zenfs/core + @zenfs/dom worker, min+gzip', anchorValue: baseline.total, target: '≤ 110 KB', note: `all chunks ${worker.total.toFixed(1)} KiB: ${worker.chunks}; fetched on first use, beside them (KiB): ${lazy}` },
    ];
  } finally {
    await context?.close().catch(() => undefined);
    await server?.close();
    rmSync(outDir, { recursive: true, force: true });
    rmSync(profile, { recursive: true, force: true });
  }
}
