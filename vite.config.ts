import { existsSync } from 'node:fs';
import { playwright } from '@vitest/browser-playwright';
import { defineConfig } from 'vitest/config';

/** Debian's Chromium; the browser project fails (never skips) when it is missing. */
const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

/**
 * The tests that also run in real Chromium (vitest browser mode, served on http://127.0.0.1): the
 * built-in tools' tests and the platform-free helpers they rest on. A test that needs Node inside one
 * of these files is skipped there with `it.skipIf(!isNode)` (test/support/env.ts) and a comment saying
 * why; the platform contract suite runs in Chromium through test/browser/contract.test.ts.
 */
const BROWSER_TESTS = ['src/tools/*.test.ts', 'src/core/file-cache.test.ts', 'src/core/lazy-ajv.test.ts', 'src/fs/walk.test.ts', 'src/search/*.test.ts', 'test/test-env.test.ts'];

function chromiumPath(): string {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium is missing at ${CHROMIUM}: install it with \`apt-get install -y chromium\` (the browser test project never skips)`);
  }
  return CHROMIUM;
}

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          include: ['src/**/*.test.ts', 'web/**/*.test.ts', 'node/**/*.test.ts', 'test/**/*.test.ts'],
          pool: 'forks',
          // toolhost's own modules loaded on demand come from lazy/*.min.js on Node too: generated.
          globalSetup: ['test/support/lazy-setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'chromium',
          include: BROWSER_TESTS,
          // In browsers the libraries that only some calls need load by URL: lazy/*.min.js, generated.
          globalSetup: ['test/support/lazy-setup.ts'],
          // After the node project, not beside it: its Chromium tests and this one's would share the CPUs.
          sequence: { groupOrder: 1 },
          browser: {
            enabled: true,
            headless: true,
            provider: playwright({ launchOptions: { executablePath: chromiumPath(), args: CHROMIUM_ARGS } }),
            instances: [{ browser: 'chromium' }],
            api: { host: '127.0.0.1', port: 63315, strictPort: false },
            screenshotFailures: false,
          },
        },
      },
    ],
  },
});
