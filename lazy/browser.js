// Browsers (the package's `#lazy` import, `browser` condition): the libraries and toolhost's own modules
// that only some calls need, each one self-contained ES module file beside this one (built from the
// dependency or the source by scripts/build-lazy.mjs), loaded by URL on first use. Bundlers see each URL as an asset (Vite,
// webpack 5: `new URL('./file', import.meta.url)`), copy the file and rewrite the URL, but not the
// import itself: so even a worker built as one classic script (Vite's default `iife` worker format,
// which inlines every dynamic import it can resolve) leaves them out and fetches each only when a call
// needs it. Dynamic import() is allowed in classic workers, and the files are same-origin, so a
// `script-src 'self'` Content-Security-Policy admits them.
/** Loads re2js, the linear-time regex engine grep_search uses for patterns V8 could backtrack on. */
export function loadRe2js() {
  return import(/* @vite-ignore */ /* webpackIgnore: true */ new URL('./re2js.min.js', import.meta.url).href);
}
/** Loads the ignore library, which applies a workspace's .gitignore rules. */
export function loadIgnore() {
  return import(/* @vite-ignore */ /* webpackIgnore: true */ new URL('./ignore.min.js', import.meta.url).href);
}
/** Loads the diff library's patch module, for the unified diff edit_file answers with. */
export function loadDiff() {
  return import(/* @vite-ignore */ /* webpackIgnore: true */ new URL('./diff.min.js', import.meta.url).href);
}
/** Loads @noble/hashes' SHA-2 module, which fingerprints files where WebCrypto is missing (a page over plain http). */
export function loadSha256() {
  return import(/* @vite-ignore */ /* webpackIgnore: true */ new URL('./sha256.min.js', import.meta.url).href);
}
/** Loads edit_file's no_match hint module (src/tools/edit/hint.ts, built into one file). */
export function loadEditHint() {
  return import(/* @vite-ignore */ /* webpackIgnore: true */ new URL('./edit-hint.min.js', import.meta.url).href);
}
/** Loads web_fetch's HTML → Markdown converter (src/tools/web-fetch/html.ts, built into one file with its libraries). */
export function loadHtmlConverter() {
  return import(/* @vite-ignore */ /* webpackIgnore: true */ new URL('./html-markdown.min.js', import.meta.url).href);
}
/** Loads web_fetch's HTML structure check (src/tools/web-fetch/html-check.ts, built into one file with the parser). */
export function loadHtmlCheck() {
  return import(/* @vite-ignore */ /* webpackIgnore: true */ new URL('./html-check.min.js', import.meta.url).href);
}
/** Worker threads for CPU-heavy work of a call: none in browsers (the tools already run in a worker; the work runs there, bounded by its caps). */
export function offThread() {
  return undefined;
}
/** Loads the search pattern parser (src/search/dialect-parse.ts, built into one file). */
export function loadRegexParser() {
  return import(/* @vite-ignore */ /* webpackIgnore: true */ new URL('./regex-parser.min.js', import.meta.url).href);
}
/** Loads the glob compiler (src/search/glob-compile.ts, built into one file). */
export function loadGlobCompiler() {
  return import(/* @vite-ignore */ /* webpackIgnore: true */ new URL('./glob.min.js', import.meta.url).href);
}
/** Loads ajv's validator classes (src/core/ajv.ts, built into one file with ajv), for runtime JSON Schema compiles. */
export function loadAjv() {
  return import(/* @vite-ignore */ /* webpackIgnore: true */ new URL('./ajv.min.js', import.meta.url).href);
}
/** The glob compiler when it is there without loading: never in browsers. */
export function globCompilerNow() {
  return undefined;
}
/** The search pattern parser when it is there without loading: never in browsers. */
export function regexParserNow() {
  return undefined;
}
/** Native byte helpers for the in-memory search source: none in browsers (it runs its plain JavaScript). */
export function nativeBytes() {
  return undefined;
}
