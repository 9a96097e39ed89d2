// The README's worker example, built as a user's app builds it (Vite defaults: an iife worker, which
// inlines every dynamic import), carries none of the optional features' code, nor re2js (the
// linear-time regex engine), which it fetches as a file of its own the first time a pattern needs it.
// Its size is a figure of `npm run bench` (bench/bundle.bench.mjs), not a test.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { preview, type PreviewServer } from 'vite';
import { afterAll, describe, expect, it } from 'vitest';
import { buildReadmeWorker, readmeWorkerExample } from '../../scripts/readme-worker.mjs';
import { launch, newProfile, removeProfile, requireChromium, type BrowserSession } from './harness.js';

/**
 * Packages that only the users of a feature may bundle: ZenFS (mounts), ajv's compiler (runtime
 * schemas), just-bash (the shell), and re2js, which grep_search loads by URL when a pattern needs it.
 */
const FORBIDDEN = ['/node_modules/@zenfs/', '/node_modules/ajv/', '/node_modules/just-bash/', '/node_modules/re2js/'];
/** The modules of folder workspaces, mounts and overlays (toolhost/web/folders), which the default IndexedDB workspace does without. */
const FOLDER_MODULES = ['/web/handle-fs.ts', '/web/directory.ts', '/web/mounts.ts', '/web/overlay.ts', '/web/folders.ts'];
/**
 * The one piece of ajv the default worker keeps: the 20-line string-length helper that the built-in
 * tools' precompiled validators import (ajv standalone output); the compiler itself never enters.
 */
const ALLOWED = ['/node_modules/ajv/dist/runtime/ucs2length.js'];

describe("README's worker example", () => {
  it('builds with Vite defaults (iife worker, inlined dynamic imports) with no ZenFS, ajv compiler, just-bash, re2js or folder, mount and overlay code in it', async () => {
    const { code, modules, assets } = await buildReadmeWorker();
    expect(modules.size).toBeGreaterThan(20);
    const offenders = [...modules.keys()].filter((id) => FORBIDDEN.some((f) => id.includes(f)) && !ALLOWED.some((a) => id.endsWith(a)));
    expect(offenders).toEqual([]);
    // Folder workspaces, mounts and overlays come with toolhost/web/folders only.
    expect([...modules.keys()].filter((id) => FOLDER_MODULES.some((m) => id.endsWith(m)))).toEqual([]);
    // And by content, in case a module id were rewritten: strings of ZenFS's context, just-bash's
    // limits, ajv's core and re2js's parser.
    const text = code.toString('utf8');
    for (const marker of ['No file system for', 'maxCommandCount', 'strictSchema', 'missing closing )']) expect(text.includes(marker), marker).toBe(false);
    // re2js is an asset beside the worker, and the worker names it.
    const engine = assets.filter((name) => /^re2js\.min-[\w-]+\.js$/.test(name));
    expect(engine.length).toBe(1);
    expect(text.includes(engine[0] as string)).toBe(true);
  });
});

/** The README's page, exposing its runner to the test; the README's worker, with a 5 ms timer that reports its longest gap. */
const PAGE = `import { connectToolRunner } from 'toolhost/web';
const runner = connectToolRunner(() => new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' }),
                                 { defaultTimeoutMs: 30_000 });
const ticks = new BroadcastChannel('ticks');
globalThis.th = {
  call: (calls, options) => runner.processToolCalls(calls, options),
  gap: (reset) => new Promise((resolve) => { ticks.onmessage = (event) => resolve(event.data); ticks.postMessage(reset ? 'reset' : 'read'); }),
};
document.title = 'ready';
`;
const WORKER_TIMER = `
const ticks = new BroadcastChannel('ticks');
let last = performance.now();
let gap = 0;
setInterval(() => { const now = performance.now(); gap = Math.max(gap, now - last); last = now; }, 5);
ticks.onmessage = (event) => {
  const now = performance.now();
  const longest = Math.max(gap, now - last);
  if (event.data === 'reset') { gap = 0; last = now; }
  ticks.postMessage(longest);
};
`;

