import { ToolError } from '../core/errors.js';
import { quoteForMessage } from '../fs/text.js';
import { isInside, joinPath, relativePath } from '../fs/paths.js';

/** Longest glob accepted, in UTF-16 code units; a longer one is refused with `invalid_pattern`. */
export const MAX_GLOB_LENGTH = 1000;

/** Most names one brace range such as `{1..20}` may stand for. */
export const MAX_BRACE_RANGE = 1000;

/** Most automaton states one glob may compile to (brace ranges are counted expanded). */
const MAX_STATES = 20_000;

/** Most cached matcher states (and NFA state numbers in them) kept per glob before the cache is cleared. */
const MAX_CACHED_STATES = 2000;
const MAX_CACHED_INTS = 400_000;

/** Options of {@link compileGlob}. */
export interface GlobOptions {
  /** Match letter case exactly (default false: `*.TS` finds `a.ts`). */
  caseSensitive?: boolean;
  /** Argument name used in error messages (default `pattern`). */
  argName?: string;
  /**
   * The workspace root and the absolute directory searched. With it, an absolute pattern (or one whose
   * literal start climbs with `..`) is taken relative to `dir`: `/workspace/src/*.ts` searching
   * `/workspace` becomes `src/*.ts`. Without it a leading `/` is dropped.
   */
  base?: { root: string; dir: string };
}

/**
 * A compiled glob: `matches(relPath)` tests a path relative to the search directory (POSIX, no
 * leading `/`, no `.` or `..` components). `basenameOnly` is true for patterns without `/`, which match
 * the last component only. `pattern` is the glob as matched: relative to the search directory, without
 * a leading `!`.
 */
export interface GlobMatcher {
  readonly pattern: string;
  readonly basenameOnly: boolean;
  matches(relPath: string): boolean;
}

/** Source of the POSIX classes `[[:alpha:]]` etc. inside a character class (as picomatch's). */
const POSIX_CLASSES: Record<string, string> = {
  alnum: 'a-zA-Z0-9',
  alpha: 'a-zA-Z',
  ascii: '\\x00-\\x7F',
  blank: ' \\t',
  cntrl: '\\x00-\\x1F\\x7F',
  digit: '0-9',
  graph: '\\x21-\\x7E',
  lower: 'a-z',
  print: '\\x20-\\x7E ',
  punct: '\\-!"#$%&\'()\\*+,./:;<=>?@[\\]^_`{|}~',
  space: ' \\t\\r\\n\\v\\f',
  upper: 'A-Z',
  word: 'A-Za-z0-9_',
  xdigit: 'A-Fa-f0-9',
};

/** Index of the `]` closing the class opened by the `[` at `start`, or -1 (POSIX bracket rules). */
function classEnd(pattern: string, start: number): number {
  let j = start + 1;
  if (pattern[j] === '!' || pattern[j] === '^') j += 1;
  if (pattern[j] === ']') j += 1;
  for (; j < pattern.length; j += 1) {
    const d = pattern[j];
    if (d === '\\') {
      j += 1;
    } else if (d === '[' && pattern[j + 1] === ':') {
      const end = pattern.indexOf(':]', j + 2);
      if (end !== -1) j = end + 1;
    } else if (d === ']') {
      return j;
    }
  }
  return -1;
}

/**
 * Checks that every `{` has its `}` and every `[` its `]` (picomatch silently treats an unbalanced one
 * as a literal, so `{a,b` would match nothing instead of failing). A backslash escapes the next
 * character; inside `[...]` a `]` right after `[`, `[!` or `[^` is literal (POSIX bracket rules), and
 * `[:alpha:]` classes are allowed. Returns a message for the model, or null when balanced.
 */
export function checkGlobBalance(pattern: string): string | null {
  let braces = 0;
  for (let i = 0; i < pattern.length; i += 1) {
    const c = pattern[i];
    if (c === '\\') {
      i += 1;
      continue;
    }
    if (c === '[') {
      const end = classEnd(pattern, i);
      if (end === -1) return `"[" at offset ${i} has no closing "]"; close the bracket or escape it as \\[`;
      i = end;
    } else if (c === ']') {
      return `"]" at offset ${i} has no opening "["; escape it as \\]`;
    } else if (c === '{') {
      braces += 1;
    } else if (c === '}') {
      if (braces === 0) return `"}" at offset ${i} has no opening "{"; escape it as \\}`;
      braces -= 1;
    }
  }
  if (braces > 0) return `${braces} "{" without a closing "}"; close the brace or escape it as \\{`;
  return null;
}

// ---------------------------------------------------------------------------------------------------
// Parsing: a glob becomes a tree of nodes, each a regular language over UTF-16 code units.

