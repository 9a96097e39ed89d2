/**
 * toolhost/web/search-index: a search index of an IndexedDB workspace, kept in IndexedDB beside it, for
 * `createWebPlatform`'s `searchIndex` option. The index's code comes with this entry, so only a
 * worker that imports it bundles that code.
 *
 * ```ts
 * import { createWebPlatform } from 'toolhost/web';
 * import { webSearchIndex } from 'toolhost/web/search-index';
 * const platform = createWebPlatform({ workspace: 'my-project', searchIndex: webSearchIndex() });
 * ```
 */
import { budgetOf } from '../src/search/index/budget.js';
import { searchIndexStatus } from '../src/search/index/workspace.js';
import { describeValue } from '../src/core/options.js';
import { SEARCH_INDEX, type WebSearchIndex } from './platform.js';
import { attachWebSearchIndex } from './search-index-store.js';

/** Options of {@link webSearchIndex}: the index's bounds. */
export interface WebSearchIndexOptions {
  /** Largest index kept, in bytes (default 256 MiB): past it no index is kept and searches scan. */
  maxIndexBytes?: number;
  /** Largest estimated memory of a build, in bytes (default 448 MiB): past it the build stops. */
  maxBuildBytes?: number;
}

/**
 * A search index for `createWebPlatform({ searchIndex: webSearchIndex() })`: kept in the IndexedDB
 * database `toolhost-search-index:<workspace>`, read on first use when saved and intact, else built in
 * the background in the worker and saved. `options` bounds it (see {@link WebSearchIndexOptions}); a
 * bound that is not a number of bytes above 0, or an unknown option, is a TypeError.
 */
export function webSearchIndex(options: WebSearchIndexOptions = {}): WebSearchIndex {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new TypeError(`webSearchIndex: options must be { maxIndexBytes?, maxBuildBytes? } or left out, not ${describeValue(options)}`);
  }
  const unknown = Object.keys(options).find((key) => key !== 'maxIndexBytes' && key !== 'maxBuildBytes');
  if (unknown !== undefined) throw new TypeError(`webSearchIndex: ${unknown} is not an option; webSearchIndex takes { maxIndexBytes?, maxBuildBytes? }`);
  const budget = budgetOf(options, 'webSearchIndex', '');
  return {
    [SEARCH_INDEX]: {
      attach: (platform, factory, workspace, loaded) => {
        const attached = attachWebSearchIndex(platform, factory, workspace, loaded, budget);
        const ready = attached.ready.then((how) => ('off' in how ? { off: webNote(how.off) } : how));
        return { ready, close: () => attached.close() };
      },
      status: (platform) => {
        const status = searchIndexStatus(platform);
        return status?.note === undefined ? status : { ...status, note: webNote(status.note) };
      },
    },
  };
}

/** A budget note as this entry's users write the bound: `searchIndex: webSearchIndex({ maxIndexBytes: … })`. */
function webNote(note: string): string {
  return note.replace(/set searchIndex: (\{[^}]*\})/, 'set searchIndex: webSearchIndex($1)');
}
