// Views of a platform's fs that see every change a tool call makes through the runner: the one place
// where a tool's writes reach the platform (create_file, edit_file, apply_patch, the profiles'
// editors, deletes and moves alike), for what must follow them as they happen (the search index).
import type { FsPromises } from './fs-port.js';
import type { Platform } from './platform.js';

/** Wraps the fs a mutating call writes through (the platform's own, under the change journal's view). */
export type ToolWriteView = (fs: FsPromises) => FsPromises;

// Per platform, so a view follows one workspace only and is dropped with it.
const views = new WeakMap<Platform, ToolWriteView>();

/**
 * Makes `view` wrap the fs of every call that may change files on `platform` from now on (undefined:
 * none). A runner's calls on a platform it stages (review mode) are not `platform`'s and are not seen.
 */
export function watchToolWrites(platform: Platform, view: ToolWriteView | undefined): void {
  if (view) views.set(platform, view);
  else views.delete(platform);
}

/** The view set for `platform` by {@link watchToolWrites}, or undefined. */
export function toolWriteView(platform: Platform): ToolWriteView | undefined {
  return views.get(platform);
}
