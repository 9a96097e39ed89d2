import { describe, expect, it } from 'vitest';
import { createMemoryPlatform } from '../platform/memory.js';
import { ToolRunner } from '../runner.js';
import { grepSearchTool } from '../tools/grep-search.js';
import { indexOfText, linearByteSearch, NATIVE_NEEDLE_LIMIT } from './linear-find.js';
import { seededRandom } from '../../test/support/random.js';
import { outsideStarvation } from '../../test/support/starvation.js';

const nativeBytes = (haystack: Uint8Array, needle: Uint8Array, from: number): number => {
  outer: for (let i = Math.max(0, from); i + needle.length <= haystack.length; i += 1) {
    for (let j = 0; j < needle.length; j += 1) if (haystack[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
};

describe('linear substring search', () => {
  it('answers exactly as indexOf on 4,000 random texts and needles of small alphabets, both sides of the native limit', () => {
    const next = seededRandom(7);
    const search = linearByteSearch(nativeBytes);
    for (let round = 0; round < 4000; round += 1) {
      const alphabet = 'ab\nc'.slice(0, 1 + Math.floor(next() * 4));
      const pick = (n: number): string => Array.from({ length: n }, () => alphabet[Math.floor(next() * alphabet.length)]).join('');
      const text = pick(Math.floor(next() * 200));
      // Needles often taken from the text itself, so matches (and near-matches) are common.
      const length = 1 + Math.floor(next() * (NATIVE_NEEDLE_LIMIT * 3));
      const at = Math.floor(next() * Math.max(1, text.length - length));
      const needle = next() < 0.6 && text.length > length ? text.slice(at, at + length) : pick(length);
      const from = Math.floor(next() * (text.length + 2)) - 1;
      expect(indexOfText(text, needle, from)).toBe(text.indexOf(needle, from));
      const bytes = new TextEncoder().encode(text);
      const needleBytes = new TextEncoder().encode(needle);
      expect(search(bytes, needleBytes, Math.max(0, from))).toBe(nativeBytes(bytes, needleBytes, Math.max(0, from)));
    }
  });

  it('finds a 5,001-character needle over 5 MB of 5,000-character lines with the native search always moving forward on at most 16 units (no match), and a match at the end', () => {
    const text = `${'a'.repeat(5000)}\n`.repeat(1000);
    expect(indexOfText(text, 'a'.repeat(5001))).toBe(-1);
    expect(indexOfText(`${text}${'a'.repeat(5001)}`, 'a'.repeat(5001))).toBe(text.length);
    // Linear by construction, shown by counting instead of timing: the native search (quadratic in
    // its worst case) only ever gets the needle's first 16 units, each call starts past where the
    // previous one (and the automaton after it) stopped, and there is one call per line.
    const bytes = new TextEncoder().encode(text);
    const calls: Array<{ from: number; length: number }> = [];
    const counting = (haystack: Uint8Array, needle: Uint8Array, from: number): number => {
      calls.push({ from, length: needle.length });
      return nativeBytes(haystack, needle, from);
    };
    expect(linearByteSearch(counting)(bytes, new TextEncoder().encode('a'.repeat(5001)), 0)).toBe(-1);
    expect(calls.every((call) => call.length === NATIVE_NEEDLE_LIMIT)).toBe(true);
    expect(calls.every((call, i) => i === 0 || call.from > (calls[i - 1] as { from: number }).from + 5000)).toBe(true);
    expect(calls.length).toBe(1000);
  });

  it('grep_search with a pattern longer than every line answers within its deadline on the memory platform', async () => {
    const platform = createMemoryPlatform({ files: { 'big.txt': `${'a'.repeat(50_000)}!\n`.repeat(100) } });
    const runner = new ToolRunner({ platform, tools: [grepSearchTool] });
    for (const fixed_strings of [true, false]) {
      // The search takes tens of ms: a run in which a busy machine kept the process waiting for half the
      // deadline may meet the deadline first, so such runs are repeated.
      const { value: [call], ms, waited, starved } = await outsideStarvation(1000, () =>
        runner.processToolCalls([{ name: 'grep_search', args: { pattern: 'a'.repeat(60_000), fixed_strings } }], { timeoutMs: 2000 }),
      );
      expect(ms - waited).toBeLessThan(2250);
      // Only when five runs in a row lost half the deadline to the machine may the deadline come first.
      if (starved && 'code' in (call as object)) expect(call).toMatchObject({ code: 'timeout' });
      else expect(call).toMatchObject({ result: { matches: [], total_matches: 0 } });
    }
  });
});
