import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMemoryPlatform } from '../src/platform/memory.js';
import { createNodePlatform } from '../node/platform.js';
import { runDifferential } from './support/journal-differential.js';

// Seeded random turns of writing calls from several conversations, outside writes and rewinds,
// checked against a plain Map after every step (test/support/journal-differential.ts); the same run in
// Chromium on an IndexedDB workspace is web/journal-differential.test.ts.

describe('change journal, differentially against a plain Map', () => {
  it('restores exactly the rewound conversation’s files and reports conflicts exactly where others wrote, on the memory platform', async () => {
    const seen = await runDifferential(createMemoryPlatform(), 0x10a7a1, 600);
    // The run exercised what it checks: restores, conflicts, forced and dry runs, refused stale edits.
    expect(seen.rewinds).toBeGreaterThan(80);
    expect(seen.restored).toBeGreaterThan(80);
    expect(seen.conflicts).toBeGreaterThan(10);
    expect(seen.forced).toBeGreaterThan(3);
    expect(seen.dryRuns).toBeGreaterThan(5);
    expect(seen.moves).toBeGreaterThan(10);
  });

  const bases: string[] = [];
  afterAll(async () => {
    for (const base of bases) await rm(base, { recursive: true, force: true });
  });

  it('does the same on the Node platform over a temporary directory', async () => {
    const base = await realpath(await mkdtemp(join(tmpdir(), 'toolhost-journal-')));
    bases.push(base);
    const seen = await runDifferential(createNodePlatform({ root: base }), 0x20b7b2, 200);
    expect(seen.rewinds).toBeGreaterThan(25);
    expect(seen.restored).toBeGreaterThan(25);
    expect(seen.conflicts).toBeGreaterThan(3);
  });
});
