import { beforeAll, describe, expect, it } from 'vitest';
import { checkGlobBalance, compileGlob, loadGlobEngine } from './glob.js';

beforeAll(loadGlobEngine);

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
