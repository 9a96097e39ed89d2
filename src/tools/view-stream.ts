import type { FsPromises } from '../core/types.js';
import { throwIfAborted, YIELD_INTERVAL_MS, yieldToEventLoop } from '../fs/abort.js';
import { truncateText, type LineEnding } from '../fs/text.js';

/** Bytes read at a time when a window is streamed from a file too large to read whole (1 MiB). */
export const WINDOW_CHUNK_BYTES = 1024 * 1024;
/** Bytes of the start of a file checked for a NUL byte (as `decodeText` does): one there makes it binary. */
const BINARY_SNIFF_BYTES = 8192;

/** What {@link readLineWindow} wants: 1-based lines `start`..`end`, each cut at `maxLineChars`, at most `maxChars` in all. */
export interface LineWindowRequest {
  start: number;
  end: number;
  maxLineChars: number;
  /** Characters of all shown lines with one separator each; the window ends early past it (one line is always shown). */
  maxChars: number;
  signal?: AbortSignal;
  /** Bytes read at a time (default {@link WINDOW_CHUNK_BYTES}). */
  chunkBytes?: number;
}

/** A window of a file's lines, read in chunks without holding more than one chunk and the window. */
export interface LineWindow {
  /** True when the file's first 8 KiB hold a NUL byte: nothing else was read. */
  binary: boolean;
  /** The first bytes of the file (at most 8 KiB), for a binary file's MIME type. */
  head: Uint8Array;
  /** The lines shown, each cut at `maxLineChars` (`cut` in code points, 0 when whole). */
  lines: Array<{ text: string; cut: number }>;
  /** Last line shown (start - 1 when none is). */
  end: number;
  /** True when the character budget ended the window before `end`. */
  capped: boolean;
  /** Lines of the whole file (a trailing line ending makes no extra line). */
  total: number;
  lineEnding: LineEnding;
}

const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * Streams the file at `path` (`size` bytes) through `fs.readRange`, one {@link WINDOW_CHUNK_BYTES}
 * chunk at a time, and returns the lines of `request`: from the start of the file to the window's end
 * only the window's lines are kept, and of each line only the bytes its excerpt can show (4 bytes per
 * character of `maxLineChars`, plus one), the rest counted; then the rest of the file is scanned for
 * its line count and line-ending style. Memory is one chunk plus the window, whatever the file's size
 * or its longest line. `\n`, `\r\n` and `\r` end lines, a UTF-8 BOM is skipped, bytes that are not
 * UTF-8 show as U+FFFD. Gives the event loop a turn every {@link YIELD_INTERVAL_MS} ms and rejects with
 * the signal's `timeout` / `cancelled` once it fires.
 */
