import { indexOfText } from './linear-find.js';
import { countCodePoints } from '../fs/text.js';
import type { SearchPattern } from './dialect.js';
import { clipLine, MatchFormatter, MAX_LINE_CHARS, type SearchMatch } from './line-output.js';
import { scanText } from './line-scan.js';
import { loadRe2Engine, re2Engine } from './re2-engine.js';

/** Bytes of a file read (and decoded) at a time by {@link scanStream}. */
export const STREAM_WINDOW_BYTES = 8 * 1024 * 1024;
/**
 * Characters of a line longer than a window that each window also sees of its neighbours: a regular
 * expression's match in such a line is found when it is at most this long.
 */
export const STREAM_OVERLAP_CHARS = 64 * 1024;

/** One file as {@link scanStream} reads it. */
export interface StreamInput {
  /** The file's size in bytes. */
  size: number;
  /** At most `length` bytes from byte `position` (fewer at the end). */
  read(position: number, length: number): Promise<Uint8Array> | Uint8Array;
  /** The text of valid UTF-8 bytes, or null when they are not valid UTF-8. */
  decode(bytes: Uint8Array): string | null;
}

/** What {@link scanStream} may spend and where its matches go. */
export interface StreamOptions {
  /** `Date.now()` value at which the scan stops and reports `stopped`. */
  deadline: number;
  /** Lets the event loop turn (and throws when the call's signal fired). */
  pause: () => Promise<void>;
  /** `context_lines`. */
  contextLines: number;
  /** How many more matches with line, column and excerpt are wanted now (0: only count). */
  wanted: () => number;
  /** A finished match (with its context lines), in file order. */
  emit: (match: SearchMatch) => void;
  /** Window size in bytes (default {@link STREAM_WINDOW_BYTES}); tests lower it. */
  window?: number;
  /** Overlap of long-line windows in characters (default {@link STREAM_OVERLAP_CHARS}). */
  overlap?: number;
}

/** What {@link scanStream} found. */
export interface StreamResult {
  /** Matching lines. */
  count: number;
  /** True when the deadline stopped the scan. */
  stopped: boolean;
  /** True when the file turned out binary (NUL in its first 8 KiB, or not UTF-8): its matches are void. */
  binary: boolean;
}

const LF = 10;
const CR = 13;
const SNIFF = 8192;

/** Work one re2js `find` may do: characters times program size (as for one line in a whole-file scan). */
const FIND_WORK = 1_000_000;

interface Pending {
  match: SearchMatch;
  need: number;
}

/** Lines in `text`: its line breaks (`\n`, `\r\n`, `\r`), plus one for a last line without one. */
function countLines(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n += 1;
  if (text.indexOf('\r') !== -1) {
    for (let i = text.indexOf('\r'); i !== -1; i = text.indexOf('\r', i + 1)) if (text.charCodeAt(i + 1) !== LF) n += 1;
  }
  const last = text.charCodeAt(text.length - 1);
  return text.length > 0 && last !== LF && last !== CR ? n + 1 : n;
}

/** The first `n` lines of `text` (without their endings). */
function firstLines(text: string, n: number): string[] {
  const out: string[] = [];
  let start = 0;
  while (out.length < n && start < text.length) {
    let end = start;
    while (end < text.length && text.charCodeAt(end) !== LF && text.charCodeAt(end) !== CR) end += 1;
    out.push(text.slice(start, end));
    start = text.charCodeAt(end) === CR && text.charCodeAt(end + 1) === LF ? end + 2 : end + 1;
  }
  return out;
}

/** The last `n` lines of `text` (without their endings); a final line ending adds no line. */
function lastLines(text: string, n: number): string[] {
  const out: string[] = [];
  if (text.length === 0 || n === 0) return out;
  let end = text.length;
  if (text.charCodeAt(end - 1) === LF) {
    end -= 1;
    if (end > 0 && text.charCodeAt(end - 1) === CR) end -= 1;
  } else if (text.charCodeAt(end - 1) === CR) end -= 1;
  while (out.length < n) {
    let start = end;
    while (start > 0 && text.charCodeAt(start - 1) !== LF && text.charCodeAt(start - 1) !== CR) start -= 1;
    out.unshift(text.slice(start, end));
    if (start === 0) break;
    end = start - 1;
    if (text.charCodeAt(end) === LF && end > 0 && text.charCodeAt(end - 1) === CR) end -= 1;
  }
  return out;
}

