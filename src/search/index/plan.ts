// The search index's query plans: from a pattern's syntax tree, a condition on a file's trigrams that
// every file holding a match meets (Russ Cox's trigram analysis of a regular expression: what a match
// must be exactly, must start with, must end with, and the trigrams those force). The index keeps the
// trigrams of a file's UTF-8 bytes with ASCII letters lower-cased, so plans are built in that space:
// strings here are byte strings (one char per byte, 0-255), ASCII letters lower-cased.
import type { RegexNode } from '../dialect-parse.js';
import { casePartners } from './fold.js';

/**
 * A condition on the trigrams of a file: `all` (every file), `none` (no file), or the AND / OR of
 * trigram keys (each present in the file) and of sub-plans.
 */
export type TrigramPlan =
  | { op: 'all' }
  | { op: 'none' }
  | { op: 'and' | 'or'; trigrams: number[]; subs: TrigramPlan[] };

const ALL: TrigramPlan = { op: 'all' };
const NONE: TrigramPlan = { op: 'none' };

/** Most strings an exact set keeps before it is turned into trigrams, prefixes and suffixes. */
const MAX_EXACT = 16;
/** Longest string an exact set keeps, in bytes. */
const MAX_EXACT_LEN = 12;
/** Most strings a prefix or suffix set keeps (shorter strings then). */
const MAX_SET = 24;
/** Most characters a class may stand for to be spelled out (more: any character). */
const MAX_CLASS_CHARS = 24;
/**
 * Most items of a sequence a plan reads: a longer one is planned from its first items, which every
 * match holds at its start (their trigrams are as selective as any; more would cost time and memory
 * for a plan {@link MAX_PLAN_NODES} would weaken to `all` anyway).
 */
const MAX_SEQ_ITEMS = 256;
/**
 * Most alternatives an alternation a plan reads may have: a larger one stands for any text (its plan,
 * an OR of each alternative's trigrams, would pass {@link MAX_PLAN_NODES} and be weakened to `all`
 * anyway, after work that grows with the square of the count).
 */
const MAX_ALT_BRANCHES = 2048;
/** Most nodes a plan may have; a bigger one is weakened to `all` (scan every file). */
const MAX_PLAN_NODES = 16_384;

/** The trigram key of three bytes. */
export function trigramKey(a: number, b: number, c: number): number {
  return (a << 16) | (b << 8) | c;
}

/** A byte as the index keeps it: ASCII letters lower-cased. */
export function foldByte(b: number): number {
  return b >= 0x41 && b <= 0x5a ? b | 0x20 : b;
}

/** A code point's UTF-8 bytes, folded, as a byte string. */
function bytesOf(cp: number): string {
  if (cp < 0x80) return String.fromCharCode(foldByte(cp));
  if (cp < 0x800) return String.fromCharCode(0xc0 | (cp >> 6), 0x80 | (cp & 63));
  if (cp < 0x10000) return String.fromCharCode(0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63));
  return String.fromCharCode(0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 63), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63));
}

// ------------------------------------------------------------------------------------------------
// Plans

function and(a: TrigramPlan, b: TrigramPlan): TrigramPlan {
  if (a.op === 'none' || b.op === 'none') return NONE;
  if (a.op === 'all') return b;
  if (b.op === 'all') return a;
  if (a.op === 'and' && b.op === 'and') return { op: 'and', trigrams: [...a.trigrams, ...b.trigrams], subs: [...a.subs, ...b.subs] };
  if (a.op === 'and') return { op: 'and', trigrams: a.trigrams, subs: [...a.subs, b] };
  if (b.op === 'and') return { op: 'and', trigrams: b.trigrams, subs: [...b.subs, a] };
  return { op: 'and', trigrams: [], subs: [a, b] };
}

function or(a: TrigramPlan, b: TrigramPlan): TrigramPlan {
  if (a.op === 'all' || b.op === 'all') return ALL;
  if (a.op === 'none') return b;
  if (b.op === 'none') return a;
  if (a.op === 'or' && b.op === 'or') return { op: 'or', trigrams: [...a.trigrams, ...b.trigrams], subs: [...a.subs, ...b.subs] };
  if (a.op === 'or') return { op: 'or', trigrams: a.trigrams, subs: [...a.subs, b] };
  if (b.op === 'or') return { op: 'or', trigrams: b.trigrams, subs: [...b.subs, a] };
  return { op: 'or', trigrams: [], subs: [a, b] };
}

