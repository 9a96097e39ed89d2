// The README's worker example, built as a user's app builds it (Vite defaults: an iife worker, which
// inlines every dynamic import), carries none of the optional features' code, nor the libraries that
// only some calls need (re2js, ignore, diff, @noble/hashes): it fetches each as a file of its own on first use.
// Its size is a figure of `npm run bench` (bench/bundle.bench.mjs), not a test.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { preview, type PreviewServer } from 'vite';
import { afterAll, describe, expect, it } from 'vitest';
import { buildReadmeWorker, readmeWorkerExample } from '../../scripts/readme-worker.mjs';
import { launch, newProfile, removeProfile, requireChromium, type BrowserSession } from './harness.js';

/**
 * Packages that only the users of a feature may bundle: ZenFS (mounts), ajv's compiler (runtime
 * schemas), just-bash (the shell); and those loaded by URL on first use: re2js (grep_search, when a
 * pattern needs it), ignore (a workspace's .gitignore rules), diff (edit_file's diff), @noble/hashes
 * (file fingerprints where WebCrypto is missing).
 */
const FORBIDDEN = [
  '/node_modules/@zenfs/',
  '/node_modules/ajv/',
  '/node_modules/just-bash/',
  '/node_modules/re2js/',
  '/node_modules/ignore/',
  '/node_modules/diff/',
  '/node_modules/@noble/',
];
/** The files beside the worker that it fetches on first use (name before Vite's hash), and a string of each. */
const LAZY_FILES: ReadonlyArray<[string, string]> = [
  ['re2js.min', 'missing closing )'],
  ['ignore.min', 'node-ignore'],
  ['diff.min', 'must be specified for Git patches'],
  // SHA-256's first round constant (0x428a2f98), as the minifier writes it.
  ['sha256.min', '1116352408'],
  // toolhost's own: the search pattern parser, on the first search; edit_file's no_match hint, only on a failed edit.
  ['regex-parser.min', 'invalid hexadecimal escape'],
  ['edit-hint.min', 'Text, whitespace and indentation must match exactly'],
  // The glob compiler, on the first find_file or search with include or exclude.
  ['glob.min', 'is not a valid glob'],
  // ajv's compiler, on the first runtime compile of a JSON Schema without a precompiled validator.
  ['ajv.min', 'strictSchema'],
];
/** The modules of folder workspaces, mounts and overlays (toolhost/web/folders), which the default IndexedDB workspace does without. */
const FOLDER_MODULES = ['/web/handle-fs.ts', '/web/directory.ts', '/web/mounts.ts', '/web/overlay.ts', '/web/folders.ts'];
/** The modules of the search index (toolhost/web/search-index), which a worker without `searchIndex` does without. */
const INDEX_MODULES = ['/src/search/index/', '/web/search-index.ts', '/web/search-index-store.ts'];
/**
 * The one piece of ajv the default worker keeps: the 20-line string-length helper that the built-in
 * tools' precompiled validators import (ajv standalone output); the compiler itself never enters.
 */
const ALLOWED = ['/node_modules/ajv/dist/runtime/ucs2length.js'];