export async function readLineWindow(fs: FsPromises, path: string, size: number, request: LineWindowRequest): Promise<LineWindow> {
  const readRange = fs.readRange as NonNullable<FsPromises['readRange']>;
  const keepBytes = request.maxLineChars * 4 + 1;
  const lines: Array<{ text: string; cut: number }> = [];
  let line = 1;
  let chars = 0;
  let capped = false;
  let collecting = request.start <= request.end;
  /** Kept bytes of the current line (while it is in the window) and the code points past them. */
  let kept: Uint8Array[] = [];
  let keptLength = 0;
  let beyond = 0;
  /** Bytes in the current line so far (a line with none before EOF is no line). */
  let lineHasBytes = false;
  let pendingCr = false;
  let lf = 0;
  let crlf = 0;
  let cr = 0;
  let lastYield = Date.now();

  const inWindow = (): boolean => collecting && line >= request.start && line <= request.end;
  const keep = (chunk: Uint8Array, from: number, to: number): void => {
    if (!inWindow() || from >= to) return;
    const room = keepBytes - keptLength;
    const take = Math.min(room, to - from);
    if (take > 0) {
      kept.push(chunk.slice(from, from + take));
      keptLength += take;
    }
    for (let i = from + Math.max(take, 0); i < to; i += 1) if (((chunk[i] as number) & 0xc0) !== 0x80) beyond += 1;
  };
  const endLine = (): void => {
    if (inWindow()) {
      const bytes = kept.length === 1 ? (kept[0] as Uint8Array) : concat(kept, keptLength);
      const { text, cut } = truncateText(decoder.decode(bytes), request.maxLineChars);
      const total = cut + beyond;
      chars += text.length + 1;
      if (chars > request.maxChars + 1 && lines.length > 0) {
        capped = true;
        collecting = false;
      } else lines.push({ text, cut: total });
      if (line >= request.end) collecting = false;
    }
    kept = [];
    keptLength = 0;
    beyond = 0;
    lineHasBytes = false;
    line += 1;
  };

  /** Past the window: counts the line endings of `chunk` from `from` without looking at lines; returns the chunk's length. */
  const countRest = (chunk: Uint8Array, from: number): number => {
    const endsWithCr = chunk[chunk.length - 1] === 13;
    const limit = endsWithCr ? chunk.length - 1 : chunk.length;
    let newlines = 0;
    for (let i = chunk.indexOf(10, from); i !== -1; i = chunk.indexOf(10, i + 1)) newlines += 1;
    let pairs = 0;
    let lone = 0;
    for (let i = chunk.indexOf(13, from); i !== -1 && i < limit; i = chunk.indexOf(13, i + 1)) {
      if (chunk[i + 1] === 10) pairs += 1;
      else lone += 1;
    }
    lf += newlines - pairs;
    crlf += pairs;
    cr += lone;
    line += newlines + lone;
    const last = limit === 0 ? -1 : Math.max(chunk.lastIndexOf(10, limit - 1), chunk.lastIndexOf(13, limit - 1));
    if (last >= from) lineHasBytes = last < limit - 1;
    else if (limit > from) lineHasBytes = true;
    if (endsWithCr) pendingCr = true;
    return chunk.length;
  };

  const head = await readRange(path, 0, BINARY_SNIFF_BYTES);
  if (head.includes(0)) return { binary: true, head, lines: [], end: request.start - 1, capped: false, total: 0, lineEnding: 'none' };
  let position = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0;
  while (position < size) {
    if (Date.now() - lastYield > YIELD_INTERVAL_MS) {
      await yieldToEventLoop();
      lastYield = Date.now();
    }
    throwIfAborted(request.signal);
    const chunk = await readRange(path, position, request.chunkBytes ?? WINDOW_CHUNK_BYTES);
    if (chunk.length === 0) break;
    let from = 0;
    position += chunk.length;
    if (pendingCr) {
      pendingCr = false;
      if (chunk[from] === 10) {
        crlf += 1;
        from += 1;
      } else cr += 1;
      endLine();
    }
    let nextLf = chunk.indexOf(10, from);
    let nextCr = chunk.indexOf(13, from);
    while (from < chunk.length) {
      if (!collecting) {
        from = countRest(chunk, from);
        break;
      }
      if (nextLf !== -1 && nextLf < from) nextLf = chunk.indexOf(10, from);
      if (nextCr !== -1 && nextCr < from) nextCr = chunk.indexOf(13, from);
      const stop = nextLf === -1 ? nextCr : nextCr === -1 ? nextLf : Math.min(nextLf, nextCr);
      if (stop === -1) {
        keep(chunk, from, chunk.length);
        lineHasBytes = true;
        break;
      }
      keep(chunk, from, stop);
      if (chunk[stop] === 13) {
        if (stop + 1 === chunk.length) {
          // The \n of a \r\n may be the next chunk's first byte.
          pendingCr = true;
          from = chunk.length;
          break;
        }
        if (chunk[stop + 1] === 10) {
          crlf += 1;
          from = stop + 2;
        } else {
          cr += 1;
          from = stop + 1;
        }
      } else {
        lf += 1;
        from = stop + 1;
      }
      endLine();
    }
  }
  if (pendingCr) {
    cr += 1;
    endLine();
  } else if (lineHasBytes) endLine();
  const kinds = (lf > 0 ? 1 : 0) + (crlf > 0 ? 1 : 0) + (cr > 0 ? 1 : 0);
  const lineEnding: LineEnding = kinds === 0 ? 'none' : kinds > 1 ? 'mixed' : lf > 0 ? 'lf' : crlf > 0 ? 'crlf' : 'cr';
  return { binary: false, head, lines, end: request.start + lines.length - 1, capped, total: line - 1, lineEnding };
}

function concat(parts: readonly Uint8Array[], length: number): Uint8Array {
  const out = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
