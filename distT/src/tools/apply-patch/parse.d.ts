/** One `@@` section of an update: optional context header, the lines it expects and the lines it writes. */
export interface PatchChunk {
    /** The text after `@@ ` (a line to find before the chunk, such as a function header); absent for a bare `@@`. */
    context?: string;
    /** Lines the file must hold here (context and `-` lines, in order), without line endings. */
    oldLines: string[];
    /** Lines written in their place (context and `+` lines, in order). */
    newLines: string[];
    /** The chunk ends with `*** End of File`: its lines are matched at the end of the file. */
    endOfFile: boolean;
    /** Each hunk line's kind in order (` ` context, `-` removed, `+` added), so context lines keep the file's own text. */
    kinds: Array<' ' | '-' | '+'>;
}
/** One file operation of a V4A patch. */
export type PatchOperation = {
    type: 'add';
    path: string;
    content: string;
} | {
    type: 'delete';
    path: string;
} | {
    type: 'update';
    path: string;
    moveTo?: string;
    chunks: PatchChunk[];
};
/**
 * Parses the chunks of one file update (the lines after `*** Update File:` / `*** Move to:`, or the
 * headerless diff of a Responses API `update_file` operation). `first` is the number of `lines[0]`
 * in the whole patch, for messages. The first chunk may leave out its `@@` line, as Codex allows.
 */
export declare function parseChunks(lines: readonly string[], path: string, first?: number): PatchChunk[];
/**
 * Parses a V4A patch in Codex's envelope: `*** Begin Patch`, then `*** Add File: path` (lines of `+`),
 * `*** Delete File: path`, `*** Update File: path` (optionally `*** Move to: path`, then `@@` hunks of
 * ` `, `-` and `+` lines, a hunk's `@@` optionally followed by a context line, `*** End of File` after a
 * hunk that ends the file), and `*** End Patch`. Line endings of the patch (`\n` or `\r\n`) do not
 * matter; blank lines around the envelope are ignored.
 *
 * Errors (`invalid_arguments`, naming the line): a missing `*** Begin Patch` or `*** End Patch`, a line
 * that is no operation header, a `+` line outside an Add File, an empty update, an absolute path or
 * one with `..`, two operations on one path.
 */
export declare function parsePatch(patch: string): PatchOperation[];
/**
 * Parses the `diff` of a Responses API `create_file` operation: V4A lines that all start with `+`
 * (the file's content). Errors: `invalid_arguments` naming a line without `+`.
 */
export declare function parseCreateDiff(diff: string, path: string): string;
/** Checks a Responses API operation path as a patch path (relative, no `..`). */
export declare function checkOperationPath(path: string): string;