/**
 * The AND of `parts` as one flat node, built in time linear in their size (where folding {@link and}
 * over them would copy the growing lists again at each step: quadratic on a long sequence).
 */
function andAll(parts: readonly TrigramPlan[]): TrigramPlan {
  const trigrams: number[] = [];
  const subs: TrigramPlan[] = [];
  for (const part of parts) {
    if (part.op === 'none') return NONE;
    if (part.op === 'all') continue;
    if (part.op === 'and') {
      for (const t of part.trigrams) trigrams.push(t);
      for (const sub of part.subs) subs.push(sub);
    } else subs.push(part);
  }
  if (trigrams.length === 0 && subs.length === 0) return ALL;
  if (trigrams.length === 0 && subs.length === 1) return subs[0] as TrigramPlan;
  return { op: 'and', trigrams, subs };
}

/** Every trigram of `s` (a byte string), ANDed; `all` when it is shorter than three. */
function trigramsOf(s: string): TrigramPlan {
  if (s.length < 3) return ALL;
  const keys = new Set<number>();
  for (let i = 0; i + 3 <= s.length; i += 1) keys.add(trigramKey(s.charCodeAt(i), s.charCodeAt(i + 1), s.charCodeAt(i + 2)));
  return { op: 'and', trigrams: [...keys], subs: [] };
}

/** One of `strings` is in the file: the OR of their trigrams (`all` when one is under three bytes, `none` for no string). */
function anyOf(strings: ReadonlySet<string>): TrigramPlan {
  let plan: TrigramPlan = NONE;
  for (const s of strings) {
    if (s.length < 3) return ALL;
    plan = or(plan, trigramsOf(s));
  }
  return plan;
}

// ------------------------------------------------------------------------------------------------
// What a node's matches must be

/**
 * What every match of a node satisfies: `exact` (when known, every string it can match), else
 * `prefix` / `suffix` (every match starts / ends with one of them); `match`, a plan every file holding
 * a match meets (with `exact`'s own trigrams still to be added); `empty`, whether it matches "".
 */
interface Info {
  empty: boolean;
  exact: Set<string> | null;
  prefix: Set<string>;
  suffix: Set<string>;
  match: TrigramPlan;
}

const emptyInfo = (): Info => ({ empty: true, exact: new Set(['']), prefix: new Set(), suffix: new Set(), match: ALL });
const anyInfo = (empty: boolean): Info => ({ empty, exact: null, prefix: new Set(['']), suffix: new Set(['']), match: ALL });

const prefixes = (info: Info): Set<string> => info.exact ?? info.prefix;
const suffixes = (info: Info): Set<string> => info.exact ?? info.suffix;

function cross(a: ReadonlySet<string>, b: ReadonlySet<string>): Set<string> {
  const out = new Set<string>();
  for (const x of a) for (const y of b) out.add(x + y);
  return out;
}

function minLength(set: ReadonlySet<string>): number {
  let min = Infinity;
  for (const s of set) min = Math.min(min, s.length);
  return min;
}

function maxLength(set: ReadonlySet<string>): number {
  let max = 0;
  for (const s of set) max = Math.max(max, s.length);
  return max;
}

/** `info` with its exact set turned into trigrams, prefixes and suffixes. */
function inexact(info: Info): Info {
  if (!info.exact) return info;
  return { empty: info.empty, exact: null, prefix: info.exact, suffix: info.exact, match: and(info.match, anyOf(info.exact)) };
}

