import { Buffer } from 'node:buffer';

/** `haystack.indexOf(needle, from)` on bytes: the first match at or after `from`, -1 when there is none. */
export type ByteSearch = (haystack: Uint8Array, needle: Uint8Array, from: number) => number;

const bufferIndexOf = Buffer.prototype.indexOf as (this: Uint8Array, needle: number, from: number) => number;

/**
 * Bytes of source code and prose from the most common to the less common: a needle's byte that comes
 * late here (or not at all: other punctuation, control and non-ASCII bytes) is expected to be rare.
 */
const COMMON_BYTES = ' \n\tetaoinsrlcdhu\rpm.f,gb_y()=;w"\'v/k-:x0123456789SETACRIONLDPMFHUBGWVKYXJQZ{}[]<>jqz*+!?#$%&@\\^`|~';
/** Per byte, how common it is (higher: more common; 0 for a byte not in {@link COMMON_BYTES}). */
const COMMONNESS = new Uint8Array(256);
for (let i = 0; i < COMMON_BYTES.length; i += 1) {
  const byte = COMMON_BYTES.charCodeAt(i);
  if (COMMONNESS[byte] === 0) COMMONNESS[byte] = COMMON_BYTES.length - i;
}

/** Needles longer than this go to the native search (its skip tables pay off there). */
const MAX_RARE_NEEDLE = 16;
/**
 * False candidates (the rare byte found, the needle not around it) are counted in runs of
 * {@link FALSE_HITS_BEFORE_CHECK}: a run within fewer than that many times this many bytes hands the
 * rest of the haystack to the native search (so a dense stretch costs a bounded number of calls).
 */
const BYTES_PER_FALSE_HIT = 32;
/** False candidates of one run (see {@link BYTES_PER_FALSE_HIT}). */
const FALSE_HITS_BEFORE_CHECK = 8;

/** Where in `needle` its rarest byte is (see {@link COMMONNESS}), the last of equals. */
function rarestAt(needle: Uint8Array): number {
  let at = 0;
  for (let i = 1; i < needle.length; i += 1) if ((COMMONNESS[needle[i] as number] as number) <= (COMMONNESS[needle[at] as number] as number)) at = i;
  return at;
}

/**
 * `native` (a byte search such as Buffer's indexOf, a Boyer-Moore-Horspool for needles of two bytes
 * or more) with faster paths for needles of 1 to 16 bytes. One byte is searched as a number (memchr
 * without the needle's setup: a line-end search costs half as much). For 2 to 16 bytes, the needle's rarest byte (by a fixed
 * ranking of how common bytes are in code and text) is found with a single-byte search (memchr,
 * vectorised), and the needle compared around it, as ripgrep's prefilter does (a literal count over
 * the search bench's 109 MiB tree, in a warm process, took a quarter less CPU for "createHash" and
 * 6 % less for "function", whose rarest byte is 1 % of the tree's; in a new process, still cold, the
 * same for "function"). When
 * the rare byte turns out common in this haystack (8 false candidates within 256 bytes), the rest of
 * the haystack goes to `native`. Answers exactly what `native` answers; a negative or
 * fractional `from` goes to `native` as it is.
 */
export function rareByteFirst(native: ByteSearch): ByteSearch {
  let lastNeedle: Uint8Array | undefined;
  let lastAt = 0;
  return (haystack, needle, from) => {
    const m = needle.length;
    if (m === 0 || m > MAX_RARE_NEEDLE || from < 0 || !Number.isInteger(from)) return native(haystack, needle, from);
    // One byte: Buffer's search for a number (memchr), half the cost of a call with a one-byte needle.
    if (m === 1) return bufferIndexOf.call(haystack, needle[0] as number, from);
    if (needle !== lastNeedle) {
      lastAt = rarestAt(needle);
      lastNeedle = needle;
    }
    const at = lastAt;
    const rare = needle[at] as number;
    const lastStart = haystack.length - m;
    let falseHits = 0;
    let checkedAt = from;
    for (let start = from; start <= lastStart; ) {
      const hit = bufferIndexOf.call(haystack, rare, start + at);
      if (hit === -1 || hit - at > lastStart) return -1;
      const s = hit - at;
      let i = 0;
      while (i < m && haystack[s + i] === needle[i]) i += 1;
      if (i === m) return s;
      start = s + 1;
      falseHits += 1;
      if (falseHits === FALSE_HITS_BEFORE_CHECK) {
        if (start - checkedAt < FALSE_HITS_BEFORE_CHECK * BYTES_PER_FALSE_HIT) return native(haystack, needle, start);
        falseHits = 0;
        checkedAt = start;
      }
    }
    return -1;
  };
}
