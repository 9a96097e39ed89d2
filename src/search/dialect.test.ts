import { RE2JS } from 're2js';
import { beforeAll, describe, expect, it } from 'vitest';
import { RE2_PROPERTY_NAMES } from './dialect-parse.js';
import { compileSearchPattern, loadSearchPatternParser, prepareSearchPattern, type MatchMode, type SearchPattern } from './dialect.js';
import { scanText, type LineHit } from './line-scan.js';
import { seededRandom } from '../../test/support/random.js';

// In browsers (this file also runs in Chromium) the parser is a file of its own, loaded first.
beforeAll(() => loadSearchPatternParser());

const compile = (pattern: string, caseSensitive = true): SearchPattern => compileSearchPattern(pattern, { literal: false, caseSensitive });

async function lines(pattern: SearchPattern, text: string): Promise<Array<[number, number, number]>> {
  const { hits } = await scanText(text, pattern, { deadline: Infinity, wantOffsets: Infinity, maxHits: Infinity, pause: async () => undefined });
  return hits.map((h: LineHit) => [h.lineStart, h.start, h.end]);
}

function failure(pattern: string): { code?: string; message?: string } {
  try {
    compile(pattern);
  } catch (error) {
    return error as { code?: string; message?: string };
  }
  throw new Error(`${pattern} compiled`);
}

describe('compileSearchPattern', () => {
  it('picks the fastest engine whose time stays linear', () => {
    const modes: Record<string, MatchMode> = {
      function: 'literal',
      '\\Qa.b\\E': 'literal',
      '[A-Z][a-z]+[A-Z]\\w*': 'linear',
      'function\\s+\\w+': 'linear',
      '"[^"]*"': 'linear',
      'TODO|FIXME': 'linear',
      '(?i)error': 'linear',
      "require\\(['\"][^'\"]+['\"]\\)": 'bounded',
      '\\w+Error\\b': 'bounded',
      '(a+)+$': 're2',
      '(a|aa)*b': 're2',
      'a*a*a*a*b': 're2',
      '(.*a){20}': 're2',
      '\\d+\\d+x': 're2',
      // Unicode \b is a lookaround on the Unicode \w class in V8, so /iu's own \b never runs.
      '(?i)\\bword\\b': 'linear',
      'x(?i:y)z': 'linear',
      '(?i:é)x': 're2',
    };
    for (const [pattern, mode] of Object.entries(modes)) expect(compile(pattern).mode, pattern).toBe(mode);
    expect(compile("require\\(['\"][^'\"]+['\"]\\)").required).toBe('require(');
    expect(compile('(foo|bar)baz\\d').required).toBe('baz');
    expect(compile('(?i)abc').required).toBeUndefined();
    expect(compileSearchPattern('a.b', { literal: true, caseSensitive: true })).toMatchObject({ mode: 'literal', literal: 'a.b' });
  });

  it('refuses lookaround and backreferences, naming the construct and a way around it', () => {
    const named: Record<string, string> = {
      'a(?=b)': 'lookahead (?=…)',
      'a(?!b)': 'lookahead (?!…)',
      '(?<=a)b': 'lookbehind (?<=…)',
      '(?<!a)b': 'lookbehind (?<!…)',
      '(a)\\1': 'backreferences such as \\1',
      '(?<x>a)\\k<x>': 'backreferences such as \\k<name>',
      '(?P<x>a)(?P=x)': 'backreferences such as (?P=name)',
    };
    for (const [pattern, construct] of Object.entries(named)) {
      const error = failure(pattern);
      expect(error.code, pattern).toBe('invalid_pattern');
      expect(error.message, pattern).toContain(`pattern ${pattern} is not supported: ${construct}`);
      expect(error.message, pattern).toMatch(/; (match|search) /);
    }
  });

  it('reads RE2 syntax and the JavaScript escapes with the same meaning', async () => {
    const text = 'Hello World\nαβγ delta\nfoo_bar 42\n\tx\u263Ay\n';
    expect(await lines(compile('(?i)hello'), text)).toEqual([[0, 0, 5]]);
    expect(await lines(compile('\\p{Greek}+'), text)).toEqual([[12, 12, 15]]);
    expect(await lines(compile('\\pL+\\s\\pL'), text)).toEqual([[0, 0, 7], [12, 12, 17]]);
    expect(await lines(compile('(?P<a>o)_(?<b>b)'), text)).toEqual([[22, 24, 27]]);
    expect(await lines(compile('\\bbar\\b'), text)).toEqual([]);
    expect(await lines(compile('\\d{2}'), text)).toEqual([[22, 30, 32]]);
    expect(await lines(compile('\\x{263A}|\\u263A'), text)).toEqual([[33, 35, 36]]);
    expect(await lines(compile('[[:upper:]][[:lower:]]+'), text)).toEqual([[0, 0, 5]]);
    expect(await lines(compile('^\\t'), text)).toEqual([[33, 33, 34]]);
    expect(await lines(compile('(?U)o.+'), 'foo\n')).toEqual([[0, 1, 3]]);
    expect(await lines(compile('o.+?'), 'foo\n')).toEqual([[0, 1, 3]]);
  });
});

