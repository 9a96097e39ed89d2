import { sha256 } from '@noble/hashes/sha2.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadSha256 } from '#lazy';
import { hashBytes, provideSha256 } from './file-cache.js';

// The real loader, watched: the test below checks when @noble/hashes is loaded.
vi.mock('#lazy', async (original) => {
  const lazy = await original<typeof import('#lazy')>();
  return { ...lazy, loadSha256: vi.fn(lazy.loadSha256) };
});

async function webCrypto(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
  return [...digest].map((b) => b.toString(16).padStart(2, '0')).join('');
}

const SIZES = [1, 55, 56, 57, 63, 64, 65, 119, 120, 128, 1000, 1023, 1024, 1025, 4096, 65535, 65536, 65537, 200_000];

function sample(size: number): Uint8Array {
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i += 1) bytes[i] = (i * 131 + size) & 0xff;
  return bytes;
}

describe('hashBytes', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    provideSha256(undefined);
  });

  const noble = (bytes: Uint8Array): string => [...sha256(bytes)].map((b) => b.toString(16).padStart(2, '0')).join('');

  it('returns the FIPS 180-4 test vectors as lowercase hex', async () => {
    expect(await hashBytes(new Uint8Array())).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(await hashBytes(new TextEncoder().encode('abc'))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('matches WebCrypto SHA-256 at every padding boundary and on both sides of the JavaScript limit', async () => {
    for (const size of SIZES) {
      const bytes = sample(size);
      expect(await hashBytes(bytes), `size ${size}`).toBe(await webCrypto(bytes));
    }
  });

  it('hashes every size through WebCrypto, and never loads @noble/hashes, where WebCrypto is there', async () => {
    const digest = vi.spyOn(crypto.subtle, 'digest');
    for (const size of [0, 1, 1023, 1024, 4096]) await hashBytes(sample(size));
    expect(digest).toHaveBeenCalledTimes(5);
    expect(loadSha256).toHaveBeenCalledTimes(0);
  });

  it('loads @noble/hashes and hashes every size with it, with the same digests, where WebCrypto is missing (a page over plain http)', async () => {
    const expected = await Promise.all(SIZES.map((size) => webCrypto(sample(size))));
    vi.stubGlobal('crypto', {});
    expect(globalThis.crypto.subtle).toBe(undefined);
    for (const [i, size] of SIZES.entries()) expect(await hashBytes(sample(size)), `size ${size}`).toBe(expected[i]);
    expect(loadSha256).toHaveBeenCalledTimes(1);
  });

  it('uses a provided synchronous SHA-256 first, at every size, with the same digests as WebCrypto and @noble/hashes', async () => {
    const provided = vi.fn(noble);
    provideSha256(provided);
    const digest = vi.spyOn(crypto.subtle, 'digest');
    for (const size of SIZES) {
      const bytes = sample(size);
      const hash = await hashBytes(bytes);
      expect(hash, `size ${size}`).toBe(await webCrypto(bytes));
      expect(hash, `size ${size}`).toBe(noble(bytes));
    }
    expect(provided).toHaveBeenCalledTimes(SIZES.length);
    expect(digest).toHaveBeenCalledTimes(SIZES.length); // webCrypto() above, never hashBytes
    provideSha256(undefined);
    await hashBytes(sample(10));
    expect(provided).toHaveBeenCalledTimes(SIZES.length);
    expect(digest).toHaveBeenCalledTimes(SIZES.length + 1);
  });

  it('hashes a Uint8Array view into a larger buffer by its own bytes only', async () => {
    const buffer = new Uint8Array([0, 0x61, 0x62, 0x63, 0]);
    expect(await hashBytes(buffer.subarray(1, 4))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
