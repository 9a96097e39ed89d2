import type { RE2JS } from 're2js';
import { ToolError } from '../core/errors.js';
import { clipForMessage } from '../fs/text.js';
import { loadRegexParser, regexParserNow } from '#lazy';
import { onDemand } from '../core/on-demand.js';
import type { PropertyRef, RegexNode } from './dialect-parse.js';
import { loadRe2Engine, re2Engine } from './re2-engine.js';
import { compilePike, type PikeProgram } from './pike.js';

/**
 * The dialect's parser (dialect-parse.ts): in browsers a file of its own (lazy/regex-parser.min.js),
 * fetched by {@link loadSearchPatternParser} on the first search; on Node loaded with this module.
 */
const parserModule = onDemand('the search pattern parser', 'regex-parser.min.js', loadRegexParser<typeof import('./dialect-parse.js')>);

function parser(): typeof import('./dialect-parse.js') {
  const module = parserModule.loaded() ?? regexParserNow<typeof import('./dialect-parse.js')>();
  if (!module) throw new Error('the search pattern parser is not loaded yet: await loadSearchPatternParser() before compileSearchPattern');
  return module;
}

/**
 * Loads the parser that {@link compileSearchPattern} needs (once; on Node it is already there). Errors:
 * ToolError `unavailable` when its file cannot be loaded (the app must serve lazy/regex-parser.min.js).
 */
export async function loadSearchPatternParser(): Promise<void> {
  if (!regexParserNow()) await parserModule.load();
}

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
export const V8_LINE_LIMIT = 1024;
/** Most alternative paths through a pattern V8 may run (products of alternations). */
const MAX_PATHS = 64;
/** Most atoms (after expanding fixed counts) a pattern V8 runs may have. */
const MAX_ATOMS = 256;

/**
 * Longest pattern the search tools take, in UTF-16 code units (64 Ki). A longer one is refused before
 * it is parsed: a pattern is a line, an identifier or an alternation of names, far below this, while
 * compiling costs memory per character (re2js keeps hundreds of bytes per program instruction), so an
 * unbounded one could exhaust the heap of the process every tool shares. ripgrep bounds its compiled
 * program the same way (`--regex-size-limit`).
 */
export const MAX_PATTERN_LENGTH = 64 * 1024;

/**
 * Most instructions a pattern's program may have once counted repetitions are spelled out (`x{n,m}`
 * is `m` copies of `x`, as RE2 compiles it), each character class written counted by its size too
 * ({@link programSize}): about {@link MAX_PATTERN_LENGTH} characters, so a short pattern with large
 * counts (`\pL{1000}` repeated) or a long one of classes (`\w` or `.` written thousands of times)
 * costs no more than the longest literal (tens of megabytes while re2js compiles it).
 */
export const MAX_PROGRAM_SIZE = 100_000;

/** Where a {@link LineProgram} found its match (the subset of re2js's Matcher the scans use). */
export interface LineMatcher {
  /** Finds the leftmost-first match at or after `from` (the text before it is context for `^` and `\b`). */
  find(from?: number): boolean;
  start(): number;
  end(): number;
  resetMatcherInput(input: string): LineMatcher;
}

/** A pattern's linear-time program, matched against one line at a time (re2js's RE2JS, or one wrapping it). */
export interface LineProgram {
  test(input: string): boolean;
  programSize(): number;
  matcher(input: string): LineMatcher;
}

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
  readonly re2: LineProgram;
  /** True when the whole pattern is under `(?i)` and V8 runs with its `i` flag. */
  ignoreCase: boolean;
  /** How it was compiled (absent when an engine was forced): another thread compiles the same pattern from these. */
  compiledWith?: { literal: boolean; caseSensitive: boolean };
}

interface CharSet {
  ranges: Array<[number, number]>;
  /** Unknown extent (Unicode properties): overlaps anything non-empty. */
  wide: boolean;
}

const EMPTY: CharSet = { ranges: [], wide: false };

/** `ranges` with their ASCII case partners, and the two non-ASCII letters that fold into `k` and `s` (KELVIN SIGN, LONG S). */
function foldRanges(ranges: ReadonlyArray<[number, number]>): CharSet {
  const out: Array<[number, number]> = [...ranges];
  let wide = false;
  for (const [lo, hi] of ranges) {
    if (hi > 0x7f) wide = true;
    if (lo <= 0x6b && hi >= 0x6b) out.push([0x212a, 0x212a]);
    if (lo <= 0x4b && hi >= 0x4b) out.push([0x212a, 0x212a]);
    if (lo <= 0x73 && hi >= 0x73) out.push([0x17f, 0x17f]);
    if (lo <= 0x53 && hi >= 0x53) out.push([0x17f, 0x17f]);
  }
  return { ranges: parser().asciiCaseClosed(out), wide };
}

/**
 * Whether `cp` has partners under Unicode simple case folding (so a case-insensitive atom of it is not
 * one fixed character). An over-approximation is safe: it only keeps a character out of the literal
 * fast path and the prefilter.
 */
function hasCaseVariants(cp: number): boolean {
  if (cp < 0x80) return (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a);
  const ch = String.fromCodePoint(cp);
  return ch.toLowerCase() !== ch || ch.toUpperCase() !== ch;
}

/** A case-insensitive or case-sensitive character that stands for itself only. */
function fixedChar(node: RegexNode): node is Extract<RegexNode, { type: 'char' }> {
  return node.type === 'char' && !(node.fold && hasCaseVariants(node.cp));
}

