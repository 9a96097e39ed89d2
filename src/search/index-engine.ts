// The seam between the search tools and the search index: line-search asks the engine provided here
// for an index, and sifts with it, instead of importing the index's code. The index's own code
// (src/search/index/) sets the engine on a platform when it gives that platform an index, so a program
// that never keeps one (a browser worker without `searchIndex`) does not bundle it.
import type { Platform } from '../core/types.js';
import type { WalkFile } from './walk.js';
import type { SearchPattern } from './dialect.js';

/** A walk's sorted files, as kept for a repeated search (see {@link SearchIndexEngine.reusedListing}). */
export interface KeptListing {
  /** Sorted by path (code units); shared by every search that reuses it: never changed. */
  readonly files: readonly WalkFile[];
  readonly capped: boolean;
}

/**
 * Matching lines remembered for files of a kept listing the index trusts, for one pattern (a result
 * memo, valid exactly while the listing's sift verdicts are: see `CountMemo` in index/sift.ts).
 */
export interface SiftedCountMemo {
  /** Per file of the sift's `scan` (same order): its matching lines remembered (> 0), or -1 (not known: scan it). */
  readonly known: Int32Array;
  /** Remembers a whole count of `path` as this search read it (ignored for a file the index does not trust). */
  note(path: string, count: number): void;
}

/** What a sift left to scan, and the files it tallied unread (text without a match, binary). */
export interface SiftedFiles {
  scan: WalkFile[];
  text: number;
  binary: number;
  /** Line counts remembered for the files of `scan`, when the sift kept its verdicts. */
  memo?: SiftedCountMemo;
}

/** An index a search sifts with, as the engine hands it out (opaque to the search). */
export interface IndexForSearch {
  readonly size: number;
}

/** What the search tools use of the search index, provided by the index's code. */
export interface SearchIndexEngine {
  /** The reading of `platform`'s saved index under way (never rejects), or undefined. */
  opening(platform: Platform): Promise<unknown> | undefined;
  /** Whether what {@link opening} waits for is only the reading of a saved index (no tree watch to settle): a walk may run meanwhile. */
  onlyReading(platform: Platform): boolean;
  /** The index a search of `platform` for `pattern` sifts with, or undefined (none, or not worth it). */
  indexFor(platform: Platform, pattern: SearchPattern): IndexForSearch | undefined;
  /** The listed `files` less those `index` shows cannot match; `keep`: `files` is a kept listing. */
  sift(platform: Platform, index: IndexForSearch, pattern: SearchPattern, files: readonly WalkFile[], maxBytes: number, signal: AbortSignal | undefined, keep: boolean): Promise<SiftedFiles>;
  /** `platform`'s change count now (its own, else its tree watch's), or undefined when neither vouches for an unchanged tree. */
  treeGeneration(platform: Platform): number | undefined;
  /** The key of a walk's options (start folder and globs). */
  listingKey(start: string, include: string | undefined, exclude: string | undefined): string;
  /** The listing kept for `key`, when `platform`'s change count has not moved since. */
  reusedListing(platform: Platform, key: string): KeptListing | undefined;
  /** Keeps `listing` for `key` when no change was made since `generation`. */
  rememberListing(platform: Platform, key: string, generation: number | undefined, listing: KeptListing): void;
}

// Per platform (as the index itself is kept), so a platform without an index finds none, and dropped with it.
const engines = new WeakMap<Platform, SearchIndexEngine>();

/** Makes `engine` the one `platform`'s searches use (the index's code, when `platform` gets an index or starts reading one). */
export function setSearchIndexEngine(platform: Platform, engine: SearchIndexEngine): void {
  engines.set(platform, engine);
}

/** The engine set for `platform` by {@link setSearchIndexEngine}, or undefined: its searches scan every listed file. */
export function searchIndexEngine(platform: Platform): SearchIndexEngine | undefined {
  return engines.get(platform);
}
