import picomatch from 'picomatch/posix.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { compileGlob, loadGlobMatcher } from './glob.js';
import { checkGlobBalance, MAX_GLOB_LENGTH } from './glob-parse.js';

// In Chromium the compiler is a file of its own (lazy/glob.min.js), fetched on first use.
beforeAll(() => loadGlobMatcher());

const a = (n: number): string => 'a'.repeat(n);
const deep = (depth: number): string => Array.from({ length: depth }, () => 'a').join('/');

describe('compileGlob', () => {
  it('matches names at any depth when the pattern has no /', () => {
    const glob = compileGlob('*.ts');
    expect(glob.basenameOnly).toBe(true);
    expect(['a.ts', 'src/a.ts', 'src/deep/b.ts', 'a.tsx', 'ts'].map((p) => glob.matches(p))).toEqual([true, true, true, false, false]);
  });

  it('matches the relative path when the pattern has a /', () => {
    const glob = compileGlob('src/**/*.test.ts');
    expect(glob.basenameOnly).toBe(false);
    expect(['src/a.test.ts', 'src/x/y/a.test.ts', 'lib/src/a.test.ts', 'a.test.ts'].map((p) => glob.matches(p))).toEqual([true, true, false, false]);
    expect(compileGlob('./src/*.ts').matches('src/a.ts')).toBe(true);
    expect(compileGlob('/src/*.ts').matches('src/a.ts')).toBe(true);
  });

  it('expands nested braces and treats dot-files as ordinary names', () => {
    const glob = compileGlob('{a,{b,c}}.{js,ts}');
    expect(['a.js', 'b.ts', 'c.js', 'd.js'].map((p) => glob.matches(p))).toEqual([true, true, true, false]);
    expect(compileGlob('*').matches('.env')).toBe(true);
    expect(compileGlob('**/*.yml').matches('.github/workflows/ci.yml')).toBe(true);
  });

  it('supports ?, [...], [!...] and [^...]', () => {
    expect(compileGlob('?.md').matches('a.md')).toBe(true);
    expect(compileGlob('?.md').matches('ab.md')).toBe(false);
    expect(compileGlob('[!a]b').matches('ab')).toBe(false);
    expect(compileGlob('[!a]b').matches('cb')).toBe(true);
    expect(compileGlob('[^a]b').matches('cb')).toBe(true);
    expect(compileGlob('[[:digit:]].txt').matches('1.txt')).toBe(true);
    // Not a POSIX class: Object.prototype's members must not be taken for one (`function Object() {...`).
    expect(['{', '(', ' '].map((p) => compileGlob('[[:constructor:]]').matches(p))).toEqual([false, false, false]);
  });

  it('is case-insensitive unless caseSensitive', () => {
    expect(compileGlob('*.TS').matches('a.ts')).toBe(true);
    expect(compileGlob('*.TS', { caseSensitive: true }).matches('a.ts')).toBe(false);
  });

  it('throws invalid_pattern for an empty or unbalanced pattern', () => {
    for (const pattern of ['', '  ', '{a,b', 'a}', '[ab', 'a]', '{a,{b,c}']) {
      expect(() => compileGlob(pattern), pattern).toThrow(expect.objectContaining({ code: 'invalid_pattern' }));
    }
    expect(() => compileGlob('include', { argName: 'include' })).not.toThrow();
    expect(() => compileGlob('{a', { argName: 'include' })).toThrow(/include "\{a"/);
  });

  // A backtracking RegExp (picomatch's) took 1 s for this with a 40-character name, more than 300 s with
  // 80: the thread was blocked, so no deadline could fire. Each line here ends at once.
  it('matches in linear time: stars, ** segments, ?, classes, braces and extglobs cannot backtrack', { timeout: 20_000 }, () => {
    const stars = compileGlob(`${'*a'.repeat(8)}b`);
    expect([a(80), a(255), `${a(254)}b`].map((name) => stars.matches(name))).toEqual([false, false, true]);
    expect(compileGlob(`${'*a'.repeat(30)}b`).matches(a(255))).toBe(false);
    expect(compileGlob(`${'?*'.repeat(8)}b`).matches(a(255))).toBe(false);
    expect(compileGlob(`${'[a]*'.repeat(8)}b`).matches(a(255))).toBe(false);
    expect(compileGlob(`${'**/a/'.repeat(20)}b`).matches(deep(1000))).toBe(false);
    expect(compileGlob(`${'**/a/'.repeat(20)}b`).matches(`${deep(1000)}/b`)).toBe(true);
    expect(compileGlob(`${'*a'.repeat(8)}/**/b`).matches(`${a(255)}/${deep(1900)}`)).toBe(false);
    expect(compileGlob(`${'{a,aa}'.repeat(30)}b`).matches(a(80))).toBe(false);
    expect(compileGlob(`${'{*a,*b}'.repeat(8)}c`).matches(a(255))).toBe(false);
    expect(compileGlob(`${'+(a|aa)'.repeat(8)}b`).matches(a(80))).toBe(false);
    expect(compileGlob(`${'*(a|b)'.repeat(8)}c`).matches(a(255))).toBe(false);
    expect(compileGlob(`${'@(*a|*b)'.repeat(8)}c`).matches(a(255))).toBe(false);
    expect(compileGlob(`!(${'*a'.repeat(8)})${'*a'.repeat(8)}b`).matches(a(255))).toBe(false);
    expect(compileGlob(`${'*a'.repeat(499)}b`).matches(a(255))).toBe(false);
  });

  it('treats line breaks in names as ordinary characters', () => {
    for (const pattern of ['**', '*', 'line?break', 'line*', '*break', '**/*', 'line[\n]break', '!*.ts']) {
      expect(compileGlob(pattern).matches('dir/line\nbreak'), pattern).toBe(true);
    }
    expect(compileGlob('dir/**').matches('dir/a\r\nb/c')).toBe(true);
    expect(compileGlob('!dir/**').matches('dir/a\nb')).toBe(false);
    expect(compileGlob('!*.txt').matches('a\nb')).toBe(true);
  });

  it('negates a pattern with a leading ! (!! cancels out)', () => {
    const glob = compileGlob('!*.ts');
    expect(['a.ts', 'src/b.ts', 'c.js', 'README'].map((p) => glob.matches(p))).toEqual([false, false, true, true]);
    expect(compileGlob('!!*.ts').matches('a.ts')).toBe(true);
    expect(compileGlob('!src/**').matches('lib/a.ts')).toBe(true);
    expect(compileGlob('!src/**').matches('src/a.ts')).toBe(false);
  });

  it('takes an absolute pattern relative to the searched directory, as whole paths', () => {
    const base = { root: '/workspace', dir: '/workspace' };
    const top = compileGlob('/workspace/*.txt', { base });
    expect(top.pattern).toBe('*.txt');
    expect(top.basenameOnly).toBe(false);
    expect(['a.txt', 'src/b.txt'].map((p) => top.matches(p))).toEqual([true, false]);
    expect(compileGlob('/workspace/src/../src/*.ts', { base }).pattern).toBe('src/*.ts');
    expect(compileGlob('src/../lib/*.ts', { base }).pattern).toBe('lib/*.ts');
    const inSrc = { root: '/workspace', dir: '/workspace/src' };
    expect(compileGlob('/workspace/src/**/*.ts', { base: inSrc }).pattern).toBe('**/*.ts');
    expect(compileGlob('/workspace/**/*.ts', { base: inSrc }).pattern).toBe('**/*.ts');
    expect(compileGlob('/**/*.ts', { base: inSrc }).pattern).toBe('**/*.ts');
    expect(compileGlob('!/workspace/src/*.ts', { base: inSrc }).matches('a.ts')).toBe(false);
    expect(compileGlob('/src/*.ts').pattern).toBe('src/*.ts');
  });

  it('refuses an absolute pattern outside the workspace or outside the searched directory', () => {
    const inSrc = { root: '/workspace', dir: '/workspace/src' };
    for (const pattern of ['/etc/*', '/*', '../../*', '/workspace/../etc/passwd', '/workspaces/*.ts']) {
      expect(() => compileGlob(pattern, { base: inSrc }), pattern).toThrow(expect.objectContaining({ code: 'outside_workspace' }));
    }
    expect(() => compileGlob('/etc/*', { base: inSrc })).toThrow(
      'pattern "/etc/*" points outside the workspace (/workspace); give a glob relative to the searched directory ' +
        '(such as *.ts or src/**/*.ts) or an absolute one under /workspace',
    );
    expect(() => compileGlob('/workspace/lib/*.ts', { base: inSrc })).toThrow(
      'pattern "/workspace/lib/*.ts" is not under the searched directory /workspace/src; set dir_path to /workspace/lib ' +
        'or give a glob relative to /workspace/src',
    );
    expect(() => compileGlob('../lib/a.ts', { base: inSrc })).toThrow(expect.objectContaining({ code: 'invalid_pattern', message: expect.stringContaining('set dir_path to /workspace/lib ') }));
    expect(() => compileGlob('/workspace/src', { base: inSrc })).toThrow(expect.objectContaining({ code: 'invalid_pattern', message: expect.stringContaining('is the searched directory itself') }));
  });

  it('quotes at most 200 characters of the pattern in an error message', () => {
    expect(() => compileGlob(`{${'x'.repeat(900)}`)).toThrow(
      `pattern "{${'x'.repeat(199)}…" (701 more characters) is not a valid glob: 1 "{" without a closing "}"; close the brace or escape it as \\{`,
    );
    expect(MAX_GLOB_LENGTH).toBe(1000);
    expect(() => compileGlob('x'.repeat(10_000))).toThrow(
      `pattern "${'x'.repeat(200)}…" (9800 more characters) is 10000 characters long; at most 1000: use wildcards ` +
        '(*.ts, src/**) instead of listing names, or search in several calls',
    );
  });

  it('matches the deepest nesting its length allows (braces, groups, extglobs) without overflowing the stack', () => {
    const nest = (open: string, middle: string, close: string, levels: number): string => open.repeat(levels) + middle + close.repeat(levels);
    const braces = nest('{a,', 'b.txt', '}', 248);
    const groups = nest('(', 'b.txt', ')', 497);
    const extglobs = nest('@(a|', 'b.txt', ')', 198);
    for (const pattern of [braces, groups, extglobs]) {
      expect(pattern.length).toBeLessThanOrEqual(MAX_GLOB_LENGTH);
      const glob = compileGlob(pattern);
      expect(['b.txt', 'a', 'sub/b.txt', 'c.txt'].map((path) => glob.matches(path))).toEqual([true, pattern === groups ? false : true, true, false]);
    }
    expect(() => compileGlob(nest('{a,', 'b.txt', '}', 250))).toThrow(expect.objectContaining({ code: 'invalid_pattern' }));
  });

  it('expands brace ranges as bash does, up to 1000 names', () => {
    const glob = compileGlob('file{1..12}.txt');
    expect(['file1.txt', 'file9.txt', 'file12.txt', 'file13.txt', 'file0.txt'].map((p) => glob.matches(p))).toEqual([true, true, true, false, false]);
    expect(['01', '10', '1'].map((p) => compileGlob('{01..10}').matches(p))).toEqual([true, true, false]);
    expect(['-1', '1', '3', '2', '0'].map((p) => compileGlob('{-1..3..2}').matches(p))).toEqual([true, true, true, false, false]);
    expect(['a', 'c', 'd'].map((p) => compileGlob('{a..c}').matches(p))).toEqual([true, true, false]);
    expect(compileGlob('{1..1000}').matches('1000')).toBe(true);
    expect(() => compileGlob('{1..1001}')).toThrow('pattern "{1..1001}" is not a valid glob: the range {1..1001} stands for 1001 names; at most 1000: use a wildcard such as * or [0-9] instead');
  });

  it('keeps picomatch\'s other meanings: | alternatives, + and ? after groups, classes matching their own text', () => {
    expect(['a.ts', 'b.js', 'c.md'].map((p) => compileGlob('*.ts|*.js').matches(p))).toEqual([true, true, false]);
    expect(['log1.txt', 'log123.txt', 'log.txt'].map((p) => compileGlob('log[0-9]+.txt').matches(p))).toEqual([true, true, false]);
    expect(['a', 'ab', 'abab', 'b'].map((p) => compileGlob('{a,b}+').matches(p))).toEqual([true, true, true, true]);
    expect(['x', 'xa', 'xb', 'xc'].map((p) => compileGlob('x(a|b)?').matches(p))).toEqual([true, true, true, false]);
    expect(['[id].tsx', 'i.tsx', 'x.tsx'].map((p) => compileGlob('app/[id].tsx').matches(`app/${p}`))).toEqual([true, true, false]);
    expect(compileGlob('my file (1).md').matches('docs/my file (1).md')).toBe(true);
    expect(['x.ts', 'x.d.ts', 'x.js'].map((p) => compileGlob('!(*.d).ts').matches(p))).toEqual([true, false, false]);
    expect(['src/a/b.ts', 'src/vendor/b.ts', 'src/vendors/b.ts'].map((p) => compileGlob('src/!(vendor)/**/*.ts').matches(p))).toEqual([true, false, true]);
  });

  it('refuses an invalid class, a nested or second !(...)', () => {
    for (const pattern of ['[z-a].txt', '{a,!(b)}', '!(a)!(b)', '@(!(a))']) {
      expect(() => compileGlob(pattern), pattern).toThrow(expect.objectContaining({ code: 'invalid_pattern' }));
    }
    expect(() => compileGlob('[z-a].txt')).toThrow('pattern "[z-a].txt" is not a valid glob: the class "[z-a]" is not valid (Range out of order in character class)');
  });

  // picomatch (dot: true, as toolhost configured it) is the reference for ordinary patterns: random
  // globs and paths from a small alphabet must get the same answer. Paths have no line breaks (picomatch
  // misses them), no `.`/`..` components and no trailing `/` (the walk produces none of these).
  it('agrees with picomatch on random ordinary globs and paths', () => {
    let seed = 20_241;
    const random = (n: number): number => {
      seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff;
      return seed % n;
    };
    const pick = <T>(list: readonly T[]): T => list[random(list.length)] as T;
    const atoms = ['a', 'b', '.', '-', 'A', 'é', 'ab', '*', '*', '?', '[ab]', '[a-c]', '[!a]', '[^b]', '[[:alpha:]]', '{a,b}', '{a,}',
      '{*.a,b*}', '{a,{b,c}}', 'a*', '*b', '[.]', '@(a|b)', '?(a)', '*(a|b)', '+(b)', '(a|b)', '[ab]+', '{1..3}'];
    const segment = (): string => (random(6) === 0 ? '**' : Array.from({ length: 1 + random(3) }, () => pick(atoms)).join(''));
    const pathSegment = (): string => {
      let name = '';
      while (name === '' || name === '.' || name === '..') name = Array.from({ length: 1 + random(4) }, () => pick(['a', 'b', 'c', '.', 'A', 'É', '-', '1'])).join('');
      return name;
    };
    let compared = 0;
    for (let k = 0; k < 1500; k += 1) {
      const pattern = Array.from({ length: 1 + random(3) }, segment).join('/');
      const caseSensitive = random(2) === 0;
      const ours = compileGlob(pattern, { caseSensitive });
      const theirs = picomatch(pattern.replaceAll('[!', '[^'), { dot: true, nocase: !caseSensitive });
      for (let j = 0; j < 10; j += 1) {
        const path = Array.from({ length: 1 + random(4) }, pathSegment).join('/');
        const input = ours.basenameOnly ? path.slice(path.lastIndexOf('/') + 1) : path;
        expect(ours.matches(path), `${pattern} on ${path}`).toBe(theirs(input));
        compared += 1;
      }
    }
    expect(compared).toBe(15_000);
  });
});

describe('checkGlobBalance', () => {
  it('accepts escapes, a leading ] in a class and POSIX classes', () => {
    expect(checkGlobBalance('\\{a')).toBeNull();
    expect(checkGlobBalance('[]a]')).toBeNull();
    expect(checkGlobBalance('[!]a]')).toBeNull();
    expect(checkGlobBalance('[[:alpha:]]')).toBeNull();
    expect(checkGlobBalance('a{b,[}]}')).toBeNull();
    expect(checkGlobBalance('a{b,[c}]')).toMatch(/without a closing/);
    expect(checkGlobBalance('{a,b')).toMatch(/without a closing/);
  });
});