let wordClassSource: string | undefined;

/** V8 class body of ripgrep's Unicode `\w` (built once). */
function unicodeWordClass(): string {
  wordClassSource ??= classBody(parser().unicodeWord(), jsChar);
  return wordClassSource;
}

/** V8 source of a Unicode word-boundary assertion (`\b`, or `\B` when `negated`), which V8 has only for ASCII. */
function unicodeBoundary(negated: boolean): string {
  const w = `[${unicodeWordClass()}]`;
  return negated ? `(?:(?<=${w})(?=${w})|(?<!${w})(?!${w}))` : `(?:(?<=${w})(?!${w})|(?<!${w})(?=${w}))`;
}

/** The characters an atom can match (an over-approximation where properties are involved). */
function atomSet(node: RegexNode): CharSet {
  if (node.type === 'char') return node.fold ? foldRanges([[node.cp, node.cp]]) : { ranges: [[node.cp, node.cp]], wide: false };
  if (node.type !== 'set') return EMPTY;
  const base = node.fold ? foldRanges(node.ranges) : { ranges: node.ranges, wide: false };
  if (node.negated) return { ranges: parser().complementRanges(base.ranges), wide: base.wide || node.props.length > 0 };
  return { ranges: base.ranges, wide: base.wide || node.props.length > 0 };
}

function union(a: CharSet, b: CharSet): CharSet {
  return { ranges: parser().normalizeRanges([...a.ranges, ...b.ranges]), wide: a.wide || b.wide };
}

function overlaps(a: CharSet, b: CharSet): boolean {
  const aEmpty = a.ranges.length === 0 && !a.wide;
  const bEmpty = b.ranges.length === 0 && !b.wide;
  if (aEmpty || bEmpty) return false;
  if (a.wide || b.wide) return true;
  let i = 0;
  let j = 0;
  while (i < a.ranges.length && j < b.ranges.length) {
    const [alo, ahi] = a.ranges[i] as [number, number];
    const [blo, bhi] = b.ranges[j] as [number, number];
    if (alo <= bhi && blo <= ahi) return true;
    if (ahi < bhi) i += 1;
    else j += 1;
  }
  return false;
}

// nullable, trivial and first are asked of every sequence item at every level of a nested pattern:
// each node's answer is kept, so a pattern nested n deep costs O(n) calls instead of O(n³).
const nullableMemo = new WeakMap<RegexNode, boolean>();
const trivialMemo = new WeakMap<RegexNode, boolean>();
const firstMemo = new WeakMap<RegexNode, CharSet>();

function memoized<T>(memo: WeakMap<RegexNode, T>, compute: (node: RegexNode) => T): (node: RegexNode) => T {
  return (node) => {
    const known = memo.get(node);
    if (known !== undefined) return known;
    const value = compute(node);
    memo.set(node, value);
    return value;
  };
}

/**
 * Whether a node can match the empty string, memoised in `memo`: an assertion counts as empty when
 * `assertionsEmpty` (it consumes nothing) and as failing otherwise (it may not hold).
 */
function matchesEmpty(memo: WeakMap<RegexNode, boolean>, assertionsEmpty: boolean): (node: RegexNode) => boolean {
  const test = memoized(memo, (node: RegexNode): boolean => {
    switch (node.type) {
      case 'char':
      case 'set':
        return false;
      case 'assert':
        return assertionsEmpty;
      case 'seq':
        return node.items.every(test);
      case 'alt':
        return node.branches.some(test);
      case 'group':
        return test(node.body);
      case 'repeat':
        return node.min === 0 || test(node.body);
    }
  });
  return test;
}

/** Whether `node` can match the empty string (an assertion consumes nothing, so it counts as empty). */
const nullable = matchesEmpty(nullableMemo, true);

/** Whether `node` can match the empty string without any assertion (so it never fails). */
const trivial = matchesEmpty(trivialMemo, false);

const first = memoized(firstMemo, (node: RegexNode): CharSet => {
  switch (node.type) {
    case 'char':
    case 'set':
      return atomSet(node);
    case 'assert':
      return EMPTY;
    case 'seq': {
      let set = EMPTY;
      for (const item of node.items) {
        set = union(set, first(item));
        if (!nullable(item)) break;
      }
      return set;
    }
    case 'alt':
      return node.branches.reduce((set, branch) => union(set, first(branch)), EMPTY);
    case 'group':
      return first(node.body);
    case 'repeat':
      return first(node.body);
  }
});

/**
 * The atoms {@link analyse} counts in `tree` (a counted atom `x{n,m}` as `n`, at least one), or more
 * than `limit` once past it, or Infinity for a quantified group (which V8 never runs): a pass that
 * stops early and keeps nothing, so a large pattern costs no per-node analysis.
 */