/** Adds a prefix or suffix set's trigrams to `match`, then keeps the set short: its ends of two bytes, fewer when there are too many. */
function trimmed(set: Set<string>, fromEnd: boolean, match: TrigramPlan): { set: Set<string>; match: TrigramPlan } {
  const next = minLength(set) >= 3 ? and(match, anyOf(set)) : match;
  let keep = 2;
  let out = set;
  for (;;) {
    const cut = new Set<string>();
    for (const s of out) cut.add(s.length <= keep ? s : fromEnd ? s.slice(s.length - keep) : s.slice(0, keep));
    out = cut;
    if (out.size <= MAX_SET || keep === 0) break;
    keep -= 1;
  }
  return { set: out, match: next };
}

/** Keeps an info's sets small: a large or long exact set becomes prefixes and suffixes. */
function simplify(info: Info): Info {
  let at = info;
  if (at.exact && (at.exact.size > MAX_EXACT || maxLength(at.exact) > MAX_EXACT_LEN)) at = inexact(at);
  if (at.exact) return at;
  const p = trimmed(at.prefix, false, at.match);
  const s = trimmed(at.suffix, true, p.match);
  return { empty: at.empty, exact: null, prefix: p.set, suffix: s.set, match: s.match };
}

function concat(x: Info, y: Info): Info {
  let match = and(x.match, y.match);
  if (x.exact && y.exact) return simplify({ empty: x.empty && y.empty, exact: cross(x.exact, y.exact), prefix: new Set(), suffix: new Set(), match });
  const prefix = x.exact ? cross(x.exact, prefixes(y)) : x.prefix;
  const suffix = y.exact ? cross(suffixes(x), y.exact) : y.suffix;
  // A match holds x's end then y's start: one of those pairs is in the file.
  const xs = suffixes(x);
  const yp = prefixes(y);
  if (xs.size * yp.size <= MAX_SET * MAX_SET && minLength(xs) + minLength(yp) >= 3) match = and(match, anyOf(cross(xs, yp)));
  match = and(and(match, x.exact ? anyOf(x.exact) : ALL), y.exact ? anyOf(y.exact) : ALL);
  return simplify({ empty: x.empty && y.empty, exact: null, prefix, suffix, match });
}

function alternate(x: Info, y: Info): Info {
  if (x.exact && y.exact) return simplify({ empty: x.empty || y.empty, exact: new Set([...x.exact, ...y.exact]), prefix: new Set(), suffix: new Set(), match: or(x.match, y.match) });
  const a = inexact(x);
  const b = inexact(y);
  return simplify({ empty: a.empty || b.empty, exact: null, prefix: new Set([...a.prefix, ...b.prefix]), suffix: new Set([...a.suffix, ...b.suffix]), match: or(a.match, b.match) });
}

/** One or more matches of `x` in a row: starts as x starts, ends as x ends, holds one of x. */
function plus(x: Info): Info {
  const a = inexact(x);
  return { empty: a.empty, exact: null, prefix: a.prefix, suffix: a.suffix, match: a.match };
}

/** The strings a character or class can match (folded byte strings), or undefined when too many to spell. */
function atomStrings(node: Extract<RegexNode, { type: 'char' | 'set' }>): Set<string> | undefined {
  const cps: number[] = [];
  if (node.type === 'char') cps.push(node.cp);
  else {
    if (node.negated || node.props.length > 0) return undefined;
    let count = 0;
    for (const [lo, hi] of node.ranges) {
      count += hi - lo + 1;
      if (count > MAX_CLASS_CHARS) return undefined;
      for (let cp = lo; cp <= hi; cp += 1) cps.push(cp);
    }
  }
  const out = new Set<string>();
  for (const cp of cps) {
    if (node.fold) for (const partner of casePartners(cp)) out.add(bytesOf(partner));
    else out.add(bytesOf(cp));
    if (out.size > MAX_CLASS_CHARS * 4) return undefined;
  }
  return out;
}

function repeat(node: Extract<RegexNode, { type: 'repeat' }>): Info {
  const { min, max } = node;
  if (max === 0) return emptyInfo();
  const body = infoOf(node.body);
  if (min === 0) return max === 1 ? alternate(body, emptyInfo()) : anyInfo(true);
  if (min === max && min <= 3) {
    let info = body;
    for (let i = 1; i < min; i += 1) info = concat(info, body);
    return info;
  }
  // x{min,max} = x{min-1} then x{1,…}: the first copies spelled out (three at most), the rest as one or more.
  let info: Info | undefined;
  for (let i = 1; i < Math.min(min, 3); i += 1) info = info ? concat(info, body) : body;
  return info ? concat(info, plus(body)) : plus(body);
}

