import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launch, newProfile, removeProfile, requireChromium, startServer, type BrowserSession, type TestServer } from './harness.js';

type Result = { id?: string; name: string; result?: any; error?: string; code?: string };
type Envelope = { ok: boolean; value?: any; code?: string; message?: string };
declare const tw: {
  open(config: Record<string, unknown>): Promise<Envelope>;
  call(calls: unknown[]): Promise<Result[]>;
  changes(): Promise<Envelope>;
  apply(): Promise<Envelope>;
  discard(): Promise<Envelope>;
  writeOutside(dir: string, path: string, text: string): Promise<void>;
  readOutside(dir: string): Promise<Record<string, string>>;
  removeOutside(dir: string): Promise<void>;
  fsCall(method: string, args: unknown[]): Promise<Envelope>;
};

let server: TestServer;
let session: BrowserSession;
let profile: string;
let page: Page;

beforeAll(async () => {
  requireChromium();
  server = await startServer();
  profile = newProfile();
  session = await launch(profile);
  page = session.page;
});
afterAll(async () => {
  await session?.close();
  await server?.close();
  if (profile) removeProfile(profile);
});

async function load(): Promise<void> {
  await page.goto(server.page('workspace.html'));
  await page.waitForFunction(() => document.title === 'toolhost workspace page ready');
}
async function open(config: Record<string, unknown>): Promise<Envelope> {
  return page.evaluate((c) => tw.open(c), config);
}
async function call(calls: unknown[]): Promise<Result[]> {
  return page.evaluate((c) => tw.call(c), calls);
}

describe('web platform on a folder handle', () => {
  it('creates, edits, views, greps and finds files in the folder itself, sees outside changes, and reopens the remembered folder after a reload', async () => {
    await load();
    expect(await open({ workspace: 'folder-1', backend: { opfs: 'proj' } })).toEqual({ ok: true, value: { backend: 'directory', capabilities: { runCommand: false, webSearch: false, persistent: true } } });
    const results = await call([
      { id: 'c', name: 'create_file', args: { file_path: 'src/a.txt', content: 'hello\nworld\n' } },
      { id: 'e', name: 'edit_file', args: { file_path: 'src/a.txt', old_string: 'world', new_string: 'there' } },
      { id: 'v', name: 'view_file', args: { file_path: 'src/a.txt' } },
      { id: 'g', name: 'grep_search', args: { pattern: 'the' } },
      { id: 'f', name: 'find_file', args: { pattern: '**/*.txt' } },
    ]);
    expect(results.map((r) => r.code ?? 'ok')).toEqual(['ok', 'ok', 'ok', 'ok', 'ok']);
    expect(results[0]?.result).toEqual({ file_path: '/workspace/src/a.txt', bytes_written: 12, created: true });
    expect(results[2]?.result.content).toBe('hello\nthere');
    expect(results[3]?.result.matches).toEqual([{ file_path: '/workspace/src/a.txt', line_number: 2, column: 1, line: 'there' }]);
    expect(results[4]?.result.files).toEqual(['/workspace/src/a.txt']);
    expect(await page.evaluate(() => tw.readOutside('proj'))).toEqual({ 'src/a.txt': 'hello\nthere\n' });

    await page.evaluate(() => tw.writeOutside('proj', 'src/a.txt', 'changed outside\n'));
    const seen = await call([{ name: 'view_file', args: { file_path: 'src/a.txt' } }]);
    expect(seen[0]?.result.content).toBe('changed outside');

    await load();
    expect((await open({ workspace: 'folder-1', backend: 'directory' })).ok).toBe(true);
    const again = await call([{ name: 'view_file', args: { file_path: 'src/a.txt' } }, { name: 'list_dir', args: { dir_path: 'src' } }]);
    expect(again[0]?.result.content).toBe('changed outside');
    expect(again[1]?.result.entries.map((e: { name: string }) => e.name)).toEqual(['a.txt']);

    await page.evaluate(() => tw.removeOutside('proj'));
    const gone = await call([{ name: 'view_file', args: { file_path: 'src/a.txt' } }]);
    expect(gone[0]?.code).toBe('unavailable');
    expect(gone[0]?.error).toContain('pick it again with showDirectoryPicker()');
  });
});