function v8Atoms(tree: RegexNode, limit: number): number {
  let atoms = 0;
  const stack: RegexNode[] = [tree];
  while (stack.length > 0 && atoms <= limit) {
    const node = stack.pop() as RegexNode;
    switch (node.type) {
      case 'char':
      case 'set':
        atoms += 1;
        break;
      case 'seq':
        for (const item of node.items) stack.push(item);
        break;
      case 'alt':
        for (const branch of node.branches) stack.push(branch);
        break;
      case 'group':
        stack.push(node.body);
        break;
      case 'repeat':
        if (node.body.type !== 'char' && node.body.type !== 'set') return Infinity;
        atoms += Math.max(1, node.min);
        break;
      default:
        break;
    }
  }
  return atoms;
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
export function analyse(tree: RegexNode): 'linear' | 'bounded' | 're2' {
  // Over the atom budget V8 never runs it: decided before the passes below keep a set per node.
  if (v8Atoms(tree, MAX_ATOMS) > MAX_ATOMS) return 're2';
  let ok = true;
  let linear = true;
  let variable = 0;
  let overlapping = 0;
  const start = first(tree);
  const startsEverywhere = trivial(tree);
  let atoms = 0;

  const paths = (node: RegexNode): number => {
    switch (node.type) {
      case 'seq':
        return node.items.reduce((n, item) => Math.min(1e9, n * paths(item)), 1);
      case 'alt':
        return node.branches.reduce((n, branch) => Math.min(1e9, n + paths(branch)), 0);
      case 'group':
        return paths(node.body);
      default:
        return 1;
    }
  };

  /** `follow`: characters that can come right after `node`; `tail`: what follows can match empty with no assertion. */
  const visit = (node: RegexNode, follow: CharSet, tail: boolean): void => {
    if (!ok) return;
    switch (node.type) {
      case 'char':
      case 'set':
        atoms += 1;
        return;
      case 'assert':
        return;
      case 'group':
        visit(node.body, follow, tail);
        return;
      case 'alt':
        for (const branch of node.branches) visit(branch, follow, tail);
        return;
      case 'seq': {
        let after = follow;
        let afterTail = tail;
        for (let i = node.items.length - 1; i >= 0; i -= 1) {
          const item = node.items[i] as RegexNode;
          visit(item, after, afterTail);
          after = nullable(item) ? union(first(item), after) : first(item);
          afterTail = afterTail && trivial(item);
        }
        return;
      }
      case 'repeat': {
        if (node.body.type !== 'char' && node.body.type !== 'set') {
          ok = false;
          return;
        }
        atoms += Math.max(1, node.min);
        if (node.min === node.max) return;
        const set = atomSet(node.body);
        variable += 1;
        if (overlaps(set, follow)) overlapping += 1;
        if (!tail && !startsEverywhere && overlaps(set, start)) linear = false;
        return;
      }
    }
  };
  visit(tree, EMPTY, true);
  // One quantifier that may give characters back, when it is the only variable one: each give-back
  // retries fixed atoms only, so an attempt stays linear in the line and a line quadratic at worst.
  if (overlapping > 0 && (overlapping > 1 || variable > 1)) ok = false;
  if (overlapping > 0) linear = false;
  if (!ok || atoms > MAX_ATOMS || paths(tree) > MAX_PATHS) return 're2';
  return linear ? 'linear' : 'bounded';
}

// ------------------------------------------------------------------------------------------------
// Emitting sources

const ALNUM = /^[A-Za-z0-9_]$/u;

function jsChar(cp: number): string {
  const ch = String.fromCodePoint(cp);
  return ALNUM.test(ch) ? ch : `\\u{${cp.toString(16)}}`;
}

function re2Char(cp: number): string {
  const ch = String.fromCodePoint(cp);
  return ALNUM.test(ch) ? ch : `\\x{${cp.toString(16)}}`;
}

function without(ranges: ReadonlyArray<[number, number]>, cps: readonly number[]): Array<[number, number]> {
  let out: Array<[number, number]> = [...ranges];
  for (const cp of cps) {
    const next: Array<[number, number]> = [];
    for (const [lo, hi] of out) {
      if (cp < lo || cp > hi) next.push([lo, hi]);
      else {
        if (lo < cp) next.push([lo, cp - 1]);
        if (cp < hi) next.push([cp + 1, hi]);
      }
    }
    out = next;
  }
  return out;
}

function rangesSource(ranges: ReadonlyArray<[number, number]>, char: (cp: number) => string): string {
  return ranges.map(([lo, hi]) => (lo === hi ? char(lo) : `${char(lo)}-${char(hi)}`)).join('');
}

/** RE2's binary properties and extra categories, by their names in V8's property escapes. */
const V8_PROPERTY_NAMES: Record<string, string> = { Ascii: 'ASCII', Assigned: 'Assigned', Lc: 'LC', LC: 'LC', Cn: 'Cn' };
const V8_BINARY = new Set(
  'ASCII_Hex_Digit Alphabetic Dash Emoji Emoji_Component Emoji_Modifier Emoji_Modifier_Base Emoji_Presentation Extended_Pictographic Hex_Digit Lowercase Math Quotation_Mark Terminal_Punctuation Uppercase White_Space'.split(' '),
);

/** Whether sorted `outer` holds every code point of sorted `inner`. */
function covers(outer: ReadonlyArray<[number, number]>, inner: ReadonlyArray<[number, number]>): boolean {
  let i = 0;
  for (const [lo, hi] of inner) {
    while (i < outer.length && (outer[i] as [number, number])[1] < lo) i += 1;
    const range = outer[i];
    if (!range || range[0] > lo || range[1] < hi) return false;
  }
  return true;
}

/** Sorted `ranges` less the code points of sorted `cut`. */
function subtract(ranges: ReadonlyArray<[number, number]>, cut: ReadonlyArray<[number, number]>): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let j = 0;
  for (const [lo0, hi] of ranges) {
    let lo = lo0;
    while (j < cut.length && (cut[j] as [number, number])[1] < lo) j += 1;
    for (let k = j; k < cut.length && lo <= hi; k += 1) {
      const [clo, chi] = cut[k] as [number, number];
      if (clo > hi) break;
      if (clo > lo) out.push([lo, clo - 1]);
      lo = Math.max(lo, chi + 1);
    }
    if (lo <= hi) out.push([lo, hi]);
  }
  return out;
}

