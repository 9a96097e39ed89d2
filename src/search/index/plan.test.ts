import { describe, expect, it } from 'vitest';
import { patternTree } from '../dialect.js';
import { casePartners } from './fold.js';
import { planOf, planText } from './plan.js';

const plan = (pattern: string, options: { literal?: boolean; caseSensitive?: boolean } = {}): string =>
  planText(planOf(patternTree(pattern, { literal: options.literal ?? false, caseSensitive: options.caseSensitive ?? true })));

/** A byte string (one char per byte) of the UTF-8 of `text`, as plan texts show trigrams. */
const utf8 = (text: string): string => String.fromCharCode(...new TextEncoder().encode(text));

describe('trigram plans of literals', () => {
  it('a literal needs every one of its trigrams', () => {
    expect(plan('hello', { literal: true })).toBe('"ell" & "hel" & "llo"');
  });

  it('upper-case letters are planned lower-cased, as the index keeps them', () => {
    expect(plan('Hello', { literal: true })).toBe('"ell" & "hel" & "llo"');
    expect(plan('HELLO', { literal: true, caseSensitive: false })).toBe('"ell" & "hel" & "llo"');
  });

  it('a literal shorter than three bytes forces nothing: scan everything', () => {
    expect(plan('ab', { literal: true })).toBe('ALL');
    expect(plan('', { literal: true })).toBe('ALL');
  });

  it('a regex metacharacter in a fixed string is plain text', () => {
    expect(plan('a.b', { literal: true })).toBe('"a.b"');
  });

  it('a non-ASCII literal is planned on its UTF-8 bytes', () => {
    expect(plan('é1', { literal: true })).toBe(`${JSON.stringify(utf8('é1'))}`);
  });
});

describe('trigram plans of regular expressions', () => {
  it('an alternation of literals needs one of them', () => {
    expect(plan('foo|bar')).toBe('("foo") | ("bar")');
  });

  it('an alternation with a branch shorter than three bytes scans everything', () => {
    expect(plan('a|b')).toBe('ALL');
    expect(plan('foo|ba')).toBe('ALL');
  });

  it('a small class is spelled out into each string it allows', () => {
    expect(plan('ab[cd]ef')).toBe('("abc" & "bce" & "cef") | ("abd" & "bde" & "def")');
  });

  it('alternations inside a sequence cross into every combination', () => {
    expect(plan('(ab|cd)(ef|gh)')).toBe('("abe" & "bef") | ("abg" & "bgh") | ("cde" & "def") | ("cdg" & "dgh")');
    expect(plan('fo(o|x)bar')).toBe('("bar" & "foo" & "oba" & "oob") | ("bar" & "fox" & "oxb" & "xba")');
  });

  it('text around a wildcard is needed on both sides of it', () => {
    expect(plan('abc.*def')).toBe('"abc" & "def"');
    expect(plan('abc\\w+def')).toBe('"abc" & "def"');
  });

  it('repetitions: a fixed count is spelled out, one-or-more keeps its text, an optional part is either', () => {
    expect(plan('a{3}')).toBe('"aaa"');
    expect(plan('x+yz')).toBe('"xyz"');
    expect(plan('(abc)?def')).toBe('("abc" & "bcd" & "cde" & "def") | ("def")');
  });

  it('a class and a literal join across their boundary', () => {
    expect(plan('[0-9]+px')).toBe('("0px") | ("1px") | ("2px") | ("3px") | ("4px") | ("5px") | ("6px") | ("7px") | ("8px") | ("9px")');
  });

  it('assertions and Unicode classes add nothing, the words around them still count', () => {
    expect(plan('\\bfunction\\s+\\w+\\(')).toBe('"cti" & "fun" & "ion" & "nct" & "tio" & "unc"');
    expect(plan('^import .* from$')).toBe('" fr" & "fro" & "imp" & "mpo" & "ort" & "por" & "rom" & "rt "');
  });

  it('patterns with no three-byte literal scan everything', () => {
    for (const pattern of ['\\w+', '.*', 'a.b', '[a-z]+', '\\d{3}', '(?s).', '\\p{Greek}+', '[^x]yz', 'ab?c?']) expect(plan(pattern), pattern).toBe('ALL');
  });

  it('a line break inside the pattern is planned as written (no line holds one, and the index keeps no such trigram)', () => {
    expect(plan('a\\nbc')).toBe('"\\nbc" & "a\\nb"');
  });
});