/**
 * The items of a sequence one after another: each step's own plan is kept apart from what came before
 * and the whole ANDed once at the end ({@link andAll}), so a sequence costs time linear in its length.
 */
function sequence(items: readonly RegexNode[]): Info {
  if (items.length > MAX_SEQ_ITEMS) {
    // Every match starts with a match of the first items: their plan and prefixes hold; its end is unknown.
    const head = inexact(sequence(items.slice(0, MAX_SEQ_ITEMS)));
    return { empty: head.empty, exact: null, prefix: head.prefix, suffix: new Set(['']), match: head.match };
  }
  const parts: TrigramPlan[] = [];
  let info = emptyInfo();
  for (const item of items) {
    parts.push(info.match);
    info = concat({ ...info, match: ALL }, infoOf(item));
  }
  parts.push(info.match);
  return { ...info, match: andAll(parts) };
}

function infoOf(node: RegexNode): Info {
  switch (node.type) {
    case 'char':
    case 'set': {
      const strings = atomStrings(node);
      return strings ? { empty: false, exact: strings, prefix: new Set(), suffix: new Set(), match: ALL } : anyInfo(false);
    }
    case 'assert':
      return emptyInfo();
    case 'group':
      return infoOf(node.body);
    case 'seq':
      return sequence(node.items);
    case 'alt': {
      if (node.branches.length > MAX_ALT_BRANCHES) return anyInfo(true);
      let info: Info | undefined;
      for (const branch of node.branches) info = info ? alternate(info, infoOf(branch)) : infoOf(branch);
      return info ?? emptyInfo();
    }
    case 'repeat':
      return repeat(node);
  }
}

/** Sorts and dedupes each trigram list; a plan over {@link MAX_PLAN_NODES} nodes becomes `all`. */
function tidy(plan: TrigramPlan): TrigramPlan {
  let nodes = 0;
  const visit = (p: TrigramPlan): TrigramPlan => {
    if (p.op === 'all' || p.op === 'none') return p;
    nodes += 1 + p.trigrams.length;
    const trigrams = [...new Set(p.trigrams)].sort((a, b) => a - b);
    // The same sub-plan twice (a class's trigrams forced by two routes) is kept once.
    const subs = new Map<string, TrigramPlan>();
    for (const sub of p.subs.map(visit)) subs.set(planText(sub), sub);
    if (trigrams.length === 0 && subs.size === 1) return subs.values().next().value as TrigramPlan;
    return { op: p.op, trigrams, subs: [...subs.values()] };
  };
  const out = visit(plan);
  return nodes > MAX_PLAN_NODES ? ALL : out;
}

/**
 * The trigram plan of a pattern's syntax tree (see `patternTree` in dialect.ts): every file with a line
 * the pattern matches meets it, so a search may skip the files an index shows fail it. `all` when the
 * pattern forces no trigram (every file must be scanned); `none` when it can match nothing.
 */
export function planOf(tree: RegexNode): TrigramPlan {
  const info = infoOf(tree);
  let match = info.match;
  if (info.exact) match = and(match, anyOf(info.exact));
  else {
    if (minLength(info.prefix) >= 3) match = and(match, anyOf(info.prefix));
    if (minLength(info.suffix) >= 3) match = and(match, anyOf(info.suffix));
  }
  return tidy(match);
}

/** A plan as text, for tests and debugging: trigrams as their bytes (`"abc"`), `&` and `|`. */
export function planText(plan: TrigramPlan): string {
  if (plan.op === 'all') return 'ALL';
  if (plan.op === 'none') return 'NONE';
  const parts = plan.trigrams.map((k) => JSON.stringify(String.fromCharCode(k >> 16, (k >> 8) & 255, k & 255)));
  for (const sub of plan.subs) parts.push(`(${planText(sub)})`);
  return parts.join(plan.op === 'and' ? ' & ' : ' | ');
}