/**
 * A class body for the code points `ranges`: Unicode `\w` and `\d` by their property names (which V8
 * and re2js compile from their own tables far quicker than hundreds of ranges), the rest as ranges.
 */
function classBody(ranges: ReadonlyArray<[number, number]>, char: (cp: number) => string): string {
  const word = parser().unicodeWord();
  if (ranges.length >= word.length && covers(ranges, word)) {
    return `\\p{Alphabetic}\\p{M}\\p{Nd}\\p{Pc}${char(0x200c)}${char(0x200d)}${rangesSource(subtract(ranges, word), char)}`;
  }
  const digit = parser().unicodeDigit();
  if (ranges.length >= digit.length && covers(ranges, digit)) return `\\p{Nd}${rangesSource(subtract(ranges, digit), char)}`;
  return rangesSource(ranges, char);
}

/** About how many ranges {@link classBody} spells `ranges` with (the Unicode classes by name count none). */
function rawRanges(ranges: ReadonlyArray<[number, number]>): number {
  const word = parser().unicodeWord();
  if (ranges.length >= word.length && covers(ranges, word)) return ranges.length - word.length;
  const digit = parser().unicodeDigit();
  if (ranges.length >= digit.length && covers(ranges, digit)) return ranges.length - digit.length;
  return ranges.length;
}

/**
 * How to spell a set of `ranges` (`negated`: all but them) with no properties: as written or flipped
 * (`\W` is shortest as `[^\w]`), whichever is shorter. `breaks`: the set must never match `\n` or `\r`.
 */
function spellSet(ranges: ReadonlyArray<[number, number]>, negated: boolean, char: (cp: number) => string, breaks: boolean): { negated: boolean; body: string } {
  const spell = (rs: ReadonlyArray<[number, number]>, neg: boolean): { negated: boolean; body: string } =>
    neg ? { negated: true, body: classBody(rs, char) + (breaks ? '\\n\\r' : '') } : { negated: false, body: classBody(breaks ? without(rs, [10, 13]) : rs, char) };
  if (ranges.length <= 16) return spell(ranges, negated);
  const flipped = parser().complementRanges(ranges);
  return rawRanges(flipped) < rawRanges(ranges) ? spell(flipped, !negated) : spell(ranges, negated);
}

function jsProp(prop: PropertyRef): string {
  const name = V8_PROPERTY_NAMES[prop.name] ?? (V8_BINARY.has(prop.name) ? prop.name : prop.script ? `Script=${prop.name}` : prop.name);
  return `\\${prop.negated ? 'P' : 'p'}{${name}}`;
}

/** Properties that can hold a line break: V8 sets holding one are guarded so no match spans lines. */
const BREAK_PROPS = new Set(['C', 'Cc']);

/**
 * V8 source for `tree` that matches within lines only, run over many lines at once: no atom matches
 * `\n` or `\r`; `^`/`$` are the ends of lines (`\n`, `\r\n`, `\r`); groups do not capture. `fold`: the
 * RegExp gets the `i` flag (every atom is case-insensitive); `null` when atoms differ (ASCII atoms are
 * then spelled out; others make it return undefined).
 */
function emitV8(tree: RegexNode, ignoreCase: boolean): string | undefined {
  let failed = false;
  const emitSet = (node: Extract<RegexNode, { type: 'set' }>): string => {
    let ranges = node.ranges;
    if (node.fold && !ignoreCase) {
      const folded = foldRanges(ranges);
      if (folded.wide || node.props.length > 0) failed = true;
      ranges = folded.ranges;
    }
    if (node.props.length === 0) {
      const spelled = spellSet(ranges, node.negated, jsChar, true);
      if (spelled.negated) return `[^${spelled.body}]`;
      return spelled.body === '' ? '[]' : `[${spelled.body}]`;
    }
    if (node.negated) return `[^${classBody(ranges, jsChar)}${node.props.map(jsProp).join('')}\\n\\r]`;
    const body = classBody(without(ranges, [10, 13]), jsChar) + node.props.map(jsProp).join('');
    const guard = node.props.some((p) => p.negated || BREAK_PROPS.has(p.name));
    if (body === '') return '[]';
    return guard ? `(?:(?![\\n\\r])[${body}])` : `[${body}]`;
  };
  const atom = (node: AtomNode): string => {
    switch (node.type) {
      case 'char': {
        if (node.cp === 10 || node.cp === 13) return '[]';
        if (node.fold && !ignoreCase) {
          const folded = foldRanges([[node.cp, node.cp]]);
          if (folded.wide) failed = true;
          return folded.ranges.length === 1 && folded.ranges[0]?.[0] === folded.ranges[0]?.[1]
            ? jsChar(node.cp)
            : `[${rangesSource(folded.ranges, jsChar)}]`;
        }
        return jsChar(node.cp);
      }
      case 'set':
        return emitSet(node);
      case 'assert':
        if (node.kind === 'start') return '(?<![^\\n\\r])';
        if (node.kind === 'end') return '(?![^\\n\\r])';
        // Unicode word boundaries (ripgrep's default) by lookaround on the Unicode \w class: one
        // character either side, so constant work per position.
        if (!node.ascii) return unicodeBoundary(node.kind === 'notword');
        if (ignoreCase) failed = true; // V8's \b under /iu counts U+017F and U+212A as word characters; (?-u)\b does not.
        return node.kind === 'word' ? '\\b' : '\\B';
    }
  };
  const source = emitTree(tree, atom, true);
  return failed ? undefined : source;
}

