import type { FsPromises } from '../src/core/types.js';
/** One difference between an overlay workspace and its base; `path` is relative to the workspace root. */
export interface OverlayChange {
    path: string;
    kind: 'created' | 'modified' | 'deleted';
    /** Unified diff from the base's current text to the overlay's (`--- path` / `+++ path` headers, 3 lines of context, as edit_file's); a note for binary files. */
    diff: string;
    /** Set when the base's file changed since the overlay first changed it (or appeared since it was created): {@link OverlayControl.apply} refuses it. */
    conflict?: string;
}
/** What {@link OverlayControl.apply} did: every path written to the base, or nothing and the conflicts. */
export interface OverlayApplyResult {
    applied: string[];
    conflicts: Array<{
        path: string;
        reason: string;
    }>;
}
/** The review members of an overlay workspace. */
export interface OverlayControl {
    /** What differs from the base: created, modified and deleted files, sorted by path, each with its diff. */
    changes(): Promise<OverlayChange[]>;
    /**
     * Writes every change to the base, then empties the overlay. All or nothing: with any conflict nothing
     * is written (the result lists them); when a write fails, the files already written are restored and
     * the call rejects with that write's code.
     */
    apply(): Promise<OverlayApplyResult>;
    /** Drops every change: the workspace shows the base again. */
    discard(): Promise<void>;
}
/**
 * A copy-on-write workspace: reads fall through to `base` (addressed from `/`) until the overlay
 * (`upper`, absolute paths under `root`) has its own copy; every write goes to the overlay; deletions are
 * recorded so the base's files stay hidden. The record (deletions, the base's hash of each changed file)
 * lives in a hidden file of the overlay, so it is committed with the call's own changes.
 */
export declare function overlayFs(options: {
    upper: FsPromises;
    base: FsPromises;
    root: string;
    flush: () => Promise<void>;
}): {
    fs: FsPromises;
    control: OverlayControl;
};
