// Node and every other non-browser runtime (the package's `#lazy` import, default condition): the
// libraries from node_modules, plain dynamic imports that bundlers split off or resolve as usual.
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
