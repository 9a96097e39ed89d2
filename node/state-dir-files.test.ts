import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../test/support/build.js';
import { FileJournalStore } from './journal-store.js';
import { FileStateStore, MAX_STATE_FILE_BYTES } from './state-store.js';

// A state directory (or journal directory) holding something other than the files its store wrote:
// a FIFO, a link to a device, a directory, a huge file. Each is refused at once with an error naming
// it and saying what to do, instead of a read that never ends or fills the memory.
const BIN = join(import.meta.dirname, '..', 'bin', 'toolhost.mjs');
const base = realpathSync(mkdtempSync(join(tmpdir(), 'toolhost-state-dir-files-')));
afterAll(() => rmSync(base, { recursive: true, force: true }));

let count = 0;
/** A fresh directory under the test's base. */
function fresh(name: string): string {
  const dir = join(base, `${name}-${(count += 1)}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Makes a FIFO at `path` (no Node API makes one). */
function mkfifo(path: string): void {
  const made = spawnSync('mkfifo', [path]);
  if (made.status !== 0) throw new Error(`mkfifo ${path} failed: ${made.stderr}`);
}

/** The lock file FileStateStore takes for `conversationId` in `stateDir` (see node/file-lock.ts). */
function lockFileOf(stateDir: string, conversationId: string): string {
  return join(stateDir, `${createHash('sha256').update(conversationId).digest('hex').slice(0, 40)}.lock`);
}

const linux = process.platform === 'linux';

describe('FileStateStore: what is not a state file at a state file name', () => {
  const planted: [string, (path: string) => void, { code: string; text: RegExp }][] = [
    ['a FIFO', mkfifo, { code: 'unavailable', text: /is not read: it is a FIFO \(named pipe\), not a regular file; remove it, or keep the state in another directory \(--state-dir/ }],
    ['a link to /dev/zero', (path) => symlinkSync('/dev/zero', path), { code: 'unavailable', text: /is not read: it is a device file, not a regular file; remove it/ }],
    ['a directory', (path) => mkdirSync(path), { code: 'unavailable', text: /is not read: it is a directory, not a regular file; remove it/ }],
    [
      'a file larger than a state file may be',
      (path) => (writeFileSync(path, 'x'), truncateSync(path, MAX_STATE_FILE_BYTES + 1)),
      { code: 'too_large', text: /is not read: it is larger than 268435456 bytes \(268435457\); move it aside to start this conversation's state afresh, or keep the state in another directory/ },
    ],
  ];
  it.runIf(linux).each(planted)('refuses %s at once, naming it, on a read, a snapshot and a write', async (_what, plant, expected) => {
    const store = new FileStateStore(fresh('state'));
    const path = store.pathFor('c');
    plant(path);
    const refused = { code: expected.code, message: expect.stringMatching(expected.text) };
    await expect(store.get('c', 'k')).rejects.toMatchObject(refused);
    await expect(store.getAll('c')).rejects.toMatchObject(refused);
    await expect(store.get('c', 'k')).rejects.toMatchObject({ message: expect.stringContaining(`the state file ${path} `) });
    // The head read of a snapshot at a known revision opens it too (synchronously): never a wait.
    await expect(store.snapshot('c', 'some-revision')).rejects.toMatchObject(refused);
    await expect(store.set('c', 'k', 1)).rejects.toMatchObject(refused);
    const lease = store.lock('c', undefined);
    await expect(lease).rejects.toMatchObject(refused);
  }, 20_000);

  it.runIf(linux)('leaves such a file out of the conversations it lists, and lists the others', async () => {
    const store = new FileStateStore(fresh('list'));
    await store.set('kept', 'k', 1);
    mkfifo(join(store.dir, 'fifo.json'));
    symlinkSync('/dev/zero', join(store.dir, 'zero.json'));
    expect(await store.conversations()).toEqual(['kept']);
  }, 20_000);

  it('still reads a state file through a symbolic link to a regular file (the user\'s choice)', async () => {
    const elsewhere = new FileStateStore(fresh('real'));
    await elsewhere.set('c', 'k', 'through the link');
    const store = new FileStateStore(fresh('linked'));
    symlinkSync(elsewhere.pathFor('c'), store.pathFor('c'));
    expect(await store.get('c', 'k')).toBe('through the link');
    expect(await store.conversations()).toEqual(['c']);
  });

  it.runIf(linux).each([
    ['a FIFO', mkfifo],
    ['a directory', (path: string) => mkdirSync(path)],
  ])('refuses %s at the name of a conversation\'s lock file, naming it, instead of waiting forever', async (what, plant) => {
    const store = new FileStateStore(fresh('lock'));
    const lock = lockFileOf(store.dir, 'c');
    plant(lock);
    await expect(store.set('c', 'k', 1)).rejects.toMatchObject({
      code: 'unavailable',
      message: `the lock file ${lock} cannot be used: it is ${what === 'a FIFO' ? 'a FIFO (named pipe)' : 'a directory'}, not a regular file, and no lock can be taken while it is there; remove it, or keep the state (or the locks) in another directory`,
    });
    rmSync(lock, { recursive: true });
    await store.set('c', 'k', 1);
    expect(await store.get('c', 'k')).toBe(1);
  }, 20_000);

  it('reads only the head of a large regular file at a lock name (a lock of a gone process, then taken over)', async () => {
    const store = new FileStateStore(fresh('big-lock'));
    const lock = lockFileOf(store.dir, 'c');
    writeFileSync(lock, `999999999:gone-1:${Date.now()}`);
    truncateSync(lock, 512 * 1024 * 1024);
    await store.set('c', 'k', 2);
    expect(await store.get('c', 'k')).toBe(2);
  }, 20_000);
});

describe('FileJournalStore: what is not a journal file at a journal file name', () => {
  const hash = `sha256:${'c'.repeat(64)}`;
  it.runIf(linux)('refuses a FIFO or a link to /dev/zero at a blob name, naming it', async () => {
    const dir = fresh('journal');
    const store = new FileJournalStore(dir);
    mkdirSync(join(dir, 'blobs'));
    const blob = join(dir, 'blobs', 'c'.repeat(64));
    mkfifo(blob);
    await expect(store.getBlob(hash)).rejects.toMatchObject({
      code: 'unavailable',
      message: `the journal file ${blob} is not read: it is a FIFO (named pipe), not a regular file; remove it, or keep the journal in another directory (createNodePlatform's journalDir)`,
    });
    rmSync(blob);
    symlinkSync('/dev/zero', blob);
    await expect(store.getBlob(hash)).rejects.toMatchObject({ code: 'unavailable', message: expect.stringContaining('it is a device file, not a regular file') });
  }, 20_000);

  it.runIf(linux)('leaves a FIFO or a link to /dev/zero among the turn records out, and lists the others', async () => {
    const dir = fresh('turns');
    const store = new FileJournalStore(dir);
    const turn = { conversationId: 'c', turn: 1, seq: 1, at: 1, calls: [] };
    await store.putTurn(turn);
    mkfifo(join(dir, 'turns', 'fifo.1.json'));
    symlinkSync('/dev/zero', join(dir, 'turns', 'zero.2.json'));
    expect(await store.listTurns()).toEqual([turn]);
  }, 20_000);
});

describe('toolhost call --state-dir', () => {
  beforeAll(() => ensureBuilt(), 240_000);

  it.runIf(linux)('answers a call with the error of a FIFO planted at the state file, and ends (it never waits on it)', () => {
    const root = fresh('ws');
    const stateDir = fresh('cli-state');
    mkfifo(join(stateDir, 'default.json'));
    // SIGKILL: a process blocked in a read of a FIFO does not end on SIGTERM.
    const run = spawnSync(process.execPath, [BIN, 'call', 'list_dir', '{"dir_path":"."}', '--root', root, '--state-dir', stateDir], { encoding: 'utf8', timeout: 30_000, killSignal: 'SIGKILL' });
    expect(run.signal).toBeNull();
    expect(JSON.parse(run.stdout)).toEqual({
      name: 'list_dir',
      code: 'unavailable',
      error: `the state file ${join(stateDir, 'default.json')} is not read: it is a FIFO (named pipe), not a regular file; remove it, or keep the state in another directory (--state-dir, or createNodePlatform's stateDir)`,
    });
    expect(run.status).toBe(1);
  }, 60_000);
});
