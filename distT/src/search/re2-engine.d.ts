/** The re2js module: RE2JS, the linear-time regex engine (RE2's automata). */
export type Re2Engine = typeof import('re2js');
/**
 * re2js when it has been loaded ({@link loadRe2Engine}), else undefined. Patterns whose shape bounds
 * V8's backtracking never need it, so a program that only sends those never loads it: in browsers it
 * is a separate file (about 45 KB gzip) fetched on first use, and on Node a dynamic import.
 */
export declare function re2Engine(): Re2Engine | undefined;
/**
 * Loads re2js once (later calls share the first load; after a failure the next call tries again).
 * Errors: ToolError `unavailable` when the engine's file cannot be loaded (the browser build serves
 * it beside the code that loads it; a bundler that copied the code without it breaks this).
 */
export declare function loadRe2Engine(): Promise<Re2Engine>;
