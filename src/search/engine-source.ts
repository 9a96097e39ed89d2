// What a search engine built by `createSearchEngine` keeps beside its public face: the search source it
// reads through (the index code, the change journal's listings and the search itself read it from
// here, never from the platform), and the patterns and globs a tool compiled for one request (so the
// default engine does not compile them again). Apart from engine.ts, so the search's own modules can
// ask for a platform's source without importing the engine (and the engine imports them).
import type { Platform, SearchEngine, SearchRequest } from '../core/types.js';
import type { SearchPattern } from './dialect.js';
import type { GlobMatcher } from './glob.js';
import type { SearchSource } from './source-port.js';

/**
 * The key of an engine's source: a registered symbol, so a second copy of toolhost's modules in one
 * process (a test's source beside the built package) finds the source an engine of the other made.
 */
const SOURCE = Symbol.for('toolhost.searchSource');
const compiled = new WeakMap<SearchRequest, SearchPattern | GlobMatcher>();

/** Records that `engine` reads through `source` (see {@link searchSourceOfEngine}); called once, by `createSearchEngine`. */
export function attachSearchSource(engine: SearchEngine, source: SearchSource): void {
  Object.defineProperty(engine, SOURCE, { value: source, enumerable: false });
}

/** The search source `engine` reads through, or undefined (an engine without one, or not toolhost's). */
export function searchSourceOfEngine(engine: SearchEngine | undefined): SearchSource | undefined {
  return engine === undefined || engine === null ? undefined : ((engine as { [SOURCE]?: SearchSource })[SOURCE] ?? undefined);
}

/**
 * The search source of `platform`'s search engine (`platform.search`), or undefined: a platform
 * without an engine of toolhost's, or whose engine reads through `fs` (then readers use `fs`).
 */
export function searchSourceOf(platform: Pick<Platform, 'search'>): SearchSource | undefined {
  return searchSourceOfEngine(platform.search);
}

/** Hands `request`'s compiled pattern (`lines`) or glob (`files`) to the default engine along with it. */
export function withCompiled<R extends SearchRequest>(request: R, value: R extends { kind: 'lines' } ? SearchPattern : GlobMatcher): R {
  compiled.set(request, value);
  return request;
}

/** What {@link withCompiled} handed over with `request`, or undefined (the engine compiles it). */
export function compiledFor(request: SearchRequest): SearchPattern | GlobMatcher | undefined {
  return compiled.get(request);
}
