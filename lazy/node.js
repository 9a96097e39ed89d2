// Node and every other non-browser runtime (the package's `#lazy` import, default condition): the
// libraries from node_modules, plain dynamic imports that bundlers split off or resolve as usual;
// toolhost's own modules from the files beside this one (built from src/ by scripts/build-lazy.mjs),
// the same code as in browsers, since the sources are not part of the package.
import * as globCompiler from './glob.min.js';
import * as regexParser from './regex-parser.min.js';
import { createThreadPool } from './threads.js';
/** Loads re2js, the linear-time regex engine grep_search uses for patterns V8 could backtrack on. */
export function loadRe2js() {
  return import('re2js');
}
/** Loads the ignore library, which applies a workspace's .gitignore rules. */
export function loadIgnore() {
  return import('ignore');
}
/** Loads the diff library's patch module, for the unified diff edit_file answers with. */
export function loadDiff() {
  return import('diff/lib/patch/create.js');
}
/** Loads @noble/hashes' SHA-2 module, which fingerprints files where WebCrypto is missing (a page over plain http). */
export function loadSha256() {
  return import('@noble/hashes/sha2.js');
}
/** Loads edit_file's no_match hint module (src/tools/edit/hint.ts, built into one file). */
export function loadEditHint() {
  return import('./edit-hint.min.js');
}
/** Loads ajv's validator classes from node_modules (the three dialects' modules), for runtime JSON Schema compiles. */
export async function loadAjv() {
  const [draft7, draft2019, draft2020] = await Promise.all([import('ajv'), import('ajv/dist/2019.js'), import('ajv/dist/2020.js')]);
  return { Ajv: draft7.Ajv, Ajv2019: draft2019.Ajv2019, Ajv2020: draft2020.Ajv2020 };
}
/** Loads web_fetch's HTML → Markdown converter (src/tools/web-fetch/html.ts, built into one file with its libraries). */
export function loadHtmlConverter() {
  return import('./html-markdown.min.js');
}
/** Loads web_fetch's HTML structure check (src/tools/web-fetch/html-check.ts, built into one file with the parser). */
export function loadHtmlCheck() {
  return import('./html-check.min.js');
}
let pool;
/**
 * The process's worker threads for CPU-heavy work of a call (lazy/threads.js: at most 2, so one long task cannot hold up the rest; each with a
 * 512 MiB heap, terminated when a task's signal aborts or after 10 s idle), started on first use;
 * undefined where `node:worker_threads` is missing (then the work runs on the calling thread).
 */
export function offThread() {
  pool ??= createThreadPool(new URL('./thread-worker.js', import.meta.url)) ?? null;
  return pool ?? undefined;
}
/** Loads the search pattern parser (src/search/dialect-parse.ts, built into one file). */
export function loadRegexParser() {
  return Promise.resolve(regexParser);
}
/** The search pattern parser, there without loading on Node (imported with this file), which searches synchronously. */
export function regexParserNow() {
  return regexParser;
}
/** Loads the glob compiler (src/search/glob-compile.ts, built into one file). */
export function loadGlobCompiler() {
  return Promise.resolve(globCompiler);
}
/** The glob compiler, there without loading on Node (imported with this file), which matches synchronously. */
export function globCompilerNow() {
  return globCompiler;
}
/**
 * Node's byte search (`Buffer.prototype.indexOf`: memchr and a vectorised search, taking any
 * Uint8Array as `this`) and UTF-8 check (`isUtf8`, SIMD), 3-10 times faster than the plain JavaScript
 * the in-memory search source runs in browsers. Found through `process.getBuiltinModule` (Node 20.16
 * and later), so a runtime of this condition without `node:buffer` gets undefined and keeps the
 * JavaScript.
 */
export function nativeBytes() {
  const get = globalThis.process?.getBuiltinModule;
  const buffer = typeof get === 'function' ? get('node:buffer') : undefined;
  const indexOf = buffer?.Buffer?.prototype?.indexOf;
  if (typeof indexOf !== 'function' || typeof buffer.isUtf8 !== 'function') return undefined;
  return { indexOf: (haystack, needle, from) => indexOf.call(haystack, needle, from), isUtf8: buffer.isUtf8 };
}