describe('Unicode property names', () => {
  const re2Knows = (name: string): boolean => {
    try {
      RE2JS.compile(`\\p{${name}}`);
      return true;
    } catch {
      return false;
    }
  };

  it('are the ones re2js knows, read without re2js', async () => {
    const names = [...RE2_PROPERTY_NAMES];
    expect(names.length).toBe(196);
    expect(names.filter((name) => !re2Knows(name))).toEqual([]);
    // Four-letter script codes and other spellings V8 takes but RE2 does not are refused by both.
    for (const name of ['Grek', 'Latn', 'Zyyy', 'Qaai', 'greek', 'Script=Greek', 'L&', 'Bogus']) {
      expect(re2Knows(name), name).toBe(false);
      expect(() => compile(`\\p{${name}}`), name).toThrow(/unknown Unicode class|invalid|property/);
    }
    // A binary property runs on V8 under its own name, with the same lines as re2js gives.
    const emoji = await prepareSearchPattern(compile('\\p{Emoji}x'));
    expect(emoji.mode).toBe('linear');
    expect(await lines(emoji, 'a\n😀x\n')).toEqual([[2, 2, 5]]);
    const viaRe2 = await prepareSearchPattern(compileSearchPattern('\\p{Emoji}x', { literal: false, caseSensitive: true, engine: 're2' }));
    expect(await lines(viaRe2, 'a\n😀x\n')).toEqual([[2, 2, 5]]);
  });
});

// ------------------------------------------------------------------------------------------------
// Differential fuzz: random patterns of the dialect over random texts, every engine path.

const ATOMS = [
  'a', 'b', 'A', '.', '\\w', '\\W', '\\d', '\\s', '\\S', '[ab]', '[^a]', '[a-c]', '[^\\s]', 'é', '\\pL', '[\\PL]', '\\x{1F600}', '_', '1', ' ',
  // Unicode defaults and their ASCII opt-out.
  'к', 'ß', 'k', 's', '[\\w\\d]', '[^\\W]', '(?-u:\\w)', '(?-u:\\b)', '(?-u:\\s)', '(?i-u:k)',
];
const QUANTS = ['', '', '', '*', '+', '?', '{2}', '{1,3}', '*?', '+?', '{0,2}'];

function randomPattern(r: () => number, depth = 0): string {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
  const parts: string[] = [];
  const n = 1 + Math.floor(r() * 4);
  for (let i = 0; i < n; i += 1) {
    const roll = r();
    if (roll < 0.1) parts.push(pick(['^', '$', '\\b', '\\B']));
    else if (roll < 0.22 && depth < 2) parts.push(`(${randomPattern(r, depth + 1)}${r() < 0.5 ? '|' + randomPattern(r, depth + 1) : ''})${pick(QUANTS)}`);
    else if (roll < 0.27 && depth < 2) parts.push(`(?i:${randomPattern(r, depth + 1)})`);
    else parts.push(pick(ATOMS) + pick(QUANTS));
  }
  return (r() < 0.15 ? '(?i)' : '') + parts.join('') + (r() < 0.1 ? '|' + pick(ATOMS) : '');
}

function randomText(r: () => number): string {
  const pieces = [
    'a', 'b', 'A', 'B', 'c', '1', '_', ' ', '\t', 'é', 'É', '😀', '\n', '\r\n', '\r', 'ſ', 'K', '\u2028', 'ab', 'aaaa',
    'К', 'к', 'ß', 'ẞ', 'ı', 'İ', 'e\u0301', '٣', '\u00a0', '\u3000', '中', 'ω', '\u200d',
  ];
  let text = '';
  const n = Math.floor(r() * 40);
  for (let i = 0; i < n; i += 1) text += pieces[Math.floor(r() * pieces.length)];
  return text;
}