type GlobNode =
  | { kind: 'text'; text: string }
  /** `?`: one code unit other than `/`. */
  | { kind: 'one' }
  /** `*`: any run of code units without `/`. */
  | { kind: 'star' }
  /** The body of `**`: any run of code units, `/` included. */
  | { kind: 'any' }
  /** `[...]`: one code unit the class's RegExp accepts. */
  | { kind: 'class'; index: number }
  /** `{a,b}`, `@(a|b)`, `(a|b)`, brace ranges. */
  | { kind: 'alt'; alts: GlobNode[][] }
  /** `?(a|b)` (min 0, once), `*(a|b)` (min 0, many), `+(a|b)` (min 1, many). */
  | { kind: 'repeat'; min: 0 | 1; many: boolean; alts: GlobNode[][] }
  /** Where `!(...)` starts: what follows must not match its lookahead (see {@link GlobParser}). */
  | { kind: 'assert' }
  /** The end of the path (picomatch's `$` in `a/**\/b`, which matches `a` when b can be empty). */
  | { kind: 'end' };

type Context = 'top' | 'brace' | 'paren';
/** What came just before the parser's position: start of the pattern, of an alternative, a `/`, or a `**\/` whose `/` was consumed. */
type Before = 'bos' | 'alt' | 'slash' | 'globslash' | 'other';

/**
 * A sequence being parsed: its nodes, literal text not yet made a node, whether a `*` came right before
 * its last `/`, and what its last node is when a following `+` or `?` quantifies it.
 */
interface Sequence {
  nodes: GlobNode[];
  text: string;
  starBeforeSlash: boolean;
  last: 'class' | 'brace' | 'group' | null;
}

function flush(seq: Sequence): void {
  if (seq.text.length > 0) seq.nodes.push({ kind: 'text', text: seq.text });
  seq.text = '';
}

function push(seq: Sequence, node: GlobNode): void {
  flush(seq);
  seq.nodes.push(node);
}

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
class GlobParser {
  readonly classes: RegExp[] = [];
  /** The nodes of `!(X)` followed by the rest of the pattern: the lookahead an `assert` node checks. */
  lookahead: GlobNode[] | null = null;
  private i = 0;
  private before: Before = 'bos';
  private readonly closeAt: Int32Array;
  private readonly matched: Uint8Array;
  private pendingNot: { inner: GlobNode[]; seq: GlobNode[]; at: number } | null = null;

  constructor(
    private readonly src: string,
    private readonly options: { caseSensitive: boolean; fail: (message: string) => never },
  ) {
    // Pair brackets first, so that an unmatched `(` or `{` costs one pass, not a re-parse.
    this.closeAt = new Int32Array(src.length).fill(-1);
    this.matched = new Uint8Array(src.length);
    const stack: number[] = [];
    for (let i = 0; i < src.length; i += 1) {
      const c = src[i];
      if (c === '\\') {
        i += 1;
      } else if (c === '"') {
        const end = src.indexOf('"', i + 1);
        if (end === -1) break;
        i = end;
      } else if (c === '[') {
        const end = classEnd(src, i);
        if (end !== -1) i = end;
      } else if (c === '{' || c === '(') {
        stack.push(i);
      } else if (c === '}' || c === ')') {
        const top = stack[stack.length - 1];
        if (top !== undefined && src[top] === (c === '}' ? '{' : '(')) {
          stack.pop();
          this.closeAt[top] = i;
          this.matched[i] = 1;
        }
      }
    }
  }

  parse(): GlobNode[] {
    const alts = [this.sequence('top')];
    while (this.i < this.src.length) {
      this.i += 1; // a `|` (picomatch passes it to its RegExp: `*.ts|*.js` is either)
      alts.push(this.sequence('top'));
    }
    if (this.pendingNot) {
      const { inner, seq, at } = this.pendingNot;
      this.lookahead = [{ kind: 'alt', alts: [inner] }, ...seq.slice(at + 2)];
    }
    return alts.length === 1 ? (alts[0] as GlobNode[]) : [{ kind: 'alt', alts }];
  }

  private isOpen(i: number): boolean {
    return (this.closeAt[i] ?? -1) !== -1;
  }

  private isAltEnd(i: number, context: Context): boolean {
    const c = this.src[i];
    if (c === '|') return true;
    if (context === 'brace') return c === ',' || (c === '}' && this.matched[i] === 1);
    if (context === 'paren') return c === ')' && this.matched[i] === 1;
    return false;
  }

