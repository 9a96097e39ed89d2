#!/usr/bin/env node
/**
 * Writes the libraries that toolhost loads on demand in browsers (lazy/*.min.js): each one, from its
 * installed ES build (or CommonJS, converted), minified into one self-contained ES module, which
 * lazy/browser.js loads by URL on first use. Run by `npm run build`, and by the test set-ups and the
 * playground's config before they serve or build the browser sources (`ensureLazyBundles`). The files
 * are generated, never committed.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const DIR = join(ROOT, 'lazy');

/**
 * The libraries loaded on demand: `specifier` is what lazy/node.js imports (and what is built here),
 * `file` the name lazy/browser.js loads by URL.
 */
export const LAZY_LIBRARIES = [
  // grep_search's linear-time regex engine, for patterns V8 could backtrack on.
  { specifier: 're2js', file: 're2js.min.js' },
  // .gitignore rules, for workspaces that have a .gitignore.
  { specifier: 'ignore', file: 'ignore.min.js' },
  // The unified diff edit_file answers with (just the patch module, not the package index).
  { specifier: 'diff/lib/patch/create.js', file: 'diff.min.js' },
];

/** The generated file of a library of {@link LAZY_LIBRARIES}, by its file name (`'re2js.min.js'`). */
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

/** Builds one library's file (always). */
async function buildOne({ specifier, file }) {
  const { build } = await import('vite');
  await build({
    configFile: false,
    logLevel: 'error',
    publicDir: false,
    // Vite resolves the specifier as a browser app's import of it would (its ES build where it has one).
    root: ROOT,
    build: {
      outDir: DIR,
      emptyOutDir: false,
      minify: true,
      target: 'es2022',
      copyPublicDir: false,
      // An app build of one ES entry, not a library build: Vite leaves ES libraries' whitespace in.
      // One build per library, so that no helper chunk is shared between the files.
      rollupOptions: { input: specifier, preserveEntrySignatures: 'strict', output: { format: 'es', entryFileNames: file } },
    },
  });
}

/** Builds every file (always). */
export async function buildLazyBundles() {
  for (const library of LAZY_LIBRARIES) await buildOne(library);
}

/** Builds each file unless it is there and newer than the installed package it is built from. */
export async function ensureLazyBundles() {
  for (const library of LAZY_LIBRARIES) {
    const out = lazyFile(library.file);
    if (existsSync(out) && statSync(out).mtimeMs >= statSync(manifestOf(library.specifier)).mtimeMs) continue;
    await buildOne(library);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await buildLazyBundles();
