// Byte comparisons shared by the journal, the review layer, the editing tools and the stores.

/**
 * Whether two byte arrays hold the same bytes (compared four at a time where both are aligned for it:
 * a quarter of the steps). Views are compared by what they show, not by their buffers.
 */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a === b) return true;
  if (a.byteLength !== b.byteLength) return false;
  let i = 0;
  if (a.byteOffset % 4 === 0 && b.byteOffset % 4 === 0) {
    const words = a.byteLength >>> 2;
    const wa = new Uint32Array(a.buffer, a.byteOffset, words);
    const wb = new Uint32Array(b.buffer, b.byteOffset, words);
    for (let w = 0; w < words; w += 1) if (wa[w] !== wb[w]) return false;
    i = words * 4;
  }
  for (; i < a.byteLength; i += 1) if (a[i] !== b[i]) return false;
  return true;
}