/** A leaf of a syntax tree: what each emitter spells in its own dialect. */
type AtomNode = Extract<RegexNode, { type: 'char' | 'set' | 'assert' }>;

/**
 * Source for `tree` with its leaves spelled by `atom`: sequences, alternations, non-capturing groups
 * and repetitions are written alike in V8 and RE2 (`optionalMark`: see {@link quantifier}; `seq`
 * spells a sequence from its items, by default one after another).
 */
function emitTree(
  tree: RegexNode,
  atom: (node: AtomNode) => string,
  optionalMark: boolean,
  seq: (items: readonly RegexNode[], emit: (node: RegexNode) => string) => string = (items, emit) => items.map(emit).join(''),
): string {
  const emit = (node: RegexNode): string => {
    switch (node.type) {
      case 'seq':
        return seq(node.items, emit);
      case 'alt':
        return node.branches.map(emit).join('|');
      case 'group':
        return `(?:${emit(node.body)})`;
      case 'repeat':
        return emit(node.body) + quantifier(node, optionalMark);
      default:
        return atom(node);
    }
  };
  return emit(tree);
}

/**
 * The quantifier of a repetition (`*`, `+`, `{n}`, `{n,}`, `{n,m}`, then `?` when lazy). `{0,1}` is
 * spelled `?` where `optionalMark` (the V8 source) and `{0,1}` otherwise (the RE2 source, as it always was).
 */
function quantifier(node: Extract<RegexNode, { type: 'repeat' }>, optionalMark: boolean): string {
  const { min, max } = node;
  const count =
    max === Infinity ? (min === 0 ? '*' : min === 1 ? '+' : `{${min},}`) : optionalMark && min === 0 && max === 1 ? '?' : min === max ? `{${min}}` : `{${min},${max}}`;
  return count + (node.lazy ? '?' : '');
}

/** RE2 source for `tree`, matched against one line at a time. */
function emitRe2(tree: RegexNode): string {
  const atom = (node: AtomNode): string => {
    switch (node.type) {
      case 'char':
        return node.fold ? `(?i:${re2Char(node.cp)})` : re2Char(node.cp);
      case 'set': {
        const props = node.props.map((p) => `\\${p.negated ? 'P' : 'p'}{${p.name}}`).join('');
        const spelled = node.props.length === 0 ? spellSet(node.ranges, node.negated, re2Char, false) : { negated: node.negated, body: classBody(node.ranges, re2Char) };
        const body = spelled.body + props;
        let set: string;
        if (body === '') set = spelled.negated ? '(?s:.)' : '[^\\x{0}-\\x{10ffff}]';
        else set = `[${spelled.negated ? '^' : ''}${body}]`;
        return node.fold ? `(?i:${set})` : set;
      }
      case 'assert':
        return node.kind === 'start' ? '^' : node.kind === 'end' ? '$' : node.kind === 'word' ? '\\b' : '\\B';
    }
  };
  return `(?s)${emitTree(tree, atom, false, foldRuns)}`;
}

/**
 * A sequence's RE2 source with each run of case-insensitive characters under one flag group
 * (`(?i:abc)`, not `(?i:a)(?i:b)(?i:c)`): the same matches, and re2js parses one group where it would
 * keep one node per character (about four times the memory on a long case-insensitive literal).
 */
function foldRuns(items: readonly RegexNode[], emit: (node: RegexNode) => string): string {
  let out = '';
  let run = '';
  for (const item of items) {
    if (item.type === 'char' && item.fold) {
      run += re2Char(item.cp);
      continue;
    }
    if (run !== '') out += `(?i:${run})`;
    run = '';
    out += emit(item);
  }
  if (run !== '') out += `(?i:${run})`;
  return out;
}

/** re2js programs by source, the most recent {@link RE2_CACHE} (a pattern searched again, or compiled for two engines, is compiled once). */
const re2Programs = new Map<string, RE2JS>();
const RE2_CACHE = 32;

/** Longest source whose program the cache keeps: a program costs memory per instruction, so 32 huge ones could hold gigabytes. */
const RE2_CACHE_SOURCE = 4096;

function compiledRe2(engine: typeof RE2JS, source: string): RE2JS {
  let program = re2Programs.get(source);
  if (program) re2Programs.delete(source);
  else program = engine.compile(source);
  if (source.length > RE2_CACHE_SOURCE) return program;
  re2Programs.set(source, program);
  if (re2Programs.size > RE2_CACHE) re2Programs.delete(re2Programs.keys().next().value as string);
  return program;
}

/** Whether `tree` has a Unicode `\b` or `\B` (re2js's know ASCII word characters only). */
function hasUnicodeWordAssert(tree: RegexNode): boolean {
  switch (tree.type) {
    case 'assert':
      return (tree.kind === 'word' || tree.kind === 'notword') && !tree.ascii;
    case 'seq':
      return tree.items.some(hasUnicodeWordAssert);
    case 'alt':
      return tree.branches.some(hasUnicodeWordAssert);
    case 'group':
    case 'repeat':
      return hasUnicodeWordAssert(tree.body);
    default:
      return false;
  }
}