type CallResult = { result?: { total_matches: number; files_searched: number; matches?: Array<{ file_path: string; line_number: number }> }; error?: { code: string } };
declare const th: { call(calls: unknown[], options?: unknown): Promise<CallResult[]>; gap(reset: boolean): Promise<number> };

describe("README's worker example in Chromium (Vite defaults, script-src 'self')", () => {
  let server: PreviewServer | undefined;
  let session: BrowserSession | undefined;
  const outDir = mkdtempSync(join(tmpdir(), 'toolhost-readme-app-'));
  const profile = newProfile();
  afterAll(async () => {
    await session?.close();
    await server?.close();
    rmSync(outDir, { recursive: true, force: true });
    removeProfile(profile);
  });

  it('answers a catastrophic pattern within its deadline, loading re2js only then, its thread still turning', async () => {
    requireChromium();
    const { worker } = readmeWorkerExample();
    await buildReadmeWorker({ files: { worker: worker + WORKER_TIMER, page: PAGE }, outDir });
    server = await preview({
      root: outDir,
      configFile: false,
      logLevel: 'error',
      build: { outDir },
      preview: { host: '127.0.0.1', port: 0, strictPort: false, headers: { 'Content-Security-Policy': "script-src 'self'" } },
    });
    const address = server.httpServer.address();
    if (!address || typeof address === 'string') throw new Error('vite preview did not report a port');
    session = await launch(profile);
    const page = session.page;
    const engineLoads: string[] = [];
    page.context().on('request', (request) => {
      if (/re2js\.min-[\w-]+\.js$/.test(request.url())) engineLoads.push(request.url());
    });
    const response = await page.goto(`http://127.0.0.1:${address.port}/`);
    expect(response?.headers()['content-security-policy']).toBe("script-src 'self'");
    await page.waitForFunction(() => document.title === 'ready');

    const written = await page.evaluate(() =>
      th.call([
        { id: '1', name: 'create_file', args: { file_path: 'evil.txt', content: `${'a'.repeat(50_000)}!\n` } },
        { id: '2', name: 'create_file', args: { file_path: 'ok.txt', content: 'fine\n' } },
      ]),
    );
    expect(written.map((r) => r.error?.code ?? 'ok')).toEqual(['ok', 'ok']);
    // Patterns V8 runs safely never fetch the engine.
    const [plain] = await page.evaluate(() => th.call([{ id: '3', name: 'grep_search', args: { pattern: 'fi+ne|a!$' } }]));
    expect(plain?.result).toMatchObject({ total_matches: 2, files_searched: 2 });
    expect(engineLoads).toEqual([]);

    const deadline = 3000;
    for (const pattern of ['(a+)+$', '(.*a){20}!', '(a|aa)*b']) {
      await page.evaluate(() => th.gap(true));
      const { ms, results } = await page.evaluate(
        async ({ pattern, deadline }) => {
          const started = performance.now();
          const results = await th.call([{ id: '4', name: 'grep_search', args: { pattern } }], { timeoutMs: deadline });
          return { ms: performance.now() - started, results };
        },
        { pattern, deadline },
      );
      const gap = await page.evaluate(() => th.gap(false));
      expect(ms, pattern).toBeLessThan(deadline + 250);
      expect(results[0]?.error, pattern).toBeUndefined();
      expect(results[0]?.result?.files_searched, pattern).toBe(2);
      expect(results[0]?.result?.total_matches, pattern).toBe(pattern === '(.*a){20}!' ? 1 : 0);
      // The worker's timer keeps ticking: no engine call blocks its thread for long.
      expect(gap, pattern).toBeLessThan(1000);
    }
    // Fetched once, on the first pattern that needed it.
    expect(engineLoads.length).toBe(1);
  });
});
