import type { ToolContext } from '../../core/tool.js';
import type { PatchOperation } from './parse.js';
export { parsePatch, parseChunks, parseCreateDiff, checkOperationPath, type PatchChunk, type PatchOperation } from './parse.js';
export { applyChunks, seekLines } from './apply.js';
/** Largest file a patch updates, in bytes (32 MiB, as `edit_file`). */
export declare const PATCH_MAX_FILE_BYTES: number;
/** One file a patch changed, as the result lists it. */
export interface PatchChange {
    /** `A` added, `M` modified (or moved), `D` deleted: the letters of Codex's summary. */
    action: 'A' | 'M' | 'D';
    /** Absolute workspace path (the new path of a moved file). */
    path: string;
    /** The path the file was moved from, for `*** Move to:`. */
    moved_from?: string;
}
/** Result of applying a patch: Codex's summary text and the files changed, in patch order. */
export interface PatchResult {
    output: string;
    changes: PatchChange[];
}
/**
 * Applies parsed patch operations to the workspace all or nothing: every path is resolved inside the
 * workspace (`resolveWorkspacePath`, so confinement and symlink rules are the built-ins'), every file
 * is read and every new content computed before anything is written, under the write locks of all
 * the paths. Just before the writes every file is checked again against what was read (its stats, or
 * its content where they differ; an added file still absent): one changed by another writer meanwhile
 * is `stale_file` and nothing is written. If a write then fails, the files already written are put
 * back. Writes are atomic per file and keep each file's BOM and line endings; the file cache records
 * the new hashes, and a file this conversation viewed that has changed since is `stale_file` for a delete.
 *
 * Errors: `not_found` (update or delete of a missing file), `already_exists` (add or move onto an
 * existing file), `no_match` (a hunk that does not apply, quoting the line), `binary_file`,
 * `is_a_directory`, `too_large`, `outside_workspace`, `stale_file`, `cancelled`.
 */
export declare function applyPatchOperations(ctx: ToolContext, operations: readonly PatchOperation[]): Promise<PatchResult>;