  /** Parses up to the end of the pattern or of the current alternative (`|`; `,` `}` in braces; `)` in groups). */
  private sequence(context: Context): GlobNode[] {
    const src = this.src;
    const seq: Sequence = { nodes: [], text: '', starBeforeSlash: false, last: null };
    this.before = context === 'top' ? 'bos' : 'alt';
    while (this.i < src.length && !this.isAltEnd(this.i, context)) {
      const i = this.i;
      const c = src[i] as string;
      const next = src[i + 1];
      const last = seq.last;
      seq.last = null;
      const extglob = next === '(' && this.isOpen(i + 1) && src[i + 2] !== '?';
      if ((c === '+' && !extglob && (last !== null || (context === 'paren' && seq.text.length > 0))) || (c === '?' && !extglob && last === 'group')) {
        // picomatch hands these to its RegExp as quantifiers: `[0-9]+`, `{a,b}+`, `(a|b)?`, `(ab+)`.
        let node: GlobNode;
        if (last === null) {
          node = { kind: 'text', text: seq.text.slice(-1) };
          seq.text = seq.text.slice(0, -1);
          flush(seq);
        } else node = seq.nodes.pop() as GlobNode;
        seq.nodes.push({ kind: 'repeat', min: c === '+' ? 1 : 0, many: c === '+', alts: [[node]] });
        this.i += 1;
        this.before = 'other';
      } else if (c === '\\' || c === '/') {
        const char = c === '/' ? '/' : (next ?? '\\');
        this.i += c === '\\' && next !== undefined ? 2 : 1;
        if (char === '/') {
          const lastNode = seq.nodes[seq.nodes.length - 1];
          seq.starBeforeSlash = seq.text.length === 0 && (lastNode?.kind === 'star' || lastNode?.kind === 'any');
        }
        seq.text += char;
        this.before = char === '/' ? 'slash' : 'other';
      } else if (c === '"') {
        const end = src.indexOf('"', i + 1);
        seq.text += end === -1 ? src.slice(i + 1) : src.slice(i + 1, end);
        this.i = end === -1 ? src.length : end + 1;
        this.before = 'other';
      } else if (c === '[' && classEnd(src, i) !== -1) {
        const end = classEnd(src, i);
        push(seq, this.charClass(i, end));
        this.i = end + 1;
        this.before = 'other';
        seq.last = 'class';
      } else if (c === '{' && this.isOpen(i)) {
        this.brace(i, seq);
      } else if (c === '(' && this.isOpen(i)) {
        push(seq, this.group(i + 1, 'alt'));
        seq.last = 'group';
      } else if ((c === '@' || c === '?' || c === '+' || c === '!') && extglob) {
        if (c === '!') this.negatedGroup(i, context, seq);
        else {
          push(seq, this.group(i + 2, c === '@' ? 'alt' : c === '?' ? 'optional' : 'plus'));
          seq.last = 'group';
        }
      } else if (c === '?') {
        push(seq, { kind: 'one' });
        this.i += 1;
        this.before = 'other';
      } else if (c === '*') {
        let run = 1;
        while (src[i + run] === '*') run += 1;
        const starGroup = src[i + run] === '(' && this.isOpen(i + run) && src[i + run + 1] !== '?';
        const stars = starGroup ? run - 1 : run;
        this.i = i + stars;
        if (stars === 2) this.globstar(context, seq);
        else if (stars > 0) push(seq, { kind: 'star' });
        if (starGroup) {
          push(seq, this.group(this.i + 2, 'star'));
          seq.last = 'group';
        }
        this.before = this.before === 'globslash' ? 'globslash' : 'other';
      } else {
        seq.text += c;
        this.i += 1;
        this.before = 'other';
      }
    }
    flush(seq);
    return seq.nodes;
  }

  /** `!(X)` at `start`: an `assert` node, then `*` (or `**` when X holds a `/`), the lookahead kept for later. */
  private negatedGroup(start: number, context: Context, seq: Sequence): void {
    if (context !== 'top') this.options.fail('!(...) is supported only outside {...} and (...) groups');
    if (this.pendingNot) this.options.fail('only one !(...) is supported in a pattern');
    const close = this.closeAt[start + 1] as number;
    const inner = this.src.slice(start + 2, close);
    flush(seq);
    const at = seq.nodes.length;
    this.pendingNot = { inner: [this.group(start + 2, 'alt')], seq: seq.nodes, at };
    seq.nodes.push({ kind: 'assert' }, { kind: inner.length > 1 && inner.includes('/') ? 'any' : 'star' });
    this.before = 'other';
  }

  /** `**` ending at `this.i`: any number of directories when it is a whole segment, else `*` (picomatch's rules). */
  private globstar(context: Context, seq: Sequence): void {
    const src = this.src;
    const before = this.before;
    let j = this.i;
    if (before === 'other' || !(j === src.length || src[j] === '/' || this.isAltEnd(j, context))) {
      push(seq, { kind: 'star' });
      return;
    }
    // `/**/**` is `/**` (picomatch strips repeated globstar segments).
    while (src.startsWith('/**', j) && (j + 3 === src.length || src[j + 3] === '/')) j += 3;
    this.i = j;
    flush(seq);
    const last = seq.nodes[seq.nodes.length - 1];
    if (src[j] === '/' && before !== 'alt') {
      // `**/` at the start or `/**/` in the middle: zero or more directories, each with its `/`.
      const directories: GlobNode = { kind: 'alt', alts: [[{ kind: 'any' }, { kind: 'text', text: '/' }], []] };
      if (before === 'slash' && j + 1 < src.length && last?.kind === 'text') {
        // picomatch's `(?:\/G*\/|\/|$)`: the `/` before `**` is part of it, and the end of the path may stand for it all.
        seq.nodes.pop();
        if (last.text.length > 1) seq.nodes.push({ kind: 'text', text: last.text.slice(0, -1) });
        seq.nodes.push({ kind: 'alt', alts: [[{ kind: 'text', text: '/' }, directories], [{ kind: 'end' }]] });
      } else seq.nodes.push(directories);
      this.i = j + 1;
      this.before = 'globslash';
      return;
    }
    if (j === src.length && before === 'slash' && !seq.starBeforeSlash && context === 'top' && last?.kind === 'text') {
      // A trailing `/**` also matches the directory itself: `src/**` matches `src` (not after `*/`).
      seq.nodes.pop();
      if (last.text.length > 1) seq.nodes.push({ kind: 'text', text: last.text.slice(0, -1) });
      seq.nodes.push({ kind: 'alt', alts: [[{ kind: 'text', text: '/' }, { kind: 'any' }], []] });
      return;
    }
    seq.nodes.push({ kind: 'any' });
  }

