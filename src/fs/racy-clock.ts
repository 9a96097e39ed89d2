/**
 * Git's "racily clean" rule, one definition for every cache that trusts a file's or folder's times (the
 * search's content cache, whether fed by a search source or by `fs`, and the Node listing cache): an entry is trusted
 * only while the times it was read with are more than {@link RACY_MS} older than the read itself, since
 * a change in the clock tick of the read (file times tick coarsely) can leave size and times as they were.
 *
 * The caches take a read's time from {@link racyNow} and ask {@link settledBefore} whether a change time
 * is old enough. Both follow the real clock, plus the pauses a test inserted with
 * {@link pauseRacyClockForTests}: a test moves past the window that way instead of sleeping a second.
 */

/** A file or folder changed this close to (or after) the moment it was read is not trusted from a cache. */
export const RACY_MS = 1000;

/** Pauses kept; an older one is merged into the next (which only makes older changes look more recent). */
const MAX_PAUSES = 32;

/**
 * The inserted pauses: [count, at₀, ms₀, at₁, ms₁, …], the real `Date.now()` of each and its length.
 * In shared memory where there is some, so a helper thread sees the same clock (see {@link racyClockMemory}).
 */
let pauses = new Float64Array(
  typeof SharedArrayBuffer === 'function' ? new SharedArrayBuffer(8 * (1 + 2 * MAX_PAUSES)) : new ArrayBuffer(8 * (1 + 2 * MAX_PAUSES)),
);

/** `realMs` (a `Date.now()` value or a file time) on the racy clock: plus every pause inserted at or before it. */
function onRacyClock(realMs: number): number {
  let ms = realMs;
  const count = pauses[0] as number;
  for (let i = 0; i < count; i += 1) if ((pauses[1 + 2 * i] as number) <= realMs) ms += pauses[2 + 2 * i] as number;
  return ms;
}

/** The moment of a read, to keep with what was read and pass to {@link settledBefore} later. */
export function racyNow(): number {
  return onRacyClock(Date.now());
}

/** Whether a change at `changedMs` (a file's mtime or ctime) is older than a read at `readAt` ({@link racyNow}) by more than {@link RACY_MS}. */
export function settledBefore(changedMs: number, readAt: number): boolean {
  return onRacyClock(changedMs) < readAt - RACY_MS;
}

/**
 * Whether both change times a cache keeps of a file or folder, its mtime and (where the fs reports
 * one) its ctime, are settled before a read at `readAt` (see {@link settledBefore}). Both, since a
 * tool can set the mtime back, and some file systems (tmpfs) leave the ctime as it was for a change
 * in the same clock tick.
 */
export function timesSettled(times: { mtimeMs: number; ctimeMs?: number | undefined }, readAt: number): boolean {
  return settledBefore(times.mtimeMs, readAt) && (times.ctimeMs === undefined || settledBefore(times.ctimeMs, readAt));
}

/**
 * Whether two identities of one file a cache compares are the same: size, modification and
 * status-change times, and inode (a platform without inodes reports the same placeholder each time).
 */
export function sameIdentity(a: { size: number; mtimeMs: number; ctimeMs: number; ino: number }, b: { size: number; mtimeMs: number; ctimeMs: number; ino: number }): boolean {
  return a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs && a.ino === b.ino;
}

/** How far behind the real clock a file time may be (the kernel stamps files with its clock of the last tick: 1–10 ms). */
const FILE_CLOCK_LAG_MS = 10;

/**
 * Test hook: the caches behave from now on as if `ms` milliseconds had passed here (every change so far
 * is that much older than every later read), as a real wait of `ms` would make them, without the wait.
 * Changes after the call are as recent as they are: it returns once their file times (which lag the
 * clock by up to a tick) fall after the pause, some 10 ms on. On a folder whose filesystem keeps coarser
 * times than that (FAT, ext3), use a real wait. Not for production use.
 */
export function pauseRacyClockForTests(ms: number): void {
  if (!Number.isFinite(ms) || ms < 0) throw new TypeError(`pauseRacyClockForTests: ms must be a finite number of milliseconds >= 0, got ${String(ms)}`);
  // After every change so far: file times never run ahead of Date.now(), which floors to the millisecond.
  const at = Date.now() + 1;
  let count = pauses[0] as number;
  if (count === MAX_PAUSES) {
    // Fold the oldest pause into the next: changes between them lose it, so they only look more recent.
    pauses[4] = (pauses[4] as number) + (pauses[2] as number);
    pauses.copyWithin(1, 3, 1 + 2 * count);
    count -= 1;
  }
  pauses[1 + 2 * count] = at;
  pauses[2 + 2 * count] = ms;
  pauses[0] = count + 1;
  // Until a change made after this call gets a file time at or after `at`.
  while (Date.now() < at + FILE_CLOCK_LAG_MS) {
    // A wait of about 10 ms, on the clock the file times follow.
  }
}

/** The racy clock's memory, for a helper thread to share with {@link useRacyClockMemory} (shared memory on Node). */
export function racyClockMemory(): Float64Array {
  return pauses;
}

/** Makes this thread's racy clock the one `memory` holds (from {@link racyClockMemory} on the thread that started this one). */
export function useRacyClockMemory(memory: Float64Array): void {
  if (!(memory instanceof Float64Array) || memory.length !== 1 + 2 * MAX_PAUSES) throw new TypeError('useRacyClockMemory: pass the Float64Array racyClockMemory() returned on the starting thread');
  pauses = memory;
}
