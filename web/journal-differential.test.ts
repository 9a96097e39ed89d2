import { describe, expect, it } from 'vitest';
import { runDifferential } from '../test/support/journal-differential.js';
import { createWebPlatform, deleteWorkspace } from './index.js';

// The change journal's differential run (test/support/journal-differential.ts) in Chromium, on an
// IndexedDB workspace whose journal lives in the workspace's own journal database.
describe('change journal on an IndexedDB workspace, differentially against a plain Map (Chromium)', () => {
  it('restores exactly the rewound conversation’s files and reports conflicts exactly where others wrote', async () => {
    const workspace = `journal-differential-${Date.now()}`;
    const platform = createWebPlatform({ workspace, backend: 'indexeddb' });
    await platform.ready();
    try {
      expect(typeof platform.journalStore).toBe('function');
      const seen = await runDifferential(platform, 0x30c7c3, 150);
      expect(seen.rewinds).toBeGreaterThan(15);
      expect(seen.restored).toBeGreaterThan(15);
      expect(seen.conflicts).toBeGreaterThan(2);
    } finally {
      await platform.dispose?.();
      await deleteWorkspace(workspace);
    }
  }, 120_000);
});
