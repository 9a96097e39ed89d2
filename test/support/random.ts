/** A seeded PRNG (mulberry32): the same seed gives the same sequence, so fuzz failures replay. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Random junk of every JSON-ish and non-JSON-ish kind, nested up to `depth`. */
export function junk(random: () => number, depth = 3): unknown {
  const pick = Math.floor(random() * 16);
  switch (pick) {
    case 0: return null;
    case 1: return undefined;
    case 2: return random() < 0.5;
    case 3: return Math.floor(random() * 2 ** 31) * (random() < 0.5 ? -1 : 1);
    case 4: return random() * 1e6;
    case 5: return [NaN, Infinity, -Infinity, -0][Math.floor(random() * 4)];
    case 6: return String(Math.floor(random() * 100));
    case 7: return ['', ' ', 'true', 'false', '1e3', '0x10', '../../etc/passwd', '\u0000', '💥', 'a\r\nb'][Math.floor(random() * 10)];
    case 8: return 'x'.repeat(Math.floor(random() * 200_000));
    case 9: return depth > 0 ? Array.from({ length: Math.floor(random() * 5) }, () => junk(random, depth - 1)) : [];
    case 10:
    case 11: {
      if (depth <= 0) return {};
      const out: Record<string, unknown> = {};
      const keys = ['text', 'count', 'flag', 'mode', 'items', 'nested', '__proto__', 'constructor', 'extra', ''];
      for (let i = Math.floor(random() * 5); i > 0; i -= 1) out[keys[Math.floor(random() * keys.length)] as string] = junk(random, depth - 1);
      return out;
    }
    case 12: return () => 1;
    case 13: return Symbol('s');
    case 14: return BigInt(7);
    default: return new Date(0);
  }
}
