#!/usr/bin/env node
/**
 * Bundles the `toolhost` command for a fast start: dist/node/cli.js (with the modules it imports, the
 * package's dependencies among them) into dist/node/cli.bundle.mjs, the MCP server it loads for `mcp`
 * into a chunk beside it, and the search helper thread's module (dist/node/search-worker.js) into
 * dist/node/search-worker.bundle-code.mjs, which the bundled CLI starts instead, through
 * dist/node/search-worker.bundle.mjs (it turns on the compile cache in that thread). Node's ES module loader
 * spends most of a new process's start-up resolving and linking modules (about 125 for a search, 240
 * for the MCP server); one file of each takes a fraction of that. Run by `npm run build` after tsc; the
 * files are generated, never committed. bin/toolhost.mjs loads the bundle only when it is at least as
 * new as dist/node/cli.js (a tsc run alone leaves it stale) and else dist/node/cli.js itself.
 *
 * Left out of the bundles: Node's modules, the package's `#lazy` imports (resolved at run time, as
 * for the unbundled package) and its optional peer dependencies (ioredis and the others: loaded when
 * a command needs them, from the user's node_modules, or reported missing).
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(ROOT, 'dist', 'node');
/** The search helper thread's module that the bundled CLI starts: {@link WORKER_START}. */
const WORKER_BUNDLE = 'search-worker.bundle.mjs';
/** The bundle of the helper thread's code (dist/node/search-worker.js and what it imports), which {@link WORKER_BUNDLE} loads. */
const WORKER_CODE = 'search-worker.bundle-code.mjs';
/**
 * The text of {@link WORKER_BUNDLE}: it turns on Node's compile cache in the helper thread, then loads
 * the thread's code. A worker thread does not share the cache bin/toolhost.mjs turned on for the main
 * thread (module.enableCompileCache is per thread, and the cache only serves modules loaded after the
 * call), so without this the thread compiled its code anew at every start. The same folder as the
 * main thread's (NODE_COMPILE_CACHE, else the system temporary folder); NODE_DISABLE_COMPILE_CACHE=1
 * turns it off here too.
 */
const WORKER_START = [
  '// The search helper thread: Node\'s compile cache on (per thread), then its code (scripts/build-cli.mjs).',
  "process.getBuiltinModule('node:module').enableCompileCache?.();",
  `await import('./${WORKER_CODE}');`,
  '',
].join('\n');
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

/** `#lazy` and the optional peers (and their subpaths) stay imports; Node's modules, see {@link builtins}. */
function external(id) {
  if (id === '#lazy') return true;
  return peers.some((peer) => id === peer || id.startsWith(`${peer}/`));
}

/**
 * Node's modules the bundles load only when a function of theirs is first called: nothing a search
 * (or the help text) runs needs them, and loading them costs a new process milliseconds each
 * (node:crypto alone compiles a dozen internal modules; node:fs/promises loads the file handle's
 * streams, readline and fs.watch's modules, which a search through the synchronous calls never uses).
 */
const DEFERRED_BUILTINS = new Set(['node:fs/promises', 'node:crypto', 'node:child_process', 'node:zlib', 'node:dns/promises', 'node:net', 'node:worker_threads', 'node:http']);
const BUILTIN_PREFIX = '\0toolhost-builtin:';

/**
 * The module text standing for Node's module `id` in a bundle: its exports taken from
 * `process.getBuiltinModule(id)`, each behind a pure annotation so an unused one is dropped. A static
 * `import` of a Node module makes Node build an ES module facade that reads every export, which runs
 * the module's lazy getters (node:util's loads its diff and colour modules, node:fs its streams):
 * about 15 ms of a new process's start for nothing it uses. In {@link DEFERRED_BUILTINS}, a function
 * export is a wrapper that loads the module on its first call (with `new` too, making an object of
 * the real class); any other export loads it when the bundle starts, as before.
 */
function builtinModuleText(id) {
  const real = process.getBuiltinModule(id);
  if (!real) throw new Error(`build-cli: ${id} is not one of Node's modules`);
  const names = Object.keys(real).filter((name) => /^[A-Za-z_$][\w$]*$/.test(name) && name !== 'default');
  const deferred = DEFERRED_BUILTINS.has(id);
  const lines = [
    deferred ? `let loaded;\nconst mod = () => (loaded ??= process.getBuiltinModule(${JSON.stringify(id)}));` : `const mod = () => process.getBuiltinModule(${JSON.stringify(id)});\nconst loaded = mod();`,
    'export default /* @__PURE__ */ mod();',
  ];
  for (const name of names) {
    const key = JSON.stringify(name);
    const descriptor = Object.getOwnPropertyDescriptor(real, name);
    const isFunction = descriptor && 'value' in descriptor && typeof descriptor.value === 'function';
    if (deferred && isFunction) {
      // `new` builds the real class's object (a subclass of the wrapper, its own).
      lines.push(`export function ${name}(...args) { const target = mod()[${key}]; return new.target ? Reflect.construct(target, args, new.target === ${name} ? target : new.target) : target.apply(this, args); }`);
    } else {
      lines.push(`export const ${name} = /* @__PURE__ */ (() => mod()[${key}])();`);
    }
  }
  return lines.join('\n');
}

/** Node's modules imported statically by the bundled code, through {@link builtinModuleText}. */
const builtins = {
  name: 'toolhost-builtins',
  resolveId(source, _importer, extra) {
    if (!source.startsWith('node:')) return null;
    return extra?.kind === 'import-statement' ? `${BUILTIN_PREFIX}${source}` : { id: source, external: true };
  },
  load(id) {
    return id.startsWith(BUILTIN_PREFIX) ? builtinModuleText(id.slice(BUILTIN_PREFIX.length)) : null;
  },
};

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
  const build = await rolldown({ input, platform: 'node', external, plugins: [builtins, ...plugins], logLevel: 'warn' });
  try {
    // ASCII only (other characters escaped): Node decodes a module's source with the fast Latin-1
    // path and V8 keeps it as a one-byte string, cheaper to hash against the compile cache and to parse.
    await build.write({ dir, format: 'esm', minify: MINIFY, charset: 'ascii', entryFileNames, chunkFileNames: `${stem}-[name].mjs` });
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
    await bundle(join(OUT, 'search-worker.js'), temp, WORKER_CODE);
    writeFileSync(join(temp, WORKER_BUNDLE), WORKER_START);
    await bundle(cli, temp, 'cli.bundle.mjs', [workerUrl]);
    const made = readdirSync(temp);
    // Each after the modules it imports: the worker's code, its start module, the CLI.
    const entries = [WORKER_CODE, WORKER_BUNDLE, 'cli.bundle.mjs'];
    for (const name of [...made.filter((file) => !entries.includes(file)), ...entries]) renameSync(join(temp, name), join(OUT, name));
    for (const name of readdirSync(OUT)) if (BUNDLE_FILE.test(name) && !made.includes(name)) rmSync(join(OUT, name));
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await buildCliBundle();