describe('the engine paths', () => {
  it('give the same lines and match offsets for random dialect patterns over random texts', async () => {
    const r = seededRandom(20261201);
    let compared = 0;
    for (let i = 0; i < 400; i += 1) {
      const source = randomPattern(r);
      let reference: SearchPattern;
      try {
        reference = compileSearchPattern(source, { literal: false, caseSensitive: true, engine: 're2' });
      } catch {
        continue;
      }
      const engines: SearchPattern[] = [compile(source)];
      for (const engine of ['linear', 'bounded'] as const) {
        try {
          engines.push(compileSearchPattern(source, { literal: false, caseSensitive: true, engine }));
        } catch {
          // V8 cannot express this one exactly: re2js runs it.
        }
      }
      for (let t = 0; t < 6; t += 1) {
        const text = randomText(r);
        const expected = await lines(reference, text);
        for (const pattern of engines) {
          expect(await lines(pattern, text), `${source} [${pattern.mode}] over ${JSON.stringify(text)}`).toEqual(expected);
          compared += 1;
        }
      }
    }
    expect(compared).toBeGreaterThan(2000);
    // Seconds alone; the limit leaves room for a machine busy with other suites.
  }, 120_000);

  it('agree on literals, required literals and long lines', async () => {
    const text = `${'x'.repeat(3000)}needle${'y'.repeat(10)}\nneedle\r\nno\rneedle`;
    for (const source of ['needle', 'need(le)', 'ne+dle', 'x+needle', 'e\\w*$']) {
      const expected = await lines(compileSearchPattern(source, { literal: false, caseSensitive: true, engine: 're2' }), text);
      expect(await lines(compile(source), text), source).toEqual(expected);
    }
    expect(await lines(compile('needle'), text)).toEqual([[0, 3000, 3006], [3017, 3017, 3023], [3028, 3028, 3034]]);
  });
});

// ------------------------------------------------------------------------------------------------
// Unicode defaults, as ripgrep's: each case on every engine that can run it.

/** The lines (line start offsets) `source` matches in `text`, the same on every engine that runs it. */
async function everyEngine(source: string, text: string, options: { literal?: boolean; caseSensitive?: boolean } = {}): Promise<number[]> {
  const base = { literal: options.literal ?? false, caseSensitive: options.caseSensitive ?? true };
  const expected = await lines(await prepareSearchPattern(compileSearchPattern(source, base)), text);
  let ran = 0;
  for (const engine of ['literal', 'linear', 'bounded', 're2'] as const) {
    let pattern: SearchPattern;
    try {
      pattern = await prepareSearchPattern(compileSearchPattern(source, { ...base, engine }));
    } catch {
      continue;
    }
    expect(await lines(pattern, text), `${source} [${engine}]`).toEqual(expected);
    ran += 1;
  }
  expect(ran, source).toBeGreaterThan(0);
  return expected.map(([lineStart]) => lineStart);
}

/** Which of `rows` (one per line) `source` matches, by row index. */
async function rowsMatched(source: string, rows: string[], options: { literal?: boolean; caseSensitive?: boolean } = {}): Promise<number[]> {
  const text = rows.join('\n');
  const starts: number[] = [];
  let at = 0;
  for (const row of rows) {
    starts.push(at);
    at += row.length + 1;
  }
  return (await everyEngine(source, text, options)).map((start) => starts.indexOf(start));
}