/** Where to cut `bytes` so the part before ends with whole lines: after its last `\n`, else after a `\r` not last; 0 when none. */
function lineCut(bytes: Uint8Array): number {
  const lf = bytes.lastIndexOf(LF);
  if (lf !== -1) return lf + 1;
  const cr = bytes.lastIndexOf(CR, bytes.length - 2);
  return cr === -1 ? 0 : cr + 1;
}

/** `bytes.length`, or less so that no UTF-8 sequence is cut at the end. */
function charCut(bytes: Uint8Array): number {
  const n = bytes.length;
  let i = n - 1;
  while (i > 0 && i > n - 4 && ((bytes[i] as number) & 0xc0) === 0x80) i -= 1;
  const lead = bytes[i] as number;
  const size = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return i + size > n ? i : n;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b;
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/** Whether a V8 or re2 source of the pattern holds an assertion that looks past a match's end (`$`, `\b`, `\B`). */
function endSensitive(pattern: SearchPattern): boolean {
  if (pattern.mode === 'literal') return false;
  const v8 = pattern.v8?.source ?? '';
  // Unicode \b and \B are lookarounds in V8's source (any \b of the pattern counts, conservatively).
  return v8.includes('(?![^\\n\\r])') || /\\[bB]/.test(v8) || /\\[bB]/.test(pattern.pattern) || (pattern.mode !== 'linear' && /\$/.test(pattern.pattern));
}

/**
 * Searches one file of any size window by window, holding at most a window of bytes and about two of
 * text, with the same lines, columns, excerpts and context lines as a whole-file scan: the file is
 * read {@link STREAM_WINDOW_BYTES} at a time and cut after its last line break (the rest is carried
 * into the next window), each run of whole lines is scanned with {@link scanText}, and line numbers
 * and context lines carry over between runs. A line longer than a window is searched in windows that
 * each see {@link STREAM_OVERLAP_CHARS} of their neighbours: literal text is found wherever it is; a
 * regular expression's first match is found when it is at most that long (`^`, `$` and `\b` keep their
 * meaning at window edges); its excerpt and `[... N characters before/after]` counts are exact. NUL in
 * the first 8 KiB or bytes that are not UTF-8 make the file binary (`binary`; its matches are void).
 * Checks the deadline between windows and inside each scan.
 */
export async function scanStream(path: string, input: StreamInput, pattern: SearchPattern, options: StreamOptions): Promise<StreamResult> {
  return new StreamScan(path, input, pattern, options).run();
}

/** Where a long line's first match was found: enough to cut its excerpt once the line's length is known. */
interface LongLineHit {
  /** UTF-16 offset of the match in the line, and its length. */
  at: number;
  length: number;
  /** 1-based code-point column of the match. */
  column: number;
  /** The text around the match (up to {@link MAX_LINE_CHARS} each side), from line offset `candUnits`, code point `candCp`. */
  cand: string;
  candUnits: number;
  candCp: number;
}

/** One window's text of a long line: its UTF-16 offset and code-point offset in the line. */
interface LinePart {
  text: string;
  units: number;
  cps: number;
}

/** The state of one {@link scanStream}: line numbers, context lines and matches waiting for their after-context. */
class StreamScan {
  readonly overlap: number;
  readonly windowBytes: number;
  /** `context_lines`. */
  readonly K: number;
  readonly deadline: number;
  /** Whether the pattern looks past a match's end (see {@link endSensitive}). */
  readonly sensitive: boolean;
  count = 0;
  /** Lines before the current run. */
  lineBase = 0;
  /** The last `K` lines seen (clipped), for the before-context of a match early in a run. */
  readonly ring: string[] = [];
  /** Matches waiting for `need` more lines of after-context, in file order. */
  readonly pending: Pending[] = [];

  constructor(
    readonly path: string,
    readonly input: StreamInput,
    readonly pattern: SearchPattern,
    readonly options: StreamOptions,
  ) {
    // A window decodes to at least a quarter of its bytes in characters: at least the overlap, which
    // holds a match's excerpt on either side.
    this.overlap = Math.max(options.overlap ?? STREAM_OVERLAP_CHARS, 2 * MAX_LINE_CHARS + 2);
    this.windowBytes = Math.max(options.window ?? STREAM_WINDOW_BYTES, 4 * this.overlap);
    this.K = options.contextLines;
    this.deadline = options.deadline;
    this.sensitive = endSensitive(pattern);
  }

  /** More matches with line, column and excerpt wanted, besides those pending. */
  wanted(): number {
    return Math.max(0, this.options.wanted() - this.pending.length);
  }

  /** Whether lines are still counted and kept: matches are pending or more are wanted. */
  tracking(): boolean {
    return this.pending.length > 0 || this.options.wanted() > this.pending.length;
  }

  flush(): void {
    const { pending } = this;
    while (pending.length > 0 && (pending[0] as Pending).need === 0) this.options.emit((pending.shift() as Pending).match);
  }

  /** Hands `match` on, or keeps it until `need` more lines are known. */
  queue(match: SearchMatch, need: number): void {
    this.pending.push({ match, need });
    this.flush();
  }

  /** A line after every pending match (its clipped form). */
  feed(clipped: string): void {
    for (const item of this.pending) {
      if (item.need > 0) {
        item.match.after?.push(clipped);
        item.need -= 1;
      }
    }
    this.flush();
  }

  remember(clipped: string[]): void {
    const { K, ring } = this;
    if (K === 0) return;
    ring.push(...clipped);
    if (ring.length > K) ring.splice(0, ring.length - K);
  }

  /** Reads the file window by window: runs of whole lines to {@link runOf}, a line longer than a window to {@link longLine}. */
  async run(): Promise<StreamResult> {
    const { input, options, deadline, windowBytes } = this;
    // Binary from the first 8 KiB, as for a whole file; a UTF-8 BOM is skipped.
    const sniff = await input.read(0, Math.min(SNIFF, input.size));
    if (sniff.indexOf(0) !== -1) return { count: 0, stopped: false, binary: true };
    let pos = sniff.length >= 3 && sniff[0] === 0xef && sniff[1] === 0xbb && sniff[2] === 0xbf ? 3 : 0;
    /** Bytes of an unfinished line, read already: they start at `pos - carry.length`. */
    let carry: Uint8Array = new Uint8Array(0);
    let lastPause = Date.now();
    while (pos < input.size || carry.length > 0) {
      if (Date.now() >= deadline) return { count: this.count, stopped: true, binary: false };
      if (Date.now() - lastPause >= 40) {
        await options.pause();
        lastPause = Date.now();
      }
      const fresh = pos < input.size ? await input.read(pos, windowBytes - carry.length) : new Uint8Array(0);
      // Shorter than its size said (cut while it was searched): done.
      if (fresh.length === 0 && carry.length === 0) break;
      const start = pos - carry.length;
      const buffer = concat(carry, fresh);
      pos += fresh.length;
      const atEof = pos >= input.size || fresh.length === 0;
      const cut = atEof ? buffer.length : lineCut(buffer);
      carry = new Uint8Array(0);
      if (cut === 0) {
        // No line break in a whole window: a long line, read on in windows of its own.
        const next = await this.longLine(start, buffer);
        if (next === 'binary') return { count: 0, stopped: false, binary: true };
        if (next === 'stopped') return { count: this.count, stopped: true, binary: false };
        pos = next;
        continue;
      }
      if (cut < buffer.length) carry = buffer.slice(cut);
      const text = input.decode(cut === buffer.length ? buffer : buffer.subarray(0, cut));
      if (text === null) return { count: 0, stopped: false, binary: true };
      if (await this.runOf(text, atEof && carry.length === 0)) return { count: this.count, stopped: true, binary: false };
    }
    for (const item of this.pending) item.need = 0;
    this.flush();
    return { count: this.count, stopped: false, binary: false };
  }

  /** One run of whole lines (the last run may end without a break); whether the deadline stopped it. */
  async runOf(text: string, last: boolean): Promise<boolean> {
    const { K, ring, pattern, options } = this;
    const track = this.tracking();
    if (track && K > 0 && this.pending.length > 0) for (const line of firstLines(text, K)) this.feed(clipLine(line));
    const want = this.wanted();
    const result = await scanText(text, pattern, { deadline: this.deadline, wantOffsets: want, maxHits: Infinity, pause: options.pause });
    this.count += result.count;
    if (want > 0 && result.hits.length > 0) {
      const formatter = new MatchFormatter(text);
      for (const hit of result.hits) {
        if (hit.start < 0 || this.wanted() === 0) break;
        const match = formatter.format(this.path, hit, K);
        const k = formatter.lineIndex(hit.lineStart);
        match.line_number += this.lineBase;
        if (K > 0) {
          if (k < K && ring.length > 0) match.before = [...ring.slice(Math.max(0, ring.length - (K - k))), ...(match.before ?? [])];
          this.queue(match, last ? 0 : K - (match.after?.length ?? 0));
        } else this.queue(match, 0);
      }
    }
    if (track) {
      this.remember(lastLines(text, K).map(clipLine));
      this.lineBase += countLines(text);
    }
    return result.stopped;
  }

  /**
   * A line longer than a window, from byte `start` (`first`: its first bytes, read already): searched
   * part by part, each part with {@link overlap} characters of its neighbours; returns where the next
   * line starts, 'binary', or 'stopped' (the deadline).
   */
  async longLine(start: number, first: Uint8Array): Promise<number | 'binary' | 'stopped'> {
    const { pattern, input, overlap, K } = this;
    if (pattern.mode !== 'literal' && !(pattern.mode === 'linear' && pattern.v8) && !re2Engine()) await loadRe2Engine();
    let pos = start;
    let bytes = first;
    let tail = '';
    let head = '';
    let units = 0;
    let cps = 0;
    let matched = false;
    let lastPause = Date.now();
    let found: LongLineHit | undefined;
    let held: LinePart | undefined;
    let next = -1;
    const want = this.wanted() > 0;
    /** Searches `body` (with `tail` before it and `after` after it); true when the deadline came. */
    const search = (body: LinePart, after: string, atEnd: boolean): boolean => {
      const x = tail + body.text + after;
      const hit = findIn(pattern, this.sensitive, this.deadline, x, tail.length, tail.length + body.text.length, atEnd);
      if (hit === null) return true;
      if (hit !== undefined) {
        matched = true;
        if (want) found = longLineHit(x, hit, body.units - tail.length, body.cps - countCodePoints(tail));
      }
      return false;
    };
    for (;;) {
      const lf = bytes.indexOf(LF);
      const cr = bytes.indexOf(CR, 0);
      const end = lf === -1 ? cr : cr === -1 ? lf : Math.min(lf, cr);
      let cut = end === -1 ? charCut(bytes) : end;
      if (cut === 0 && end === -1) cut = bytes.length;
      const piece = cut === bytes.length ? bytes : bytes.subarray(0, cut);
      const text = input.decode(piece);
      if (text === null) return 'binary';
      if (head.length <= MAX_LINE_CHARS) head += text.slice(0, MAX_LINE_CHARS + 1 - head.length);
      const body = { text, units, cps };
      units += text.length;
      // As many characters as bytes: all ASCII, as many code points as characters (not counted one by one).
      cps += text.length === piece.length ? text.length : countCodePoints(text);
      if (held && !matched) {
        if (search(held, text.slice(0, overlap), false)) return 'stopped';
      }
      if (held) {
        // The held part's own end when it is long enough: joining it to the tail first would copy all of it.
        tail = held.text.length >= overlap ? held.text.slice(-overlap) : (tail + held.text).slice(-overlap);
        // Never half a surrogate pair at its start (code points are counted from it).
        const c = tail.charCodeAt(0);
        if (tail.length === overlap && c >= 0xdc00 && c <= 0xdfff) tail = tail.slice(1);
      }
      held = body;
      if (end !== -1) {
        let after = pos + end + 1;
        if (bytes[end] === CR) {
          const peek = end + 1 < bytes.length ? bytes.subarray(end + 1, end + 2) : await input.read(pos + end + 1, 1);
          if (peek[0] === LF) after += 1;
        }
        next = after;
        break;
      }
      pos += cut;
      if (pos >= input.size) {
        next = input.size;
        break;
      }
      if (Date.now() >= this.deadline) return 'stopped';
      if (Date.now() - lastPause >= 40) {
        await this.options.pause();
        lastPause = Date.now();
      }
      bytes = await input.read(pos, this.windowBytes);
      if (bytes.length === 0) {
        next = input.size;
        break;
      }
    }
    if (held && !matched && search(held, '', true)) return 'stopped';
    const clipped = clippedHead(head, units, cps);
    if (K > 0) this.feed(clipped);
    if (matched) {
      this.count += 1;
      if (found && this.wanted() > 0) {
        const match: SearchMatch = { file_path: this.path, line_number: this.lineBase + 1, column: found.column, line: longLineExcerpt(found, units, cps) };
        if (K > 0) {
          match.before = this.ring.slice(Math.max(0, this.ring.length - K));
          match.after = [];
          this.queue(match, next >= input.size ? 0 : K);
        } else this.queue(match, 0);
      }
    }
    this.remember([clipped]);
    this.lineBase += 1;
    return next;
  }
}

/** A long line's first {@link MAX_LINE_CHARS} characters, with how many more there are when it is longer. */
function clippedHead(head: string, units: number, cps: number): string {
  let headEnd = MAX_LINE_CHARS;
  const c = head.charCodeAt(headEnd - 1);
  if (c >= 0xd800 && c <= 0xdbff) headEnd -= 1;
  return units <= MAX_LINE_CHARS ? head : `${head.slice(0, headEnd)} [... ${cps - countCodePoints(head, 0, headEnd)} more characters]`;
}

/** Where the match `[s, e)` of `x` lies in its line (`x` starts at line offset `xUnits`, code point `xCp`), with the text around it. */
function longLineHit(x: string, [s, e]: [number, number], xUnits: number, xCp: number): LongLineHit {
  let cs = Math.max(0, s - MAX_LINE_CHARS);
  const c = x.charCodeAt(cs);
  if (cs > 0 && c >= 0xdc00 && c <= 0xdfff) cs -= 1;
  const cand = x.slice(cs, Math.min(x.length, s + MAX_LINE_CHARS + 1));
  return { at: xUnits + s, length: e - s, column: xCp + countCodePoints(x, 0, s) + 1, cand, candUnits: xUnits + cs, candCp: xCp + countCodePoints(x, 0, cs) };
}

/** The excerpt of a long line around its match: {@link MAX_LINE_CHARS} characters centred on it, with the counts of those cut off. */
function longLineExcerpt(found: LongLineHit, size: number, cps: number): string {
  const span = Math.min(found.length, MAX_LINE_CHARS);
  let s = Math.max(0, Math.min(size - MAX_LINE_CHARS, found.at - Math.floor((MAX_LINE_CHARS - span) / 2)));
  let e = s + MAX_LINE_CHARS;
  const cand = found.cand;
  const first = cand.charCodeAt(s - found.candUnits);
  if (s > 0 && first >= 0xdc00 && first <= 0xdfff) s += 1;
  const lastChar = cand.charCodeAt(e - 1 - found.candUnits);
  if (e < size && lastChar >= 0xd800 && lastChar <= 0xdbff) e -= 1;
  const rs = s - found.candUnits;
  const re = e - found.candUnits;
  const beforeCp = found.candCp + countCodePoints(cand, 0, rs);
  const afterCp = cps - (found.candCp + countCodePoints(cand, 0, re));
  return (s > 0 ? `[... ${beforeCp} characters before] ` : '') + cand.slice(rs, re) + (e < size ? ` [... ${afterCp} characters after]` : '');
}

/**
 * Finds a match starting in `[c0, c1)` of `x`; `atEnd`: `x` ends where the line does (`sensitive`:
 * the pattern looks past a match's end, so a match reaching `x`'s end elsewhere is looked at again).
 * undefined: none; null: the deadline came.
 */
function findIn(pattern: SearchPattern, sensitive: boolean, deadline: number, x: string, c0: number, c1: number, atEnd: boolean): [number, number] | undefined | null {
  if (pattern.mode === 'literal') {
    const literal = pattern.literal as string;
    const at = indexOfText(x, literal, c0);
    return at !== -1 && at < c1 ? [at, at + literal.length] : undefined;
  }
  if (pattern.required !== undefined && indexOfText(x, pattern.required) === -1) return undefined;
  const v8 = pattern.mode === 'linear' ? pattern.v8 : undefined;
  if (v8) {
    let from = c0;
    for (let tries = 0; tries < 16; tries += 1) {
      v8.lastIndex = from;
      const m = v8.exec(x);
      if (m === null || m.index >= c1) return undefined;
      const end = m.index + (m[1] as string).length;
      const before = x.charCodeAt(m.index - 1);
      const here = x.charCodeAt(m.index);
      // V8 reports empty matches inside a surrogate pair; a match reaching the window's end may lean
      // on `$` or `\b` there: look again just after its start.
      if ((before >= 0xd800 && before <= 0xdbff && here >= 0xdc00 && here <= 0xdfff) || (end === x.length && !atEnd && sensitive)) {
        from = m.index + 1;
        continue;
      }
      return [m.index, end];
    }
    return undefined;
  }
  const re2 = pattern.re2;
  if (!re2.test(x)) return undefined;
  const win = Math.max(256, Math.floor(FIND_WORK / Math.max(1, re2.programSize())));
  for (let p = c0; p < c1; p += win >> 1) {
    const lo = p > 0 ? p - 1 : 0;
    const hi = Math.min(x.length, p + win);
    const m = re2.matcher(x.slice(lo, hi));
    if (m.find(p - lo)) {
      const s = lo + m.start();
      const e = lo + m.end();
      if (s >= c1) return undefined;
      if (!(e === hi && (hi < x.length || !atEnd) && sensitive)) return [s, e];
    }
    if (hi >= x.length) return undefined;
    if (Date.now() >= deadline) return null;
  }
  return undefined;
}
