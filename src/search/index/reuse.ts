// A repeated search over a platform whose files change only through it (`changeCount`), or whose
// tree is watched (`setTreeWatch`), reuses the
// walk's sorted file list of the same folder with the same globs while the change count stays (a few
// listings per platform, the last used).
// The sift verdicts of that list (sift.ts) are kept beside it, keyed by the list itself.
import type { Platform } from '../../core/types.js';
import type { WalkFile } from '../walk.js';

/** A walk's sorted files, as the search that walked listed them. */
export interface RememberedListing {
  /** Sorted by path (code units); shared by every search that reuses it: never changed. */
  readonly files: readonly WalkFile[];
  readonly capped: boolean;
}

interface Kept extends RememberedListing {
  generation: number;
}

/**
 * What tells a search that a platform's tree has not changed, besides its own `changeCount`: a watch
 * of a real folder (node/search-index-watch.ts). `generation` moves with every change and is undefined
 * while the watch cannot vouch; `settled` resolves once every change completed before the call is
 * counted (a search awaits it before it reads the generation).
 */
export interface TreeGeneration {
  generation(): number | undefined;
  settled(): Promise<void>;
}

const watches = new WeakMap<Platform, TreeGeneration>();

/** Gives `platform` a watch of its tree (undefined: none from now on). */
export function setTreeWatch(platform: Platform, watch: TreeGeneration | undefined): void {
  if (watch) watches.set(platform, watch);
  else watches.delete(platform);
}

/** The watch of `platform`'s tree, when it has one. */
export function treeWatchOf(platform: Platform): TreeGeneration | undefined {
  return watches.get(platform);
}

/**
 * `platform`'s change count now: its own `changeCount` (its files change only through it), else its
 * tree watch's generation (awaited `settled` first); undefined when neither can vouch.
 */
export function treeGeneration(platform: Platform): number | undefined {
  if (platform.changeCount) return platform.changeCount();
  return watches.get(platform)?.generation();
}

/** Listings kept per platform (the last ones walked, by options): a search repeated as is finds its own. */
const KEPT_LISTINGS = 4;
const kept = new WeakMap<Platform, Map<string, Kept>>();

/** The key of a walk's options: the resolved start folder and the globs (what the walk's result depends on, besides the tree). */
export function listingKey(start: string, include: string | undefined, exclude: string | undefined): string {
  return JSON.stringify([start, include ?? '', exclude ?? '']);
}

/** The listing kept for `key` on `platform`, when its change count (see {@link treeGeneration}) has not moved since it was walked. */
export function reusedListing(platform: Platform, key: string): RememberedListing | undefined {
  const listings = kept.get(platform);
  const listing = listings?.get(key);
  const now = treeGeneration(platform);
  if (now === undefined || !listings || !listing) return undefined;
  if (listing.generation !== now) {
    // The tree changed since: every listing kept is out of date.
    listings.clear();
    return undefined;
  }
  listings.delete(key);
  listings.set(key, listing);
  return listing;
}

/**
 * Keeps `listing` (its files sorted) for `key` on `platform`, when the platform counts its changes
 * and none was made since `generation` (its `changeCount()` before the walk).
 */
export function rememberListing(platform: Platform, key: string, generation: number | undefined, listing: RememberedListing): void {
  if (generation === undefined || treeGeneration(platform) !== generation) return;
  let listings = kept.get(platform);
  if (!listings) kept.set(platform, (listings = new Map()));
  for (const [other, old] of listings) if (old.generation !== generation) listings.delete(other);
  listings.delete(key);
  listings.set(key, { generation, files: listing.files, capped: listing.capped });
  if (listings.size > KEPT_LISTINGS) listings.delete(listings.keys().next().value as string);
}
