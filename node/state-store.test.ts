import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPackage } from '../test/support/build.js';
import { FileStateStore, stateFileName } from './state-store.js';

const run = promisify(execFile);

let dir: string;
let compiled: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'toolhost-state-'));
  // The child processes run the shared build (dist/, test/support/build.ts) of state-store.ts.
  compiled = buildPackage('toolhost-state-test');
}, 120_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Runs `body` in a fresh `node` process with `store` = a FileStateStore on `stateDir`; returns its stdout. */
async function inChild(stateDir: string, body: string): Promise<string> {
  const url = new URL(`file://${join(compiled, 'node/state-store.js')}`).href;
  const script = `import { FileStateStore } from ${JSON.stringify(url)};\nconst store = new FileStateStore(${JSON.stringify(stateDir)});\n${body}`;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script]);
  return stdout;
}

describe('FileStateStore', () => {
  it('refuses a stateDir that is not a non-empty path with a TypeError naming it', () => {
    for (const [value, shown] of [[5, '5'], ['', '""'], [undefined, 'undefined'], ['a\0b', '"a\\u0000b"']] as const) {
      expect(() => new FileStateStore(value as never)).toThrow(new TypeError(`FileStateStore: stateDir must be a non-empty path without NUL bytes, not ${shown}`));
    }
  });

  it('is read by the next process on the same stateDir', async () => {
    const stateDir = join(dir, 'across');
    const store = new FileStateStore(stateDir);
    await store.set('conv/1', 'counter', 41);
    await store.setMany('conv/1', [['todo', ['a', { done: false }]], ['gone', 1], ['gone', undefined]]);
    const seen = JSON.parse(await inChild(stateDir, "console.log(JSON.stringify(await store.getAll('conv/1')));"));
    expect(seen).toEqual({ counter: 41, todo: ['a', { done: false }] });
  });

  it('reads what a previous process wrote', async () => {
    const stateDir = join(dir, 'back');
    await inChild(stateDir, "await store.setMany('c', [['k', { n: 1 }], ['unicode', 'é😀']]);");
    const store = new FileStateStore(stateDir);
    expect(await store.getAll('c')).toEqual({ k: { n: 1 }, unicode: 'é😀' });
    expect(await store.keys('c')).toEqual(['k', 'unicode']);
    expect(await store.get('c', 'missing')).toBeUndefined();
  });

  it('writes one file per conversation and leaves no temporary files', async () => {
    const stateDir = join(dir, 'files');
    const store = new FileStateStore(stateDir);
    await Promise.all(Array.from({ length: 20 }, (_, i) => store.set('one', `k${i}`, i)));
    await store.set('two', 'x', true);
    expect((await readdir(stateDir)).sort()).toEqual(['one.json', 'two.json']);
    expect(Object.keys(await store.getAll('one'))).toHaveLength(20);
    const file = JSON.parse(await readFile(join(stateDir, 'one.json'), 'utf8'));
    expect(file).toMatchObject({ version: 1, conversationId: 'one' });
  });

  it('never lets a conversation id escape the state directory', async () => {
    const stateDir = join(dir, 'escape');
    const store = new FileStateStore(stateDir);
    const ids = ['../../evil', '..', '.', '/etc/passwd', 'a/b', 'nul\0byte', 'x'.repeat(1000), '~home', '%2e%2e'];
    for (const id of ids) {
      const name = stateFileName(id);
      expect(name).not.toContain('/');
      expect(name).not.toContain('\0');
      expect(name.length).toBeLessThan(256);
      expect(resolve(stateDir, name).startsWith(stateDir + '/')).toBe(true);
      await store.set(id, 'v', id);
    }
    expect(await readdir(dir)).toEqual(expect.not.arrayContaining(['evil']));
    const names = await readdir(stateDir);
    expect(names).toHaveLength(ids.length);
    for (const id of ids) expect(await store.get(id, 'v')).toBe(id);
    expect((await store.conversations()).sort()).toEqual([...ids].sort());
  });

  it('keeps a __proto__ key as data', async () => {
    const store = new FileStateStore(join(dir, 'proto'));
    await store.set('c', '__proto__', { polluted: true });
    const all = await store.getAll('c');
    expect(Object.keys(all)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(await new FileStateStore(join(dir, 'proto')).get('c', '__proto__')).toEqual({ polluted: true });
  });

  it('deletes keys and removes the file when a conversation is empty', async () => {
    const stateDir = join(dir, 'delete');
    const store = new FileStateStore(stateDir);
    await store.set('c', 'a', 1);
    await store.delete('c', 'a');
    expect(await store.getAll('c')).toEqual({});
    expect(await readdir(stateDir)).toEqual([]);
  });

  it('rejects a corrupt state file with execution_failed naming it', async () => {
    const stateDir = join(dir, 'corrupt');
    const store = new FileStateStore(stateDir);
    await store.set('c', 'a', 1);
    await writeFile(store.pathFor('c'), '{"version":1,');
    await expect(store.get('c', 'a')).rejects.toMatchObject({ code: 'execution_failed', message: expect.stringContaining(store.pathFor('c')) });
  });

  it('answers a snapshot at the known revision from the head of the file, without parsing the rest', async () => {
    const store = new FileStateStore(join(dir, 'head'));
    await store.setMany('c', [['a', 1], ['b', 'x'.repeat(10_000)]]);
    const first = await store.snapshot('c', undefined);
    expect(first).toEqual({ version: expect.stringMatching(/^[A-Za-z0-9_-]{12}$/), state: { a: 1, b: 'x'.repeat(10_000) } });
    const text = await readFile(store.pathFor('c'), 'utf8');
    // Same head, a body that is no longer JSON: only a full read would notice.
    await writeFile(store.pathFor('c'), text.slice(0, text.indexOf('"state"') + 12));
    expect(await store.snapshot('c', first.version)).toEqual({ version: first.version });
    await expect(store.snapshot('c', 'some-other-revision')).rejects.toMatchObject({ code: 'execution_failed' });
  });

  it('answers a snapshot with the state when another writer moved the revision, and when the file went away', async () => {
    const stateDir = join(dir, 'moved');
    const store = new FileStateStore(stateDir);
    await store.set('c', 'n', 1);
    const { version } = await store.snapshot('c', undefined);
    await inChild(stateDir, "await store.set('c', 'n', 2);");
    const moved = await store.snapshot('c', version);
    expect(moved.version).not.toBe(version);
    expect(moved.state).toEqual({ n: 2 });
    await store.delete('c', 'n');
    expect(await store.snapshot('c', moved.version)).toEqual({ version: 'none', state: {} });
    expect(await store.snapshot('c', 'none')).toEqual({ version: 'none' });
  });

  it('reads the whole file when its head does not show the revision (an id longer than the head, a file written before revisions)', async () => {
    const store = new FileStateStore(join(dir, 'long-head'));
    const long = 'q"\\'.repeat(2000);
    await store.set(long, 'k', 'v');
    const { version } = await store.snapshot(long, undefined);
    expect(await store.snapshot(long, version)).toEqual({ version });
    const old = JSON.stringify({ version: 1, conversationId: 'old', state: { k: 'v' } });
    await writeFile(store.pathFor('old'), old);
    expect(await store.snapshot('old', undefined)).toEqual({ version: `len-${old.length}`, state: { k: 'v' } });
    expect(await store.snapshot('old', `len-${old.length}`)).toEqual({ version: `len-${old.length}` });
  });
});
