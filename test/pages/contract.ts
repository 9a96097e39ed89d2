// The shared platform contract suite (test/contract/platform-contract.ts) against the web platform, in
// the page: once on IndexedDB (a fresh workspace per platform) and once on the memory backend.
import { describePlatformContract } from '../contract/platform-contract.js';
import { createWebPlatform } from '../../web/index.js';
import { describe, expect, it, runCollected } from './vitest-shim.js';

// Guards against a vacuous stand-in: these must fail, and the Node side checks that they do.
describe('shim self-check', () => {
  it('fails a wrong toBe', () => {
    (expect(1) as { toBe(v: unknown): void }).toBe(2);
  });
  it('fails a wrong toEqual on objects', () => {
    (expect({ a: [1] }) as { toEqual(v: unknown): void }).toEqual({ a: [2] });
  });
});

const run = Date.now().toString(36);
let n = 0;
describePlatformContract('web (IndexedDB)', () => createWebPlatform({ workspace: `contract-${run}-${(n += 1)}` }), {
  name: 'web',
  capabilities: { runCommand: false, webSearch: false, persistent: true },
});
describePlatformContract('web (memory backend)', () => createWebPlatform({ workspace: `contract-memory-${(n += 1)}`, backend: 'memory' }), {
  name: 'web',
  capabilities: { runCommand: false, webSearch: false, persistent: false },
});

(globalThis as unknown as { contract: { run: typeof runCollected } }).contract = { run: runCollected };
document.title = 'toolhost contract page ready';
