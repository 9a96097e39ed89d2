import { ToolError } from '../core/errors.js';
import { clipForMessage } from '../fs/text.js';
import { DIGIT_TABLE, WORD_TABLE } from './unicode-tables.js';

/**
 * The syntax tree of a pattern in grep_search's dialect: RE2 syntax as ripgrep's default has it,
 * Unicode-aware as ripgrep is (`\d \w \s \b` and case-insensitive matching follow Unicode; `(?-u)`
 * turns that off where it is written), plus the JavaScript escapes that mean the same thing
 * (`\uFFFF`, `\u{1F600}`, `\cX`, `\/`). Character sets are code-point ranges plus Unicode property
 * references; Unicode simple case folding is recorded per atom (`fold`), so inline flags such as
 * `(?i)` or `(?i:…)` apply exactly where they are written (ASCII-only folding, `(?i-u)`, is spelled out
 * as the ASCII case pairs with `fold` false). A word assertion is Unicode's unless `ascii`.
 */
export type RegexNode =
  | { type: 'char'; cp: number; fold: boolean }
  | { type: 'set'; negated: boolean; ranges: Array<[number, number]>; props: PropertyRef[]; fold: boolean; closed?: boolean }
  | { type: 'assert'; kind: 'start' | 'end' | 'word' | 'notword'; ascii?: boolean }
  | { type: 'seq'; items: RegexNode[] }
  | { type: 'alt'; branches: RegexNode[] }
  | { type: 'group'; body: RegexNode }
  | { type: 'repeat'; body: RegexNode; min: number; max: number; lazy: boolean };

/** `\p{Greek}` (`negated`: `\P{…}` or `\p{^…}`); `name` as written, `script` when it is not a general category. */
export interface PropertyRef {
  name: string;
  negated: boolean;
  script: boolean;
}

/** Largest count in `{n,m}`, as RE2 and ripgrep. */
export const MAX_REPEAT = 1000;

/**
 * Deepest nesting a pattern may have, as RE2's parser allows (ripgrep's stops at 250 groups): groups
 * (`(…)`, `(?:…)`, `(?i:…)`, `(?P<name>…)`) inside one another, and the height of the expression as
 * RE2 counts it, where each repetition, alternation and sequence inside another is one level (groups
 * add none; an alternation directly inside an alternation, or a sequence inside a sequence, merges
 * with it). Deeper patterns are refused while parsing, before any recursive pass over the tree (or
 * re2js's own height check) could overflow the stack or refuse it later.
 */
export const MAX_NESTING = 1000;

const GENERAL_CATEGORIES = new Set(
  'C Cc Cf Co Cs L Ll Lm Lo Lt Lu M Mc Me Mn N Nd Nl No P Pc Pd Pe Pf Pi Po Ps S Sc Sk Sm So Z Zl Zp Zs'.split(' '),
);
/**
 * The property names RE2 (re2js 2.10's Unicode tables) knows besides the general categories above: the
 * scripts by their long names (never the four-letter codes such as `Grek`, which V8 would also take),
 * a few more categories (`Cn`, `LC`, `Lc`, `Assigned`, `Ascii`) and its binary properties. Kept here so
 * that parsing a pattern never needs re2js, which loads only when a pattern runs on it.
 */
