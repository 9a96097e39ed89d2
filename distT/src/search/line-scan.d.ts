import { type SearchPattern } from './dialect.js';
/** The first match of one matching line, as UTF-16 offsets into the file's text. */
export interface LineHit {
    /** Start of the line's first match; -1 when it was not asked for (only counted). */
    start: number;
    /** End of that match (-1 with `start`). */
    end: number;
    lineStart: number;
    /** Where the line's text ends (its line ending excluded). */
    lineEnd: number;
}
/** What {@link scanText} may spend. */
export interface ScanBudget {
    /** `Date.now()` value at which the scan stops and reports `stopped`. */
    deadline: number;
    /** Hits that need their match offsets (content output); later hits are only counted. */
    wantOffsets: number;
    /** Stop after this many hits (1 when only the file's name is wanted). */
    maxHits: number;
    /** Called now and then (about every {@link YIELD_EVERY_MS} ms of work) so the event loop can turn. */
    pause: () => Promise<void>;
}
/** Work between two `pause` calls, in ms. */
export declare const YIELD_EVERY_MS = 40;
/**
 * Finds line breaks forward through one text (`\n`, `\r\n`, `\r`). Positions asked for never go
 * backwards, so the cached next-break positions make a whole pass linear.
 */
export declare class LineCursor {
    #private;
    readonly text: string;
    readonly hasCR: boolean;
    constructor(text: string);
    /** The first `\n` or `\r` at or after `from`, or the text's length. */
    nextBreak(from: number): number;
    /** Start of the line holding `pos` (`pos` never smaller than in the previous call). */
    lineStartOf(pos: number): number;
    /** The first `\n` or `\r` at or after `from`, for any `from` (reads forward one character at a time). */
    nextBreakAny(from: number): number;
    /** Where the line after the break at `lineEnd` starts. */
    afterBreak(lineEnd: number): number;
}
/** What {@link scanText} found in one text. */
export interface ScanResult {
    /** The first `wantOffsets` matching lines (in order). */
    hits: LineHit[];
    /** Matching lines in all. */
    count: number;
    /** True when the deadline stopped the scan early. */
    stopped: boolean;
}
/**
 * Scans one text for the lines `pattern` matches, returning each matching line's first match in order
 * (see {@link LineHit}); lines end at `\n`, `\r\n` or `\r`, a final line ending adds no line. Runs the
 * pattern's {@link SearchPattern.mode}: `indexOf` for literals, V8 over runs of lines for `linear`
 * patterns, V8 on short lines and re2js on long ones for `bounded`, re2js per line for the rest; a
 * required literal first picks the candidate lines. Each engine call is bounded (a chunk of text, a
 * line of at most {@link V8_LINE_LIMIT} for V8's quadratic case, one line for re2js), the deadline is
 * checked between calls, and `pause` lets the event loop turn every {@link YIELD_EVERY_MS} ms. re2js
 * is loaded here when first needed (a `re2` pattern, a `bounded` pattern's long line).
 */
export declare function scanText(text: string, pattern: SearchPattern, budget: ScanBudget): Promise<ScanResult>;
/** Start of the line holding `pos`, scanning back at most to the previous line break. */
export declare function lineStartIn(text: string, pos: number): number;
