// The search index as the search tools use it (see ../index-engine.ts): set on a platform when it gets
// an index, or starts reading one (setSearchIndex, whileSearchIndexOpens below), so only programs that
// keep an index bundle it.
import type { Platform } from '../../core/types.js';
import { setSearchIndexEngine, type SearchIndexEngine } from '../index-engine.js';
import type { SearchIndex } from './search-index.js';
import { indexForSearch, siftWithIndex } from './sift.js';
import { listingKey, rememberListing, reusedListing, treeGeneration } from './reuse.js';
import { holdSearchIndex, noteSearchIndexOpening, searchIndexOnlyReading, searchIndexOpening } from './workspace.js';

/** The engine over this folder's index: each entry calls through (the modules import each other). */
export const INDEX_ENGINE: SearchIndexEngine = {
  opening: (platform) => searchIndexOpening(platform),
  onlyReading: (platform) => searchIndexOnlyReading(platform),
  indexFor: (platform, pattern) => indexForSearch(platform, pattern),
  sift: (platform, index, pattern, files, maxBytes, signal, keep) => siftWithIndex(platform, index as SearchIndex, pattern, files, maxBytes, signal, keep),
  treeGeneration: (platform) => treeGeneration(platform),
  listingKey: (start, include, exclude) => listingKey(start, include, exclude),
  reusedListing: (platform, key) => reusedListing(platform, key),
  rememberListing: (platform, key, generation, listing) => rememberListing(platform, key, generation, listing),
};

/**
 * Gives `platform`'s searches `index` (undefined: none from now on), and the engine they reach it
 * through. While it has one, the files tools write, remove and move through a runner on `platform` are
 * updated in it as each change is made, so the next search needs no read of them to be exact.
 */
export function setSearchIndex(platform: Platform, index: SearchIndex | undefined): void {
  if (index) setSearchIndexEngine(platform, INDEX_ENGINE);
  holdSearchIndex(platform, index);
}

/**
 * Tells `platform`'s searches that its index is being read from storage: a search
 * waits for `read` (which should take milliseconds, as reading a file does; a build is not waited for).
 */
export function whileSearchIndexOpens(platform: Platform, read: Promise<unknown>): void {
  setSearchIndexEngine(platform, INDEX_ENGINE);
  noteSearchIndexOpening(platform, read);
}