describe("README's worker example", () => {
  it('builds with Vite defaults (iife worker, inlined dynamic imports) with no ZenFS, ajv compiler, just-bash, re2js, ignore, diff, @noble/hashes, folder, mount and overlay code or search index in it', async () => {
    const outDir = mkdtempSync(join(tmpdir(), 'toolhost-readme-build-'));
    try {
      const { code, modules, assets } = await buildReadmeWorker({ outDir });
      expect(modules.size).toBeGreaterThan(20);
      const offenders = [...modules.keys()].filter((id) => FORBIDDEN.some((f) => id.includes(f)) && !ALLOWED.some((a) => id.endsWith(a)));
      expect(offenders).toEqual([]);
      // Folder workspaces, mounts and overlays come with toolhost/web/folders only.
      expect([...modules.keys()].filter((id) => FOLDER_MODULES.some((m) => id.endsWith(m)))).toEqual([]);
      // The search index comes with toolhost/web/search-index only.
      expect([...modules.keys()].filter((id) => INDEX_MODULES.some((m) => id.includes(m)))).toEqual([]);
      // And by content, in case a module id were rewritten: strings of ZenFS's context, just-bash's
      // limits, ajv's core, and a string of each library loaded on first use.
      const text = code.toString('utf8');
      for (const marker of ['No file system for', 'maxCommandCount', 'strictSchema', ...LAZY_FILES.map(([, marker]) => marker)]) expect(text.includes(marker), marker).toBe(false);
      // None is inlined as a data: URL (Vite does so below 4 KiB; script-src 'self' would refuse it).
      expect(text.includes('data:text/javascript')).toBe(false);
      // Each library loaded on first use is an asset beside the worker, which names it; the asset is the library.
      for (const [name, marker] of LAZY_FILES) {
        const files = assets.filter((asset) => asset.startsWith(`${name}-`) && asset.endsWith('.js'));
        expect(files.length, name).toBe(1);
        expect(text.includes(files[0] as string), name).toBe(true);
        expect(readFileSync(join(outDir, 'assets', files[0] as string), 'utf8').includes(marker), name).toBe(true);
      }
    } finally {
      rmSync(outDir, { recursive: true, force: true });
    }
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

type CallResult = { result?: { total_matches: number; files_searched: number; matches?: Array<{ file_path: string; line_number: number }> }; error?: string; code?: string };
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

  it('answers a catastrophic pattern within its deadline, loading re2js only then, its thread still turning; fetches the pattern parser on the first search, diff on the first edit, ignore on the first .gitignore, the no_match hint on the first failed edit and the glob compiler on the first glob, and never SHA-256 in JavaScript (WebCrypto is there)', async () => {
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
    const libraryLoads: string[] = [];
    page.context().on('request', (request) => {
      if (/re2js\.min-[\w-]+\.js$/.test(request.url())) engineLoads.push(request.url());
      const library = /\/(ignore|diff|regex-parser|edit-hint|sha256|glob|ajv)\.min-[\w-]+\.js$/.exec(request.url());
      if (library) libraryLoads.push(library[1] as string);
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
    expect(written.map((r) => r.code ?? 'ok')).toEqual(['ok', 'ok']);
    // Patterns V8 runs safely never fetch the engine; the first search fetches the pattern parser.
    expect(libraryLoads).toEqual([]);
    const [plain] = await page.evaluate(() => th.call([{ id: '3', name: 'grep_search', args: { pattern: 'fi+ne|a!$' } }]));
    expect(plain?.result).toMatchObject({ total_matches: 2, files_searched: 2 });
    expect(engineLoads).toEqual([]);
    expect(libraryLoads).toEqual(['regex-parser']);
    // A ToolError thrown by the parser's own copy of the error code is answered by its code.
    const [bad] = await page.evaluate(() => th.call([{ id: '3b', name: 'grep_search', args: { pattern: 'fine\\x{zz}' } }]));
    expect(bad).toEqual({
      id: '3b',
      name: 'grep_search',
      code: 'invalid_pattern',
      error: 'pattern fine\\x{zz} is not a valid regular expression (ripgrep/RE2 syntax): invalid hexadecimal escape "zz"; fix the pattern, or set fixed_strings to search for the text literally',
    });

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

    // edit_file's diff library and the .gitignore library are fetched on their first use too, under the same policy.
    expect(libraryLoads).toEqual(['regex-parser']);
    const edits = await page.evaluate(() =>
      th.call([
        { id: '5', name: 'edit_file', args: { file_path: 'ok.txt', old_string: 'fine', new_string: 'good' } },
        { id: '6', name: 'edit_file', args: { file_path: 'ok.txt', old_string: 'good', new_string: 'fine' } },
      ]),
    );
    expect(edits.map((r) => r.code ?? (r.result as unknown as { diff: string }).diff)).toEqual([
      '--- /workspace/ok.txt\n+++ /workspace/ok.txt\n@@ -1,1 +1,1 @@\n-fine\n+good\n',
      '--- /workspace/ok.txt\n+++ /workspace/ok.txt\n@@ -1,1 +1,1 @@\n-good\n+fine\n',
    ]);
    expect(libraryLoads).toEqual(['regex-parser', 'diff']);
    const ignored = await page.evaluate(() =>
      th.call([
        { id: '7', name: 'create_file', args: { file_path: '.gitignore', content: 'evil.txt\n' } },
        { id: '8', name: 'grep_search', args: { pattern: 'fine|a!' } },
      ]),
    );
    expect(ignored[0]?.error).toBeUndefined();
    expect(ignored[1]?.result).toMatchObject({ total_matches: 1, files_searched: 2 });
    expect(libraryLoads).toEqual(['regex-parser', 'diff', 'ignore']);
    const [missed] = await page.evaluate(() => th.call([{ id: '9', name: 'edit_file', args: { file_path: 'ok.txt', old_string: 'fine!', new_string: 'x' } }]));
    expect(missed).toMatchObject({
      code: 'no_match',
      error: 'old_string was not found in /workspace/ok.txt. The closest line is 1: "fine". Text, whitespace and indentation must match exactly; view_file the lines around it and copy them.',
    });
    expect(libraryLoads).toEqual(['regex-parser', 'diff', 'ignore', 'edit-hint']);
    // find_file and a search's include fetch the glob compiler on the first glob; a bad glob's
    // invalid_pattern, thrown by the compiler's own copy of the error code, is answered by its code.
    const globbed = await page.evaluate(() =>
      th.call([
        { id: '10', name: 'find_file', args: { pattern: '*.txt' } },
        { id: '11', name: 'grep_search', args: { pattern: 'fine', include: 'ok.*' } },
        { id: '12', name: 'find_file', args: { pattern: '[z-a].txt' } },
      ]),
    );
    expect(globbed[0]?.result).toEqual({ files: ['/workspace/ok.txt'], total: 1, truncated: false });
    expect(globbed[1]?.result).toMatchObject({ total_matches: 1, files_searched: 1 });
    expect(globbed[2]).toEqual({
      id: '12',
      name: 'find_file',
      code: 'invalid_pattern',
      error: 'pattern "[z-a].txt" is not a valid glob: the class "[z-a]" is not valid (Range out of order in character class)',
    });
    expect(libraryLoads).toEqual(['regex-parser', 'diff', 'ignore', 'edit-hint', 'glob']);
  });
});
