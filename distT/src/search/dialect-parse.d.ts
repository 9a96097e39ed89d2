/**
 * The syntax tree of a pattern in grep_search's dialect: RE2 syntax as ripgrep's default has it
 * (but with ASCII `\d \w \s \b`, as RE2 and JavaScript, where ripgrep's are Unicode) plus the
 * JavaScript escapes that mean the same thing (`\uFFFF`, `\u{1F600}`, `\cX`, `\/`). Character sets are
 * code-point ranges plus Unicode property references; case-insensitivity is recorded per atom (`fold`),
 * so inline flags such as `(?i)` or `(?i:…)` apply exactly where they are written.
 */
export type RegexNode = {
    type: 'char';
    cp: number;
    fold: boolean;
} | {
    type: 'set';
    negated: boolean;
    ranges: Array<[number, number]>;
    props: PropertyRef[];
    fold: boolean;
} | {
    type: 'assert';
    kind: 'start' | 'end' | 'word' | 'notword';
} | {
    type: 'seq';
    items: RegexNode[];
} | {
    type: 'alt';
    branches: RegexNode[];
} | {
    type: 'group';
    body: RegexNode;
} | {
    type: 'repeat';
    body: RegexNode;
    min: number;
    max: number;
    lazy: boolean;
};
/** `\p{Greek}` (`negated`: `\P{…}` or `\p{^…}`); `name` as written, `script` when it is not a general category. */
export interface PropertyRef {
    name: string;
    negated: boolean;
    script: boolean;
}
/** Largest count in `{n,m}`, as RE2 and ripgrep. */
export declare const MAX_REPEAT = 1000;
/**
 * Deepest nesting a pattern may have, as RE2's parser allows (ripgrep's stops at 250 groups): groups
 * (`(…)`, `(?:…)`, `(?i:…)`, `(?P<name>…)`) inside one another, and the height of the expression as
 * RE2 counts it, where each repetition, alternation and sequence inside another is one level (groups
 * add none; an alternation directly inside an alternation, or a sequence inside a sequence, merges
 * with it). Deeper patterns are refused while parsing, before any recursive pass over the tree (or
 * re2js's own height check) could overflow the stack or refuse it later.
 */
export declare const MAX_NESTING = 1000;
/**
 * The property names RE2 (re2js 2.10's Unicode tables) knows besides the general categories above: the
 * scripts by their long names (never the four-letter codes such as `Grek`, which V8 would also take),
 * a few more categories (`Cn`, `LC`, `Lc`, `Assigned`, `Ascii`) and its binary properties. Kept here so
 * that parsing a pattern never needs re2js, which loads only when a pattern runs on it.
 */
export declare const RE2_PROPERTY_NAMES: ReadonlySet<string>;
/** The complement of sorted, non-overlapping ranges over all code points. */
export declare function complementRanges(ranges: ReadonlyArray<[number, number]>): Array<[number, number]>;
/** Sorts and merges ranges. */
export declare function normalizeRanges(ranges: ReadonlyArray<[number, number]>): Array<[number, number]>;
/**
 * Parses `pattern` into a {@link RegexNode} tree. `caseInsensitive` starts the pattern under `(?i)`.
 * Errors (ToolError `invalid_pattern`): lookahead / lookbehind (`(?=`, `(?!`, `(?<=`, `(?<!`) and
 * backreferences (`\1`, `\k<name>`) name the construct and suggest a way around it, as ripgrep does
 * without `-P`; atomic groups, possessive quantifiers and other syntax errors say what is wrong;
 * a count over {@link MAX_REPEAT}; a pattern nested more than {@link MAX_NESTING} levels deep.
 */
export declare function parseRegex(pattern: string, options: {
    caseInsensitive: boolean;
    argName?: string;
}): RegexNode;
