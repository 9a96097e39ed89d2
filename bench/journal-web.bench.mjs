// The change journal in Debian Chromium (needs /usr/bin/chromium): its cost on 1,000 create_file and
// 1,000 edit_file calls (each 1,000 in one processToolCalls, a runner on an IndexedDB workspace with
// the journal in the workspace's journal database) beside the same calls on a runner with
// `journal: false`, and a rewind of 100 files beside writing them through the platform with one
// flush. The page (test/pages/journal.html, `tjBench`) is built with vite and served by vite preview
// on 127.0.0.1.
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
const PAIRS = 5;

const median = (xs) => [...xs].sort((x, y) => x - y)[xs.length >> 1];

export default async function run() {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium is missing at ${CHROMIUM}: apt-get install -y chromium`);
  const outDir = mkdtempSync(join(tmpdir(), 'toolhost-bench-journal-pages-'));
  const profile = mkdtempSync(join(tmpdir(), 'toolhost-bench-journal-profile-'));
  let server;
  let context;
  try {
    await build({
      root: pages,
      base: '/test/pages/',
      configFile: false,
      logLevel: 'error',
      build: { outDir, emptyOutDir: true, target: 'es2022', rollupOptions: { input: { journal: join(pages, 'journal.html') } } },
      worker: { format: 'es' },
    });
    server = await preview({ root: pages, base: '/test/pages/', configFile: false, logLevel: 'error', build: { outDir }, preview: { host: '127.0.0.1', port: 0 } });
    const { port } = server.httpServer.address();
    context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: ARGS });
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(`http://127.0.0.1:${port}/test/pages/journal.html`);
    await page.waitForFunction(() => document.title === 'toolhost journal page ready');
    // One unmeasured pair warms both up; then pairs, which goes first alternating (the machine's load varies by seconds).
    const runs = { on: [], off: [] };
    for (let pair = 0; pair < PAIRS + 1; pair += 1) {
      for (const journal of pair % 2 === 0 ? [true, false] : [false, true]) {
        const result = await page.evaluate((j) => globalThis.tjBench.calls(j), journal);
        if (result.stored !== 1000) throw new Error(`the calls stored ${result.stored} files, not 1000`);
        if (pair > 0) runs[journal ? 'on' : 'off'].push(result);
      }
    }
    const rewind = await page.evaluate(() => globalThis.tjBench.rewinds(100, 8));
    const rewinds = rewind.rewinds.slice(1);
    const direct = rewind.direct.slice(1);
    const note = `1,000 files of 4 KiB in one processToolCalls (one turn, one strict commit of the workspace, one of the journal); median of ${PAIRS} runs, on and off alternating`;
    return [
      { figure: 'web: create_file × 1,000 in one batch, journal on (IndexedDB)', value: median(runs.on.map((r) => r.create)), unit: 'ms', anchor: 'the same, journal: false', anchorValue: median(runs.off.map((r) => r.create)), target: '≤ 1.1x', note },
      { figure: 'web: edit_file × 1,000 in one batch, journal on (IndexedDB)', value: median(runs.on.map((r) => r.edit)), unit: 'ms', anchor: 'the same, journal: false', anchorValue: median(runs.off.map((r) => r.edit)), target: '≤ 1.1x', note },
      { figure: 'web: rewind of 100 files (IndexedDB workspace and journal)', value: median(rewinds), unit: 'ms', anchor: '100 writeFile through the platform and one flush', anchorValue: median(direct), target: '≤ 250 ms', note: `100 files of 4 KiB edited in one turn, rewound and the rewind undone alternately; median of ${rewinds.length}` },
    ];
  } finally {
    await context?.close().catch(() => undefined);
    await server?.close();
    rmSync(outDir, { recursive: true, force: true });
    rmSync(profile, { recursive: true, force: true });
  }
}
