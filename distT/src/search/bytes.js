/**
 * Byte-level helpers for searching file content without decoding it, in plain JavaScript (no
 * `Buffer`, so they run in a browser worker as on Node): UTF-8 validation and a literal search.
 * Both read the bytes four at a time through a `Uint32Array` view of the aligned middle of the array
 * (word tests that do not depend on the byte order), so text that is mostly ASCII costs about one
 * step per four bytes.
 */
/**
 * Bytes ordered from common to less common in source code and prose (measured on npm's package:
 * space and lowercase letters lead). A byte not listed counts as rarer than every listed one.
 */
const COMMON_BYTES = ' etaoinsrlcdu\n\t(p).m=h,f;\'g"/_b{}y:v0-w1x*k2[]A3S>E<C4T5R+I8D6N97L!OPMF|&$#@%?B^~`\\HUGjVWqzKYXJQZ\r';
/** How common each byte is: 0 = rarest (not in {@link COMMON_BYTES}). */
const COMMONNESS = (() => {
    const table = new Uint8Array(256);
    for (let i = 0; i < COMMON_BYTES.length; i += 1)
        table[COMMON_BYTES.charCodeAt(i)] = COMMON_BYTES.length - i;
    return table;
})();
/** Where the 4-byte-aligned part of `bytes` starts (an index into `bytes`) and how many words it holds. */
function alignedWords(bytes) {
    const start = Math.min(bytes.length, (4 - (bytes.byteOffset & 3)) & 3);
    const count = (bytes.length - start) >> 2;
    return { start, words: count > 0 ? new Uint32Array(bytes.buffer, bytes.byteOffset + start, count) : undefined };
}
/**
 * Whether `bytes` is well-formed UTF-8 (what `new TextDecoder('utf-8', { fatal: true })` accepts:
 * no overlong forms, no surrogates, nothing above U+10FFFF, no sequence cut short at the end).
 * Runs of ASCII are skipped a word at a time.
 */
export function isUtf8(bytes) {
    const n = bytes.length;
    const { start, words } = alignedWords(bytes);
    const count = words?.length ?? 0;
    let i = 0;
    while (i < n) {
        if (words !== undefined && i >= start && ((i - start) & 3) === 0) {
            let w = (i - start) >> 2;
            while (w < count && (words[w] & 0x80808080) === 0)
                w += 1;
            i = start + (w << 2);
            if (i >= n)
                return true;
        }
        const c = bytes[i];
        if (c < 0x80) {
            i += 1;
            continue;
        }
        if (c < 0xc2)
            return false;
        if (c < 0xe0) {
            if (i + 1 >= n || (bytes[i + 1] & 0xc0) !== 0x80)
                return false;
            i += 2;
            continue;
        }
        if (c < 0xf0) {
            if (i + 2 >= n)
                return false;
            const c1 = bytes[i + 1];
            if ((c1 & 0xc0) !== 0x80 || (bytes[i + 2] & 0xc0) !== 0x80)
                return false;
            // E0 needs A0..BF next (no overlong form), ED 80..9F (no surrogate).
            if ((c === 0xe0 && c1 < 0xa0) || (c === 0xed && c1 > 0x9f))
                return false;
            i += 3;
            continue;
        }
        if (c < 0xf5) {
            if (i + 3 >= n)
                return false;
            const c1 = bytes[i + 1];
            if ((c1 & 0xc0) !== 0x80 || (bytes[i + 2] & 0xc0) !== 0x80 || (bytes[i + 3] & 0xc0) !== 0x80)
                return false;
            // F0 needs 90..BF next (no overlong form), F4 80..8F (nothing above U+10FFFF).
            if ((c === 0xf0 && c1 < 0x90) || (c === 0xf4 && c1 > 0x8f))
                return false;
            i += 4;
            continue;
        }
        return false;
    }
    return true;
}
/**
 * Finds one byte string (the needle) in others, as `Buffer.prototype.indexOf` does: the needle's
 * rarest byte (by a fixed table of how common bytes are in code and text) is looked for a word at a
 * time, and each place it occurs is checked against the whole needle. The view of the last haystack
 * is kept, so repeated calls on one haystack (each match, then the end of its line) cost no
 * allocation.
 */
export class ByteFinder {
    needle;
    /** Index in the needle of the byte looked for. */
    #at;
    #byte;
    /** The byte in each of a word's four lanes. */
    #lanes;
    #haystack;
    #start = 0;
    #words;
    constructor(needle) {
        this.needle = needle.slice();
        let at = 0;
        for (let i = 1; i < needle.length; i += 1)
            if (COMMONNESS[needle[i]] < COMMONNESS[needle[at]])
                at = i;
        this.#at = at;
        this.#byte = needle.length > 0 ? needle[at] : 0;
        this.#lanes = Math.imul(this.#byte, 0x01010101);
    }
    /** Whether this finder looks for exactly `needle`'s bytes. */
    matches(needle) {
        const own = this.needle;
        if (own.length !== needle.length)
            return false;
        for (let i = 0; i < own.length; i += 1)
            if (own[i] !== needle[i])
                return false;
        return true;
    }
    /** Start of the first occurrence at or after `from` (negative: 0), or -1; an empty needle is found at `from` (at most the length). */
    find(haystack, from) {
        const needle = this.needle;
        const m = needle.length;
        const length = haystack.length;
        const begin = Math.max(0, Math.floor(from));
        if (m === 0)
            return Math.min(begin, length);
        if (m === 1)
            return haystack.indexOf(this.#byte, begin);
        if (haystack !== this.#haystack) {
            this.#haystack = haystack;
            const { start, words } = alignedWords(haystack);
            this.#start = start;
            this.#words = words;
        }
        const k = this.#at;
        const byte = this.#byte;
        const lanes = this.#lanes;
        const start = this.#start;
        const words = this.#words;
        const count = words?.length ?? 0;
        /** Last index where the looked-for byte can sit with the whole needle inside the haystack. */
        const last = length - m + k;
        // Words wholly at or before `last`: beyond them the scan goes byte by byte.
        const wordEnd = Math.min(count, Math.floor((last - start) / 4) + 1);
        let p = begin + k;
        while (p <= last) {
            const rel = p - start;
            if (words === undefined || rel < 0 || (rel & 3) !== 0 || rel >> 2 >= wordEnd) {
                if (haystack[p] === byte && this.#occursAt(haystack, p - k))
                    return p - k;
                p += 1;
                continue;
            }
            let w = rel >> 2;
            for (; w < wordEnd; w += 1) {
                const x = words[w] ^ lanes;
                // The top bit of each lane of ((x & 7f) + 7f) | x is set where that lane of x is not zero.
                if ((((x & 0x7f7f7f7f) + 0x7f7f7f7f) | x | 0x7f7f7f7f) !== -1)
                    break;
            }
            p = start + (w << 2);
            if (w === wordEnd)
                continue;
            const stop = Math.min(p + 4, last + 1);
            for (; p < stop; p += 1)
                if (haystack[p] === byte && this.#occursAt(haystack, p - k))
                    return p - k;
        }
        return -1;
    }
    /** Whether the needle occurs at `s`. */
    #occursAt(haystack, s) {
        const needle = this.needle;
        for (let j = 0; j < needle.length; j += 1)
            if (haystack[s + j] !== needle[j])
                return false;
        return true;
    }
}
//# sourceMappingURL=bytes.js.map