  /** `(`...`)` from `start` (just after the `(`) to its `)`: alternatives separated by `|`. */
  private group(start: number, kind: 'alt' | 'optional' | 'star' | 'plus'): GlobNode {
    const close = this.closeAt[start - 1] as number;
    this.i = start;
    const alts: GlobNode[][] = [this.sequence('paren')];
    while (this.i < close && this.src[this.i] === '|') {
      this.i += 1;
      alts.push(this.sequence('paren'));
    }
    this.i = close + 1;
    this.before = 'other';
    if (kind === 'alt') return { kind: 'alt', alts };
    return { kind: 'repeat', min: kind === 'plus' ? 1 : 0, many: kind !== 'optional', alts };
  }

  /** `{`...`}` at `start`: alternatives separated by `,`, a range `{1..20}`, or literal braces around a glob. */
  private brace(start: number, seq: Sequence): void {
    const close = this.closeAt[start] as number;
    this.i = start + 1;
    const alts: GlobNode[][] = [this.sequence('brace')];
    while (this.i < close && (this.src[this.i] === ',' || this.src[this.i] === '|')) {
      this.i += 1;
      alts.push(this.sequence('brace'));
    }
    this.i = close + 1;
    this.before = 'other';
    const range = alts.length > 1 ? null : this.range(this.src.slice(start + 1, close));
    if (alts.length > 1 || range) {
      push(seq, { kind: 'alt', alts: range ? range.map((text) => [{ kind: 'text', text }]) : alts });
      seq.last = 'brace';
      return;
    }
    // No comma, no range: the braces are literal, what is inside them is still a glob (as picomatch).
    seq.text += '{';
    flush(seq);
    seq.nodes.push(...(alts[0] as GlobNode[]));
    seq.text += '}';
  }

  /** The names of a range `1..20`, `01..10`, `1..10..2`, `a..e` (bash's meaning), or null. */
  private range(body: string): string[] | null {
    const numeric = /^(-?\d+)\.\.(-?\d+)(?:\.\.(-?\d+))?$/.exec(body);
    const chars = numeric ? null : /^([^\\\d])\.\.([^\\\d])(?:\.\.(-?\d+))?$/.exec(body);
    const match = numeric ?? chars;
    if (!match) return null;
    const from = numeric ? Number(match[1]) : (match[1] as string).charCodeAt(0);
    const to = numeric ? Number(match[2]) : (match[2] as string).charCodeAt(0);
    const step = Math.abs(Number(match[3] ?? 1)) || 1;
    const count = Number.isSafeInteger(from) && Number.isSafeInteger(to) ? Math.floor(Math.abs(to - from) / step) + 1 : Infinity;
    if (count > MAX_BRACE_RANGE) {
      this.options.fail(
        `the range {${body.length > 40 ? `${body.slice(0, 40)}…` : body}} stands for ${count === Infinity ? 'too many' : count} names; ` +
          `at most ${MAX_BRACE_RANGE}: use a wildcard such as * or [0-9] instead`,
      );
    }
    const a = match[1] as string;
    const b = match[2] as string;
    const width = numeric && (/^-?0\d/.test(a) || /^-?0\d/.test(b)) ? Math.max(a.length, b.length) : 0;
    const names: string[] = [];
    const down = to < from;
    for (let v = from; down ? v >= to : v <= to; v += down ? -step : step) {
      if (!numeric) names.push(String.fromCharCode(v));
      else if (v < 0) names.push(`-${String(-v).padStart(width - 1, '0')}`);
      else names.push(String(v).padStart(width, '0'));
    }
    return names;
  }

