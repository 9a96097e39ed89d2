import { existsSync, globSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { playwright } from '@vitest/browser-playwright';
import { configDefaults, defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { rendererRunQueueWait } from './test/support/starvation.js';

/** Debian's Chromium; the browser project fails (never skips) when it is missing. */
const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

/** Tests of what only browsers have (IndexedDB workspaces): the chromium project runs them, the Node projects leave them out. */
const BROWSER_ONLY_TESTS = ['web/journal-differential.test.ts', 'web/search-index.test.ts'];
/**
 * The tests that also run in real Chromium (vitest browser mode, served on http://127.0.0.1): the
 * built-in tools' tests and the platform-free helpers they rest on. A test that needs Node inside one
 * of these files is skipped there with `it.skipIf(!isNode)` (test/support/env.ts) and a comment saying
 * why; the platform contract suite runs in Chromium through test/browser/contract.test.ts.
 */
const BROWSER_TESTS = ['src/tools/*.test.ts', 'src/core/file-cache.test.ts', 'src/core/lazy-ajv.test.ts', 'src/search/*.test.ts', 'test/test-env.test.ts', ...BROWSER_ONLY_TESTS];
/** Files {@link BROWSER_TESTS}' globs match that need Node (they import `node:fs` and the Node platform): the chromium project leaves them out. */
const NODE_ONLY_TESTS = ['src/search/ignore-bounds.test.ts'];

function chromiumPath(): string {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium is missing at ${CHROMIUM}: install it with \`apt-get install -y chromium\` (the browser test project never skips)`);
  }
  return CHROMIUM;
}

const ROOT = fileURLToPath(new URL('.', import.meta.url));

/** The Node project's tests. */
const NODE_TESTS = ['src/**/*.test.ts', 'web/**/*.test.ts', 'node/**/*.test.ts', 'test/**/*.test.ts'];

/**
 * Not in `npm run test:fast`: the tests that drive Chromium (test/browser/, test/demo/), and files that
 * took 3 s or more on 2 busy cores (big inputs, fuzzing, deadlines, child processes). The tests that
 * run the built package (they import test/support/build.ts, or built-search.ts on top of it) are left
 * out too, found by {@link runsBuiltPackage}: a fast run never builds.
 */
const SLOW_TESTS = [
  'test/browser/**',
  'test/demo/**',
  'test/package.test.ts', // npm pack and install, and a prepack build in a fresh checkout
  'test/search-stream.test.ts',
  'test/search-deadline.test.ts',
  'test/truthful-answers.test.ts',
  'test/long-path-errors.test.ts',
  'test/deep-pattern.test.ts',
  'node/run-command.test.ts',
  'node/fs/confined.test.ts',
  'src/tools/view-file-large.test.ts',
  'test/deep-tree.test.ts',
  'test/fuzz-builtins.test.ts',
  'test/bridges/mcp-extra.test.ts',
  'test/bridges/mcp-conformance.test.ts', // two runs of the official MCP conformance suite, ~35 s
  'node/big-tree.test.ts',
  'node/long-needle.test.ts',
  'src/search/ignore-bounds.test.ts',
  'test/docs-typecheck.test.ts', // one tsc over every ts block of the README and docs/
  'test/readme-mcp.test.ts', // starts toolhost mcp once per documented client configuration
  'test/readme-quickstarts.test.ts', // loads the Node platform and the AI SDK from source
  'node/redis-state-store-kill.test.ts', // kills redis-server -9 in 12 rounds of a commit stream, ~20 s
  'test/edit-offthread.test.ts', // watches the event loop through edits of multi-MB files, ~11 s
  'node/web-fetch-hostile.test.ts', // hostile pages converted on worker threads up to their deadlines, ~10 s
  'src/search/index/differential.test.ts', // 2,000 rounds of changes and searches with and without the index, 3-15 s
  'node/search-index-differential.test.ts', // the same on a real folder
];

/**
 * The test files that need a process (in Chromium, a page) and a module graph of their own: two replace
 * a module for the whole file (`vi.mock('#lazy')`), which only works when the file imports the modules
 * afresh; four measure a peak RSS (`process.resourceUsage().maxRSS`, their own or that of a child they
 * spawn, which on Linux starts from the high-water mark of the process it was forked from), which only
 * means something in a process that ran nothing before. Every other test file shares its worker's (in
 * Chromium, its page's) module graph with the files that ran before it (`isolate: false`): loading the
 * sources once per worker instead of once per file is most of what a run of the quick files costs
 * (import time; in Chromium a new page per file took about a second). Those files restore what they
 * stub (spies, timers, globals) before they end.
 */
const ISOLATED_TESTS = [
  'src/core/file-cache.test.ts',
  'src/tools/edit-file-hint-unavailable.test.ts',
  'node/big-inputs.test.ts',
  'node/big-tree.test.ts',
  'node/big-search.test.ts',
  'node/view-large.test.ts',
];

/** Whether the test file at `path` runs the built package (imports test/support/build.ts or built-search.ts, or runs bin/toolhost.mjs). */
function runsBuiltPackage(path: string): boolean {
  const text = readFileSync(join(ROOT, path), 'utf8');
  // The support modules that build, or the `toolhost` command itself (bin/toolhost.mjs runs dist/).
  return /from '[./]*(test\/)?support\/(build|built-search)(\.js)?'/.test(text) || /'bin', 'toolhost\.mjs'|bin\/toolhost\.mjs/.test(text);
}

/** The Node tests of `npm run test:fast`: no browser, no build, no slow file. */
function fastTests(): string[] {
  const slow = new Set(globSync(SLOW_TESTS, { cwd: ROOT }));
  return globSync(NODE_TESTS, { cwd: ROOT }).filter((path) => !slow.has(path) && !runsBuiltPackage(path));
}

