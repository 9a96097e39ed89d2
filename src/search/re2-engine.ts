import { loadRe2js } from '#linear-regex';
import { ToolError } from '../core/errors.js';

/** The re2js module: RE2JS, the linear-time regex engine (RE2's automata). */
export type Re2Engine = typeof import('re2js');

let engine: Re2Engine | undefined;
let loading: Promise<Re2Engine> | undefined;

/**
 * re2js when it has been loaded ({@link loadRe2Engine}), else undefined. Patterns whose shape bounds
 * V8's backtracking never need it, so a program that only sends those never loads it: in browsers it
 * is a separate file (about 45 KB gzip) fetched on first use, and on Node a dynamic import.
 */
export function re2Engine(): Re2Engine | undefined {
  return engine;
}

/**
 * Loads re2js once (later calls share the first load; after a failure the next call tries again).
 * Errors: ToolError `unavailable` when the engine's file cannot be loaded (the browser build serves
 * it beside the code that loads it; a bundler that copied the code without it breaks this).
 */
export function loadRe2Engine(): Promise<Re2Engine> {
  if (engine) return Promise.resolve(engine);
  loading ??= new Promise<Re2Engine>((resolve) => resolve(loadRe2js())).then(
    (module) => {
      engine = module;
      return module;
    },
    (error: unknown) => {
      loading = undefined;
      const message = (error as { message?: unknown } | undefined)?.message;
      throw new ToolError(
        'unavailable',
        `the linear-time regex engine (re2js) could not be loaded: ${String(message ?? error)}; the app must serve toolhost's linear-regex/re2js.min.js beside the code that loads it`,
      );
    },
  );
  return loading;
}