  /** The class `[...]` from `start` to `end` (its `]`), as a node; picomatch's conversion to a RegExp class. */
  private charClass(start: number, end: number): GlobNode {
    const src = this.src;
    let j = start + 1;
    let negated = false;
    if (src[j] === '!' || src[j] === '^') {
      negated = true;
      j += 1;
    }
    let body = '';
    let posix = false;
    if (src[j] === ']') {
      body += '\\]';
      j += 1;
    }
    while (j < end) {
      const d = src[j] as string;
      if (d === '\\') {
        body += src.slice(j, j + 2);
        j += 2;
      } else if (d === '[' && src[j + 1] === ':') {
        const close = src.indexOf(':]', j + 2);
        const name = close !== -1 && close < end ? src.slice(j + 2, close) : '';
        const posixSource = Object.hasOwn(POSIX_CLASSES, name) ? POSIX_CLASSES[name] : undefined;
        if (posixSource !== undefined) {
          body += posixSource;
          posix = true;
          j = close + 2;
        } else {
          body += '[';
          j += 1;
        }
      } else if (d === '[' || d === ']' || (d === '-' && j + 1 === end)) {
        body += `\\${d}`;
        j += 1;
      } else {
        body += d;
        j += 1;
      }
    }
    // A negated class never matches `/` (picomatch adds it), unless built from a POSIX class.
    const source = `[${negated ? '^' : ''}${body}${negated && !posix && !body.includes('/') ? '/' : ''}]`;
    let re: RegExp;
    try {
      re = new RegExp(`^${source}$`, this.options.caseSensitive ? '' : 'i');
    } catch (error) {
      const reason = error instanceof Error ? error.message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /s, '') : String(error);
      return this.options.fail(`the class ${quoteForMessage(src.slice(start, end + 1))} is not valid (${reason})`);
    }
    this.classes.push(re);
    const node: GlobNode = { kind: 'class', index: this.classes.length - 1 };
    // picomatch also matches the class's own text when it has no range, escape or special character.
    if (!negated && !posix && !/[-*+?.^${}(|)[\]]/.test(body)) {
      return { kind: 'alt', alts: [[node], [{ kind: 'text', text: `[${body}]` }]] };
    }
    return node;
  }
}

/** The same language read backwards (for the `!(...)` lookahead, run from the end of the path). */
function reverseNodes(nodes: GlobNode[]): GlobNode[] {
  return nodes
    .slice()
    .reverse()
    .map((node): GlobNode => {
      if (node.kind === 'text') return { kind: 'text', text: node.text.split('').reverse().join('') };
      if (node.kind === 'alt') return { kind: 'alt', alts: node.alts.map(reverseNodes) };
      if (node.kind === 'repeat') return { ...node, alts: node.alts.map(reverseNodes) };
      return node;
    });
}

// ---------------------------------------------------------------------------------------------------
// Matching: a Thompson NFA run as a lazily built DFA. Each code unit of a path costs one table look-up
// once its state is cached, and at most one step over the NFA's states otherwise, so matching takes
// time linear in the path's length whatever the pattern (a backtracking RegExp takes exponential time
// on `*a*a*a*a*a*a*a*ab` against a long run of `a`).

const LIT = 0;
const ONE = 1;
const ANY = 2;
const CLS = 3;
const SPLIT = 4;
const MATCH = 5;
const ASSERT = 6;
const END = 7;
const SLASH = 0x2f;

/** The code unit a case-insensitive JavaScript RegExp (no `u` flag) compares: ES Canonicalize. */
function canonicalize(code: number): number {
  const upper = String.fromCharCode(code).toUpperCase();
  if (upper.length !== 1) return code;
  const unit = upper.charCodeAt(0);
  return code >= 128 && unit < 128 ? code : unit;
}
const ASCII_FOLD = Int32Array.from({ length: 128 }, (_, code) => canonicalize(code));
const foldCache = new Map<number, number>();
function fold(code: number): number {
  if (code < 128) return ASCII_FOLD[code] as number;
  let folded = foldCache.get(code);
  if (folded === undefined) {
    folded = canonicalize(code);
    foldCache.set(code, folded);
  }
  return folded;
}

class Nfa {
  readonly kind: number[] = [];
  readonly arg: number[] = [];
  readonly out: number[] = [];
  readonly eps: number[][] = [];
  readonly start: number;

  constructor(
    nodes: GlobNode[],
    private readonly caseSensitive: boolean,
    private readonly tooBig: () => never,
  ) {
    this.start = this.build(nodes, this.add(MATCH, 0, -1));
  }

  private add(kind: number, arg: number, out: number, eps: number[] = []): number {
    if (this.kind.length >= MAX_STATES) this.tooBig();
    this.kind.push(kind);
    this.arg.push(arg);
    this.out.push(out);
    this.eps.push(eps);
    return this.kind.length - 1;
  }

  /** Builds `nodes` back to front, each ending at `next`; returns the first state. */
  private build(nodes: GlobNode[], next: number): number {
    for (let k = nodes.length - 1; k >= 0; k -= 1) {
      const node = nodes[k] as GlobNode;
      switch (node.kind) {
        case 'text':
          for (let j = node.text.length - 1; j >= 0; j -= 1) {
            const code = node.text.charCodeAt(j);
            next = this.add(LIT, this.caseSensitive ? code : fold(code), next);
          }
          break;
        case 'one':
          next = this.add(ONE, 0, next);
          break;
        case 'star':
        case 'any': {
          const loop = this.add(SPLIT, 0, -1);
          const step = this.add(node.kind === 'star' ? ONE : ANY, 0, loop);
          this.eps[loop] = [step, next];
          next = loop;
          break;
        }
        case 'class':
          next = this.add(CLS, node.index, next);
          break;
        case 'alt': {
          const end = next;
          next = this.add(SPLIT, 0, -1, node.alts.map((alt) => this.build(alt, end)));
          break;
        }
        case 'repeat': {
          const end = next;
          if (!node.many) {
            next = this.add(SPLIT, 0, -1, [...node.alts.map((alt) => this.build(alt, end)), end]);
            break;
          }
          const loop = this.add(SPLIT, 0, -1);
          const starts = node.alts.map((alt) => this.build(alt, loop));
          this.eps[loop] = [...starts, end];
          next = node.min === 0 ? loop : this.add(SPLIT, 0, -1, starts);
          break;
        }
        case 'assert':
          next = this.add(ASSERT, 0, next);
          break;
        case 'end':
          next = this.add(END, 0, next);
          break;
      }
    }
    return next;
  }
}

