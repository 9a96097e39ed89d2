import { type Tool } from '../core/tool.js';
export { EDIT_MAX_DIFF_CHARS, EDIT_MAX_DIFF_LINE_CHARS } from './edit/diff.js';
/** Largest file `edit_file` edits, in bytes (32 MiB, as `view_file` reads). */
export declare const EDIT_MAX_FILE_BYTES: number;
/** Arguments of `edit_file`. */
export interface EditFileArgs {
    file_path: string;
    old_string: string;
    new_string: string;
    replace_all?: boolean;
    expected_replacements?: number;
}
/** Result of `edit_file`. */
export interface EditFileResult {
    /** The absolute workspace path written (symlinks resolved). */
    file_path: string;
    /** Occurrences replaced (1 when an empty `old_string` created the file). */
    replacements: number;
    /**
     * Unified diff of the change (3 lines of context, line breaks shown as `\n`), headers `--- path` / `+++ path`.
     * A line over 2000 characters is an excerpt with `[... N characters before]` / `[... N characters after]`
     * markers: around the first difference for a changed line, its start for others.
     */
    diff: string;
}
/**
 * `edit_file` (matching as Claude Code's Edit and gemini-cli's
 * `replace`): replaces `old_string` by `new_string` in `{ file_path, old_string, new_string, replace_all?,
 * expected_replacements? }` and returns {@link EditFileResult}. Matching is exact and literal (indexOf and
 * slices, never a replacement pattern), left to right and non-overlapping; `\n`, `\r\n` and `\r` all match
 * one another, and new line breaks take the style of the edited span, so a CRLF file stays CRLF and a
 * mixed file changes only where edited. A BOM is kept. Writes atomically under the path's write lock and
 * records the SHA-256 of the new bytes in the file cache. An empty `old_string` creates a missing file.
 *
 * Errors: `no_match` (with the closest line and how whitespace differs, or that a BOM at the start of
 * old_string is not part of the text), `ambiguous_match` (several
 * occurrences without `replace_all`, or a count other than `expected_replacements`), `no_change`,
 * `not_found`, `invalid_arguments` (empty `old_string` on an existing file), `binary_file`,
 * `is_a_directory`, `outside_workspace`, `stale_file` (the file changed between its read and the write), `too_large` (over 32 MiB), `execution_failed` (a symlink loop).
 */
export declare const editFileTool: Tool<EditFileArgs, EditFileResult>;
