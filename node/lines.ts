/**
 * Newline framing with a cap, for the JSON-lines inputs of `toolhost run` and `toolhost mcp` on stdio.
 *
 * Reading is linear in the input: each chunk is searched for `\n` once, from its own start, and the
 * pieces of a line are joined once, when the line ends. A line longer than the cap is never held: as
 * soon as it passes the cap it is reported (`overlong`) and the rest of it, up to the next `\n`, is
 * dropped as it arrives, so memory stays at about one cap plus one chunk whatever the input.
 */
import { Buffer } from 'node:buffer';

/** The default cap of one input line, in bytes (16 MiB), without its `\n`. */
export const DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024;

/**
 * One framed line. `line` is its 1-based number in the input (blank lines count). `text` is the line
 * decoded as UTF-8 without its `\n` and a `\r` before it. An `overlong` line is reported once, as soon as
 * `bytes` (what was seen of it so far, more than the cap) passes the cap; its content is dropped.
 */
export type LineFrame = { kind: 'line'; line: number; text: string } | { kind: 'overlong'; line: number; bytes: number };

/** Splits a byte stream into {@link LineFrame}s; feed it with {@link push}, finish with {@link end}. */
export class LineSplitter {
  readonly #max: number;
  /** Pieces of the current line, at most `#max` bytes in all. */
  #pieces: Buffer[] = [];
  #size = 0;
  /** True while dropping the rest of an over-long line. */
  #skipping = false;
  #line = 0;

  /** `maxLineBytes`: the cap of one line in bytes (a positive integer; else a TypeError). */
  constructor(maxLineBytes: number = DEFAULT_MAX_LINE_BYTES) {
    if (!Number.isSafeInteger(maxLineBytes) || maxLineBytes <= 0) {
      throw new TypeError(`LineSplitter: maxLineBytes must be a positive integer, not ${String(maxLineBytes)}`);
    }
    this.#max = maxLineBytes;
  }

  /** The frames that `chunk` completes (a string chunk is taken as UTF-8). */
  push(chunk: Uint8Array | string): LineFrame[] {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const frames: LineFrame[] = [];
    let start = 0;
    for (;;) {
      const newline = bytes.indexOf(10, start);
      if (newline === -1) {
        this.#take(bytes.subarray(start), frames);
        return frames;
      }
      this.#take(bytes.subarray(start, newline), frames);
      this.#finishLine(frames);
      start = newline + 1;
    }
  }

  /** The last line when the input ended without a `\n` (nothing when it ended with one). */
  end(): LineFrame[] {
    const frames: LineFrame[] = [];
    if (this.#size > 0 && !this.#skipping) this.#finishLine(frames);
    this.#reset();
    return frames;
  }

  /** Adds a piece of the current line, or reports and starts dropping it once it passes the cap. */
  #take(piece: Buffer, frames: LineFrame[]): void {
    if (this.#skipping || piece.length === 0) return;
    if (this.#size + piece.length > this.#max) {
      frames.push({ kind: 'overlong', line: this.#line + 1, bytes: this.#size + piece.length });
      this.#pieces = [];
      this.#size = 0;
      this.#skipping = true;
      return;
    }
    // A copy of a small piece lets the stream's chunk go; a large one is kept as it is.
    this.#pieces.push(piece.length < 4096 ? Buffer.from(piece) : piece);
    this.#size += piece.length;
  }

  /** Ends the current line at a `\n` (or the end of input). */
  #finishLine(frames: LineFrame[]): void {
    this.#line += 1;
    if (!this.#skipping) {
      const joined = this.#pieces.length === 1 ? (this.#pieces[0] as Buffer) : Buffer.concat(this.#pieces, this.#size);
      const length = joined.length > 0 && joined[joined.length - 1] === 13 ? joined.length - 1 : joined.length;
      frames.push({ kind: 'line', line: this.#line, text: joined.toString('utf8', 0, length) });
    }
    this.#reset();
  }

  #reset(): void {
    this.#pieces = [];
    this.#size = 0;
    this.#skipping = false;
  }
}

/**
 * Pulls chunks from a stream one at a time, in flowing mode paused between pulls (so the stream is
 * read no faster than chunks are asked for, and pausing it lets a process exit). `stop` ends the pulls.
 * (No `Promise.race` against a long-lived promise: each race would leave a reaction on it that keeps
 * its chunk alive, so memory would grow with the input.)
 */
class ChunkPuller {
  readonly #input: NodeJS.ReadableStream;
  readonly #stop: AbortSignal | undefined;
  readonly #queue: (Uint8Array | string)[] = [];
  #ended = false;
  #failure: unknown;
  #wake: (() => void) | undefined;

  constructor(input: NodeJS.ReadableStream, stop: AbortSignal | undefined) {
    this.#input = input;
    this.#stop = stop;
    input.on('data', this.#onData);
    input.on('end', this.#onEnd);
    input.on('close', this.#onEnd);
    input.on('error', this.#onError);
    stop?.addEventListener('abort', this.#onEnd);
  }

  #onData = (chunk: Uint8Array | string): void => {
    this.#queue.push(chunk);
    this.#input.pause();
    this.#notify();
  };

  #onEnd = (): void => {
    this.#ended = true;
    this.#notify();
  };

  #onError = (error: unknown): void => {
    this.#failure = error;
    this.#notify();
  };

  #notify(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }

  /** The next chunk, or undefined at the end of input or once `stop` aborted; rejects with the stream's error. */
  async next(): Promise<Uint8Array | string | undefined> {
    for (;;) {
      if (this.#stop?.aborted) return undefined;
      if (this.#queue.length > 0) return this.#queue.shift();
      if (this.#failure !== undefined) throw this.#failure;
      if (this.#ended) return undefined;
      const woken = new Promise<void>((resolve) => (this.#wake = resolve));
      this.#input.resume();
      await woken;
    }
  }

  /** Stops reading: removes the listeners and leaves the stream paused. */
  dispose(): void {
    this.#input.off('data', this.#onData);
    this.#input.off('end', this.#onEnd);
    this.#input.off('close', this.#onEnd);
    this.#input.off('error', this.#onError);
    this.#stop?.removeEventListener('abort', this.#onEnd);
    // A pause that flips the stream out of flowing mode emits 'pause', on which Node's process.stdin
    // stops reading its pipe (so the process can exit); an already paused stream may still be reading
    // after a late resume, so it is flipped once. Nothing is emitted between the two calls.
    if (this.#input.isPaused()) this.#input.resume();
    this.#input.pause();
  }
}

/**
 * The frames of `input`, read on demand (the stream is read no faster than the frames are consumed).
 * Ends at the end of input, or when `stop` aborts or the consumer stops early; `input` is then left
 * paused (so a process can exit), neither drained nor destroyed. Rejects with the stream's error.
 */
export async function* readLineFrames(input: NodeJS.ReadableStream, maxLineBytes: number, stop?: AbortSignal): AsyncGenerator<LineFrame> {
  const splitter = new LineSplitter(maxLineBytes);
  const puller = new ChunkPuller(input, stop);
  try {
    for (;;) {
      const next = await puller.next();
      if (stop?.aborted) return;
      if (next === undefined) break;
      yield* splitter.push(next);
      if (stop?.aborted) return;
    }
    yield* splitter.end();
  } finally {
    puller.dispose();
  }
}
