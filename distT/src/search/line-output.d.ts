import { type LineHit } from './line-scan.js';
/** Longest line shown in full, in UTF-16 code units; longer ones become an excerpt around the first match. */
export declare const MAX_LINE_CHARS = 2000;
/** One matching line. `column` is the 1-based code-point column of the line's first match. */
export interface SearchMatch {
    file_path: string;
    /** 1-based. */
    line_number: number;
    /** 1-based, in Unicode code points. */
    column: number;
    /** The line without its ending; an excerpt with `[...]` markers when longer than {@link MAX_LINE_CHARS}. */
    line: string;
    /** grep_search with `context_lines > 0`: up to that many lines before (oldest first). */
    before?: string[];
    /** grep_search with `context_lines > 0`: up to that many lines after. */
    after?: string[];
}
/** `line` cut to {@link MAX_LINE_CHARS} with a marker of how many characters were cut. */
export declare function clipLine(line: string): string;
/** An excerpt of at most {@link MAX_LINE_CHARS} around `at` (line-relative), with markers for the cut parts. */
export declare function excerptLine(text: string, lineStart: number, lineEnd: number, at: number, length: number): string;
/**
 * Turns a file's hits into {@link SearchMatch}es: line numbers (counting line breaks forward once
 * through the text, only as far as the last reported line), code-point columns, excerpts of long
 * lines and `context` lines before and after.
 */
export declare class MatchFormatter {
    #private;
    constructor(text: string);
    /** 0-based index of the line starting at `lineStart`. */
    lineIndex(lineStart: number): number;
    /** The match for `hit` (whose offsets are known). */
    format(filePath: string, hit: LineHit, contextLines: number): SearchMatch;
}
