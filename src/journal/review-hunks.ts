// Line hunks of a staged change, and applying some of them: what review mode's accept and reject
// write. Lines keep their own terminators (`\n`, `\r\n`, none on a last line), so a text put together
// from the workspace's lines and some hunks' lines is byte-exact.

/** Unchanged lines shown around each change, and the gap under which two changes share a hunk (twice it). */
export const CONTEXT_LINES = 3;
/** Most lines removed plus added that the line diff looks for; past it the changed middle is one change. */
const MAX_EDITS = 2_000;
/** Bytes looked at for a NUL that makes a file binary (as the tools' own sniff). */
const BINARY_SNIFF_BYTES = 8192;

/** One changed region: old lines `[oldStart, oldEnd)` become new lines `[newStart, newEnd)` (0-based). */
export interface Region {
  oldStart: number;
  oldEnd: number;
  newStart: number;
  newEnd: number;
}

/** A hunk: consecutive regions less than two contexts apart, with the lines shown around them. */
export interface LineHunk {
  regions: Region[];
  /** 0-based bounds of the hunk in the old and the new lines, context included. */
  oldFrom: number;
  oldTo: number;
  newFrom: number;
  newTo: number;
}

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The text of `bytes` (a BOM kept as U+FEFF), or null when binary (a NUL near the start, or not UTF-8). */
export function textOf(bytes: Uint8Array | null): string | null {
  if (bytes === null) return '';
  const sniff = Math.min(bytes.length, BINARY_SNIFF_BYTES);
  for (let i = 0; i < sniff; i += 1) if (bytes[i] === 0) return null;
  try {
    return decoder.decode(bytes);
  } catch {
    return null;
  }
}

/** `text` cut into lines, each with its terminator (the last may have none). */
export function splitLines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/** The regions where `a` and `b` differ, in order: common ends trimmed, the middle diffed by Myers' algorithm (fewest lines removed and added). */
export function diffLines(a: readonly string[], b: readonly string[]): Region[] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start += 1;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) (endA -= 1, endB -= 1);
  if (endA === start && endB === start) return [];
  const whole: Region[] = [{ oldStart: start, oldEnd: endA, newStart: start, newEnd: endB }];
  if (endA === start || endB === start) return whole;
  const edits = myersEdits(a.slice(start, endA), b.slice(start, endB));
  if (edits === undefined) return whole;
  const regions: Region[] = [];
  for (const [x, y, removed] of edits) {
    const last = regions[regions.length - 1];
    const open = last !== undefined && last.oldEnd === start + x && last.newEnd === start + y ? last : undefined;
    const region = open ?? { oldStart: start + x, oldEnd: start + x, newStart: start + y, newEnd: start + y };
    if (removed) region.oldEnd += 1;
    else region.newEnd += 1;
    if (!open) regions.push(region);
  }
  return regions;
}

/**
 * The edits turning `a` into `b`, in order, each `[x, y, removed]`: at line `x` of `a` and `y` of `b`,
 * `a[x]` removed or `b[y]` added. Keeps each step's frontier (O(D²) numbers for D edits); undefined
 * past {@link MAX_EDITS} edits, where the caller takes the whole range as one change.
 */
function myersEdits(a: readonly string[], b: readonly string[]): Array<[number, number, boolean]> | undefined {
  const n = a.length;
  const m = b.length;
  const offset = n + m + 1;
  const v = new Int32Array(2 * offset + 1);
  const trace: Int32Array[] = [];
  let found = -1;
  for (let d = 0; d <= Math.min(n + m, MAX_EDITS) && found < 0; d += 1) {
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && (v[offset + k - 1] as number) < (v[offset + k + 1] as number)) ? (v[offset + k + 1] as number) : (v[offset + k - 1] as number) + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) (x += 1, y += 1);
      v[offset + k] = x;
      if (x >= n && y >= m) found = d;
    }
    trace.push(v.slice(offset - d, offset + d + 1));
  }
  if (found < 0) return undefined;
  const edits: Array<[number, number, boolean]> = [];
  let x = n;
  let y = m;
  for (let d = found; d > 0; d -= 1) {
    const before = trace[d - 1] as Int32Array;
    const k = x - y;
    // `before` holds step d-1's frontier, diagonal k' at index k' + d - 1.
    const down = k === -d || (k !== d && (before[k - 1 + d - 1] as number) < (before[k + 1 + d - 1] as number));
    const fromK = down ? k + 1 : k - 1;
    const fromX = before[fromK + d - 1] as number;
    const fromY = fromX - fromK;
    edits.push(down ? [fromX, fromY, false] : [fromX, fromY, true]);
    x = fromX;
    y = fromY;
  }
  return edits.reverse();
}

