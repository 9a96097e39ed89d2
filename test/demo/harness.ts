// Playground tests: build the demo once with its own vite config, serve it with `vite preview` on
// 127.0.0.1 (any free port), and drive Debian Chromium with Playwright.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { source as AXE_SOURCE, type AxeResults } from 'axe-core';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { build, preview, type PreviewServer } from 'vite';
import { ensureLazyBundles } from '../../scripts/build-lazy.mjs';
import { cachedBuild } from '../support/build-cache.js';
import { processTree } from '../support/starvation.js';

export const ROOT = join(import.meta.dirname, '..', '..');
export const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
const CONFIG = join(ROOT, 'demo', 'vite.config.ts');

/** Throws a message naming the fix when Chromium is not installed: browser tests never skip. */
export function requireChromium(): string {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium is missing at ${CHROMIUM}: install it with \`apt-get install -y chromium\` (the playground tests never skip)`);
  }
  return CHROMIUM;
}

export interface DemoServer {
  /** `http://127.0.0.1:<port>/` */
  url: string;
  close(): Promise<void>;
}

/** What the demo's build reads: its sources and config, toolhost's, the lazy bundles, the dependencies, this file. */
const DEMO_INPUTS = ['demo', 'src', 'web', 'bridges', 'lazy', 'package-lock.json', 'test/demo/harness.ts'];

/**
 * `npm run build:demo` (once per change of what it reads, shared by the demo's test files: see
 * test/support/build-cache.ts), then `vite preview` of it on 127.0.0.1, port 0.
 */
export async function startDemo(): Promise<DemoServer> {
  // The config builds the lazy bundles when missing; before the hash, which covers them.
  await ensureLazyBundles();
  const outDir = await cachedBuild('demo', DEMO_INPUTS, async (dir) => {
    await build({ configFile: CONFIG, logLevel: 'error', clearScreen: false, build: { outDir: dir, emptyOutDir: true } });
  });
  const server: PreviewServer = await preview({
    configFile: CONFIG,
    logLevel: 'error',
    build: { outDir },
    preview: { host: '127.0.0.1', port: 0, strictPort: false },
  });
  const address = server.httpServer.address();
  if (!address || typeof address === 'string') throw new Error('vite preview did not report a port');
  return {
    url: `http://127.0.0.1:${address.port}/`,
    close: () => server.close(),
  };
}

export interface Browser {
  context: BrowserContext;
  /** Pages' uncaught errors and console errors, for assertions. */
  errors: string[];
  open(url: string): Promise<Page>;
  /** The browser's processes now (its main process, renderers, workers' hosts), by their profile folder. */
  pids(): number[];
  close(): Promise<void>;
}

/** Headless Chromium on a fresh profile (a persistent context, so IndexedDB behaves as in a real browser). */
export async function launch(): Promise<Browser> {
  requireChromium();
  const profile = mkdtempSync(join(tmpdir(), 'toolhost-demo-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    viewport: { width: 1440, height: 900 },
  });
  const errors: string[] = [];
  const watch = (page: Page): void => {
    page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(`console: ${message.text()}`);
    });
  };
  context.on('page', watch);
  for (const page of context.pages()) watch(page);
  return {
    context,
    errors,
    async open(url) {
      const page = context.pages().find((p) => p.url() === 'about:blank') ?? (await context.newPage());
      await page.goto(url);
      await page.waitForFunction(() => document.body.dataset.ready === 'true', undefined, { timeout: 30_000 });
      return page;
    },
    pids: () => processTree(profile),
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Waits until no call is running and the tree has refreshed after the last change. */
export async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() => !document.body.classList.contains('is-busy'));
}

/**
 * axe-core's violations on `page` (every rule, its default options), of the whole page or of the
 * element `include` selects: what `new AxeBuilder({ page }).include(include).analyze()` reports for a
 * page without frames. axe-core is injected once per page load and run with `axe.run` in the page;
 * AxeBuilder injects its 600 KB source into every frame on each call, then finishes the run in a new
 * blank tab, 4 to 7 s a call on two busy cores against 1 to 2 s. Throws when the page has frames
 * (AxeBuilder tests those too: use it there).
 */
export async function axeViolations(page: Page, include?: string): Promise<AxeResults['violations']> {
  if (page.frames().length !== 1) throw new Error(`the page has ${page.frames().length - 1} frame(s): use AxeBuilder, which tests them too`);
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.evaluate(AXE_SOURCE);
  // Only the violations are read: the other result types keep one node each instead of a selector,
  // path and snippet for every node that passed (most of a run's time on a page of a thousand nodes).
  const results = await page.evaluate(
    (selector) =>
      (globalThis as unknown as { axe: { run(context: unknown, options: unknown): Promise<AxeResults> } }).axe.run(selector === undefined ? document : { include: [selector] }, {
        resultTypes: ['violations'],
      }),
    include,
  );
  return results.violations;
}
