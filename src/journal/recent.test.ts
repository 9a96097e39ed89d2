import { describe, expect, it } from 'vitest';
import { createMemoryPlatform } from '../platform/memory.js';
import { createChangeJournal } from './journal.js';

const content = (i: number, size = 16): Uint8Array => new TextEncoder().encode(`file ${i} `.padEnd(size, '.'));

/** Whether the journal still remembers `bytes` as the last content it kept at `path`. */
function remembers(journal: ReturnType<typeof createChangeJournal>, path: string, bytes: Uint8Array): boolean {
  return journal.known?.bytesAt(path, bytes.slice()) !== undefined;
}

describe('change journal: the content it remembers per path', () => {
  it('remembers the newest 1,024 paths: a path remembered again is newest again, the oldest others are forgotten', async () => {
    const journal = createChangeJournal(createMemoryPlatform(), { maxBytes: 64 * 1024 * 1024, withPathLock: (_path, fn) => fn() });
    for (let i = 0; i < 1024; i += 1) await journal.retainAt(content(i), `/p${i}`);
    await journal.retainAt(content(0), '/p0');
    for (let i = 1024; i < 1030; i += 1) await journal.retainAt(content(i), `/p${i}`);
    expect(remembers(journal, '/p0', content(0))).toBe(true);
    for (let i = 1; i <= 6; i += 1) expect(remembers(journal, `/p${i}`, content(i)), `p${i}`).toBe(false);
    for (const i of [7, 500, 1023, 1029]) expect(remembers(journal, `/p${i}`, content(i)), `p${i}`).toBe(true);
  });

  it('remembers only the last content of a path, through many rewrites of one path', async () => {
    const journal = createChangeJournal(createMemoryPlatform(), { maxBytes: 64 * 1024 * 1024, withPathLock: (_path, fn) => fn() });
    await journal.retainAt(content(1), '/other');
    for (let i = 0; i < 5000; i += 1) await journal.retainAt(content(i), '/same');
    expect(remembers(journal, '/same', content(4999))).toBe(true);
    expect(remembers(journal, '/same', content(4998))).toBe(false);
    expect(remembers(journal, '/other', content(1))).toBe(true);
  });

  it('keeps the remembered bytes within an eighth of the budget, forgetting the oldest first', async () => {
    // 64 KiB budget: 8 KiB remembered, so eight files of 1 KiB.
    const journal = createChangeJournal(createMemoryPlatform(), { maxBytes: 64 * 1024, withPathLock: (_path, fn) => fn() });
    for (let i = 0; i < 12; i += 1) await journal.retainAt(content(i, 1024), `/k${i}`);
    for (let i = 0; i < 4; i += 1) expect(remembers(journal, `/k${i}`, content(i, 1024)), `k${i}`).toBe(false);
    for (let i = 4; i < 12; i += 1) expect(remembers(journal, `/k${i}`, content(i, 1024)), `k${i}`).toBe(true);
  });
});