/** The V8 source of one atom, with its flags (`iu` when it folds case). */
function atomSource(node: Extract<RegexNode, { type: 'char' | 'set' }>): string {
  let source: string;
  if (node.type === 'char') source = jsChar(node.cp);
  else {
    const spelled = node.props.length === 0 ? spellSet(node.ranges, node.negated, jsChar, false) : { negated: node.negated, body: classBody(node.ranges, jsChar) };
    const body = spelled.body + node.props.map(jsProp).join('');
    source = spelled.negated ? `[^${body}]` : body === '' ? '[]' : `[${body}]`;
  }
  return `/^${source}$/${node.fold ? 'iu' : 'u'}`;
}

/**
 * Atom tests shared by the atoms that spell the same (a long literal has few distinct characters):
 * each test keeps a RegExp and a table, so one per atom would cost a kilobyte per pattern character.
 */
function sharedAtomTests(): (node: Extract<RegexNode, { type: 'char' | 'set' }>) => (cp: number) => boolean {
  const tests = new Map<string, (cp: number) => boolean>();
  return (node) => {
    const key = atomSource(node);
    let test = tests.get(key);
    if (!test) tests.set(key, (test = atomTest(key)));
    return test;
  };
}

/** One atom's test on a code point from its {@link atomSource}, by V8 (which folds case as RE2 and ripgrep do: Unicode simple folding). */
function atomTest(key: string): (cp: number) => boolean {
  const slash = key.lastIndexOf('/');
  const re = new RegExp(key.slice(1, slash), key.slice(slash + 1));
  const ascii = new Int8Array(128);
  const known = new Map<number, boolean>();
  return (cp) => {
    if (cp < 128) {
      if (ascii[cp] === 0) ascii[cp] = re.test(String.fromCharCode(cp)) ? 1 : 2;
      return ascii[cp] === 1;
    }
    let hit = known.get(cp);
    if (hit === undefined) {
      hit = re.test(String.fromCodePoint(cp));
      if (known.size >= 4096) known.clear();
      known.set(cp, hit);
    }
    return hit;
  };
}

/** Whether `cp` is in ripgrep's Unicode `\w` (binary search of the table). */
function isUnicodeWord(cp: number): boolean {
  if (cp < 128) return (cp >= 0x30 && cp <= 0x39) || (cp >= 0x41 && cp <= 0x5a) || cp === 0x5f || (cp >= 0x61 && cp <= 0x7a);
  const ranges = parser().unicodeWord();
  let lo = 0;
  let hi = ranges.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const [a, b] = ranges[mid] as [number, number];
    if (cp < a) hi = mid - 1;
    else if (cp > b) lo = mid + 1;
    else return true;
  }
  return false;
}

/** The Unicode-`\\b` program of `tree`, or undefined when V8 cannot spell one of its atoms (a property name it does not know). */
function unicodeWordVm(tree: RegexNode): PikeProgram | undefined {
  try {
    return compilePike(tree, { atom: sharedAtomTests(), isWord: isUnicodeWord });
  } catch {
    return undefined;
  }
}

/** A program that refuses non-ASCII lines, for a pattern no Unicode-`\\b` program can be built for. */
function asciiOnly(pattern: string): PikeProgram {
  return {
    size: 1,
    find: () => {
      throw new ToolError(
        'invalid_pattern',
        `pattern ${clipForMessage(pattern)} combines \\b with a Unicode property this engine cannot test on non-ASCII text; write (?-u:\\b) for an ASCII word boundary, or drop the property`,
      );
    },
  };
}

const NON_ASCII = /[^\0-\x7f]/;

/**
 * `re2` (whose `\b` is ASCII's) on ASCII-only inputs, where ASCII and Unicode word characters are the
 * same, and `vm` (Unicode `\b`, linear too) on the others: one program with ripgrep's Unicode `\b`.
 */
function withUnicodeWords(re2: RE2JS, vm: PikeProgram): LineProgram {
  return {
    test: (input) => (NON_ASCII.test(input) ? vm.find(input, 0) !== undefined : re2.test(input)),
    programSize: () => Math.max(re2.programSize(), vm.size),
    matcher: (first) => {
      let input = first;
      let hit: [number, number] | undefined;
      const matcher: LineMatcher = {
        find(from = 0) {
          if (NON_ASCII.test(input)) hit = vm.find(input, from);
          else {
            const m = re2.matcher(input);
            hit = m.find(from) ? [m.start(), m.end()] : undefined;
          }
          return hit !== undefined;
        },
        start: () => (hit as [number, number])[0],
        end: () => (hit as [number, number])[1],
        resetMatcherInput(next) {
          input = next;
          hit = undefined;
          return matcher;
        },
      };
      return matcher;
    },
  };
}

/** Every atom's case-insensitivity, or 'mixed'. */
function foldState(tree: RegexNode): boolean | 'mixed' | 'none' {
  let state: boolean | 'mixed' | 'none' = 'none';
  const visit = (node: RegexNode): void => {
    if (node.type === 'char' || node.type === 'set') {
      // `.`, sets without letters and Unicode's \w \d \s classes (closed under case folding) mean the same either way.
      if (node.type === 'set' && ((node.ranges.length === 0 && node.props.length === 0) || node.closed)) return;
      state = state === 'none' ? node.fold : state === node.fold ? state : 'mixed';
    } else if (node.type === 'seq') node.items.forEach(visit);
    else if (node.type === 'alt') node.branches.forEach(visit);
    else if (node.type === 'group' || node.type === 'repeat') visit(node.body);
  };
  visit(tree);
  return state;
}