describe('web platform folder permission', () => {
  it('answers permission_denied, saying how to grant access, when the browser has not granted the folder', async () => {
    await load();
    const opened = await open({ workspace: 'denied-1', backend: { opfs: 'denied-folder', permission: 'denied' } });
    expect(opened).toEqual({
      ok: false,
      code: 'permission_denied',
      message: `the browser has not granted access to the folder "denied-folder" of workspace "denied-1" (permission: denied); on the page, call (await rememberedDirectory("denied-1")).requestPermission({ mode: 'readwrite' }) from a click, then reopen the workspace`,
    });
    const again = await open({ workspace: 'denied-2', backend: 'directory' });
    expect(again).toEqual({ ok: false, code: 'unavailable', message: 'workspace "denied-2" has no remembered folder; open it once with createWebPlatform({ workspace: "denied-2", backend: folderWorkspace(handle) })' });
  });
});

describe('web platform mounts', () => {
  it("mounts a zip read-only: view and grep reach it (its own .gitignore applies), writes answer permission_denied and change nothing", async () => {
    await load();
    const opened = await open({ workspace: 'mounts-1', files: { 'README.md': 'top\n' }, mounts: { '/workspace/docs': { zip: { 'guide.md': 'install\nuse the zip\n', 'sub/deep.txt': 'zip deep\n', '.gitignore': 'build/\n', 'build/out.txt': 'zip build output\n' } } } });
    expect(opened.ok).toBe(true);
    const results = await call([
      { name: 'view_file', args: { file_path: 'docs/guide.md' } },
      { name: 'grep_search', args: { pattern: 'zip' } },
      { name: 'list_dir', args: { dir_path: '.' } },
      { name: 'create_file', args: { file_path: 'docs/new.md', content: 'x' } },
      { name: 'edit_file', args: { file_path: 'docs/guide.md', old_string: 'install', new_string: 'setup' } },
      { name: 'view_file', args: { file_path: 'docs/guide.md' } },
      { name: 'view_file', args: { file_path: 'docs/new.md' } },
    ]);
    expect(results[0]?.result.content).toBe('install\nuse the zip');
    expect(results[1]?.result.matches.map((m: { file_path: string; line: string }) => [m.file_path, m.line])).toEqual([
      ['/workspace/docs/guide.md', 'use the zip'],
      ['/workspace/docs/sub/deep.txt', 'zip deep'],
    ]);
    expect(results[2]?.result.entries.map((e: { name: string }) => e.name)).toEqual(['README.md', 'docs']);
    expect(results.slice(3, 5).map((r) => r.code)).toEqual(['permission_denied', 'permission_denied']);
    expect(results[3]?.error).toBe("EACCES: the mount /workspace/docs is mounted read-only; nothing was changed, writeFile '/workspace/docs/new.md'");
    expect(results[5]?.result.content).toBe('install\nuse the zip');
    expect(results[6]?.code).toBe('not_found');
  });
});

