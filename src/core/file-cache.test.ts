import { afterEach, describe, expect, it, vi } from 'vitest';
import { hashBytes } from './file-cache.js';

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
  });

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

  it('hashes every size in JavaScript, with the same digests, where WebCrypto is missing (a page over plain http)', async () => {
    const expected = await Promise.all(SIZES.map((size) => webCrypto(sample(size))));
    vi.stubGlobal('crypto', {});
    expect(globalThis.crypto.subtle).toBe(undefined);
    for (const [i, size] of SIZES.entries()) expect(await hashBytes(sample(size)), `size ${size}`).toBe(expected[i]);
  });

  it('hashes 1 KiB and more through WebCrypto and less in JavaScript', async () => {
    const digest = vi.spyOn(crypto.subtle, 'digest');
    await hashBytes(sample(1023));
    expect(digest).toHaveBeenCalledTimes(0);
    await hashBytes(sample(1024));
    await hashBytes(sample(4096));
    expect(digest).toHaveBeenCalledTimes(2);
  });

  it('hashes a Uint8Array view into a larger buffer by its own bytes only', async () => {
    const buffer = new Uint8Array([0, 0x61, 0x62, 0x63, 0]);
    expect(await hashBytes(buffer.subarray(1, 4))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