/** The whole pattern as one literal string, when it is one (case-sensitive chars only). */
function literalOf(tree: RegexNode): string | undefined {
  const items = tree.type === 'seq' ? tree.items : [tree];
  let text = '';
  for (const item of items) {
    if (!fixedChar(item)) return undefined;
    text += String.fromCodePoint(item.cp);
  }
  return text;
}

/** The longest run of case-sensitive characters every match contains (at least 3 UTF-16 units). */
function requiredLiteral(tree: RegexNode): string | undefined {
  let best = '';
  const visitSeq = (items: readonly RegexNode[]): void => {
    let run = '';
    const flush = (): void => {
      if (run.length > best.length) best = run;
      run = '';
    };
    for (const item of items) {
      if (fixedChar(item) && item.cp !== 10 && item.cp !== 13) {
        run += String.fromCodePoint(item.cp);
      } else if (item.type === 'assert') {
        continue;
      } else {
        flush();
        if (item.type === 'group') {
          const body = item.body;
          visitSeq(body.type === 'seq' ? body.items : [body]);
        } else if (item.type === 'repeat' && item.min >= 1 && item.body.type !== 'char') {
          const body = item.body;
          if (body.type === 'group') visitSeq(body.body.type === 'seq' ? body.body.items : [body.body]);
        }
      }
    }
    flush();
  };
  if (tree.type === 'alt') return undefined;
  visitSeq(tree.type === 'seq' ? tree.items : [tree]);
  return best.length >= 3 ? best : undefined;
}

/**
 * The syntax tree {@link compileSearchPattern} compiles `pattern` from: a literal's characters in a
 * sequence (each case-folded unless `caseSensitive`), else the dialect's parse. Errors: as
 * {@link compileSearchPattern}'s parse (ToolError `invalid_pattern`), including the size limits
 * ({@link MAX_PATTERN_LENGTH}, checked before anything is built, and {@link MAX_PROGRAM_SIZE}).
 */
export function patternTree(pattern: string, options: { literal: boolean; caseSensitive: boolean; argName?: string }): RegexNode {
  const argName = options.argName ?? 'pattern';
  refuseLongPattern(pattern, argName);
  let tree: RegexNode;
  if (options.literal) {
    const items: RegexNode[] = Array.from(pattern, (c) => ({ type: 'char', cp: c.codePointAt(0) as number, fold: !options.caseSensitive }));
    tree = items.length === 1 ? (items[0] as RegexNode) : { type: 'seq', items };
  } else tree = parser().parseRegex(pattern, { caseInsensitive: !options.caseSensitive, argName });
  const size = programSize(tree, MAX_PROGRAM_SIZE);
  if (size > MAX_PROGRAM_SIZE) {
    throw new ToolError(
      'invalid_pattern',
      `${argName} ${clipForMessage(pattern)} compiles to over ${MAX_PROGRAM_SIZE} instructions (counted repetitions spelled out, each character class counted by its size), ` +
        'over the limit on search patterns; use smaller counts ({n,m}) and fewer classes, or search for a shorter distinctive part of it',
    );
  }
  return tree;
}

/** Refuses a pattern over {@link MAX_PATTERN_LENGTH} (ToolError `invalid_pattern`), before anything is built from it. */
function refuseLongPattern(pattern: string, argName: string): void {
  if (pattern.length <= MAX_PATTERN_LENGTH) return;
  throw new ToolError(
    'invalid_pattern',
    `${argName} is ${pattern.length} characters long, over the limit of ${MAX_PATTERN_LENGTH} (64 KiB) on search patterns; ` +
      'search for a shorter distinctive part of it (one line, an identifier or a phrase), or split it into several searches',
  );
}

/**
 * The size {@link MAX_PROGRAM_SIZE} bounds: about how many instructions `tree`'s program has as RE2
 * compiles it (each atom and assertion one, each alternative one more, `x{n,m}` as `m` copies of `x`,
 * `x{n,}` as `n` and `x*`, `x+`, `x?` as one), plus each character class as written (not per copy)
 * by its size: 3, one more per 16 ranges and 48 per Unicode property (re2js builds each class written
 * from its ranges, a few kilobytes each, where a run of characters is one node). More than `limit`
 * once past it. Walks the tree once, keeping nothing per node.
 */
export function programSize(tree: RegexNode, limit: number): number {
  let written = 0;
  const size = (node: RegexNode): number => {
    switch (node.type) {
      case 'set':
        written += 3 + Math.floor(node.ranges.length / 16) + 48 * node.props.length;
        return 1;
      case 'char':
      case 'assert':
        return 1;
      case 'group':
        return size(node.body);
      case 'seq':
      case 'alt': {
        const parts = node.type === 'seq' ? node.items : node.branches;
        let total = node.type === 'alt' ? parts.length : 0;
        for (const part of parts) {
          total += size(part);
          if (total + written > limit) return limit + 1;
        }
        return total;
      }
      case 'repeat': {
        const copies = Math.max(1, node.max === Infinity ? node.min : node.max);
        return Math.min(limit + 1, size(node.body) * copies + 1);
      }
    }
  };
  return Math.min(limit + 1, size(tree) + written);
}

/**
 * The lazily compiled re2js program of `pattern` (its tree from `treeOf`, asked for on first use).
 * Errors: ToolError `invalid_pattern` (re2js refuses the program).
 */
