// A repeated search over a platform whose files change only through it (`changeCount`) reuses the
// last walk's sorted file list while nothing changed: same folder, same globs, same change count.
// The sift verdicts of that list (sift.ts) are kept beside it, keyed by the list itself.
import type { Platform } from '../../core/types.js';
import type { WalkFile } from '../../fs/walk.js';

/** A walk's sorted files, as the search that walked listed them. */
export interface RememberedListing {
  /** Sorted by path (code units); shared by every search that reuses it: never changed. */
  readonly files: readonly WalkFile[];
  readonly capped: boolean;
}

interface Kept extends RememberedListing {
  key: string;
  generation: number;
}

// One listing per platform (the last one walked): a search repeated as is finds it.
const kept = new WeakMap<Platform, Kept>();

/** The key of a walk's options: the resolved start folder and the globs (what the walk's result depends on, besides the tree). */
export function listingKey(start: string, include: string | undefined, exclude: string | undefined): string {
  return JSON.stringify([start, include ?? '', exclude ?? '']);
}

/** The listing kept for `key` on `platform`, when its change count has not moved since it was walked. */
export function reusedListing(platform: Platform, key: string): RememberedListing | undefined {
  const changeCount = platform.changeCount;
  const listing = kept.get(platform);
  if (!changeCount || !listing || listing.key !== key || listing.generation !== changeCount()) return undefined;
  return listing;
}

/**
 * Keeps `files` (sorted) as the listing for `key` on `platform`, when the platform counts its changes
 * and none was made since `generation` (its `changeCount()` before the walk).
 */
export function rememberListing(platform: Platform, key: string, generation: number | undefined, listing: RememberedListing): void {
  const changeCount = platform.changeCount;
  if (!changeCount || generation === undefined || changeCount() !== generation) return;
  kept.set(platform, { key, generation, files: listing.files, capped: listing.capped });
}

/** Forgets `platform`'s kept listing (tests). */
export function forgetListing(platform: Platform): void {
  kept.delete(platform);
}
