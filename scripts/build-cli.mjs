#!/usr/bin/env node
/**
 * Bundles the `toolhost` command for a fast start: dist/node/cli.js (with the modules it imports, the
 * package's dependencies among them) into dist/node/cli.bundle.mjs, the MCP server it loads for `mcp`
 * into a chunk beside it, and the search helper thread's module (dist/node/search-worker.js) into
 * dist/node/search-worker.bundle.mjs, which the bundled CLI starts instead. Node's ES module loader
 * spends most of a new process's start-up resolving and linking modules (about 125 for a search, 240
 * for the MCP server); one file of each takes a fraction of that. Run by `npm run build` after tsc; the
 * files are generated, never committed. bin/toolhost.mjs loads the bundle only when it is at least as
 * new as dist/node/cli.js (a tsc run alone leaves it stale) and else dist/node/cli.js itself.
 *
 * Left out of the bundles: Node's modules, the package's `#lazy` imports (resolved at run time, as
 * for the unbundled package) and its optional peer dependencies (ioredis and the others: loaded when
 * a command needs them, from the user's node_modules, or reported missing).
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(ROOT, 'dist', 'node');
/** The search helper thread's module that the bundled CLI starts. */
const WORKER_BUNDLE = 'search-worker.bundle.mjs';
/** The files the bundles are made of. */
const BUNDLE_FILE = /^(cli|search-worker)\.bundle\b.*\.mjs$/;
/** Where search-helper.js names its thread's module; the bundled copy names the worker bundle. */
const WORKER_URL = "new URL('./search-worker.js', import.meta.url)";

/**
 * Minified, names kept (a stack trace still names the functions): about a third less code to read,
 * hash against the compile cache and parse at every start.
 */
const MINIFY = { mangle: false, compress: true, codegen: { removeWhitespace: true } };

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const peers = Object.keys(pkg.peerDependencies ?? {});

/** Node's modules, `#lazy` and the optional peers (and their subpaths) stay imports. */
function external(id) {
  if (id === '#lazy' || id.startsWith('node:')) return true;
  return peers.some((peer) => id === peer || id.startsWith(`${peer}/`));
}

/** Points the bundled search helper at the bundled worker; fails the build when the line moved. */
const workerUrl = {
  name: 'toolhost-search-worker-url',
  transform(code, id) {
    if (!id.replaceAll('\\', '/').endsWith('/dist/node/search-helper.js')) return null;
    if (!code.includes(WORKER_URL)) throw new Error(`build-cli: ${id} no longer holds ${WORKER_URL}; update scripts/build-cli.mjs`);
    return { code: code.replace(WORKER_URL, `new URL('./${WORKER_BUNDLE}', import.meta.url)`), map: null };
  },
};

/** Bundles `input` into `dir` as `entryFileNames` (its chunks beside it, named after it). */
async function bundle(input, dir, entryFileNames, plugins = []) {
  const stem = entryFileNames.replace(/\.mjs$/, '');
  const { rolldown } = await import('rolldown');
  const build = await rolldown({ input, platform: 'node', external, plugins, logLevel: 'warn' });
  try {
    await build.write({ dir, format: 'esm', minify: MINIFY, entryFileNames, chunkFileNames: `${stem}-[name].mjs` });
  } finally {
    await build.close();
  }
}

/**
 * Builds both bundles (always) into a folder of their own, then moves each file into dist/node with
 * an atomic rename, the entry modules last: a `toolhost` process starting meanwhile loads the
 * previous build or this one, never a half-written file. Files of a previous build that this one
 * no longer makes are removed.
 */
export async function buildCliBundle() {
  const cli = join(OUT, 'cli.js');
  if (!existsSync(cli)) throw new Error('build-cli: dist/node/cli.js is missing; run tsc -p tsconfig.build.json first');
  const temp = mkdtempSync(join(OUT, '.cli-bundle-'));
  try {
    await bundle(join(OUT, 'search-worker.js'), temp, WORKER_BUNDLE);
    await bundle(cli, temp, 'cli.bundle.mjs', [workerUrl]);
    const made = readdirSync(temp);
    const entries = [WORKER_BUNDLE, 'cli.bundle.mjs'];
    for (const name of [...made.filter((file) => !entries.includes(file)), ...entries]) renameSync(join(temp, name), join(OUT, name));
    for (const name of readdirSync(OUT)) if (BUNDLE_FILE.test(name) && !made.includes(name)) rmSync(join(OUT, name));
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await buildCliBundle();
