import { describe, expect, it } from 'vitest';
import { runDifferential } from '../test/support/journal-differential.js';
import { createWebPlatform, deleteWorkspace } from './index.js';
import { IdbJournalStore, PENDING_BLOB_BYTES } from './journal-store.js';

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

describe('IdbJournalStore (Chromium)', () => {
  it('commits blobs while a turn still runs, once PENDING_BLOB_BYTES of them wait and before any turn refers to them; the turn put then finds them all', async () => {
    const workspace = `journal-store-${Date.now()}`;
    const store = new IdbJournalStore(() => indexedDB, workspace);
    // Another store on the same database reads only what is committed (it holds nothing in memory).
    const reader = new IdbJournalStore(() => indexedDB, workspace);
    try {
      const blobs = Array.from({ length: 12 }, (_, i) => new Uint8Array(PENDING_BLOB_BYTES / 8).fill(i + 1));
      for (const [i, bytes] of blobs.entries()) await store.putBlob(`sha256:${i}`, bytes);
      // Committed in the background: wait for the last one (a deadline, not a guess at how long it takes).
      const deadline = Date.now() + 10_000;
      while ((await reader.getBlob('sha256:11')) === undefined && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      for (const [i, bytes] of blobs.entries()) expect(await reader.getBlob(`sha256:${i}`), `blob ${i}`).toEqual(bytes);
      expect(await reader.listTurns()).toEqual([]);
      // A blob under the threshold waits for the turn that refers to it, and is committed with it.
      await store.putBlob('sha256:small', new Uint8Array([7, 8, 9]));
      const turn = { conversationId: 'c', turn: 1, seq: 1, at: 5, calls: [{ callId: 'k', tool: 'create_file', files: [{ path: '/workspace/a', before: 'absent', after: 'sha256:small' }] }] };
      await store.putTurn(turn);
      expect(await reader.getBlob('sha256:small')).toEqual(new Uint8Array([7, 8, 9]));
      expect(await reader.listTurns()).toEqual([turn]);
    } finally {
      await deleteWorkspace(workspace);
    }
  });
});
