import type { RE2JS } from 're2js';
import type { RegexNode } from './dialect-parse.js';
/**
 * Loads the parser that {@link compileSearchPattern} needs (once; on Node it is already there). Errors:
 * ToolError `unavailable` when its file cannot be loaded (the app must serve lazy/regex-parser.min.js).
 */
export declare function loadSearchPatternParser(): Promise<void>;
/**
 * How a compiled pattern is matched (all give the same lines and offsets):
 * - `literal`: plain text, found with `indexOf` (on bytes where the platform can);
 * - `linear`: V8's RegExp over whole runs of lines — the pattern's shape bounds V8's backtracking to
 *   linear time (see {@link analyse});
 * - `bounded`: V8's RegExp line by line on lines of at most {@link V8_LINE_LIMIT} code units (its
 *   backtracking is at most quadratic in the line there); longer lines go to re2js;
 * - `re2`: re2js (linear-time automata) line by line.
 * re2js is loaded on first use ({@link prepareSearchPattern}, or the scan itself on a `bounded`
 * pattern's first long line), so `literal` and `linear` patterns never load it.
 */
export type MatchMode = 'literal' | 'linear' | 'bounded' | 're2';
/** Longest line V8 matches in `bounded` mode, in UTF-16 code units. */
export declare const V8_LINE_LIMIT = 1024;
/** A pattern compiled for line-by-line search (see {@link compileSearchPattern}). */
export interface SearchPattern {
    /** The pattern as the model gave it. */
    pattern: string;
    mode: MatchMode;
    /** `literal` mode: the text. */
    literal?: string;
    /** Text every match contains (case-sensitive), for a prefilter on bytes or text; absent when none is long enough. */
    required?: string;
    /** `linear`/`bounded`: V8 source matching one line's first match as group 1, then the rest of the line. */
    v8?: RegExp;
    /**
     * re2js program of the pattern, matched against one line at a time (compiled on first use; re2js must
     * be loaded first: {@link prepareSearchPattern} or {@link loadRe2Engine}).
     */
    readonly re2: RE2JS;
    /** True when the whole pattern is under `(?i)` and V8 runs with its `i` flag. */
    ignoreCase: boolean;
    /** How it was compiled (absent when an engine was forced): another thread compiles the same pattern from these. */
    compiledWith?: {
        literal: boolean;
        caseSensitive: boolean;
    };
}
/**
 * Decides whether V8's backtracking RegExp may run `tree`, and how. V8 may run it only when its
 * backtracking is provably bounded:
 * 1. quantifiers apply to single characters or classes only (no quantified groups, so no nesting);
 * 2. each variable quantifier (`*`, `+`, `?`, `{n,m}` with n < m) is followed only by characters it
 *    cannot match, so giving a character back never lets the rest match: it acts possessively and a
 *    failed attempt from one start costs time linear in what it read — or it is the pattern's only
 *    variable quantifier, whose give-backs each retry fixed atoms only (`\w+Error`);
 * 3. at most {@link MAX_PATHS} paths through alternations and {@link MAX_ATOMS} atoms.
 * Then a line of length L costs O(L²) at worst (`bounded`). It is `linear` when, also, no variable
 * quantifier that can still fail afterwards matches a character that can start a match: then no later
 * start lies inside the text an earlier failed attempt ran over, so each character is read by a bounded
 * number of attempts.
 */
export declare function analyse(tree: RegexNode): 'linear' | 'bounded' | 're2';
/**
 * Compiles a search pattern in grep_search's one dialect (RE2 syntax as ripgrep's default, with ASCII
 * `\d \w \s \b` where ripgrep's are Unicode, plus the
 * JavaScript escapes with the same meaning; see dialect-parse.ts), or a literal (`literal`). Picks the
 * fastest engine whose running time stays linear in the input ({@link MatchMode}); every mode gives the
 * same lines and offsets; `engine` forces one (the differential tests compare them; V8 then runs
 * whatever its syntax allows, safe or not). Errors: ToolError `invalid_pattern` (lookaround and backreferences named, with
 * a way around them; syntax errors; patterns re2js refuses, e.g. too large: checked here once re2js is
 * loaded, else by {@link prepareSearchPattern}). In browsers, await {@link loadSearchPatternParser} first.
 */
export declare function compileSearchPattern(pattern: string, options: {
    literal: boolean;
    caseSensitive: boolean;
    argName?: string;
    engine?: MatchMode;
}): SearchPattern;
/**
 * Makes `pattern` ready to match: for a `re2` pattern, loads re2js (once per program) and compiles its
 * program, so re2js's refusals are reported before any file is read. Other modes need nothing (a
 * `bounded` pattern's scan loads re2js itself if it meets a line too long for V8). Errors: ToolError
 * `invalid_pattern` (a pattern re2js refuses), `unavailable` (re2js could not be loaded).
 */
export declare function prepareSearchPattern(pattern: SearchPattern): Promise<SearchPattern>;
