// Case partners for the search index's query plans: which characters a case-insensitive atom may
// match, as a superset of Unicode simple case folding (the dialect's), so a plan never leaves a
// matching file out.

/** Highest code point with a case mapping (the cased scripts end below U+1FFFF). */
const LAST_CASED = 0x1ffff;

/**
 * Pairs simple case folding joins that no one-character case mapping does (they fold to the same
 * character but neither maps to the other): ΐ and ΐ, ΰ and ΰ, ﬅ and ﬆ.
 */
const FOLD_ONLY_PAIRS: ReadonlyArray<[number, number]> = [
  [0x390, 0x1fd3],
  [0x3b0, 0x1fe3],
  [0xfb05, 0xfb06],
];

let orbits: Map<number, number[]> | undefined;

/** The one code point `text` holds, else -1. */
function single(text: string): number {
  const cp = text.codePointAt(0) as number;
  return text.length === (cp > 0xffff ? 2 : 1) ? cp : -1;
}

/**
 * Every character joined to another by a one-character lower- or upper-case mapping, grouped: a union
 * of classes at least as wide as simple case folding's (it also joins `ı` with `I`, which folding
 * does not; a wider class only makes a plan less selective, never wrong). Built once, on first use.
 */
function caseOrbits(): Map<number, number[]> {
  if (orbits) return orbits;
  const parent = new Map<number, number>();
  const find = (x: number): number => {
    let root = x;
    while (parent.get(root) !== undefined && parent.get(root) !== root) root = parent.get(root) as number;
    let at = x;
    while (at !== root) {
      const next = parent.get(at) as number;
      parent.set(at, root);
      at = next;
    }
    return root;
  };
  const join = (a: number, b: number): void => {
    if (!parent.has(a)) parent.set(a, a);
    if (!parent.has(b)) parent.set(b, b);
    const ra = find(a);
    const rb = find(b);
    if (ra !== rb) parent.set(ra, rb);
  };
  for (let cp = 0; cp <= LAST_CASED; cp += 1) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    const ch = String.fromCodePoint(cp);
    const lower = single(ch.toLowerCase());
    const upper = single(ch.toUpperCase());
    if (lower >= 0 && lower !== cp) join(cp, lower);
    if (upper >= 0 && upper !== cp) join(cp, upper);
  }
  for (const [a, b] of FOLD_ONLY_PAIRS) join(a, b);
  const groups = new Map<number, number[]>();
  for (const cp of parent.keys()) {
    const root = find(cp);
    let group = groups.get(root);
    if (!group) groups.set(root, (group = []));
    group.push(cp);
  }
  orbits = new Map();
  for (const group of groups.values()) {
    group.sort((a, b) => a - b);
    for (const cp of group) orbits.set(cp, group);
  }
  return orbits;
}

/** The characters a case-insensitive `cp` may match (itself included), sorted. */
export function casePartners(cp: number): readonly number[] {
  if (cp < 0x80 && !((cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a))) return [cp];
  return caseOrbits().get(cp) ?? [cp];
}
