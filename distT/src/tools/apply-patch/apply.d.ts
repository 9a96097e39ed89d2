import type { PatchChunk } from './parse.js';
/**
 * Where `pattern` occurs in `lines` at or after `start` (0-based), trying each pass of {@link PASSES}
 * over the whole range before the next; with `endOfFile` the position that ends the file is tried
 * first. -1 when it is nowhere.
 */
export declare function seekLines(lines: readonly string[], pattern: readonly string[], start: number, endOfFile?: boolean): number;
/**
 * Applies the chunks of a V4A update to `text` (a file's content without its BOM) and returns the new
 * text. Chunks are located in order, each after the previous one: a chunk's `@@` context line is found
 * first (by the same passes), then its old lines, with {@link seekLines}; a chunk without old lines is
 * inserted after its context line, or at the end of the file. Lines keep their own endings; new lines
 * take the ending of the line they replace, else the file's dominant one (so CRLF files stay CRLF),
 * and a file without a final line break keeps having none.
 *
 * Errors: `no_match` quoting the context header or the first hunk line the file does not have
 * (with the line after which the hunk stopped matching), and the hunk's number.
 */
export declare function applyChunks(text: string, chunks: readonly PatchChunk[], path: string): string;
