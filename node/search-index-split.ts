// How a split index build hands files to its second thread while the walk lists them (see
// node/search-index-worker.ts): the second thread claims each file it reads through a word both
// threads share, until the walk's end sets how many files are its part; the build thread builds the rest.
/** In the claim word, {@link FINAL} plus a file count: the walk is over, and the second thread builds the files below that count. */
export const FINAL = 2 ** 30;

/**
 * What the second thread is sent: the walk's next files, in order; `end` once the walk is done (every
 * file of its part was sent: see {@link splitPoint}), with the files of both parts; or `stop`, when the
 * build ended without it (the tree was small, or the build thread's part failed), so it closes what it
 * opened and exits.
 */
export type PartControl = { type: 'paths'; paths: string[] } | { type: 'end'; total: number } | { type: 'stop' };

/**
 * Whether the second thread builds file `i` (asked in order): while the walk runs it claims each file
 * before it reads it (the claim word moves from `i` to `i + 1`); once the walk set the word to
 * {@link FINAL} plus its part's files, the files below that are its own.
 */
export function claimFile(claim: Int32Array, i: number): boolean {
  const seen = Atomics.compareExchange(claim, 0, i, i + 1);
  if (seen === i) return true;
  return seen >= FINAL && i < seen - FINAL;
}

/**
 * Ends the second thread's claims once the walk listed `total` files: the files it claimed, and half
 * of those it did not, are its part; returns how many (the build thread builds the rest).
 */
export function splitPoint(claim: Int32Array, total: number): number {
  for (;;) {
    const claimed = Atomics.load(claim, 0);
    const split = claimed + Math.ceil((total - claimed) / 2);
    if (Atomics.compareExchange(claim, 0, claimed, FINAL + split) === claimed) return split;
  }
}

/** The second thread's files as they are sent (see {@link PartControl}), handed to its build as a `PathFeed` (see `buildIndexPart`). */
export class SentPaths {
  readonly #paths: string[] = [];
  #ended = false;
  #wake: (() => void) | undefined;
  /** The files of both parts, once the walk is done. */
  total: number | undefined;

  constructor(readonly claim: Int32Array) {}

  /** Takes a message: more paths, or the end (`stop` too: nothing more comes). */
  take(message: PartControl): void {
    if (message.type === 'paths') for (const path of message.paths) this.#paths.push(path);
    else {
      this.#ended = true;
      if (message.type === 'end') this.total = message.total;
    }
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }

  /** The {@link PathFeed} of this thread's part: each path once sent and claimed. */
  readonly next = (i: number): string | undefined | Promise<string | undefined> => {
    if (i < this.#paths.length) return claimFile(this.claim, i) ? this.#paths[i] : undefined;
    if (this.#ended) return undefined;
    return new Promise<void>((resolve) => (this.#wake = resolve)).then(() => this.next(i));
  };
}