describe('web platform mounts of folders and workspaces', () => {
  it('mounts a folder and another workspace writable: searches cross them, writes land in each, and the other workspace keeps them', async () => {
    await load();
    expect((await open({ workspace: 'other-1', files: { 'lib/util.ts': 'export const shared = 1;\n' } })).ok).toBe(true);
    await page.evaluate(() => tw.writeOutside('mounted-folder', 'notes.md', 'shared notes\n'));
    const opened = await open({
      workspace: 'mounts-2',
      files: { 'main.ts': 'import { shared } from "./other/lib/util";\n' },
      mounts: { '/workspace/other': { workspace: 'other-1' }, '/workspace/notes': { opfs: 'mounted-folder' } },
    });
    expect(opened.ok).toBe(true);
    const results = await call([
      { name: 'grep_search', args: { pattern: 'shared' } },
      { name: 'create_file', args: { file_path: 'other/lib/added.ts', content: 'export const added = 2;\n' } },
      { name: 'edit_file', args: { file_path: 'notes/notes.md', old_string: 'shared', new_string: 'edited' } },
    ]);
    expect(results[0]?.result.matches.map((m: { file_path: string }) => m.file_path)).toEqual(['/workspace/main.ts', '/workspace/notes/notes.md', '/workspace/other/lib/util.ts']);
    expect(results.slice(1, 3).map((r) => r.code ?? 'ok')).toEqual(['ok', 'ok']);
    expect(await page.evaluate(() => tw.readOutside('mounted-folder'))).toEqual({ 'notes.md': 'edited notes\n' });

    await load();
    expect((await open({ workspace: 'other-1' })).ok).toBe(true);
    const other = await call([{ name: 'find_file', args: { pattern: '**/*.ts' } }]);
    expect(other[0]?.result.files).toEqual(['/workspace/lib/added.ts', '/workspace/lib/util.ts']);
  });

  it('mounts a ZenFS Fetch tree served over HTTP read-only: list, view and grep reach it', async () => {
    await load();
    expect((await open({ workspace: 'fetch-1', mounts: { '/workspace/site': { fetch: 'fetch-tree' } } })).ok).toBe(true);
    const results = await call([
      { name: 'list_dir', args: { dir_path: 'site' } },
      { name: 'view_file', args: { file_path: 'site/guide/intro.md' } },
      { name: 'grep_search', args: { pattern: 'line' } },
      { name: 'create_file', args: { file_path: 'site/new.txt', content: 'x' } },
    ]);
    expect(results[0]?.result.entries.map((e: { name: string; type: string }) => [e.name, e.type])).toEqual([['guide', 'directory'], ['top.txt', 'file']]);
    expect(results[1]?.result.content).toBe('fetched over http\nsecond line');
    expect(results[2]?.result.matches).toEqual([{ file_path: '/workspace/site/guide/intro.md', line_number: 2, column: 8, line: 'second line' }]);
    expect(results[3]?.code).toBe('permission_denied');
  });

  it("refuses shell: 'just-bash' by name, saying which entry brings it", async () => {
    await load();
    const opened = await open({ workspace: 'shell-3', shell: 'by-name' });
    expect(opened).toEqual({
      ok: false,
      code: 'TypeError',
      message: "createWebPlatform: shell 'just-bash' comes from its own entry, so that only its users bundle it: import { justBash } from 'toolhost/web/shell' and pass shell: justBash()",
    });
  });
});

