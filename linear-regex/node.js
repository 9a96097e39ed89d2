// Node and every other non-browser runtime (the package's `#linear-regex` import, default condition):
// re2js from node_modules, a plain dynamic import that bundlers split off or resolve as usual.
/** Loads re2js, the linear-time regex engine grep_search uses for patterns V8 could backtrack on. */
export function loadRe2js() {
  return import('re2js');
}
