// The search index as the search tools use it (see ../index-engine.ts): set on a platform by
// workspace.ts when it gets an index, or starts reading one, so only programs that keep an index bundle it.
import type { SearchIndexEngine } from '../index-engine.js';
import type { SearchIndex } from './search-index.js';
import { indexForSearch, siftWithIndex } from './sift.js';
import { listingKey, rememberListing, reusedListing } from './reuse.js';
import { searchIndexOpening } from './workspace.js';

/** The engine over this folder's index: each entry calls through (the modules import each other). */
export const INDEX_ENGINE: SearchIndexEngine = {
  opening: (platform) => searchIndexOpening(platform),
  indexFor: (platform, pattern) => indexForSearch(platform, pattern),
  sift: (platform, index, pattern, files, maxBytes, signal, keep) => siftWithIndex(platform, index as SearchIndex, pattern, files, maxBytes, signal, keep),
  listingKey: (start, include, exclude) => listingKey(start, include, exclude),
  reusedListing: (platform, key) => reusedListing(platform, key),
  rememberListing: (platform, key, generation, listing) => rememberListing(platform, key, generation, listing),
};