/** Runs an {@link Nfa} over a string; a `lookaheadOk()` callback decides `ASSERT` states at the current position. */
class NfaRunner {
  private readonly mark: Uint32Array;
  private generation = 0;
  private readonly stack: number[] = [];

  constructor(
    readonly nfa: Nfa,
    private readonly classes: RegExp[],
  ) {
    this.mark = new Uint32Array(nfa.kind.length);
  }

  /** Starts a new state set (a fresh generation of marks). */
  begin(): void {
    this.generation += 1;
    if (this.generation === 0xffffffff) {
      this.mark.fill(0);
      this.generation = 1;
    }
  }

  /**
   * Adds `state` and every state reachable from it without input to `into` (no split states). An `END`
   * state is passed only `atEnd` of the input, and kept in `into` otherwise.
   */
  close(state: number, into: number[], lookaheadOk?: () => boolean, atEnd = false): void {
    const { kind, eps, out } = this.nfa;
    const stack = this.stack;
    stack.push(state);
    while (stack.length > 0) {
      const s = stack.pop() as number;
      if (this.mark[s] === this.generation) continue;
      this.mark[s] = this.generation;
      const k = kind[s];
      if (k === SPLIT) {
        const next = eps[s] as number[];
        for (let j = next.length - 1; j >= 0; j -= 1) stack.push(next[j] as number);
      } else if (k === ASSERT) {
        if (lookaheadOk?.()) stack.push(out[s] as number);
      } else if (k === END && atEnd) {
        stack.push(out[s] as number);
      } else {
        into.push(s);
      }
    }
  }

  /** Whether `state` consumes the (folded) code unit `code`. */
  accepts(state: number, code: number): boolean {
    switch (this.nfa.kind[state]) {
      case LIT:
        return this.nfa.arg[state] === code;
      case ONE:
        return code !== SLASH;
      case ANY:
        return true;
      case CLS:
        return (this.classes[this.nfa.arg[state] as number] as RegExp).test(String.fromCharCode(code));
      default:
        return false;
    }
  }

  /** The states after `code` from `states`. */
  step(states: ArrayLike<number>, code: number, lookaheadOk?: () => boolean): number[] {
    const next: number[] = [];
    this.begin();
    for (let j = 0; j < states.length; j += 1) {
      const s = states[j] as number;
      if (this.accepts(s, code)) this.close(this.nfa.out[s] as number, next, lookaheadOk);
    }
    return next;
  }

  /** Whether `states` accept the input read so far, `END` states passed when it is `atEnd` (a fresh generation of marks). */
  isAccepting(states: ArrayLike<number>, atEnd: boolean, lookaheadOk?: () => boolean): boolean {
    const { kind, out } = this.nfa;
    let ends: number[] | undefined;
    for (let j = 0; j < states.length; j += 1) {
      const s = states[j] as number;
      if (kind[s] === MATCH) return true;
      if (kind[s] === END && atEnd) (ends ??= []).push(s);
    }
    if (!ends) return false;
    const reached: number[] = [];
    this.begin();
    for (const s of ends) this.close(out[s] as number, reached, lookaheadOk, true);
    return reached.some((s) => kind[s] === MATCH);
  }
}

interface CachedState {
  states: Int32Array;
  accept: boolean;
  /** Next state per ASCII code unit: 0 unknown, -1 no match possible, k + 1 cached state k. */
  ascii: Int32Array;
  other: Map<number, number> | undefined;
}

/** An NFA without lookahead run as a DFA built on demand (bounded cache, cleared when full). */
class LazyDfa {
  private cache: CachedState[] = [];
  private readonly ids = new Map<string, number>();
  private ints = 0;
  private readonly startStates: number[];

  constructor(
    private readonly runner: NfaRunner,
    private readonly caseSensitive: boolean,
  ) {
    this.startStates = [];
    runner.begin();
    runner.close(runner.nfa.start, this.startStates);
    this.reset();
  }

  private reset(): void {
    this.cache = [];
    this.ids.clear();
    this.ints = 0;
    this.intern(this.startStates);
  }

  private intern(list: number[]): number {
    const states = Int32Array.from(list).sort();
    const key = states.join(',');
    const known = this.ids.get(key);
    if (known !== undefined) return known;
    const id = this.cache.length;
    this.cache.push({ states, accept: this.runner.isAccepting(states, true), ascii: new Int32Array(128), other: undefined });
    this.ids.set(key, id);
    this.ints += states.length;
    return id;
  }

