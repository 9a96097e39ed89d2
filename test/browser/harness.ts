import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { build, preview, type PreviewServer } from 'vite';
import { afterAll, beforeAll } from 'vitest';
import { ensureLazyBundles } from '../../scripts/build-lazy.mjs';
import { cachedBuild } from '../support/build-cache.js';

/** Where Debian puts Chromium; the browser tests fail (never skip) when it is missing. */
export const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
const ROOT = join(import.meta.dirname, '..', '..');

/** Throws a message naming the fix when Chromium is not installed. */
export function requireChromium(): string {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium is missing at ${CHROMIUM}: install it with \`apt-get install -y chromium\` (browser tests never skip)`);
  }
  return CHROMIUM;
}

/** What the test pages' build reads: its sources, toolhost's, the lazy bundles, the dependencies, this file. */
const PAGE_INPUTS = ['test/pages', 'test/contract', 'src', 'web', 'bridges', 'lazy', 'package-lock.json', 'test/browser/harness.ts'];

/** The built test pages served on 127.0.0.1 (under /test/pages/). */
export interface TestServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** Absolute URL of a test page: `page('index.html')`. */
  page(name: string): string;
  close(): Promise<void>;
}

/**
 * Builds the test pages (test/pages/*.html, their workers and the toolhost sources they import)
 * with vite (once per change of their sources, see test/support/build-cache.ts) and serves them with `vite preview` on 127.0.0.1 (a real origin:
 * IndexedDB refuses opaque ones). A production bundle loads in a few hundred ms where the dev server's
 * unbundled modules take seconds per page on these machines. `csp` adds
 * `Content-Security-Policy: script-src 'self'` to every response (pages and worker scripts alike).
 */
export async function startServer(options: { csp?: boolean } = {}): Promise<TestServer> {
  await ensureLazyBundles();
  const pages = join(ROOT, 'test', 'pages');
  const input = Object.fromEntries(
    readdirSync(pages)
      .filter((name) => name.endsWith('.html'))
      .map((name) => [name.slice(0, -5), join(pages, name)]),
  );
  // One build per change of what it reads, shared by the browser test files (test/support/build-cache.ts).
  const outDir = await cachedBuild('test-pages', PAGE_INPUTS, async (dir) => {
    await build({
      root: pages,
      base: '/test/pages/',
      configFile: false,
      logLevel: 'error',
      clearScreen: false,
      build: { outDir: dir, emptyOutDir: true, minify: false, sourcemap: false, rollupOptions: { input }, target: 'es2022' },
      worker: { format: 'es' },
      // The contract suite imports `vitest`; in the page it gets a describe/it/expect stand-in.
      resolve: { alias: { vitest: join(pages, 'vitest-shim.ts') } },
    });
  });
  const headers: Record<string, string> = options.csp ? { 'Content-Security-Policy': "script-src 'self'" } : {};
  const server: PreviewServer = await preview({
    root: pages,
    base: '/test/pages/',
    configFile: false,
    logLevel: 'error',
    build: { outDir },
    preview: { host: '127.0.0.1', port: 0, strictPort: false, headers },
  });
  const address = server.httpServer.address();
  if (!address || typeof address === 'string') throw new Error('vite preview did not report a port');
  const origin = `http://127.0.0.1:${address.port}`;
  return {
    origin,
    page: (name) => `${origin}/test/pages/${name}`,
    close: () => server.close(),
  };
}

/** A fresh, empty Chromium profile directory for one test. */
export function newProfile(): string {
  return mkdtempSync(join(tmpdir(), 'toolhost-chromium-'));
}

/** A Chromium running on a profile directory, with one page. */
export interface BrowserSession {
  context: BrowserContext;
  page: Page;
  /** Closes the browser the normal way. */
  close(): Promise<void>;
  /** Ends the browser process abruptly (SIGKILL to its main process, found by its profile directory). */
  kill(): Promise<void>;
}

function browserPid(profile: string): number | undefined {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let cmdline: string;
    try {
      cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    const args = cmdline.split('\0');
    if (args.includes(`--user-data-dir=${profile}`) && !args.some((a) => a.startsWith('--type='))) return Number(entry);
  }
  return undefined;
}

/**
 * Launches headless Chromium on `profile` (launchPersistentContext, so closing and launching again on
 * the same directory is a browser restart) and opens `url` in its first page.
 */
export async function launch(profile: string, url?: string): Promise<BrowserSession> {
  requireChromium();
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: ARGS });
  const page = context.pages()[0] ?? (await context.newPage());
  page.on('pageerror', (error) => console.error('[page error]', error.message));
  if (url) await page.goto(url);
  return {
    context,
    page,
    close: () => context.close(),
    async kill() {
      const pid = browserPid(profile);
      if (pid === undefined) throw new Error(`no Chromium process found for ${profile}`);
      process.kill(pid, 'SIGKILL');
      await context.close().catch(() => undefined);
    },
  };
}

/** Removes a profile directory (best effort). */
export function removeProfile(profile: string): void {
  rmSync(profile, { recursive: true, force: true });
}

/** What {@link openTestPage} gives a test file: the session and server, set once `beforeAll` has run. */
export interface OpenedTestPage {
  readonly session: BrowserSession;
  readonly server: TestServer;
}

/**
 * Registers `beforeAll`/`afterAll` hooks that start the test server, launch Chromium on a fresh
 * profile at `pageFile`, and wait until the page's title is `readyTitle`; everything is closed and
 * the profile removed after the file's tests. Fails (never skips) when Chromium is missing.
 */
export function openTestPage(pageFile: string, readyTitle: string): OpenedTestPage {
  let server: TestServer | undefined;
  let session: BrowserSession | undefined;
  let profile: string | undefined;
  beforeAll(async () => {
    requireChromium();
    profile = newProfile();
    // The server's start (a vite build when its sources changed) and Chromium's launch overlap.
    [server, session] = await Promise.all([startServer(), launch(profile)]);
    await session.page.goto(server.page(pageFile));
    await session.page.waitForFunction((title) => document.title === title, readyTitle);
  });
  afterAll(async () => {
    await session?.close();
    await server?.close();
    if (profile) removeProfile(profile);
  });
  return {
    get session(): BrowserSession {
      if (!session) throw new Error('the test page is not open yet (openTestPage opens it in beforeAll)');
      return session;
    },
    get server(): TestServer {
      if (!server) throw new Error('the test server is not started yet (openTestPage starts it in beforeAll)');
      return server;
    },
  };
}
