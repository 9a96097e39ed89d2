/** Longest glob accepted, in UTF-16 code units; a longer one is refused with `invalid_pattern`. */
export declare const MAX_GLOB_LENGTH = 1000;
/** Most names one brace range such as `{1..20}` may stand for. */
export declare const MAX_BRACE_RANGE = 1000;
/** Source of the POSIX classes `[[:alpha:]]` etc. inside a character class (as picomatch's). */
export declare const POSIX_CLASSES: Record<string, string>;
/** Index of the `]` closing the class opened by the `[` at `start`, or -1 (POSIX bracket rules). */
export declare function classEnd(pattern: string, start: number): number;
/**
 * Checks that every `{` has its `}` and every `[` its `]` (picomatch silently treats an unbalanced one
 * as a literal, so `{a,b` would match nothing instead of failing). A backslash escapes the next
 * character; inside `[...]` a `]` right after `[`, `[!` or `[^` is literal (POSIX bracket rules), and
 * `[:alpha:]` classes are allowed. Returns a message for the model, or null when balanced.
 */
export declare function checkGlobBalance(pattern: string): string | null;
export type GlobNode = {
    kind: 'text';
    text: string;
}
/** `?`: one code unit other than `/`. */
 | {
    kind: 'one';
}
/** `*`: any run of code units without `/`. */
 | {
    kind: 'star';
}
/** The body of `**`: any run of code units, `/` included. */
 | {
    kind: 'any';
}
/** `[...]`: one code unit the class's RegExp accepts. */
 | {
    kind: 'class';
    index: number;
}
/** `{a,b}`, `@(a|b)`, `(a|b)`, brace ranges. */
 | {
    kind: 'alt';
    alts: GlobNode[][];
}
/** `?(a|b)` (min 0, once), `*(a|b)` (min 0, many), `+(a|b)` (min 1, many). */
 | {
    kind: 'repeat';
    min: 0 | 1;
    many: boolean;
    alts: GlobNode[][];
}
/** Where `!(...)` starts: what follows must not match its lookahead (see {@link GlobParser}). */
 | {
    kind: 'assert';
}
/** The end of the path (picomatch's `$` in `a/**\/b`, which matches `a` when b can be empty). */
 | {
    kind: 'end';
};
export type Context = 'top' | 'brace' | 'paren';
/** What came just before the parser's position: start of the pattern, of an alternative, a `/`, or a `**\/` whose `/` was consumed. */
export type Before = 'bos' | 'alt' | 'slash' | 'globslash' | 'other';
/**
 * A sequence being parsed: its nodes, literal text not yet made a node, whether a `*` came right before
 * its last `/`, and what its last node is when a following `+` or `?` quantifies it.
 */
export interface Sequence {
    nodes: GlobNode[];
    text: string;
    starBeforeSlash: boolean;
    last: 'class' | 'brace' | 'group' | null;
}
export declare function flush(seq: Sequence): void;
export declare function push(seq: Sequence, node: GlobNode): void;
/**
 * Parses a glob with picomatch's meaning (as configured by toolhost: `dot: true`, POSIX paths):
 * `*` `?` `[...]` (with `[!...]`, `[^...]`, `[[:alpha:]]`; a class without range or escape also
 * matches its own text, so `[id].tsx` finds a file of that name), `{a,b}` (nested, empty alternatives),
 * `{1..20}` / `{a..e}` ranges, `**` as a whole segment for any number of directories, extglobs
 * `@( )` `?( )` `*( )` `+( )`, a bare `( | )` group, `|` between alternatives at any level
 * (`*.ts|*.js`), `"quoted"` text, `\` escapes. `!(X)` (at most one, outside groups) matches what `*`
 * would, provided the rest of the path from there does not match X followed by the rest of the
 * pattern (picomatch checks only that X does not start there). An unmatched `(` or `)` is literal
 * (picomatch escapes the wrong parenthesis of its own output there). Ranges are expanded as bash does
 * (picomatch turns `{1..20}` into the class `[1-20]`).
 */
export declare class GlobParser {
    private readonly src;
    private readonly options;
    readonly classes: RegExp[];
    /** The nodes of `!(X)` followed by the rest of the pattern: the lookahead an `assert` node checks. */
    lookahead: GlobNode[] | null;
    private i;
    private before;
    private readonly closeAt;
    private readonly matched;
    private pendingNot;
    constructor(src: string, options: {
        caseSensitive: boolean;
        fail: (message: string) => never;
    });
    parse(): GlobNode[];
    private isOpen;
    private isAltEnd;
    /** Parses up to the end of the pattern or of the current alternative (`|`; `,` `}` in braces; `)` in groups). */
    private sequence;
    /** `!(X)` at `start`: an `assert` node, then `*` (or `**` when X holds a `/`), the lookahead kept for later. */
    private negatedGroup;
    /** `**` ending at `this.i`: any number of directories when it is a whole segment, else `*` (picomatch's rules). */
    private globstar;
    /** `(`...`)` from `start` (just after the `(`) to its `)`: alternatives separated by `|`. */
    private group;
    /** `{`...`}` at `start`: alternatives separated by `,`, a range `{1..20}`, or literal braces around a glob. */
    private brace;
    /** The names of a range `1..20`, `01..10`, `1..10..2`, `a..e` (bash's meaning), or null. */
    private range;
    /** The class `[...]` from `start` to `end` (its `]`), as a node; picomatch's conversion to a RegExp class. */
    private charClass;
}
/** The same language read backwards (for the `!(...)` lookahead, run from the end of the path). */
export declare function reverseNodes(nodes: GlobNode[]): GlobNode[];