  /** Computes (and caches when there is room) the transition of cached state `from` on `code`: 0-based id or -1. */
  private miss(from: number, code: number): number {
    const current = this.cache[from] as CachedState;
    const list = this.runner.step(current.states, code);
    if (list.length === 0) {
      this.store(current, code, -1);
      return -1;
    }
    if (this.cache.length >= MAX_CACHED_STATES || this.ints >= MAX_CACHED_INTS) {
      this.reset();
      return this.intern(list);
    }
    const id = this.intern(list);
    this.store(current, code, id + 1);
    return id;
  }

  private store(state: CachedState, code: number, value: number): void {
    if (code < 128) state.ascii[code] = value;
    else (state.other ??= new Map()).set(code, value);
  }

  matches(input: string): boolean {
    let d = 0;
    for (let i = 0; i < input.length; i += 1) {
      const raw = input.charCodeAt(i);
      const code = this.caseSensitive ? raw : raw < 128 ? (ASCII_FOLD[raw] as number) : fold(raw);
      const state = this.cache[d] as CachedState;
      const cached = code < 128 ? (state.ascii[code] as number) : (state.other?.get(code) ?? 0);
      if (cached === -1) return false;
      if (cached > 0) {
        d = cached - 1;
        continue;
      }
      const next = this.miss(d, code);
      if (next < 0) return false;
      d = next;
    }
    return (this.cache[d] as CachedState).accept;
  }
}

/**
 * A pattern with `!(X)`: the lookahead "X and the rest of the pattern match the rest of the path" is
 * known for every position after one backward pass of its reversed NFA, then the pattern runs forward
 * step by step (no cache: `ASSERT` depends on the position). Linear in the path's length.
 */
class LookaheadMatcher {
  constructor(
    private readonly main: NfaRunner,
    private readonly reversed: NfaRunner,
    private readonly caseSensitive: boolean,
  ) {}

  matches(input: string): boolean {
    const n = input.length;
    const codes = new Int32Array(n);
    for (let i = 0; i < n; i += 1) {
      const raw = input.charCodeAt(i);
      codes[i] = this.caseSensitive ? raw : fold(raw);
    }
    // blocked[i]: the rest of the path from i matches the lookahead, so !(...) may not start at i.
    const blocked = new Uint8Array(n + 1);
    // Read backwards, the end of the path (an `END` state) is where the run starts.
    let states: number[] = [];
    this.reversed.begin();
    this.reversed.close(this.reversed.nfa.start, states, undefined, true);
    blocked[n] = this.reversed.isAccepting(states, n === 0) ? 1 : 0;
    for (let i = n - 1; i >= 0 && states.length > 0; i -= 1) {
      states = this.reversed.step(states, codes[i] as number);
      blocked[i] = this.reversed.isAccepting(states, false) ? 1 : 0;
    }
    let position = 0;
    const ok = (): boolean => blocked[position] === 0;
    states = [];
    this.main.begin();
    this.main.close(this.main.nfa.start, states, ok);
    for (let i = 0; i < n && states.length > 0; i += 1) {
      position = i + 1;
      states = this.main.step(states, codes[i] as number, ok);
    }
    position = n;
    return this.main.isAccepting(states, true, ok);
  }
}

