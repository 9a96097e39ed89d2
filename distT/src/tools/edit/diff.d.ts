/** Longest diff returned, in UTF-16 code units; a longer one is cut at a line with a marker. */
export declare const EDIT_MAX_DIFF_CHARS = 30000;
/**
 * Longest line of a diff shown whole, in UTF-16 code units (as `view_file`'s line cut). A longer
 * changed line is shown as an excerpt around its first difference, other long lines as their start.
 */
export declare const EDIT_MAX_DIFF_LINE_CHARS = 2000;
/** Most characters of changed text (both sides) that are diffed line by line; a larger change is summarised. */
export declare const EDIT_MAX_DIFFED_CHARS = 2000000;
/**
 * Unified diff of two LF texts with `path` in both headers: lines over {@link EDIT_MAX_DIFF_LINE_CHARS}
 * as excerpts ({@link excerptLongLines}), the whole capped at {@link EDIT_MAX_DIFF_CHARS}. Only the
 * changed region (between the texts' common first and last lines, plus context) is diffed, so a small
 * edit of a large file costs little; a region over {@link EDIT_MAX_DIFFED_CHARS} is summarised instead.
 */
export declare function unifiedDiff(path: string, before: string, after: string): Promise<string>;
