// Browsers (the package's `#linear-regex` import, `browser` condition): re2js as one self-contained
// ES module file beside this one (re2js.min.js, built from the re2js dependency by
// scripts/build-linear-regex.mjs), loaded by URL on first use. Bundlers see the URL as an asset (Vite,
// webpack 5: `new URL('./file', import.meta.url)`), copy the file and rewrite the URL, but not the
// import itself: so even a worker built as one classic script (Vite's default `iife` worker format,
// which inlines every dynamic import it can resolve) leaves re2js out and fetches it only when a
// pattern needs it. Dynamic import() is allowed in classic workers, and the file is same-origin, so a
// `script-src 'self'` Content-Security-Policy admits it.
/** Loads re2js, the linear-time regex engine grep_search uses for patterns V8 could backtrack on. */
export function loadRe2js() {
  const url = new URL('./re2js.min.js', import.meta.url);
  return import(/* @vite-ignore */ /* webpackIgnore: true */ url.href);
}
