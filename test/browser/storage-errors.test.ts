import { describe, expect, it } from 'vitest';
import { openTestPage } from './harness.js';

type Result = { id?: string; name: string; result?: any; error?: string; code?: string };
declare const th: {
  start(config: Record<string, unknown>): Promise<number>;
  call(calls: unknown[], options?: unknown): Promise<Result[]>;
  stored(workspace: string): Promise<{ ok: boolean; value?: any; code?: string; message?: string }>;
  list(): Promise<{ ok: boolean; value?: any; code?: string }>;
  remove(workspace: string): Promise<{ ok: boolean; code?: string; message?: string }>;
};

const opened = openTestPage('index.html', 'toolhost test page ready');

const codes = (results: Result[]) => results.map((r) => r.code ?? 'ok');

describe('web platform storage errors and workspace management', () => {
  for (const perCall of [false, true]) {
    const mode = perCall ? 'one commit per call (no platform.batch)' : 'one commit per batch (platform.batch)';
    it(`answers quota_exceeded when IndexedDB is full and keeps earlier content in memory and on disk: ${mode}`, async () => {
      const page = opened.session.page;
      const workspace = perCall ? 'quota-call' : 'quota-batch';
      await page.evaluate((c) => th.start(c), { workspace, faults: true, perCall });
      const before = await page.evaluate(() =>
        th.call([
          { name: 'create_file', args: { file_path: 'd/a.txt', content: 'v1\n' } },
          { name: 'create_file', args: { file_path: 'd/c.txt', content: 'c1\n' } },
          { name: 'remember', args: { key: 'k', value: 1 } },
        ]),
      );
      expect(codes(before)).toEqual(['ok', 'ok', 'ok']);
      expect(codes(await page.evaluate(() => th.call([{ name: 'arm_quota', args: { armed: true } }])))).toEqual(['ok']);
      const failed = await page.evaluate(() =>
        th.call([
          { name: 'create_file', args: { file_path: 'd/a.txt', content: 'v2\n', overwrite: true } },
          { name: 'create_file', args: { file_path: 'e/b.txt', content: 'b\n' } },
          { name: 'edit_file', args: { file_path: 'd/c.txt', old_string: 'c1', new_string: 'c2' } },
          { name: 'remember', args: { key: 'k', value: 2 } },
          { name: 'edit_file', args: { file_path: 'd/c.txt', old_string: 'absent', new_string: 'x' } },
        ]),
      );
      expect(codes(failed)).toEqual(['quota_exceeded', 'quota_exceeded', 'quota_exceeded', 'quota_exceeded', 'no_match']);
      expect(failed[0]?.error).toMatch(/storage is full/);
      const after = await page.evaluate(() =>
        th.call([
          { name: 'arm_quota', args: { armed: false } },
          { name: 'view_file', args: { file_path: 'd/a.txt' } },
          { name: 'view_file', args: { file_path: 'e/b.txt' } },
          { name: 'view_file', args: { file_path: 'd/c.txt' } },
          { name: 'list_dir', args: { dir_path: '/workspace' } },
        ]),
      );
      expect(codes(after)).toEqual(['ok', 'ok', 'not_found', 'ok', 'ok']);
      expect(after[1]?.result.content).toBe('v1');
      expect(after[3]?.result.content).toBe('c1');
      expect(after[4]?.result.entries.map((e: { name: string }) => e.name)).toEqual(['d']);
      const stored = await page.evaluate((w) => th.stored(w), workspace);
      expect(stored.value.files).toEqual({ '/workspace/d/a.txt': 'v1\n', '/workspace/d/c.txt': 'c1\n' });
      expect(stored.value.state).toEqual({ default: { k: 1 } });
      // The runner stays usable, and a new worker reads the intact content.
      expect(codes(await page.evaluate(() => th.call([{ name: 'create_file', args: { file_path: 'x.txt', content: 'x' } }])))).toEqual(['ok']);
      await page.evaluate((c) => th.start(c), { workspace, perCall });
      const fresh = await page.evaluate(() => th.call([{ name: 'view_file', args: { file_path: 'd/a.txt' } }, { name: 'recall', args: { keys: ['k'] } }]));
      expect(fresh[0]?.result.content).toBe('v1');
      expect(fresh[1]?.result).toEqual({ k: 1 });
    });
  }

  it('answers unavailable with a clear message without IndexedDB (private mode) and when opening is blocked', async () => {
    const page = opened.session.page;
    await page.evaluate(() => th.start({ workspace: 'private', noIdb: true }));
    const none = await page.evaluate(() => th.call([{ name: 'create_file', args: { file_path: 'x.txt', content: 'x' } }, { name: 'recall', args: { keys: ['k'] } }]));
    expect(codes(none)).toEqual(['unavailable', 'unavailable']);
    expect(none[0]?.error).toMatch(/IndexedDB is not available.*private browsing/);
    await page.evaluate(() => th.start({ workspace: 'blocked', blocked: true }));
    const blocked = await page.evaluate(() => th.call([{ name: 'list_dir', args: { dir_path: '/workspace' } }]));
    expect(codes(blocked)).toEqual(['unavailable']);
    expect(blocked[0]?.error).toMatch(/blocked: another tab/);
  });

  it('runs a memory backend that reports persistent: false and keeps nothing', async () => {
    const page = opened.session.page;
    await page.evaluate(() => th.start({ workspace: 'scratch', backend: 'memory' }));
    const [info, created] = await page.evaluate(() =>
      th.call([{ name: 'platform_info', args: {} }, { name: 'create_file', args: { file_path: 'm.txt', content: 'm' } }]),
    );
    expect(info?.result.capabilities).toEqual({ runCommand: false, webSearch: false, persistent: false });
    expect(created?.code).toBeUndefined();
    await page.evaluate(() => th.start({ workspace: 'scratch', backend: 'memory' }));
    expect(codes(await page.evaluate(() => th.call([{ name: 'view_file', args: { file_path: 'm.txt' } }])))).toEqual(['not_found']);
    expect((await page.evaluate(() => th.list())).value).not.toContain('scratch');
  });

  it('keeps files in the Origin Private File System with backend opfs, and state in IndexedDB', async () => {
    const page = opened.session.page;
    await page.evaluate(() => th.start({ workspace: 'in-opfs', backend: 'opfs' }));
    const first = await page.evaluate(() =>
      th.call([
        { name: 'platform_info', args: {} },
        { name: 'create_file', args: { file_path: 'o/p.txt', content: 'one\ntwo\n' } },
        { name: 'edit_file', args: { file_path: 'o/p.txt', old_string: 'two', new_string: 'three' } },
        { name: 'remember', args: { key: 'opfs', value: true } },
      ]),
    );
    expect(codes(first)).toEqual(['ok', 'ok', 'ok', 'ok']);
    expect(first[0]?.result).toMatchObject({ backend: 'opfs', capabilities: { runCommand: false, webSearch: false, persistent: true } });
    await page.evaluate(() => th.start({ workspace: 'in-opfs', backend: 'opfs' }));
    const again = await page.evaluate(() =>
      th.call([{ name: 'view_file', args: { file_path: 'o/p.txt' } }, { name: 'recall', args: { keys: ['opfs'] } }, { name: 'find_file', args: { pattern: '*.txt' } }]),
    );
    expect(again[0]?.result.content).toBe('one\nthree');
    expect(again[1]?.result).toEqual({ opfs: true });
    expect(again[2]?.result.files).toEqual(['/workspace/o/p.txt']);
  });

  it('lists, exports and deletes workspaces; an open platform on a deleted workspace fails with unavailable', async () => {
    const page = opened.session.page;
    await page.evaluate(() => th.start({ workspace: 'admin' }));
    await page.evaluate(() =>
      th.call([
        { name: 'create_file', args: { file_path: 'src/main.ts', content: 'export {};\n' } },
        { name: 'create_file', args: { file_path: 'bin.dat', content: 'AQID' } },
        { name: 'remember', args: { key: 'k', value: 'v' } },
      ]),
    );
    expect((await page.evaluate(() => th.list())).value).toEqual(expect.arrayContaining(['admin', 'quota-batch', 'quota-call']));
    const exported = await page.evaluate(() => th.stored('admin'));
    expect(exported.value).toEqual({
      files: { '/workspace/bin.dat': 'AQID', '/workspace/src/main.ts': 'export {};\n' },
      directories: ['/workspace/src'],
      symlinks: {},
      state: { default: { k: 'v' } },
    });
    expect(await page.evaluate(() => th.remove('admin'))).toEqual({ ok: true, value: undefined });
    expect((await page.evaluate(() => th.list())).value).not.toContain('admin');
    expect(await page.evaluate(() => th.stored('admin'))).toMatchObject({ ok: false, code: 'not_found' });
    const late = await page.evaluate(() => th.call([{ name: 'create_file', args: { file_path: 'late.txt', content: 'x' } }]));
    expect(codes(late)).toEqual(['unavailable']);
    expect(late[0]?.error).toMatch(/deleted or upgraded in another tab/);
  });
});
