import { spawn, spawnSync } from 'node:child_process';
import { Buffer } from 'node:buffer';
import { constants, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { READ_FLAGS } from './read.js';
import { readStoreFile, readStoreFileSync, storeFileCheck, type Refusal, type StoreFileCheck } from './store-file.js';

const base = realpathSync(mkdtempSync(join(tmpdir(), 'toolhost-store-file-test-')));
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** The refusal a test expects: the path and the reason the check gave. */
class Refused extends Error {
  constructor(
    readonly path: string,
    readonly refusal: Refusal,
  ) {
    super(`${path}: ${refusal.reason}`);
  }
}

/** The store-file check of these tests: regular files of `maxBytes` at most, refused as {@link Refused}. */
const check = (maxBytes: number) => storeFileCheck(maxBytes, (path, refusal) => new Refused(path, refusal));

/** Opened as a cache file is: never through a link, never waiting. */
const NOFOLLOW_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY;

/** A regular file of `size` bytes that holds none (sparse): far too large to allocate or read whole. */
function hugeSparseFile(name: string, size = 2 ** 40): string {
  const path = join(base, name);
  writeFileSync(path, 'HEAD');
  truncateSync(path, size);
  return path;
}

type Read = <R>(path: string, check: StoreFileCheck<R>) => Promise<Buffer>;
const faces: Array<[string, Read]> = [
  ['readStoreFile', readStoreFile],
  ['readStoreFileSync', async (path, check) => readStoreFileSync(path, check)],
];

describe.each(faces)('%s', (name, read) => {
  const dir = join(base, name);
  mkdirSync(dir);

  it('reads a regular file whole, as its own Buffer (not a slice of the shared pool)', async () => {
    const path = join(dir, 'plain');
    writeFileSync(path, 'hello, store');
    const bytes = await read(path, check(1024));
    expect(bytes.toString('utf8')).toBe('hello, store');
    expect(bytes.buffer.byteLength).toBe(bytes.length);
  });

  it.runIf(process.platform !== 'win32')('refuses a FIFO without waiting for a writer', async () => {
    const fifo = join(dir, 'fifo');
    const made = spawnSync('mkfifo', [fifo]);
    if (made.status !== 0) throw new Error(`mkfifo failed: ${made.stderr}`);
    const started = Date.now();
    // A writer that would release a read waiting on the FIFO, after 2 s: a read that waited takes that long.
    const writer = spawn('sh', ['-c', 'sleep 2; : > "$0"', fifo], { stdio: 'ignore' });
    try {
      const error = await read(fifo, check(1024)).then(() => undefined, (error: unknown) => error);
      expect(Date.now() - started).toBeLessThan(2000);
      expect(error).toBeInstanceOf(Refused);
      expect((error as Refused).path).toBe(fifo);
      expect((error as Refused).refusal).toEqual({ reason: 'it is a FIFO (named pipe), not a regular file', tooLarge: false });
    } finally {
      writer.kill();
    }
  });

  it.runIf(process.platform !== 'win32')('refuses a symbolic link under O_NOFOLLOW (ELOOP), and follows it without', async () => {
    const target = join(dir, 'target');
    const link = join(dir, 'link');
    writeFileSync(target, 'behind the link');
    symlinkSync(target, link);
    await expect(read(link, { ...check(1024), flags: NOFOLLOW_FLAGS })).rejects.toMatchObject({ code: 'ELOOP' });
    expect((await read(link, check(1024))).toString('utf8')).toBe('behind the link');
  });

  it('refuses a directory', async () => {
    const error = await read(dir, check(Number.POSITIVE_INFINITY)).then(() => undefined, (error: unknown) => error);
    expect(error).toBeInstanceOf(Refused);
    expect((error as Refused).refusal).toEqual({ reason: 'it is a directory, not a regular file', tooLarge: false });
  });

  it('refuses a file over the limit by its size, before reading any of it', async () => {
    const small = join(dir, 'eleven');
    writeFileSync(small, '0123456789a');
    await expect(read(small, check(11))).resolves.toHaveLength(11);
    await expect(read(small, check(10))).rejects.toMatchObject({ refusal: { reason: 'it is larger than 10 bytes (11)', tooLarge: true } });
    // A terabyte: read whole, it could be neither allocated nor read in a test's time.
    const huge = hugeSparseFile(`${name}-huge`);
    await expect(read(huge, check(2 ** 20))).rejects.toMatchObject({ refusal: { reason: `it is larger than ${2 ** 20} bytes (${2 ** 40})`, tooLarge: true } });
  });

  it('with a head and no headRefusal, reads and returns only the head', async () => {
    const path = join(dir, 'long');
    writeFileSync(path, 'first part|the rest');
    expect((await read(path, { ...check(Number.POSITIVE_INFINITY), head: 10 })).toString('utf8')).toBe('first part');
    expect((await read(path, { ...check(Number.POSITIVE_INFINITY), head: 100 })).toString('utf8')).toBe('first part|the rest');
    const head = await read(hugeSparseFile(`${name}-huge-head`), { ...check(Number.POSITIVE_INFINITY), head: 8 });
    expect(head).toEqual(Buffer.from('HEAD\0\0\0\0'));
  });

  it('with a headRefusal, checks the head (and the size) first: a refused file is not read on, an accepted one is read whole', async () => {
    const path = join(dir, 'headed');
    writeFileSync(path, 'MAGIC and the body');
    const seen: Array<[string, number]> = [];
    const headRefusal = (head: Uint8Array, size: number) => {
      seen.push([Buffer.from(head).toString('latin1'), size]);
      return Buffer.from(head).toString('latin1') === 'MAGIC' ? undefined : new Error('not ours');
    };
    expect((await read(path, { ...check(Number.POSITIVE_INFINITY), head: 5, headRefusal })).toString('utf8')).toBe('MAGIC and the body');
    await expect(read(hugeSparseFile(`${name}-huge-headed`), { ...check(Number.POSITIVE_INFINITY), head: 5, headRefusal })).rejects.toThrow('not ours');
    expect(seen).toEqual([
      ['MAGIC', 18],
      ['HEAD\0', 2 ** 40],
    ]);
  });
});

describe('readStoreFile on the thread pool', () => {
  /** The thread-pool requests (async_hooks resource types of node:fs) made while `run` runs. */
  async function poolRequests(run: () => Promise<unknown>): Promise<string[]> {
    const { createHook } = await import('node:async_hooks');
    const types: string[] = [];
    const hook = createHook({ init: (_id, type) => void (type.startsWith('FSREQ') || type === 'FILEHANDLE' ? types.push(type) : undefined) });
    hook.enable();
    try {
      await run();
    } finally {
      hook.disable();
    }
    return types;
  }

  it('reads a large file in one request to the thread pool (its open, fstat and close made at once), a small one in none', async () => {
    // One request: a search waiting for an index behind a busy event loop waits one turn, not five.
    const large = join(base, 'pooled-large');
    const bytes = Buffer.alloc(3 * 2 ** 20, 7);
    writeFileSync(large, bytes);
    let read: Buffer | undefined;
    expect(await poolRequests(async () => (read = await readStoreFile(large, check(2 ** 30))))).toEqual(['FSREQCALLBACK']);
    expect(read?.equals(bytes)).toBe(true);
    const small = join(base, 'pooled-small');
    writeFileSync(small, 'small');
    expect(await poolRequests(async () => (read = await readStoreFile(small, check(1024))))).toEqual([]);
    expect(read?.toString()).toBe('small');
    // A header read first (an index's) and the body after: still one request.
    const headed: StoreFileCheck<Refusal> = { ...check(2 ** 30), head: 64, headRefusal: () => undefined };
    expect(await poolRequests(async () => (read = await readStoreFile(large, headed)))).toEqual(['FSREQCALLBACK']);
    expect(read?.equals(bytes)).toBe(true);
  });
});