function re2Compiler(pattern: string, argName: string, treeOf: () => RegexNode): () => LineProgram {
  let program: LineProgram | undefined;
  return () => {
    if (program) return program;
    const engine = re2Engine();
    if (!engine) throw new Error('re2js is not loaded yet: await prepareSearchPattern(pattern) (or loadRe2Engine()) before matching');
    const tree = treeOf();
    try {
      const re2 = compiledRe2(engine.RE2JS, emitRe2(tree));
      program = hasUnicodeWordAssert(tree) ? withUnicodeWords(re2, unicodeWordVm(tree) ?? asciiOnly(pattern)) : re2;
      return program;
    } catch (error) {
      const message = (error as { message?: unknown }).message;
      throw new ToolError(
        'invalid_pattern',
        `${argName} ${clipForMessage(pattern)} cannot be used: ${clipForMessage(String(message), 300)}; simplify it (smaller counts, fewer nested repetitions)`,
      );
    }
  };
}

/**
 * Compiles a search pattern in grep_search's one dialect (RE2 syntax as ripgrep's default, Unicode-aware
 * as ripgrep is: `\d \w \s \b` and case-insensitive matching follow Unicode, `(?-u)` turns that off;
 * plus the JavaScript escapes with the same meaning; see dialect-parse.ts), or a literal (`literal`).
 * Case-insensitive search (`caseSensitive: false`, `(?i)`) uses Unicode simple case folding, on every
 * engine: `привет` finds `Привет`, `k` finds the Kelvin sign K. Picks the
 * fastest engine whose running time stays linear in the input ({@link MatchMode}); every mode gives the
 * same lines and offsets; `engine` forces one (the differential tests compare them; V8 then runs
 * whatever its syntax allows, safe or not). Errors: ToolError `invalid_pattern` (lookaround and backreferences named, with
 * a way around them; syntax errors; a pattern over {@link MAX_PATTERN_LENGTH} or whose program would pass
 * {@link MAX_PROGRAM_SIZE}, refused before it is compiled; patterns re2js refuses: checked here once re2js is
 * loaded, else by {@link prepareSearchPattern}). In browsers, await {@link loadSearchPatternParser} first.
 */
export function compileSearchPattern(
  pattern: string,
  options: { literal: boolean; caseSensitive: boolean; argName?: string; engine?: MatchMode },
): SearchPattern {
  const argName = options.argName ?? 'pattern';
  const engine = options.engine;
  const asLiteral = engine === undefined || engine === 'literal';
  if (options.literal && options.caseSensitive && pattern.length > 0 && asLiteral) {
    // Plain text: found by indexOf, no tree needed (it is built, with the re2js program, only if asked for).
    refuseLongPattern(pattern, argName);
    const base = { pattern, mode: 'literal' as const, literal: pattern, ignoreCase: false, ...compiledWith(options) };
    return withRe2(base, re2Compiler(pattern, argName, () => patternTree(pattern, { ...options, argName })));
  }
  const tree = patternTree(pattern, { ...options, argName });
  const compileRe2 = re2Compiler(pattern, argName, () => tree);
  const literal = literalOf(tree);
  if (literal !== undefined && literal.length > 0 && asLiteral) {
    return withRe2({ pattern, mode: 'literal', literal, ignoreCase: false, ...compiledWith(options) }, compileRe2);
  }

  const fold = foldState(tree);
  const ignoreCase = fold === true;
  let mode = engine === 'linear' || engine === 'bounded' || engine === 're2' ? engine : analyse(tree);
  let v8: RegExp | undefined;
  if (mode !== 're2') {
    const source = emitV8(tree, ignoreCase);
    if (source === undefined) mode = 're2';
    else {
      try {
        v8 = new RegExp(`(${source})[^\\n\\r]*`, ignoreCase ? 'giu' : 'gu');
      } catch {
        // V8 refused a form RE2 accepts (an unknown script name in this Unicode version): use re2js.
        mode = 're2';
        v8 = undefined;
      }
    }
  }
  if (engine !== undefined && engine !== mode) {
    throw new ToolError('invalid_arguments', `the ${engine} engine cannot run ${clipForMessage(pattern)}`);
  }
  const required = requiredLiteral(tree);
  // re2js programs are compiled now when re2js runs the pattern and is loaded (its errors are the
  // model's to fix), else by prepareSearchPattern or on first use.
  if ((mode === 're2' || mode === 'bounded') && re2Engine()) compileRe2();
  return withRe2(
    {
      pattern,
      mode,
      ignoreCase,
      ...compiledWith(options),
      ...(v8 ? { v8 } : {}),
      ...(required !== undefined ? { required } : {}),
    },
    compileRe2,
  );
}

function compiledWith(options: { literal: boolean; caseSensitive: boolean; engine?: MatchMode }): Pick<SearchPattern, 'compiledWith'> {
  return options.engine === undefined ? { compiledWith: { literal: options.literal, caseSensitive: options.caseSensitive } } : {};
}

function withRe2(base: Omit<SearchPattern, 're2'>, compile: () => LineProgram): SearchPattern {
  return Object.defineProperty(base, 're2', { get: compile, enumerable: false }) as SearchPattern;
}


/**
 * Makes `pattern` ready to match: for a `re2` pattern, loads re2js (once per program) and compiles its
 * program, so re2js's refusals are reported before any file is read. Other modes need nothing (a
 * `bounded` pattern's scan loads re2js itself if it meets a line too long for V8). Errors: ToolError
 * `invalid_pattern` (a pattern re2js refuses), `unavailable` (re2js could not be loaded).
 */
export async function prepareSearchPattern(pattern: SearchPattern): Promise<SearchPattern> {
  if (pattern.mode !== 're2') return pattern;
  await loadRe2Engine();
  void pattern.re2;
  return pattern;
}
