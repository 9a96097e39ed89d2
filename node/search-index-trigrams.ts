// A trigram sink for the index build thread that takes the trigrams on a second thread
// (node/search-index-trigram-worker.js): the build thread walks, reads and checks each file and
// copies a text file's bytes into a ring of shared memory; the second thread takes its trigrams and
// sorts them into posting lists, so reading and indexing use both cores. The frozen lists come back
// moved, not copied.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { receiveMessageOnPort, MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import type { FrozenPostings } from '../src/search/index/postings.js';
import type { TrigramSink } from '../src/search/index/search-index.js';

/** Control words of the ring (an Int32Array over its own shared buffer). */
export const Ctl = {
  /** Bytes of the ring taken (written, not yet consumed, plus an end skipped when a record wrapped). */
  Used: 0,
  /** 1 once the consuming thread has posted its answer (the lists or an error). */
  Done: 1,
  /** 1 once the producing side let go (the consumer stops at once). */
  Closed: 2,
  /** The consumer's figures, for the build's budget: data bytes, distinct keys, bytes held (KiB). */
  DataBytes: 3,
  Keys: 4,
  MemoryKiB: 5,
  Length: 8,
} as const;

/** Record ids that are not files: the ring goes on at its start; the files are all in. */
export const WRAP = -2;
export const END = -1;
/** A record's header: id and byte length, two int32. */
export const RECORD_HEADER = 8;

/** The ring's size: a file the index reads (16 MiB at most) always fits once the ring is empty. */
const RING_BYTES = 20 * 1024 * 1024;
/** How long the build thread waits for room, or for the lists, with no progress before it gives up. */
const STALL_MS = 120_000;

/** What the consuming thread is started with. */
export interface TrigramThreadData {
  ring: SharedArrayBuffer;
  ctl: SharedArrayBuffer;
  port: MessagePort;
}

/** What the consuming thread posts once: the lists, or why it failed. */
export type TrigramThreadAnswer = { postings: FrozenPostings } | { error: string };

/** Rounds a record's length up to whole int32 words. */
export const recordBytes = (length: number): number => RECORD_HEADER + ((length + 3) & ~3);

/**
 * A {@link TrigramSink} whose trigrams are taken on a second thread, or undefined when that thread
 * cannot start (the build then takes them itself). `url`: the built consumer module.
 */
export function offThreadTrigramSink(url: URL): TrigramSink | undefined {
  if (!existsSync(fileURLToPath(url))) return undefined;
  const ring = new SharedArrayBuffer(RING_BYTES);
  const ctlBuffer = new SharedArrayBuffer(Ctl.Length * 4);
  const ctl = new Int32Array(ctlBuffer);
  const bytes = new Uint8Array(ring);
  const words = new Int32Array(ring);
  const { port1, port2 } = new MessageChannel();
  let worker: Worker;
  try {
    worker = new Worker(url, { workerData: { ring, ctl: ctlBuffer, port: port2 } satisfies TrigramThreadData, transferList: [port2] });
  } catch {
    return undefined;
  }
  // It never holds the build thread open: a build that stops lets it go (see close).
  worker.unref();
  worker.on('error', () => {});
  let tail = 0;
  let closed = false;

  /** Waits until `ready()` holds, the consumer moving `Used` (or `Done`) meanwhile; throws after a long stall. */
  const waitFor = (index: number, ready: () => boolean): void => {
    let waited = 0;
    while (!ready()) {
      const seen = Atomics.load(ctl, index);
      if (ready()) return;
      if (Atomics.wait(ctl, index, seen, 1000) === 'timed-out') waited += 1000;
      else waited = 0;
      if (waited >= STALL_MS) throw new Error('the search index trigram thread stopped answering');
    }
  };

  /** Puts one record (`id`, then `data`) in the ring, waiting for room. */
  const put = (id: number, data: Uint8Array | undefined): void => {
    const length = data?.length ?? 0;
    const need = recordBytes(length);
    if (tail + need > RING_BYTES) {
      // Not enough room before the end: mark the rest skipped and go on at the start.
      if (RING_BYTES - tail >= RECORD_HEADER) words[tail >>> 2] = WRAP;
      Atomics.add(ctl, Ctl.Used, RING_BYTES - tail);
      Atomics.notify(ctl, Ctl.Used);
      tail = 0;
    }
    waitFor(Ctl.Used, () => RING_BYTES - Atomics.load(ctl, Ctl.Used) >= need);
    words[tail >>> 2] = id;
    words[(tail >>> 2) + 1] = length;
    if (data) bytes.set(data, tail + RECORD_HEADER);
    tail = (tail + need) % RING_BYTES;
    Atomics.add(ctl, Ctl.Used, need);
    Atomics.notify(ctl, Ctl.Used);
  };

  const close = (): void => {
    if (closed) return;
    closed = true;
    Atomics.store(ctl, Ctl.Closed, 1);
    Atomics.notify(ctl, Ctl.Used);
    port1.close();
    void worker.terminate();
  };

  return {
    add(id, data) {
      if (closed) throw new TypeError('the trigram sink was closed');
      put(id, data);
    },
    get dataBytes() {
      return Atomics.load(ctl, Ctl.DataBytes);
    },
    get keyCount() {
      return Atomics.load(ctl, Ctl.Keys);
    },
    get memoryBytes() {
      return RING_BYTES + Atomics.load(ctl, Ctl.MemoryKiB) * 1024;
    },
    freeze() {
      try {
        put(END, undefined);
        waitFor(Ctl.Done, () => Atomics.load(ctl, Ctl.Done) === 1);
        const message = receiveMessageOnPort(port1)?.message as TrigramThreadAnswer | undefined;
        if (!message) throw new Error('the search index trigram thread ended without its lists');
        if ('error' in message) throw new Error(`the search index trigram thread failed: ${message.error}`);
        return message.postings;
      } finally {
        close();
      }
    },
    close,
  };
}