/** Characters that make a path segment a glob rather than a literal name. */
const GLOB_SYNTAX = /[*?[\]{}()"\\]/;

/**
 * Takes an absolute pattern, or one whose literal leading segments hold `.` or `..`, relative to
 * `base.dir`. Returns the relative pattern; throws `outside_workspace` when its literal start lies
 * outside the workspace, `invalid_pattern` when it lies inside but not under `dir`.
 */
function rebase(source: string, base: { root: string; dir: string }, argName: string, quoted: string): string {
  const absolute = source.startsWith('/');
  const segments = source.split('/');
  let literal = 0;
  while (literal < segments.length && !GLOB_SYNTAX.test(segments[literal] as string)) literal += 1;
  const prefix = segments.slice(0, literal);
  const rest = segments.slice(literal).join('/');
  const prefixPath = absolute ? joinPath('/', ...prefix) : joinPath(base.dir, ...prefix);
  const root = joinPath(base.root);
  const dir = joinPath(base.dir);
  let relative: string | undefined;
  if (isInside(dir, prefixPath)) {
    relative = [relativePath(dir, prefixPath), rest].filter((part) => part.length > 0).join('/');
  } else if (isInside(prefixPath, dir) && (rest === '**' || rest.startsWith('**/'))) {
    // `/workspace/**/*.ts` searching /workspace/src: `**` spans the directories down to src.
    relative = rest;
  }
  if (relative === undefined) {
    if (!isInside(root, prefixPath)) {
      throw new ToolError(
        'outside_workspace',
        `${argName} ${quoted} points outside the workspace (${root}); give a glob relative to the searched ` +
          `directory (such as *.ts or src/**/*.ts) or an absolute one under ${root}`,
      );
    }
    throw new ToolError(
      'invalid_pattern',
      `${argName} ${quoted} is not under the searched directory ${dir}; set dir_path to ${literal === segments.length ? joinPath(prefixPath, '..') : prefixPath} ` +
        `or give a glob relative to ${dir}`,
    );
  }
  if (relative.length === 0) {
    throw new ToolError(
      'invalid_pattern',
      `${argName} ${quoted} is the searched directory itself; add a glob for the files in it, such as ${dir === '/' ? '' : dir}/**/*`,
    );
  }
  return relative;
}

/**
 * Compiles a glob (SPEC §6.4) with picomatch's syntax and meaning (see {@link GlobParser}): `*`, `**`,
 * `?`, `[...]`, `{a,b}` (nested too), extglobs; dot-files matched like any other name; line breaks
 * in names are ordinary characters. A pattern without `/` matches the basename at any depth (`*.ts`);
 * a pattern with `/` matches the path relative to the search directory (`src/**\/*.test.ts`; a leading
 * `./` is dropped). An absolute pattern is taken relative to `options.base.dir` (see
 * {@link GlobOptions.base}) and always matches whole relative paths. A leading `!` negates the pattern
 * (`!*.test.ts`: every file but tests). Case-insensitive unless `caseSensitive`.
 *
 * Matching runs in time linear in the path's length for every pattern (a lazily built DFA, not a
 * backtracking RegExp), so no glob can stall the thread.
 * Errors: `invalid_pattern` for an empty pattern, one over {@link MAX_GLOB_LENGTH} characters, an
 * unbalanced brace or bracket, an invalid class such as `[z-a]`, a range over {@link MAX_BRACE_RANGE}
 * names, a `!(...)` inside a group or more than one, or (with `base`) an absolute pattern under the
 * workspace but not under the searched directory; `outside_workspace` for an absolute pattern (or a
 * `../` one) outside the workspace. Messages quote at most 200 characters of the pattern.
 */
export function compileGlob(pattern: string, options: GlobOptions = {}): GlobMatcher {
  const argName = options.argName ?? 'pattern';
  const caseSensitive = options.caseSensitive === true;
  const quoted = quoteForMessage(pattern);
  const invalid = (problem: string): never => {
    throw new ToolError('invalid_pattern', `${argName} ${quoted} is not a valid glob: ${problem}`);
  };
  let source = pattern.trim();
  if (source.length === 0) {
    throw new ToolError('invalid_pattern', `${argName} is empty; give a glob such as *.ts or src/**/*.test.ts`);
  }
  if (source.length > MAX_GLOB_LENGTH) {
    throw new ToolError(
      'invalid_pattern',
      `${argName} ${quoted} is ${source.length} characters long; at most ${MAX_GLOB_LENGTH}: use wildcards ` +
        '(*.ts, src/**) instead of listing names, or search in several calls',
    );
  }
  // A leading `!` (not `!(`) negates the pattern; `!!` cancels out (picomatch's rule).
  let bangs = 0;
  while (source[bangs] === '!' && source[bangs + 1] !== '(') bangs += 1;
  const negated = bangs % 2 === 1;
  source = source.slice(bangs);
  while (source.startsWith('./')) source = source.slice(2);
  let anchored = false;
  const segments = source.split('/');
  const firstGlob = segments.findIndex((segment) => GLOB_SYNTAX.test(segment));
  const literalStart = firstGlob === -1 ? segments : segments.slice(0, firstGlob);
  if (source.startsWith('/') || literalStart.some((segment) => segment === '.' || segment === '..')) {
    anchored = true;
    source = options.base ? rebase(source, options.base, argName, quoted) : source.replace(/^\/+/, '');
  }
  if (source.length === 0) {
    throw new ToolError('invalid_pattern', `${argName} is empty; give a glob such as *.ts or src/**/*.test.ts`);
  }
  const problem = checkGlobBalance(source);
  if (problem) invalid(problem);

  const parser = new GlobParser(source, { caseSensitive, fail: invalid });
  const nodes = parser.parse();
  const tooBig = (): never =>
    invalid(`it expands to more than ${MAX_STATES} automaton states; use fewer alternatives or shorter ranges`);
  const main = new NfaRunner(new Nfa(nodes, caseSensitive, tooBig), parser.classes);
  let run: (input: string) => boolean;
  if (parser.lookahead) {
    const reversed = new NfaRunner(new Nfa(reverseNodes(parser.lookahead), caseSensitive, tooBig), parser.classes);
    const matcher = new LookaheadMatcher(main, reversed, caseSensitive);
    run = (input) => matcher.matches(input);
  } else {
    const dfa = new LazyDfa(main, caseSensitive);
    run = (input) => dfa.matches(input);
  }
  // picomatch also accepts a path equal to the pattern's text (`my file (1).md`, where `(1)` is a group).
  const literal = '!'.repeat(bangs) + source;
  const basenameOnly = !anchored && !source.includes('/');
  const test = (candidate: string): boolean => candidate !== '' && (candidate === literal || negated !== run(candidate));
  return {
    pattern: source,
    basenameOnly,
    matches: basenameOnly ? (relPath) => test(relPath.slice(relPath.lastIndexOf('/') + 1)) : test,
  };
}
