import { describe, expect, it } from 'vitest';
import {
  compileLinePattern,
  createInThreadRegexSandbox,
  escapeRegExp,
  regexErrorMessage,
  scanRegexTexts,
  scanWithBudget,
} from './regex.js';
import type { RegexSandbox } from '../core/types.js';

describe('scanRegexTexts', () => {
  it('returns [start, end) offsets per text and steps over empty matches by code point', () => {
    expect(scanRegexTexts('b+', 'u', ['abba b', '', 'x'], 100, Infinity)).toEqual([[[1, 3], [5, 6]], [], []]);
    expect(scanRegexTexts('', 'u', ['😀a'], 100, Infinity)).toEqual([[[0, 0], [2, 2], [3, 3]]]);
    expect(scanRegexTexts('a', 'u', ['aaaa'], 2, Infinity)).toEqual([[[0, 1], [1, 2]]]);
  });

  it('throws code timeout when its deadline passes between texts', () => {
    expect(() => scanRegexTexts('a', 'u', ['a', 'a'], 10, Date.now() - 1)).toThrow(expect.objectContaining({ code: 'timeout' }));
  });
});

describe('compileLinePattern', () => {
  it('wraps the pattern to find one match per line and sets the flags', () => {
    const p = compileLinePattern('a|b', { literal: false, caseSensitive: false });
    expect(p).toEqual({ source: '(?:a|b)[^\\n\\r]*', flags: 'miu', lineFlags: 'iu', pattern: 'a|b', anchors: false, literal: false });
    expect(compileLinePattern('^x$', { literal: false, caseSensitive: true }).anchors).toBe(true);
    expect(compileLinePattern('^x$', { literal: true, caseSensitive: true })).toMatchObject({ pattern: '\\^x\\$', anchors: false, literal: true });
  });

  it('throws invalid_pattern with the engine message', () => {
    expect(() => compileLinePattern('(', { literal: false, caseSensitive: true })).toThrow(/Unterminated group/);
    expect(() => compileLinePattern('(', { literal: false, caseSensitive: true })).toThrow(expect.objectContaining({ code: 'invalid_pattern' }));
  });
});

describe('regexErrorMessage', () => {
  it('cuts the pattern the engine repeats to 200 characters and keeps the reason', () => {
    const source = '[' + 'b'.repeat(50_000);
    let error: unknown;
    try {
      new RegExp(source, 'u');
    } catch (caught) {
      error = caught;
    }
    const message = regexErrorMessage(error, source);
    expect(message.length).toBeLessThan(400);
    expect(message).toContain(`[${'b'.repeat(199)}… (49801 more characters)`);
    expect(message).toMatch(/Unterminated character class$/);
  });

  it('leaves a short pattern and a message without the pattern as they are', () => {
    expect(regexErrorMessage(new SyntaxError('Invalid regular expression: /(/u: Unterminated group'), '(')).toBe(
      'Invalid regular expression: /(/u: Unterminated group',
    );
    expect(regexErrorMessage(new SyntaxError('invalid regexp group'), '('.repeat(1000))).toBe('invalid regexp group');
  });
});

describe('escapeRegExp', () => {
  it('escapes every syntax character so the text matches itself under the u flag', () => {
    const text = 'a.b*c+d?e^f$g(h)i[j]k{l}m|n\\o/p-q';
    expect(new RegExp(`^${escapeRegExp(text)}$`, 'u').test(text)).toBe(true);
  });
});

describe('createInThreadRegexSandbox', () => {
  it('scans texts and maps a bad pattern to invalid_pattern', async () => {
    const sandbox = createInThreadRegexSandbox();
    await expect(sandbox.scan({ source: 'x', flags: 'u', texts: ['axx'], maxMatchesPerText: 10, timeoutMs: 1000 })).resolves.toEqual([[[1, 2], [2, 3]]]);
    await expect(sandbox.scan({ source: '(', flags: 'u', texts: ['a'], maxMatchesPerText: 10, timeoutMs: 1000 })).rejects.toMatchObject({ code: 'invalid_pattern' });
    const long = await sandbox
      .scan({ source: '(' + 'a'.repeat(10_000), flags: 'u', texts: ['a'], maxMatchesPerText: 10, timeoutMs: 1000 })
      .catch((error: unknown) => error as { code: string; message: string });
    expect(long).toMatchObject({ code: 'invalid_pattern', message: expect.stringContaining('(9801 more characters)') });
    expect((long as { message: string }).message.length).toBeLessThan(300);
  });
});

describe('scanWithBudget', () => {
  it('batches texts, splits long ones at line breaks and maps offsets back', async () => {
    const calls: number[] = [];
    const inner = createInThreadRegexSandbox();
    const sandbox: RegexSandbox = { scan: (request) => (calls.push(request.texts.length), inner.scan(request)) };
    const big = ('x'.repeat(999) + '\n').repeat(3000) + 'needle';
    const found = await scanWithBudget({ sandbox, source: 'needle', flags: 'mu', texts: ['needle', big, 'no'] });
    expect(found).toEqual([[[0, 6]], [[3_000_000, 3_000_006]], []]);
    expect(calls.length).toBeGreaterThan(1);
  });

  it('splits a batch that times out and retries a single text until the budget ends', async () => {
    let calls = 0;
    const sandbox: RegexSandbox = {
      async scan(request) {
        calls += 1;
        if (request.texts.some((text) => text === 'slow')) throw Object.assign(new Error('slow'), { code: 'timeout' });
        return request.texts.map(() => []);
      },
    };
    await expect(scanWithBudget({ sandbox, source: 'x', flags: 'u', texts: ['a', 'slow', 'b'], budgetMs: 300 })).rejects.toMatchObject({
      code: 'timeout',
      message: expect.stringContaining('did not finish within 300 ms'),
    });
    expect(calls).toBeGreaterThan(2);
  });

  it('stops with the signal reason once the signal fires', async () => {
    const controller = new AbortController();
    controller.abort(Object.assign(new Error('deadline'), { code: 'timeout' }));
    await expect(
      scanWithBudget({ sandbox: createInThreadRegexSandbox(), source: 'x', flags: 'u', texts: ['x'], signal: controller.signal }),
    ).rejects.toMatchObject({ code: 'timeout' });
  });
});
