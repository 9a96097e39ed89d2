import { loadRe2js } from '#lazy';
import { onDemand } from '../core/on-demand.js';
const engine = onDemand('the linear-time regex engine (re2js)', 're2js.min.js', loadRe2js);
/**
 * re2js when it has been loaded ({@link loadRe2Engine}), else undefined. Patterns whose shape bounds
 * V8's backtracking never need it, so a program that only sends those never loads it: in browsers it
 * is a separate file (about 45 KB gzip) fetched on first use, and on Node a dynamic import.
 */
export function re2Engine() {
    return engine.loaded();
}
/**
 * Loads re2js once (later calls share the first load; after a failure the next call tries again).
 * Errors: ToolError `unavailable` when the engine's file cannot be loaded (the browser build serves
 * it beside the code that loads it; a bundler that copied the code without it breaks this).
 */
export function loadRe2Engine() {
    return engine.load();
}
//# sourceMappingURL=re2-engine.js.map