export const RE2_PROPERTY_NAMES: ReadonlySet<string> = new Set(
  (
    'Adlam Ahom Anatolian_Hieroglyphs Arabic Armenian Avestan Balinese Bamum Bassa_Vah Batak Bengali ' +
    'Beria_Erfe Bhaiksuki Bopomofo Brahmi Braille Buginese Buhid Canadian_Aboriginal Carian ' +
    'Caucasian_Albanian Chakma Cham Cherokee Chorasmian Common Coptic Cuneiform Cypriot Cypro_Minoan ' +
    'Cyrillic Deseret Devanagari Dives_Akuru Dogra Duployan Egyptian_Hieroglyphs Elbasan Elymaic Ethiopic ' +
    'Garay Georgian Glagolitic Gothic Grantha Greek Gujarati Gunjala_Gondi Gurmukhi Gurung_Khema Han ' +
    'Hangul Hanifi_Rohingya Hanunoo Hatran Hebrew Hiragana Imperial_Aramaic Inherited ' +
    'Inscriptional_Pahlavi Inscriptional_Parthian Javanese Kaithi Kannada Katakana Kawi Kayah_Li ' +
    'Kharoshthi Khitan_Small_Script Khmer Khojki Khudawadi Kirat_Rai Lao Latin Lepcha Limbu Linear_A ' +
    'Linear_B Lisu Lycian Lydian Mahajani Makasar Malayalam Mandaic Manichaean Marchen Masaram_Gondi ' +
    'Medefaidrin Meetei_Mayek Mende_Kikakui Meroitic_Cursive Meroitic_Hieroglyphs Miao Modi Mongolian Mro ' +
    'Multani Myanmar Nabataean Nag_Mundari Nandinagari New_Tai_Lue Newa Nko Nushu Nyiakeng_Puachue_Hmong ' +
    'Ogham Ol_Chiki Ol_Onal Old_Hungarian Old_Italic Old_North_Arabian Old_Permic Old_Persian Old_Sogdian ' +
    'Old_South_Arabian Old_Turkic Old_Uyghur Oriya Osage Osmanya Pahawh_Hmong Palmyrene Pau_Cin_Hau ' +
    'Phags_Pa Phoenician Psalter_Pahlavi Rejang Runic Samaritan Saurashtra Sharada Shavian Siddham ' +
    'Sidetic SignWriting Sinhala Sogdian Sora_Sompeng Soyombo Sundanese Sunuwar Syloti_Nagri Syriac ' +
    'Tagalog Tagbanwa Tai_Le Tai_Tham Tai_Viet Tai_Yo Takri Tamil Tangsa Tangut Telugu Thaana Thai ' +
    'Tibetan Tifinagh Tirhuta Todhri Tolong_Siki Toto Tulu_Tigalari Ugaritic Unknown Vai Vithkuqi Wancho ' +
    'Warang_Citi Yezidi Yi Zanabazar_Square ' +
    'Ascii Assigned Lc LC Cn ASCII_Hex_Digit Alphabetic Dash Emoji Emoji_Component Emoji_Modifier Emoji_Modifier_Base Emoji_Presentation Extended_Pictographic Hex_Digit Lowercase Math Quotation_Mark Terminal_Punctuation Uppercase White_Space'
  ).split(' '),
);

const DIGIT: Array<[number, number]> = [[0x30, 0x39]];
const WORD: Array<[number, number]> = [
  [0x30, 0x39],
  [0x41, 0x5a],
  [0x5f, 0x5f],
  [0x61, 0x7a],
];
/** ripgrep's ASCII `\s` (under `(?-u)`): `[\t\n\v\f\r ]`. */
const SPACE: Array<[number, number]> = [
  [0x09, 0x0d],
  [0x20, 0x20],
];
/** ripgrep's Unicode `\s`: the White_Space property. */
const UNICODE_SPACE: Array<[number, number]> = [
  [0x09, 0x0d],
  [0x20, 0x20],
  [0x85, 0x85],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
];

function decodeTable(table: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let next = 0;
  for (const pair of table.split(' ')) {
    const dot = pair.indexOf('.');
    const lo = next + parseInt(pair.slice(0, dot), 36);
    const hi = lo + parseInt(pair.slice(dot + 1), 36);
    out.push([lo, hi]);
    next = hi + 1;
  }
  return out;
}

let unicodeWordRanges: Array<[number, number]> | undefined;
let unicodeDigitRanges: Array<[number, number]> | undefined;

/** ripgrep's Unicode `\w` as sorted code-point ranges (decoded once). */
export function unicodeWord(): ReadonlyArray<[number, number]> {
  unicodeWordRanges ??= decodeTable(WORD_TABLE);
  return unicodeWordRanges;
}

/** ripgrep's Unicode `\d` (decimal digits, Nd) as sorted code-point ranges (decoded once). */
export function unicodeDigit(): ReadonlyArray<[number, number]> {
  unicodeDigitRanges ??= decodeTable(DIGIT_TABLE);
  return unicodeDigitRanges;
}

/** The ASCII case partners of the ASCII letters in `ranges` added (what `(?i-u)` matches), normalised. */
export function asciiCaseClosed(ranges: ReadonlyArray<[number, number]>): Array<[number, number]> {
  const out: Array<[number, number]> = [...ranges];
  for (const [lo, hi] of ranges) {
    const a = Math.max(lo, 0x41);
    const b = Math.min(hi, 0x5a);
    if (a <= b) out.push([a + 32, b + 32]);
    const c = Math.max(lo, 0x61);
    const d = Math.min(hi, 0x7a);
    if (c <= d) out.push([c - 32, d - 32]);
  }
  return normalizeRanges(out);
}
const POSIX: Record<string, Array<[number, number]>> = {
  alnum: [[0x30, 0x39], [0x41, 0x5a], [0x61, 0x7a]],
  alpha: [[0x41, 0x5a], [0x61, 0x7a]],
  ascii: [[0x00, 0x7f]],
  blank: [[0x09, 0x09], [0x20, 0x20]],
  cntrl: [[0x00, 0x1f], [0x7f, 0x7f]],
  digit: DIGIT,
  graph: [[0x21, 0x7e]],
  lower: [[0x61, 0x7a]],
  print: [[0x20, 0x7e]],
  punct: [[0x21, 0x2f], [0x3a, 0x40], [0x5b, 0x60], [0x7b, 0x7e]],
  space: [[0x09, 0x0d], [0x20, 0x20]],
  upper: [[0x41, 0x5a]],
  word: WORD,
  xdigit: [[0x30, 0x39], [0x41, 0x46], [0x61, 0x66]],
};

