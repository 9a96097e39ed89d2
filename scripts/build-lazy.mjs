#!/usr/bin/env node
/**
 * Writes the code that toolhost loads on demand (lazy/*.min.js): each library from its installed ES
 * build (or CommonJS, converted), and each module of toolhost's own that only some calls need from its
 * source, minified into one self-contained ES module, which lazy/browser.js loads by URL on first use
 * (and lazy/node.js imports, for toolhost's own modules). Run by `npm run build`, and by the test set-ups and the
 * playground's config before they serve or build the browser sources (`ensureLazyBundles`). The files
 * are generated, never committed.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const DIR = join(ROOT, 'lazy');

/**
 * The code loaded on demand, each built into `file` (the name lazy/browser.js loads by URL): a library
 * by its `specifier` (what lazy/node.js imports on Node), or a module of toolhost's own by its `source`
 * (imports of leaf utilities only, which the file then carries a copy of; lazy/node.js imports the file);
 * `conditions`, export conditions to resolve its imports with besides the browser's.
 */
export const LAZY_MODULES = [
  // grep_search's linear-time regex engine, for patterns V8 could backtrack on.
  { specifier: 're2js', file: 're2js.min.js' },
  // .gitignore rules, for workspaces that have a .gitignore.
  { specifier: 'ignore', file: 'ignore.min.js' },
  // The unified diff edit_file answers with (just the patch module, not the package index).
  { specifier: 'diff/lib/patch/create.js', file: 'diff.min.js' },
  // SHA-256 in JavaScript, for file fingerprints where WebCrypto is missing (a page over plain http).
  { specifier: '@noble/hashes/sha2.js', file: 'sha256.min.js' },
  // grep_search's regex dialect parser, on the first search (Node imports it with the dialect).
  { source: 'src/search/dialect-parse.ts', file: 'regex-parser.min.js' },
  // The glob compiler (parser and automaton), on the first find_file or search with include/exclude.
  { source: 'src/search/glob-compile.ts', file: 'glob.min.js' },
  // edit_file's no_match hint (where old_string nearly occurs), only on a failed edit.
  { source: 'src/tools/edit/hint.ts', file: 'edit-hint.min.js' },
  // ajv's validator classes (draft-07, 2019-09, 2020-12), on the first runtime compile of a JSON Schema
  // that has no precompiled validator (the browser loader only: Node imports ajv from node_modules).
  { source: 'src/core/ajv.ts', file: 'ajv.min.js' },
  // web_fetch's HTML → Markdown converter with its libraries, on the first HTML page (on Node in a
  // worker thread). Built for workers, where the tools run: a library's `browser` build may use `document`.
  { source: 'src/tools/web-fetch/html.ts', file: 'html-markdown.min.js', conditions: ['worker'] },
  // web_fetch's structure check alone (the parser, no converters): on Node the calling thread checks a
  // page before queueing it for a conversion thread, so a hostile page is refused without waiting.
  { source: 'src/tools/web-fetch/html-check.ts', file: 'html-check.min.js', conditions: ['worker'] },
];

/** The generated file of an entry of {@link LAZY_MODULES}, by its file name (`'re2js.min.js'`). */
export function lazyFile(file) {
  return join(DIR, file);
}

/** The package.json of the installed package that `specifier` is in (its mtime dates the install). */
function manifestOf(specifier) {
  const name = specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0];
  let dir = dirname(createRequire(join(ROOT, 'package.json')).resolve(specifier));
  while (!existsSync(join(dir, 'package.json')) || JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).name !== name) {
    if (dirname(dir) === dir) throw new Error(`no package.json of ${name} above ${specifier}`);
    dir = dirname(dir);
  }
  return join(dir, 'package.json');
}

/** Newest modification time of toolhost's own sources (src/), which its own modules are built from. */
function newestSource(dir = join(ROOT, 'src')) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/**
 * Smallest file written, in bytes: Vite inlines an asset under 4 KiB (its default `assetsInlineLimit`,
 * 4096) as a `data:` URL, which would put the code back into the worker and which a `script-src 'self'`
 * policy refuses. A module that small is not worth a file of its own.
 */
const MIN_FILE_BYTES = 4096;

/** Builds one entry's file (always). Throws when it comes out under {@link MIN_FILE_BYTES}. */
async function buildOne({ specifier, source, file, conditions = [] }) {
  const { build } = await import('vite');
  await build({
    configFile: false,
    logLevel: 'error',
    publicDir: false,
    // Vite resolves the specifier as a browser app's import of it would (its ES build where it has one).
    root: ROOT,
    // Extra export conditions beside Vite's defaults for browsers (a package's own order of them decides which build is taken).
    ...(conditions.length > 0 ? { resolve: { conditions: [...conditions, 'module', 'browser', 'production'] } } : {}),
    build: {
      outDir: DIR,
      emptyOutDir: false,
      minify: true,
      target: 'es2022',
      copyPublicDir: false,
      // An app build of one ES entry, not a library build: Vite leaves ES libraries' whitespace in.
      // One build per library, so that no helper chunk is shared between the files.
      rollupOptions: { input: source ? join(ROOT, source) : specifier, preserveEntrySignatures: 'strict', output: { format: 'es', entryFileNames: file } },
    },
  });
  const bytes = statSync(lazyFile(file)).size;
  if (bytes < MIN_FILE_BYTES) {
    throw new Error(`lazy/${file} is ${bytes} bytes, under Vite's 4 KiB asset inline limit: apps would inline it as a data: URL; keep ${source ?? specifier} in the worker`);
  }
}

/** Builds every file (always). */
export async function buildLazyBundles() {
  for (const entry of LAZY_MODULES) await buildOne(entry);
}

/** Builds each file unless it is there and newer than what it is built from (the installed package, or src/). */
export async function ensureLazyBundles() {
  for (const entry of LAZY_MODULES) {
    const out = lazyFile(entry.file);
    const input = entry.source ? newestSource() : statSync(manifestOf(entry.specifier)).mtimeMs;
    if (existsSync(out) && statSync(out).mtimeMs >= input) continue;
    await buildOne(entry);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await buildLazyBundles();
