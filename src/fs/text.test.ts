import { describe, expect, it } from 'vitest';
import { clipForMessage, MESSAGE_QUOTE_CHARS, quoteForMessage } from './text.js';

describe('clipForMessage', () => {
  it('keeps short text whole', () => {
    expect(clipForMessage('src/a.ts')).toBe('src/a.ts');
    expect(clipForMessage('x'.repeat(MESSAGE_QUOTE_CHARS))).toBe('x'.repeat(MESSAGE_QUOTE_CHARS));
  });

  it('keeps the first 200 characters of long text and says how many more there were', () => {
    expect(clipForMessage('p'.repeat(1_000_000))).toBe(`${'p'.repeat(200)}… (999800 more characters)`);
    expect(clipForMessage('abcdef', 4)).toBe('abcd… (2 more characters)');
  });

  it('never splits a surrogate pair and counts what was cut in code points', () => {
    expect(clipForMessage('a😀😀😀', 2)).toBe('a… (3 more characters)');
  });
});

describe('quoteForMessage', () => {
  it('quotes short text as it is', () => {
    expect(quoteForMessage('my docs/Über (1).md')).toBe('"my docs/Über (1).md"');
  });

  it('puts the marker of cut text after the closing quote', () => {
    expect(quoteForMessage('q'.repeat(100_000))).toBe(`"${'q'.repeat(200)}…" (99800 more characters)`);
  });

  it('JSON-escapes with json, cutting before escaping', () => {
    expect(quoteForMessage('\tx = "1"\n', { json: true })).toBe('"\\tx = \\"1\\"\\n"');
    expect(quoteForMessage('\t'.repeat(300), { json: true })).toBe(`"${'\\t'.repeat(200)}…" (100 more characters)`);
  });
});