describe('case-insensitive plans', () => {
  it('ASCII letters need no alternatives: the index lower-cases them', () => {
    expect(plan('(?i)BrOwn')).toBe('"bro" & "own" & "row"');
  });

  it('k and s also allow the Kelvin sign and the long s, as simple case folding does', () => {
    expect(plan('kab', { literal: true, caseSensitive: false })).toBe(`("kab") | (${[utf8('\u212aab').slice(0, 3), utf8('\u212aab').slice(1, 4), utf8('\u212aab').slice(2, 5)].map((t) => JSON.stringify(t)).sort().join(' & ')})`);
    expect(plan('(?i)sto')).toContain(JSON.stringify(utf8('ſ').slice(0, 2) + 't'));
  });

  it('a case-sensitive pattern never allows the Kelvin sign', () => {
    expect(plan('kab')).toBe('"kab"');
  });

  it('a non-ASCII letter allows each of its case partners (Cyrillic)', () => {
    const text = plan('при', { caseSensitive: false });
    for (const variant of ['при', 'ПРИ', 'При']) expect(text, variant).toContain(JSON.stringify(utf8(variant).slice(0, 3)));
  });

  it('(?-u) folds ASCII only: the Kelvin sign is not allowed', () => {
    expect(plan('(?i-u)kab')).toBe('"kab"');
  });

  it("the case partners cover every pair V8's Unicode case folding matches", () => {
    const cased: number[] = [];
    for (let cp = 0; cp <= 0x1ffff; cp += 1) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const ch = String.fromCodePoint(cp);
      if (ch.toLowerCase() !== ch || ch.toUpperCase() !== ch) cased.push(cp);
    }
    const missing: string[] = [];
    for (const a of cased) {
      const re = new RegExp(`^\\u{${a.toString(16)}}$`, 'iu');
      const partners = new Set(casePartners(a));
      for (const b of cased) if (re.test(String.fromCodePoint(b)) && !partners.has(b)) missing.push(`${a.toString(16)}~${b.toString(16)}`);
    }
    expect(missing).toEqual([]);
    expect(casePartners(0x73)).toEqual([0x53, 0x73, 0x17f]);
    expect(casePartners(0x3c3)).toEqual([0x3a3, 0x3c2, 0x3c3]);
    expect(casePartners(0x2e)).toEqual([0x2e]);
  });
});

describe('plan sizes', () => {
  it('an alternation of a thousand words keeps one branch per word', () => {
    const words = Array.from({ length: 1000 }, (_, i) => `word${i}x`);
    const text = plan(words.join('|'));
    expect(text.split(' | ')).toHaveLength(1000);
    expect(text).toContain('("999" & "99x" & "d99" & "ord" & "rd9" & "wor")');
  });

  it('a plan past its size cap scans everything instead', () => {
    const words = Array.from({ length: 5000 }, (_, i) => `word${i}x`);
    expect(plan(words.join('|'))).toBe('ALL');
  });

  it('a sequence of more than 256 items is planned from its first 256 (which every match starts with)', () => {
    const text = `${'0123456789'.repeat(25)}abcdef${'xyz'.repeat(100)}`;
    for (const caseSensitive of [true, false]) {
      const planned = plan(text, { literal: true, caseSensitive });
      expect(planned).toContain('"abc"');
      expect(planned).toContain('"789"');
      expect(planned).toContain('"def"');
      expect(planned).not.toContain('"xyz"');
      expect(planned).not.toContain('"fxy"');
    }
  });

  it('a literal of 64 Ki characters is planned from its start, in linear time (no quadratic copying)', () => {
    const text = Array.from({ length: 20_000 }, (_, i) => i.toString(36)).join(' ').slice(0, 65_536);
    const planned = plan(text, { literal: true, caseSensitive: false });
    expect(planned).toContain('"0 1"');
    expect(planned).not.toContain(`"${text.slice(-3)}"`);
    expect(planned.length).toBeLessThan(5000);
  });

  it('an alternation of more than 2048 alternatives stands for any text (its plan would pass the size cap anyway)', () => {
    expect(plan(Array.from({ length: 2049 }, (_, i) => `w${i}`).join('|'))).toBe('ALL');
    expect(plan(`needle(?:${Array.from({ length: 3000 }, (_, i) => `w${i}`).join('|')})`)).toBe('"dle" & "edl" & "eed" & "nee"');
  });

  it('deeply nested groups and large counts still plan their literal', () => {
    expect(plan(`${'('.repeat(900)}abc${')'.repeat(900)}`)).toBe('"abc"');
    expect(plan('a{1000}')).toBe('"aaa"');
  });
});
