#!/usr/bin/env node
/**
 * Writes linear-regex/re2js.min.js: the re2js dependency (its own ES build, as installed) minified into
 * one self-contained ES module, which linear-regex/browser.js loads by URL in browsers. Run by
 * `npm run build`, and by the test set-ups and the playground's config before they serve or build
 * the browser sources (`ensureLinearRegexBundle`). The file is generated, never committed.
 */
import { existsSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
/** The generated file. */
export const LINEAR_REGEX_BUNDLE = join(ROOT, 'linear-regex', 're2js.min.js');

/** The installed re2js ES build. */
function re2jsEntry() {
  return createRequire(join(ROOT, 'package.json')).resolve('re2js').replace(/index\.cjs$/, 'index.js');
}

/** Builds the file (always). */
export async function buildLinearRegexBundle() {
  const { build } = await import('vite');
  await build({
    configFile: false,
    logLevel: 'error',
    publicDir: false,
    build: {
      outDir: dirname(LINEAR_REGEX_BUNDLE),
      emptyOutDir: false,
      minify: true,
      target: 'es2022',
      copyPublicDir: false,
      // An app build of one ES entry, not a library build: Vite leaves ES libraries' whitespace in.
      rollupOptions: { input: re2jsEntry(), preserveEntrySignatures: 'strict', output: { format: 'es', entryFileNames: 're2js.min.js' } },
    },
  });
}

/** Builds the file unless it is there and newer than the installed re2js. */
export async function ensureLinearRegexBundle() {
  if (existsSync(LINEAR_REGEX_BUNDLE) && statSync(LINEAR_REGEX_BUNDLE).mtimeMs >= statSync(re2jsEntry()).mtimeMs) return;
  await buildLinearRegexBundle();
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await buildLinearRegexBundle();