/**
 * Seconds each test file took in a full run (test/durations.json, written by
 * scripts/test-durations.mjs): the order's fallback where vitest's cache has no time (a fresh clone).
 */
function recordedDurations(): Record<string, number> {
  try {
    return JSON.parse(readFileSync(join(ROOT, 'test', 'durations.json'), 'utf8')) as Record<string, number>;
  } catch {
    return {};
  }
}

/**
 * The order the files start in: the ones that failed last time, then the longest first (their
 * durations from vitest's cache of the last run, else from test/durations.json), whichever project
 * they belong to, so that the two workers end together instead of one running the longest files alone
 * at the end. (Vitest's own order runs project after project: the node-isolated files, some of the
 * longest, went last.) Files with no time known start first, larger files before smaller ones, as in
 * vitest's order.
 */
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const cache = this.ctx.cache;
    const recorded = recordedDurations();
    const path = (spec: TestSpecification) => relative(this.ctx.config.root, spec.moduleId).split('\\').join('/');
    const known = (spec: TestSpecification) => cache.getFileTestResults(`${spec.project.name}:${path(spec)}`);
    const size = (spec: TestSpecification) => cache.getFileStats(`${spec.project.name}:${path(spec)}`)?.size ?? 0;
    const rank = (spec: TestSpecification): [number, number] => {
      const result = known(spec);
      const seconds = recorded[path(spec)];
      if (!result) return seconds === undefined ? [0, size(spec)] : [2, seconds * 1000];
      return [result.failed ? 1 : 2, result.duration ?? 0];
    };
    return [...files].sort((a, b) => {
      const [groupA, weightA] = rank(a);
      const [groupB, weightB] = rank(b);
      return groupA !== groupB ? groupA - groupB : weightB - weightA;
    });
  }
}

/**
 * `vitest --mode fast` (`npm run test:fast`) runs the fast project alone; any other mode runs the node
 * and chromium projects.
 */
export default defineConfig(({ mode }) => ({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    sequence: { sequencer: LongestFirst },
    projects: mode === 'fast' ? nodeProjects('fast', fastTests()) : [...nodeProjects('node', NODE_TESTS), ...chromiumProjects()],
  },
}));

/**
 * The Node tests of `include` as two projects: `name` (every file but {@link ISOLATED_TESTS}, sharing
 * a module graph per worker) and `name-isolated` (those, each with its own).
 */
function nodeProjects(name: string, include: string[]): TestProjectInlineConfiguration[] {
  const project = (suffix: string, files: string[], isolate: boolean): TestProjectInlineConfiguration => ({
    extends: true,
    test: {
      name: name + suffix,
      include: files,
      exclude: isolate ? [...configDefaults.exclude, ...BROWSER_ONLY_TESTS] : [...configDefaults.exclude, ...ISOLATED_TESTS, ...BROWSER_ONLY_TESTS],
      pool: 'forks',
      isolate,
      // Two files at a time on 2 cores (vitest's default there is one): much of the suite waits on
      // child processes, Redis, Chromium, timers and the disk rather than on the CPU.
      maxWorkers: 2,
      // toolhost's own modules loaded on demand come from lazy/*.min.js on Node too: generated.
      globalSetup: ['test/support/lazy-setup.ts'],
    },
  });
  const matched = new Set(globSync(include, { cwd: ROOT }));
  const isolated = ISOLATED_TESTS.filter((path) => matched.has(path));
  return isolated.length > 0 ? [project('', include, false), project('-isolated', isolated, true)] : [project('', include, false)];
}

/**
 * The browser tests as two projects, as the Node ones: `chromium` (every file of {@link BROWSER_TESTS}
 * but {@link ISOLATED_TESTS}, one after another in one page's module graph: a page per file cost about
 * a second each, loading the sources again) and `chromium-isolated` (those, a fresh page each).
 */
function chromiumProjects(): TestProjectInlineConfiguration[] {
  const matched = new Set(globSync(BROWSER_TESTS, { cwd: ROOT }));
  const isolated = ISOLATED_TESTS.filter((path) => matched.has(path));
  const shared = chromiumProject('chromium', BROWSER_TESTS, [...configDefaults.exclude, ...ISOLATED_TESTS, ...NODE_ONLY_TESTS], false);
  return isolated.length > 0 ? [shared, chromiumProject('chromium-isolated', isolated, configDefaults.exclude, true)] : [shared];
}

/** A project running `include` (less `exclude`) in headless Chromium, each file in a page of its own when `isolate`. */
function chromiumProject(name: string, include: string[], exclude: string[], isolate: boolean): TestProjectInlineConfiguration {
  return {
    extends: true,
    test: {
      name,
      include,
      exclude,
      isolate,
      // In browsers the libraries that only some calls need load by URL: lazy/*.min.js, generated.
      globalSetup: ['test/support/lazy-setup.ts'],
      // Beside the node project, not after it: one page runs these files one at a time, which leaves
      // the CPUs room, and the node project's tests wait on child processes and timers much of the time.
      // (Projects run side by side must name the same maxWorkers; browser.fileParallelism keeps one page.)
      maxWorkers: 2,
      browser: {
        enabled: true,
        headless: true,
        provider: playwright({ launchOptions: { executablePath: chromiumPath(), args: CHROMIUM_ARGS } }),
        instances: [{ browser: 'chromium' }],
        api: { host: '127.0.0.1', port: 63315, strictPort: false },
        screenshotFailures: false,
        fileParallelism: false,
        // How long Chromium's renderer threads waited for a CPU (test/support/timer-watch.ts).
        commands: { rendererRunQueueWait: () => rendererRunQueueWait() },
      },
    },
  };
}
