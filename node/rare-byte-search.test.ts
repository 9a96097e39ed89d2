import { Buffer } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import { rareByteFirst } from './rare-byte-search.js';
import { seededRandom as random } from '../test/support/random.js';

const bufferIndexOf = Buffer.prototype.indexOf as (this: Uint8Array, needle: Uint8Array, from: number) => number;
const native = (haystack: Uint8Array, needle: Uint8Array, from: number): number => bufferIndexOf.call(haystack, needle, from);

const bytes = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, 'latin1'));

describe('rareByteFirst (the Node search source\'s byte search)', () => {
  it('answers what Buffer.indexOf answers: every match from every start, over random haystacks and needles of 1 to 20 bytes', () => {
    const next = random(42);
    const calls: Array<[number, number]> = [];
    const counted = (haystack: Uint8Array, needle: Uint8Array, from: number): number => {
      calls.push([needle.length, from]);
      return native(haystack, needle, from);
    };
    const search = rareByteFirst(counted);
    for (let round = 0; round < 300; round += 1) {
      // Few distinct bytes (so needles occur, and false candidates are many), or many.
      const alphabet = round % 3 === 0 ? 'ab' : round % 3 === 1 ? 'abcdefH \n' : 'functio HashcreatX\n';
      const haystack = bytes(Array.from({ length: Math.floor(next() * 400) }, () => alphabet[Math.floor(next() * alphabet.length)]).join(''));
      const length = 1 + Math.floor(next() * 20);
      const start = Math.floor(next() * Math.max(1, haystack.length));
      // Half the needles are cut from the haystack (so they match), half made up.
      const needle =
        next() < 0.5 && haystack.length > start + length
          ? haystack.slice(start, start + length)
          : bytes(Array.from({ length }, () => alphabet[Math.floor(next() * alphabet.length)]).join(''));
      for (let from = 0; from <= haystack.length + 2; from += 1) {
        expect(search(haystack, needle, from), `${JSON.stringify(Buffer.from(needle).toString('latin1'))} from ${from}`).toBe(native(haystack, needle, from));
      }
    }
    // Needles of more than 16 bytes go to the native search whole; of one byte, never (searched as a number).
    expect(calls.some(([length]) => length > 16)).toBe(true);
    expect(calls.some(([length]) => length === 1)).toBe(false);
  });

  it('leads with the needle\'s rarest byte, and hands the rest of the haystack to the native search when that byte is common in it', () => {
    const calls: number[] = [];
    const search = rareByteFirst((haystack, needle, from) => {
      calls.push(from);
      return native(haystack, needle, from);
    });
    // "createHash": 'H' is the rarest; a haystack of code without it is passed by single-byte searches alone.
    const code = bytes(`${'const x = require("fs"); function f() { return x.readFileSync(p); }\n'.repeat(200)}createHash('sha256')\n`);
    expect(search(code, bytes('createHash'), 0)).toBe(code.length - 21);
    expect(calls).toEqual([]);
    // A needle whose rarest byte is everywhere: after a few false candidates, the native search takes over from where it was.
    // ('x' is ranked rarer than 'e').
    const dense = bytes(`${'x'.repeat(5000)}xe`);
    expect(search(dense, bytes('xe'), 0)).toBe(5000);
    expect(calls.length).toBe(1);
    expect(calls[0]).toBeGreaterThan(0);
    expect(calls[0]).toBeLessThan(100);
    // Judged by runs of false candidates, not since the start: a dense stretch after a long clean one hands over within a few hundred bytes.
    calls.length = 0;
    const late = bytes(`${'a'.repeat(100_000)}${'x'.repeat(5000)}xe`);
    expect(search(late, bytes('xe'), 0)).toBe(105_000);
    expect(calls.length).toBe(1);
    expect(calls[0]).toBeGreaterThanOrEqual(100_000);
    expect(calls[0]).toBeLessThan(100_300);
  });

  it('takes any Uint8Array (a view into a larger buffer), and gives negative or fractional starts to the native search as they are', () => {
    const search = rareByteFirst(native);
    const backing = bytes('xxfunction yyfunction zz');
    const view = backing.subarray(2, 20);
    const needle = bytes('function');
    expect(search(view, needle, 0)).toBe(0);
    expect(search(view, needle, 1)).toBe(native(view, needle, 1));
    expect(search(view, needle, -8)).toBe(native(view, needle, -8));
    expect(search(view, needle, 0.5)).toBe(native(view, needle, 0.5));
    expect(search(new Uint8Array(0), needle, 0)).toBe(-1);
    expect(search(view, new Uint8Array(0), 3)).toBe(native(view, new Uint8Array(0), 3));
  });
});