describe('Unicode defaults, as ripgrep has them', () => {
  it('case-insensitive search folds Unicode letters (simple case folding): привет finds Привет, k finds the Kelvin sign, s finds long s', async () => {
    expect(await rowsMatched('привет', ['Привет мир', 'ПРИВЕТ', 'пока'], { caseSensitive: false })).toEqual([0, 1]);
    expect(await rowsMatched('привет', ['Привет мир', 'ПРИВЕТ', 'пока'], { literal: true, caseSensitive: false })).toEqual([0, 1]);
    expect(await rowsMatched('(?i)k', ['\u212a', 'K', 'x'])).toEqual([0, 1]);
    expect(await rowsMatched('(?i)s', ['\u017f', 'S', 'x'])).toEqual([0, 1]);
    expect(await rowsMatched('(?i)ΣΟΦΟΣ', ['σοφος', 'σοφος', 'sofos'])).toEqual([0, 1]);
    expect(await rowsMatched('(?i)ß', ['ẞ', 'ss', 'ß'])).toEqual([0, 2]);
  });

  it('case folding is simple folding only, as ripgrep: dotted İ and dotless ı have no partner, ß never matches ss', async () => {
    expect(await rowsMatched('(?i)i', ['İ', 'ı', 'I'])).toEqual([2]);
    expect(await rowsMatched('(?i)straße', ['STRASSE', 'STRAẞE', 'Straße'])).toEqual([1, 2]);
  });

  it('a case-insensitive literal with letters that fold is not searched as bytes, and no folded letter becomes a prefilter', () => {
    const fixed = compileSearchPattern('привет', { literal: true, caseSensitive: false });
    expect(fixed.mode).not.toBe('literal');
    expect(fixed.required).toBeUndefined();
    // Characters without case partners stay a prefilter.
    expect(compileSearchPattern('(?i)x=123', { literal: false, caseSensitive: true }).required).toBe('=123');
    expect(compileSearchPattern('日本語', { literal: true, caseSensitive: false })).toMatchObject({ mode: 'literal', literal: '日本語' });
  });

  it('\\w, \\d and \\s are Unicode classes: ^\\w+$ finds café, \\d finds Arabic-Indic digits, \\s finds NBSP and the ideographic space', async () => {
    expect(await rowsMatched('^\\w+$', ['café', 'naïve', 'e\u0301', '中文', 'a b', 'x😀'])).toEqual([0, 1, 2, 3]);
    expect(await rowsMatched('^\\d+$', ['١٢٣', '123', '½'])).toEqual([0, 1]);
    expect(await rowsMatched('a\\sb', ['a\u00a0b', 'a\u3000b', 'a\u200bb'])).toEqual([0, 1]);
    expect(await rowsMatched('^\\W+$', ['😀 !', 'é'])).toEqual([0]);
    expect(await rowsMatched('^[\\w-]+$', ['élan-vital', 'a b'])).toEqual([0]);
  });

  it('\\b and \\B use Unicode word characters: \\bélan\\b finds élan alone, not inside xélan or élanx', async () => {
    expect(await rowsMatched('\\bélan\\b', ['élan x', 'xélan', 'élanx', '(élan)'])).toEqual([0, 3]);
    expect(await rowsMatched('\\Bélan', ['élan x', 'xélan', 'éélan'])).toEqual([1, 2]);
    expect(await rowsMatched('\\bcaf\\b', ['café', 'caf é'])).toEqual([1]);
    // A pattern only the automaton runs (a repeated group) keeps the Unicode boundary.
    expect(await rowsMatched('\\b(?:ab|é)+\\b', ['éab', 'xéab', 'éab_', 'é ab'])).toEqual([0, 3]);
  });

  it('(?-u) turns Unicode off where it is written: ASCII \\w \\d \\s \\b and ASCII-only case folding', async () => {
    expect(await rowsMatched('(?-u)^\\w+$', ['café', 'cafe'])).toEqual([1]);
    expect(await rowsMatched('^(?-u:\\w)+é$', ['café', 'caféé'])).toEqual([0]);
    expect(await rowsMatched('(?-u)\\d', ['١٢٣', '1'])).toEqual([1]);
    expect(await rowsMatched('(?-u)a\\sb', ['a\u00a0b', 'a\u000bb'])).toEqual([1]);
    expect(await rowsMatched('(?-u)\\bcaf\\b', ['café', 'cafe'])).toEqual([0]);
    expect(await rowsMatched('(?i-u)k', ['\u212a', 'K', 'k'])).toEqual([1, 2]);
    expect(await rowsMatched('(?i)(?-u:k)', ['\u212a', 'K', 'k'])).toEqual([1, 2]);
  });

  it('(?-u) refuses non-ASCII text and Unicode classes inside its scope, as ripgrep ("Unicode not allowed here")', () => {
    for (const pattern of ['(?-u)é', '(?-u)\\pL', '(?-u:[а-я])', '(?i-u)привет']) {
      const error = failure(pattern);
      expect(error.code, pattern).toBe('invalid_pattern');
      expect(error.message, pattern).toMatch(/\(\?-u\) turned Unicode off/);
    }
    expect(compile('(?-u:\\w+)é').mode).not.toBe('literal');
  });
});
