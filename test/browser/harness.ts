import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { createServer, type ViteDevServer } from 'vite';

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

/** A vite dev server on 127.0.0.1 serving the repository (test pages under /web/test-pages/). */
export interface TestServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** Absolute URL of a test page: `page('index.html')`. */
  page(name: string): string;
  close(): Promise<void>;
}

/**
 * Starts vite on 127.0.0.1 (a real origin: IndexedDB refuses opaque ones). `csp` adds
 * `Content-Security-Policy: script-src 'self'` to every response (pages and worker scripts alike).
 */
export async function startServer(options: { csp?: boolean } = {}): Promise<TestServer> {
  const server: ViteDevServer = await createServer({
    root: ROOT,
    configFile: false,
    logLevel: 'error',
    clearScreen: false,
    cacheDir: join(ROOT, 'node_modules', '.vite-toolhost-browser'),
    server: { host: '127.0.0.1', port: 0, hmr: false, watch: null },
    optimizeDeps: {
      // Pre-bundled at start, so the optimiser never reloads a page in the middle of a test.
      noDiscovery: true,
      include: ['@zenfs/core', '@zenfs/dom', 'comlink', 'idb-keyval', 'picomatch', 'picomatch/posix.js', 'ignore', 'diff', 'ajv', 'ajv/dist/runtime/ucs2length.js'],
    },
    plugins: options.csp
      ? [
          {
            name: 'toolhost-csp',
            configureServer(s) {
              s.middlewares.use((_req, res, next) => {
                res.setHeader('Content-Security-Policy', "script-src 'self'");
                next();
              });
            },
          },
        ]
      : [],
  });
  await server.listen();
  const address = server.httpServer?.address();
  if (!address || typeof address === 'string') throw new Error('vite did not report a port');
  const origin = `http://127.0.0.1:${address.port}`;
  return { origin, page: (name) => `${origin}/web/test-pages/${name}`, close: () => server.close() };
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