/** `regions` grouped into hunks with {@link CONTEXT_LINES} of context (within the `oldCount` / `newCount` lines). */
export function groupHunks(regions: readonly Region[], oldCount: number, newCount: number): LineHunk[] {
  const hunks: LineHunk[] = [];
  for (const region of regions) {
    const last = hunks[hunks.length - 1];
    const previous = last?.regions[last.regions.length - 1];
    if (last && previous && region.oldStart - previous.oldEnd <= 2 * CONTEXT_LINES) {
      last.regions.push(region);
      continue;
    }
    hunks.push({ regions: [region], oldFrom: 0, oldTo: 0, newFrom: 0, newTo: 0 });
  }
  for (const hunk of hunks) {
    const first = hunk.regions[0] as Region;
    const end = hunk.regions[hunk.regions.length - 1] as Region;
    const before = Math.min(CONTEXT_LINES, first.oldStart, first.newStart);
    const after = Math.min(CONTEXT_LINES, oldCount - end.oldEnd, newCount - end.newEnd);
    hunk.oldFrom = first.oldStart - before;
    hunk.newFrom = first.newStart - before;
    hunk.oldTo = end.oldEnd + after;
    hunk.newTo = end.newEnd + after;
  }
  return hunks;
}

/** One line as a diff shows it: its text without the terminator, and a marker line when it has none. */
function shown(prefix: string, line: string): string {
  const bare = line.endsWith('\r\n') ? line.slice(0, -2) : line.endsWith('\n') ? line.slice(0, -1) : line;
  return `${prefix}${bare}\n${line.endsWith('\n') ? '' : '\\ No newline at end of file\n'}`;
}

/** The `@@ -a,b +c,d @@` header of a range (1-based; an empty range names the line before it). */
export function hunkHeader(oldFrom: number, oldCount: number, newFrom: number, newCount: number): string {
  const range = (from: number, count: number): string => `${count === 0 ? from : from + 1},${count}`;
  return `@@ -${range(oldFrom, oldCount)} +${range(newFrom, newCount)} @@\n`;
}

/** A hunk as unified diff text: header, context and changed lines. */
export function hunkText(hunk: LineHunk, a: readonly string[], b: readonly string[]): string {
  let out = hunkHeader(hunk.oldFrom, hunk.oldTo - hunk.oldFrom, hunk.newFrom, hunk.newTo - hunk.newFrom);
  let oldAt = hunk.oldFrom;
  for (const region of hunk.regions) {
    for (; oldAt < region.oldStart; oldAt += 1) out += shown(' ', a[oldAt] as string);
    for (let k = region.oldStart; k < region.oldEnd; k += 1) out += shown('-', a[k] as string);
    for (let k = region.newStart; k < region.newEnd; k += 1) out += shown('+', b[k] as string);
    oldAt = region.oldEnd;
  }
  for (; oldAt < hunk.oldTo; oldAt += 1) out += shown(' ', a[oldAt] as string);
  return out;
}

/** The old lines with the regions `take` says yes to replaced by their new lines, joined. */
export function applyRegions(a: readonly string[], b: readonly string[], regions: readonly Region[], take: (region: Region) => boolean): string {
  let out = '';
  let oldAt = 0;
  for (const region of regions) {
    for (; oldAt < region.oldStart; oldAt += 1) out += a[oldAt] as string;
    if (take(region)) for (let k = region.newStart; k < region.newEnd; k += 1) out += b[k] as string;
    else for (let k = region.oldStart; k < region.oldEnd; k += 1) out += a[k] as string;
    oldAt = region.oldEnd;
  }
  for (; oldAt < a.length; oldAt += 1) out += a[oldAt] as string;
  return out;
}
