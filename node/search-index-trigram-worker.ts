// The second thread of a Node index build (see offThreadTrigramSink in search-index-trigrams.ts):
// it takes each text file's bytes from the shared ring, in id order, takes its trigrams into the
// posting lists, and once the last file is in posts the frozen lists back (moved, not copied).
import { workerData } from 'node:worker_threads';
import { fileTrigrams, PostingBuilder, trigramBitmap } from '../src/search/index/postings.js';
import { Ctl, END, RECORD_HEADER, recordBytes, WRAP, type TrigramThreadAnswer, type TrigramThreadData } from './search-index-trigrams.js';

/** Takes records from the ring until its end record; undefined when the build let go first. */
function consume(data: TrigramThreadData): PostingBuilder | undefined {
  const ctl = new Int32Array(data.ctl);
  const bytes = new Uint8Array(data.ring);
  const words = new Int32Array(data.ring);
  const size = data.ring.byteLength;
  const postings = new PostingBuilder();
  const seen = trigramBitmap();
  let head = 0;
  let taken = 0;
  for (;;) {
    if (Atomics.load(ctl, Ctl.Closed) === 1) return undefined;
    const used = Atomics.load(ctl, Ctl.Used);
    if (used < RECORD_HEADER) {
      Atomics.wait(ctl, Ctl.Used, used, 1000);
      continue;
    }
    if (size - head < RECORD_HEADER || words[head >>> 2] === WRAP) {
      Atomics.sub(ctl, Ctl.Used, size - head);
      Atomics.notify(ctl, Ctl.Used);
      head = 0;
      continue;
    }
    const id = words[head >>> 2] as number;
    if (id === END) return postings;
    const length = words[(head >>> 2) + 1] as number;
    postings.add(id, fileTrigrams(bytes.subarray(head + RECORD_HEADER, head + RECORD_HEADER + length), seen));
    const need = recordBytes(length);
    head = (head + need) % size;
    Atomics.sub(ctl, Ctl.Used, need);
    Atomics.notify(ctl, Ctl.Used);
    // The build's budget reads these (a few times a second is plenty, but they are cheap).
    if ((taken += 1) % 64 === 0) report(ctl, postings, seen);
  }
}

function report(ctl: Int32Array, postings: PostingBuilder, seen: Uint32Array): void {
  Atomics.store(ctl, Ctl.DataBytes, Math.min(postings.dataBytes, 2 ** 31 - 1));
  Atomics.store(ctl, Ctl.Keys, postings.keyCount);
  Atomics.store(ctl, Ctl.MemoryKiB, Math.ceil((postings.memoryBytes + seen.byteLength) / 1024));
}

function main(data: TrigramThreadData): void {
  const ctl = new Int32Array(data.ctl);
  let answer: TrigramThreadAnswer | undefined;
  let transfer: ArrayBuffer[] = [];
  try {
    const postings = consume(data)?.freeze();
    if (postings) {
      answer = { postings };
      transfer = [...new Set([postings.keys.buffer, postings.offsets.buffer, postings.bytes.buffer] as ArrayBuffer[])];
    }
  } catch (error) {
    answer = { error: error instanceof Error ? error.message : String(error) };
  }
  if (answer) data.port.postMessage(answer, transfer);
  Atomics.store(ctl, Ctl.Done, 1);
  Atomics.notify(ctl, Ctl.Done);
  data.port.close();
}

main(workerData as TrigramThreadData);