describe('web platform overlay', () => {
  it('keeps edits in the overlay until apply(), lists exact diffs, discards, and reports a conflict instead of overwriting', async () => {
    await load();
    await page.evaluate(async () => {
      await tw.writeOutside('base-1', 'a.txt', 'one\ntwo\n');
      await tw.writeOutside('base-1', 'gone.txt', 'bye\n');
    });
    expect((await open({ workspace: 'overlay-1', overlay: { opfs: 'base-1' }, shell: true })).ok).toBe(true);
    const edits = await call([
      { name: 'edit_file', args: { file_path: 'a.txt', old_string: 'two', new_string: 'TWO' } },
      { name: 'create_file', args: { file_path: 'new/b.txt', content: 'bee\n' } },
      { name: 'run_command', args: { command: 'rm gone.txt' } },
      { name: 'view_file', args: { file_path: 'a.txt' } },
      { name: 'find_file', args: { pattern: '**/*.txt' } },
    ]);
    expect(edits.map((r) => r.code ?? 'ok')).toEqual(['ok', 'ok', 'ok', 'ok', 'ok']);
    expect(edits[2]?.result.exit_code).toBe(0);
    expect(edits[3]?.result.content).toBe('one\nTWO');
    expect(edits[4]?.result.files).toEqual(['/workspace/a.txt', '/workspace/new/b.txt']);
    expect(await page.evaluate(() => tw.readOutside('base-1'))).toEqual({ 'a.txt': 'one\ntwo\n', 'gone.txt': 'bye\n' });
    const changes = await page.evaluate(() => tw.changes());
    expect(changes.value).toEqual([
      { path: 'a.txt', kind: 'modified', diff: '--- a.txt\n+++ a.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+TWO\n' },
      { path: 'gone.txt', kind: 'deleted', diff: '--- gone.txt\n+++ gone.txt\n@@ -1,1 +0,0 @@\n-bye\n' },
      { path: 'new/b.txt', kind: 'created', diff: '--- new/b.txt\n+++ new/b.txt\n@@ -0,0 +1,1 @@\n+bee\n' },
    ]);

    expect(await page.evaluate(() => tw.discard())).toEqual({ ok: true });
    expect((await page.evaluate(() => tw.changes())).value).toEqual([]);
    expect((await call([{ name: 'view_file', args: { file_path: 'a.txt' } }]))[0]?.result.content).toBe('one\ntwo');
    expect((await call([{ name: 'view_file', args: { file_path: 'gone.txt' } }]))[0]?.result.content).toBe('bye');

    await call([
      { name: 'edit_file', args: { file_path: 'a.txt', old_string: 'one', new_string: 'ONE' } },
      { name: 'create_file', args: { file_path: 'c.txt', content: 'sea\n' } },
    ]);
    const applied = await page.evaluate(() => tw.apply());
    expect(applied).toEqual({ ok: true, value: { applied: ['a.txt', 'c.txt'], conflicts: [] } });
    expect(await page.evaluate(() => tw.readOutside('base-1'))).toEqual({ 'a.txt': 'ONE\ntwo\n', 'c.txt': 'sea\n', 'gone.txt': 'bye\n' });
    expect((await page.evaluate(() => tw.changes())).value).toEqual([]);

    await call([{ name: 'edit_file', args: { file_path: 'a.txt', old_string: 'ONE', new_string: 'uno' } }]);
    await page.evaluate(() => tw.writeOutside('base-1', 'a.txt', 'changed underneath\n'));
    const conflict = await page.evaluate(() => tw.apply());
    expect(conflict).toEqual({ ok: true, value: { applied: [], conflicts: [{ path: 'a.txt', reason: 'the base file changed since the overlay changed it' }] } });
    expect(await page.evaluate(() => tw.readOutside('base-1'))).toEqual({ 'a.txt': 'changed underneath\n', 'c.txt': 'sea\n', 'gone.txt': 'bye\n' });
  });
});

describe('web platform shell', () => {
  it('runs run_command through just-bash on the workspace files with the option, and answers the empty result without it', async () => {
    await load();
    expect((await open({ workspace: 'shell-1', files: { 'a.txt': 'x marks\nnothing\nxylophone\n', 'z.txt': '' }, shell: true })).ok).toBe(true);
    const results = await call([
      { name: 'run_command', args: { command: 'ls | wc -l' } },
      { name: 'run_command', args: { command: 'cat a.txt | grep x > b.txt' } },
      { name: 'view_file', args: { file_path: 'b.txt' } },
      { name: 'run_command', args: { command: 'exit 3' } },
    ]);
    expect(results[0]?.result).toEqual({ stdout: '2\n', stderr: '', exit_code: 0, signal: null, timed_out: false, truncated: false });
    expect(results[1]?.result).toEqual({ stdout: '', stderr: '', exit_code: 0, signal: null, timed_out: false, truncated: false });
    expect(results[2]?.result.content).toBe('x marks\nxylophone');
    expect(results[3]?.result.exit_code).toBe(3);

    expect((await open({ workspace: 'shell-2' })).ok).toBe(true);
    const none = await call([{ name: 'run_command', args: { command: 'ls' } }]);
    expect(none[0]?.result).toEqual({ stdout: '', stderr: '', exit_code: null, signal: null, timed_out: false, truncated: false, note: 'run_command is not available in the browser' });
  });
});