/** The complement of sorted, non-overlapping ranges over all code points. */
export function complementRanges(ranges: ReadonlyArray<[number, number]>): Array<[number, number]> {
  const sorted = normalizeRanges(ranges);
  const out: Array<[number, number]> = [];
  let next = 0;
  for (const [lo, hi] of sorted) {
    if (lo > next) out.push([next, lo - 1]);
    next = hi + 1;
  }
  if (next <= 0x10ffff) out.push([next, 0x10ffff]);
  return out;
}

/** Sorts and merges ranges. */
export function normalizeRanges(ranges: ReadonlyArray<[number, number]>): Array<[number, number]> {
  // Already sorted and apart (Unicode classes, complements): copied as they are.
  let apart = true;
  for (let i = 1; i < ranges.length && apart; i += 1) apart = (ranges[i] as [number, number])[0] > (ranges[i - 1] as [number, number])[1] + 1;
  if (apart) return ranges.map(([lo, hi]) => [lo, hi]);
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: Array<[number, number]> = [];
  for (const [lo, hi] of sorted) {
    const last = out[out.length - 1];
    if (last && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
    else out.push([lo, hi]);
  }
  return out;
}

interface Flags {
  i: boolean;
  s: boolean;
  U: boolean;
  /** Unicode mode (ripgrep's default; `(?-u)` turns it off). */
  u: boolean;
}

function fail(argName: string, pattern: string, what: string, hint: string): never {
  throw new ToolError('invalid_pattern', `${argName} ${clipForMessage(pattern)} is not supported: ${what}; ${hint}`);
}

function syntaxError(argName: string, pattern: string, what: string): ToolError {
  return new ToolError(
    'invalid_pattern',
    `${argName} ${clipForMessage(pattern)} is not a valid regular expression (ripgrep/RE2 syntax): ${what}; ` +
      'fix the pattern, or set fixed_strings to search for the text literally',
  );
}

/**
 * Parses `pattern` into a {@link RegexNode} tree. `caseInsensitive` starts the pattern under `(?i)`.
 * Errors (ToolError `invalid_pattern`): lookahead / lookbehind (`(?=`, `(?!`, `(?<=`, `(?<!`) and
 * backreferences (`\1`, `\k<name>`) name the construct and suggest a way around it, as ripgrep does
 * without `-P`; atomic groups, possessive quantifiers and other syntax errors say what is wrong;
 * a count over {@link MAX_REPEAT}; a pattern nested more than {@link MAX_NESTING} levels deep.
 */
export function parseRegex(pattern: string, options: { caseInsensitive: boolean; argName?: string }): RegexNode {
  const parser = new RegexParser(pattern, options.argName ?? 'pattern');
  const tree = parser.parseAlternation({ i: options.caseInsensitive, s: false, U: false, u: true }, 0);
  if (parser.pos < parser.cps.length) throw parser.err('unmatched )');
  return tree;
}

/** What an escape (after its backslash) stands for. */
type Escape =
  | { kind: 'char'; cp: number }
  | { kind: 'set'; ranges: Array<[number, number]>; props: PropertyRef[]; negated: boolean; closed?: boolean }
  | { kind: 'assert'; assert: 'start' | 'end' | 'word' | 'notword' }
  | { kind: 'quote'; text: number[] };

/** The escapes that stand for one control character (`\a`, `\f`, `\t`, `\n`, `\r`, `\v`). */
const CONTROL_ESCAPES: Readonly<Record<string, number>> = { a: 7, f: 12, t: 9, n: 10, r: 13, v: 11 };

/** The assertion escapes other than `\b`, refused in a character class. */
const ASSERT_ESCAPES: Readonly<Record<string, 'start' | 'end' | 'notword'>> = { B: 'notword', A: 'start', z: 'end' };

/** The node with groups looked through, as RE2 sees it. */
function bare(node: RegexNode): RegexNode {
  let at = node;
  while (at.type === 'group') at = at.body;
  return at;
}

/** A recursive-descent parser over one pattern's code points; `pos` is where it reads. */
class RegexParser {
  readonly cps: number[];
  pos = 0;
  /** Group names seen so far (a name may be used once). */
  readonly names = new Set<string>();
  // Each node's height as RE2 counts it (see MAX_NESTING), computed as nodes are built: no recursion.
  readonly heights = new WeakMap<RegexNode, number>();

  constructor(
    readonly pattern: string,
    readonly argName: string,
  ) {
    this.cps = Array.from(pattern, (c) => c.codePointAt(0) as number);
  }

  /** Whether the text at `pos` starts with `s`. */
  at(s: string): boolean {
    for (let k = 0; k < s.length; k += 1) if (this.cps[this.pos + k] !== s.charCodeAt(k)) return false;
    return true;
  }

  err(what: string): ToolError {
    return syntaxError(this.argName, this.pattern, what);
  }

  /** A construct the dialect leaves out on purpose (lookaround, backreferences), with a way around it. */
  unsupported(what: string, hint: string): never {
    return fail(this.argName, this.pattern, what, hint);
  }

  /** Non-ASCII text or a Unicode class where `(?-u)` is on: refused, as ripgrep refuses it. */
  unicodeNotAllowed(what: string): ToolError {
    return new ToolError(
      'invalid_pattern',
      `${this.argName} ${clipForMessage(this.pattern)} uses ${what} where (?-u) turned Unicode off (ripgrep refuses this: "Unicode not allowed here"); ` +
        'end the (?-u) scope before it, e.g. (?-u:\\w+)é, or drop (?-u)',
    );
  }

  /** A code point `flags` allows as text: any in Unicode mode, ASCII only under `(?-u)`. */
  textChar(cp: number, flags: Flags): number {
    if (!flags.u && cp > 0x7f) throw this.unicodeNotAllowed(`the non-ASCII character ${JSON.stringify(String.fromCodePoint(cp))}`);
    return cp;
  }

  /** One character as an atom: Unicode simple case folding under `(?i)`, the ASCII pair under `(?i-u)`. */
  charAtom(cp: number, flags: Flags): RegexNode {
    this.textChar(cp, flags);
    if (!flags.i || flags.u) return { type: 'char', cp, fold: flags.i };
    const ranges = asciiCaseClosed([[cp, cp]]);
    return ranges.length === 1 && ranges[0]?.[0] === ranges[0]?.[1] ? { type: 'char', cp, fold: false } : { type: 'set', negated: false, ranges, props: [], fold: false };
  }

  tooDeep(): ToolError {
    return new ToolError(
      'invalid_pattern',
      `${this.argName} ${clipForMessage(this.pattern)} nests more than ${MAX_NESTING} levels deep (groups, alternations and repetitions ` +
        'inside one another), the most RE2 allows; write a flatter pattern (drop groups that only wrap one item, ' +
        'or list alternatives side by side as a|b|c instead of nesting them)',
    );
  }

  heightOf(node: RegexNode): number {
    return this.heights.get(node) ?? 1;
  }

  /** `node` with its height recorded; refused when it is over {@link MAX_NESTING}. */
  measured<T extends RegexNode>(node: T): T {
    let height = 1;
    if (node.type === 'group') height = this.heightOf(node.body);
    else if (node.type === 'repeat') height = 1 + this.heightOf(node.body);
    else if (node.type === 'seq' || node.type === 'alt') {
      const children = node.type === 'seq' ? node.items : node.branches;
      for (const child of children) {
        const merges = bare(child).type === node.type;
        height = Math.max(height, merges ? this.heightOf(child) : 1 + this.heightOf(child));
      }
    }
    if (height > MAX_NESTING) throw this.tooDeep();
    this.heights.set(node, height);
    return node;
  }

  parseHex(digits: number | 'braced'): number {
    const { cps } = this;
    let text = '';
    if (digits === 'braced') {
      this.pos += 1; // {
      while (this.pos < cps.length && cps[this.pos] !== 0x7d) text += String.fromCodePoint(cps[this.pos++] as number);
      if (cps[this.pos] !== 0x7d) throw this.err('unterminated \\x{…} or \\u{…} escape');
      this.pos += 1;
    } else {
      for (let k = 0; k < digits; k += 1) text += String.fromCodePoint((cps[this.pos++] ?? 0x20) as number);
    }
    if (!/^[0-9A-Fa-f]{1,8}$/.test(text)) throw this.err(`invalid hexadecimal escape "${text}"`);
    const value = parseInt(text, 16);
    if (value > 0x10ffff) throw this.err(`code point ${text} is past U+10FFFF`);
    return value;
  }

  /** After the backslash. `inClass`: `\b` is backspace there, assertions are errors. */
  parseEscape(inClass: boolean, flags: Flags): Escape {
    const { cps } = this;
    const c = cps[this.pos];
    if (c === undefined) throw this.err('trailing backslash');
    this.pos += 1;
    const ch = String.fromCodePoint(c as number);
    const control = Object.hasOwn(CONTROL_ESCAPES, ch) ? CONTROL_ESCAPES[ch] : undefined;
    if (control !== undefined) return { kind: 'char', cp: control };
    const assert = Object.hasOwn(ASSERT_ESCAPES, ch) ? ASSERT_ESCAPES[ch] : undefined;
    if (assert !== undefined) {
      if (inClass) throw this.err(`\\${ch} is not allowed in a character class`);
      return { kind: 'assert', assert };
    }
    switch (ch) {
      case 'd':
      case 'D':
      case 'w':
      case 'W':
      case 's':
      case 'S':
        return perlClass(ch, flags.u);
      case 'p':
      case 'P':
        return this.parseProperty(ch, flags);
      case 'b':
        if (inClass) return { kind: 'char', cp: 8 };
        return { kind: 'assert', assert: 'word' };
      case 'Z':
        throw this.err('\\Z is not supported; use \\z or $');
      case 'x':
        return { kind: 'char', cp: cps[this.pos] === 0x7b ? this.parseHex('braced') : this.parseHex(2) };
      case 'u':
        return { kind: 'char', cp: cps[this.pos] === 0x7b ? this.parseHex('braced') : this.parseHex(4) };
      case 'c': {
        const letter = cps[this.pos];
        if (letter === undefined || !/[A-Za-z]/.test(String.fromCodePoint(letter))) throw this.err('\\c needs a letter (\\cA … \\cZ)');
        this.pos += 1;
        return { kind: 'char', cp: (letter as number) % 32 };
      }
      case '0':
        return { kind: 'char', cp: this.parseOctal() };
      case 'k':
        return this.unsupported(
          'backreferences such as \\k<name> (a regular expression without them runs in linear time)',
          'match the repeated text explicitly, or search for one part and read the lines with view_file',
        );
      case 'Q': {
        if (inClass) throw this.err('\\Q is not allowed in a character class');
        const text: number[] = [];
        while (this.pos < cps.length && !(cps[this.pos] === 0x5c && cps[this.pos + 1] === 0x45)) text.push(cps[this.pos++] as number);
        if (this.pos < cps.length) this.pos += 2;
        return { kind: 'quote', text };
      }
      case 'E':
        return { kind: 'quote', text: [] };
      default:
        break;
    }
    if (/[1-9]/.test(ch)) {
      return this.unsupported(
        `backreferences such as \\${ch} (a regular expression without them runs in linear time)`,
        'match the repeated text explicitly (e.g. (a|b)x(a|b) and check the lines), or search for one part and read the lines with view_file',
      );
    }
    if (/[A-Za-z0-9]/.test(ch)) throw this.err(`unknown escape \\${ch}`);
    // Any other escaped character stands for itself: \. \* \/ \- \\ and so on.
    return { kind: 'char', cp: c as number };
  }

  /** After `\0`: octal, up to three digits in all (RE2): \0, \01, \012. */
  parseOctal(): number {
    const { cps } = this;
    let value = 0;
    for (let k = 0; k < 2 && cps[this.pos] !== undefined && (cps[this.pos] as number) >= 0x30 && (cps[this.pos] as number) <= 0x37; k += 1) {
      value = value * 8 + ((cps[this.pos] as number) - 0x30);
      this.pos += 1;
    }
    return value;
  }

  /** After `\p` or `\P` (`ch`): a Unicode class by name, `\pL` or `\p{Greek}` (`^` negates). */
  parseProperty(ch: 'p' | 'P', flags: Flags): Escape {
    const { cps } = this;
    if (!flags.u) throw this.unicodeNotAllowed(`\\${ch}`);
    let name: string;
    if (cps[this.pos] === 0x7b) {
      const close = cps.indexOf(0x7d, this.pos);
      if (close === -1) throw this.err('unterminated \\p{…}');
      name = String.fromCodePoint(...cps.slice(this.pos + 1, close));
      this.pos = close + 1;
    } else {
      if (cps[this.pos] === undefined) throw this.err('\\p needs a property name');
      name = String.fromCodePoint(cps[this.pos++] as number);
    }
    let negated = ch === 'P';
    if (name.startsWith('^')) {
      negated = !negated;
      name = name.slice(1);
    }
    if (name === 'Any') return { kind: 'set', ranges: negated ? [] : [[0, 0x10ffff]], props: [], negated: false };
    const script = !GENERAL_CATEGORIES.has(name);
    if (script && !RE2_PROPERTY_NAMES.has(name)) throw this.err(`unknown Unicode class \\p{${name}}`);
    return { kind: 'set', ranges: [], props: [{ name, negated, script }], negated: false };
  }

  /** One character of a class, after an escape's backslash when `escaped` (a set escape is refused here). */
  classChar(escaped: boolean, flags: Flags, what: string): number {
    if (!escaped) return this.textChar(this.cps[this.pos++] as number, flags);
    const escape = this.parseEscape(true, flags);
    if (escape.kind !== 'char') throw this.err(what);
    return this.textChar(escape.cp, flags);
  }

  /** `[...]`, from its `[`. */
  parseClass(flags: Flags): RegexNode {
    const { cps } = this;
    this.pos += 1; // [
    let negated = false;
    if (cps[this.pos] === 0x5e) {
      negated = true;
      this.pos += 1;
    }
    const ranges: Array<[number, number]> = [];
    const props: PropertyRef[] = [];
    let first = true;
    /** Whether every item so far is a Unicode \\w \\d \\s class or their complement (so the class is closed under case folding). */
    let closed = true;
    for (;;) {
      const c = cps[this.pos];
      if (c === undefined) throw this.err('missing ] to close a character class');
      if (c === 0x5d && !first) {
        this.pos += 1;
        break;
      }
      first = false;
      if (c === 0x5b && cps[this.pos + 1] === 0x3a && this.parsePosix(ranges)) {
        closed = false;
        continue;
      }
      let lo: number;
      if (c === 0x5c) {
        this.pos += 1;
        const escape = this.parseEscape(true, flags);
        if (escape.kind === 'set') {
          ranges.push(...escape.ranges);
          props.push(...escape.props);
          if (!escape.closed) closed = false;
          continue;
        }
        closed = false;
        if (escape.kind !== 'char') throw this.err('this escape is not allowed in a character class');
        lo = this.textChar(escape.cp, flags);
      } else {
        lo = this.textChar(c, flags);
        this.pos += 1;
        closed = false;
      }
      if (cps[this.pos] === 0x2d && cps[this.pos + 1] !== undefined && cps[this.pos + 1] !== 0x5d) {
        this.pos += 1;
        const escaped = cps[this.pos] === 0x5c;
        if (escaped) this.pos += 1;
        const hi = this.classChar(escaped, flags, 'a range must end with a single character');
        if (hi < lo) throw this.err(`invalid character class range ${String.fromCodePoint(lo)}-${String.fromCodePoint(hi)}`);
        ranges.push([lo, hi]);
      } else {
        ranges.push([lo, lo]);
      }
    }
    if (flags.i && !flags.u) return { type: 'set', negated, ranges: asciiCaseClosed(ranges), props, fold: false };
    if (closed && ranges.length > 0) return { type: 'set', negated, ranges: normalizeRanges(ranges), props, fold: false, closed: true };
    return { type: 'set', negated, ranges: normalizeRanges(ranges), props, fold: flags.i };
  }

  /** At `[:` in a class: a POSIX class `[:alpha:]` (`[:^alpha:]` its complement) added to `ranges`; false when it is not one. */
  parsePosix(ranges: Array<[number, number]>): boolean {
    const { cps } = this;
    const close = cps.indexOf(0x5d, this.pos);
    const text = close === -1 ? '' : String.fromCodePoint(...cps.slice(this.pos, close + 1));
    const posix = /^\[:(\^?)([a-z]+):\]$/.exec(text);
    if (!posix) return false;
    const set = POSIX[posix[2] as string];
    if (!set) throw this.err(`unknown POSIX class ${text}`);
    ranges.push(...(posix[1] ? complementRanges(set) : set));
    this.pos = close + 1;
    return true;
  }

  /** After `(?`: inline flags, `(?i)` (`scoped` false: they hold to the group's end) or `(?i:…)` (`scoped`). */
  parseFlags(flags: Flags): { flags: Flags; scoped: boolean } {
    const next = { ...flags };
    let on = true;
    let any = false;
    for (;;) {
      const c = this.cps[this.pos];
      if (c === undefined) throw this.err('missing ) after inline flags');
      const ch = String.fromCodePoint(c as number);
      this.pos += 1;
      if (ch === ')') {
        if (!any) throw this.err('empty inline flags (?)');
        return { flags: next, scoped: false };
      }
      if (ch === ':') return { flags: next, scoped: true };
      if (ch === '-') {
        if (!on) throw this.err('two - in inline flags');
        on = false;
        continue;
      }
      if (ch === 'i') next.i = on;
      else if (ch === 's') next.s = on;
      else if (ch === 'U') next.U = on;
      else if (ch === 'u') next.u = on;
      else if (ch === 'm') {
        /* ^ and $ are the ends of each line already: lines are matched one by one. */
      } else throw this.err(`unknown inline flag "${ch}" (ripgrep has i, m, s, U and u)`);
      any = true;
    }
  }

  /** Parses an alternation until `)` or the end; `flags` may change mid-way through `(?i)`. */
  parseAlternation(outer: Flags, depth: number): RegexNode {
    if (depth > MAX_NESTING) throw this.tooDeep();
    const { cps } = this;
    let flags = { ...outer };
    const branches: RegexNode[] = [];
    let items: RegexNode[] = [];
    const endBranch = (): void => {
      branches.push(items.length === 1 ? (items[0] as RegexNode) : this.measured({ type: 'seq', items }));
      items = [];
    };
    while (this.pos < cps.length) {
      const c = cps[this.pos] as number;
      if (c === 0x7c) {
        this.pos += 1;
        endBranch();
        continue;
      }
      if (c === 0x29) {
        if (depth === 0) throw this.err('unmatched )');
        break;
      }
      let atom: RegexNode | Flags | number[];
      if (c === 0x28) atom = this.parseGroup(flags, depth);
      else if (c === 0x5c) atom = this.parseEscapeAtom(flags);
      else atom = this.parseAtom(c, flags);
      if (Array.isArray(atom)) {
        // \Q…\E: its characters, each an atom of its own.
        for (const cp of atom) items.push(this.charAtom(cp, flags));
        continue;
      }
      if (!('type' in atom)) {
        flags = atom;
        continue;
      }
      items.push(this.parseQuantifiers(atom, flags));
    }
    endBranch();
    return branches.length === 1 ? (branches[0] as RegexNode) : this.measured({ type: 'alt', branches });
  }

  /** A group from its `(` to its `)`; or, for `(?flags)`, the flags that hold from there on. */
  parseGroup(flags: Flags, depth: number): RegexNode | Flags {
    const { cps } = this;
    this.pos += 1;
    let atom: RegexNode;
    if (cps[this.pos] === 0x3f) {
      this.pos += 1;
      this.refuseGroupSyntax();
      if (this.at('P<') || this.at('<')) {
        this.pos += this.at('P<') ? 2 : 1;
        const close = cps.indexOf(0x3e, this.pos);
        const name = close === -1 ? '' : String.fromCodePoint(...cps.slice(this.pos, close));
        if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw this.err(`invalid group name "${name}"`);
        if (this.names.has(name)) throw this.err(`duplicate group name "${name}"`);
        this.names.add(name);
        this.pos = close + 1;
        atom = this.measured({ type: 'group', body: this.parseAlternation(flags, depth + 1) });
      } else {
        const parsed = this.parseFlags(flags);
        if (!parsed.scoped) return parsed.flags;
        atom = this.measured({ type: 'group', body: this.parseAlternation(parsed.flags, depth + 1) });
      }
    } else {
      atom = this.measured({ type: 'group', body: this.parseAlternation(flags, depth + 1) });
    }
    if (cps[this.pos] !== 0x29) throw this.err('missing ) to close a group');
    this.pos += 1;
    return atom;
  }

  /** After `(?`: refuses lookaround, atomic groups, comments and `(?P=name)`, each with a way around it. */
  refuseGroupSyntax(): void {
    if (this.at('=') || this.at('!')) {
      this.unsupported(
        `lookahead ${this.at('=') ? '(?=…)' : '(?!…)'} (a regular expression without lookaround runs in linear time)`,
        'match the following text as part of the pattern instead, or search for the main part and filter the lines with a second search',
      );
    }
    if (this.at('<=') || this.at('<!')) {
      this.unsupported(
        `lookbehind ${this.at('<=') ? '(?<=…)' : '(?<!…)'} (a regular expression without lookaround runs in linear time)`,
        'match the preceding text as part of the pattern instead, or search for the main part and filter the lines with a second search',
      );
    }
    if (this.at('>')) throw this.err('atomic groups (?>…) are not supported; write the group without ?>');
    if (this.at('#')) throw this.err('comments (?#…) are not supported');
    if (this.at('P=')) this.unsupported('backreferences such as (?P=name) (a regular expression without them runs in linear time)', 'match the repeated text explicitly');
  }

  /** An escape outside a class, from its backslash: its atom, or a `\Q…\E` quote's characters. */
  parseEscapeAtom(flags: Flags): RegexNode | number[] {
    this.pos += 1;
    const escape = this.parseEscape(false, flags);
    if (escape.kind === 'quote') return escape.text;
    if (escape.kind === 'char') return this.charAtom(escape.cp, flags);
    if (escape.kind === 'set') {
      if (escape.closed) return { type: 'set', negated: escape.negated, ranges: escape.ranges, props: escape.props, fold: false, closed: true };
      const asciiFold = flags.i && !flags.u;
      return { type: 'set', negated: escape.negated, ranges: asciiFold ? asciiCaseClosed(escape.ranges) : escape.ranges, props: escape.props, fold: flags.i && flags.u };
    }
    return escape.assert === 'word' || escape.assert === 'notword' ? { type: 'assert', kind: escape.assert, ...(flags.u ? {} : { ascii: true }) } : { type: 'assert', kind: escape.assert };
  }

  /** Any other atom, at code point `c`: a class, `.`, `^`, `$`, or a character (a quantifier here has nothing to repeat). */
  parseAtom(c: number, flags: Flags): RegexNode {
    if (c === 0x5b) return this.parseClass(flags);
    if (c === 0x2a || c === 0x2b || c === 0x3f) throw this.err(`missing argument to repetition operator ${String.fromCodePoint(c)}`);
    if (c === 0x7b && /^\{\d+(,\d*)?\}/.test(String.fromCodePoint(...this.cps.slice(this.pos, this.pos + 12)))) throw this.err('missing argument to repetition operator {…}');
    this.pos += 1;
    if (c === 0x2e) return { type: 'set', negated: true, ranges: flags.s ? [] : [[10, 10]], props: [], fold: false };
    if (c === 0x5e) return { type: 'assert', kind: 'start' };
    if (c === 0x24) return { type: 'assert', kind: 'end' };
    return this.charAtom(c, flags);
  }

  /** `atom` with the quantifiers after it (`*`, `+`, `?`, `{n,m}`, each maybe lazy) applied. */
  parseQuantifiers(atom: RegexNode, flags: Flags): RegexNode {
    const { cps } = this;
    for (;;) {
      const q = cps[this.pos];
      let min: number;
      let max: number;
      if (q === 0x2a) [min, max] = [0, Infinity];
      else if (q === 0x2b) [min, max] = [1, Infinity];
      else if (q === 0x3f) [min, max] = [0, 1];
      else if (q === 0x7b) {
        const text = String.fromCodePoint(...cps.slice(this.pos, this.pos + 24));
        const m = /^\{(\d+)(,(\d*))?\}/.exec(text);
        if (!m) break; // a literal {
        min = Number(m[1]);
        max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
        if (min > MAX_REPEAT || (max !== Infinity && max > MAX_REPEAT)) throw this.err(`repeat count over ${MAX_REPEAT} in ${m[0]}`);
        if (max < min) throw this.err(`invalid repeat count ${m[0]}`);
        this.pos += m[0].length - 1;
      } else break;
      this.pos += 1;
      if (atom.type === 'assert') throw this.err('a repetition operator cannot follow an anchor or \\b');
      if (atom.type === 'repeat') throw this.err('bad repetition operator (a quantifier right after another)');
      let lazy = false;
      if (cps[this.pos] === 0x3f) {
        lazy = true;
        this.pos += 1;
      } else if (cps[this.pos] === 0x2b) {
        throw this.err('possessive quantifiers (*+, ++, ?+) are not supported; drop the +');
      }
      if (flags.U) lazy = !lazy;
      atom = this.measured({ type: 'repeat', body: atom, min, max, lazy });
    }
    return atom;
  }
}

/** The ranges of each `\d \w \s \D \W \S` (ASCII's and Unicode's), built once and shared by every node that has them. */
const perlRanges = new Map<string, Array<[number, number]>>();

/**
 * `\d`, `\w` or `\s` (upper case: the complement), Unicode's or ASCII's as `unicode` says. Its
 * ranges are shared, never copied (nothing writes to a node's ranges): Unicode's `\w` has 802, so a
 * copy per escape would cost tens of kilobytes for each one a pattern writes.
 */
function perlClass(letter: string, unicode: boolean): Escape {
  const lower = letter.toLowerCase();
  const key = `${letter}${unicode ? 'u' : ''}`;
  let ranges = perlRanges.get(key);
  if (!ranges) {
    const base = lower === 'd' ? (unicode ? unicodeDigit() : DIGIT) : lower === 'w' ? (unicode ? unicodeWord() : WORD) : unicode ? UNICODE_SPACE : SPACE;
    ranges = letter === lower ? [...base] : complementRanges(base);
    perlRanges.set(key, ranges);
  }
  // Unicode's classes hold every case partner of what they hold: case folding leaves them as they are.
  return { kind: 'set', ranges, props: [], negated: false, ...(unicode ? { closed: true } : {}) };
}
