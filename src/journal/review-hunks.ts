// Line hunks of a staged change, and applying some of them: what review mode's accept and reject
// write. Lines keep their own terminators (`\n`, `\r\n`, none on a last line), so a text put together
// from the workspace's lines and some hunks' lines is byte-exact.

/** Unchanged lines shown around each change, and the gap under which two changes share a hunk (twice it). */
export const CONTEXT_LINES = 3;
/** Largest product of changed-region line counts diffed line by line; past it the region is one change. */
const MAX_DIFF_CELLS = 4_000_000;
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

/** The regions where `a` and `b` differ, in order: common ends trimmed, the middle diffed by longest common subsequence. */
export function diffLines(a: readonly string[], b: readonly string[]): Region[] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start += 1;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) (endA -= 1, endB -= 1);
  const n = endA - start;
  const m = endB - start;
  if (n === 0 && m === 0) return [];
  if (n === 0 || m === 0 || n * m > MAX_DIFF_CELLS) return [{ oldStart: start, oldEnd: endA, newStart: start, newEnd: endB }];
  // lcs[i * (m + 1) + j]: length of the longest common subsequence of a[start + i..endA) and b[start + j..endB).
  const width = m + 1;
  const lcs = new Uint32Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i -= 1) {
    for (let j = m - 1; j >= 0; j -= 1) {
      lcs[i * width + j] = a[start + i] === b[start + j] ? (lcs[(i + 1) * width + j + 1] as number) + 1 : Math.max(lcs[(i + 1) * width + j] as number, lcs[i * width + j + 1] as number);
    }
  }
  const regions: Region[] = [];
  let open: Region | undefined;
  let i = 0;
  let j = 0;
  const close = (): void => {
    if (open) regions.push(open);
    open = undefined;
  };
  while (i < n || j < m) {
    if (i < n && j < m && a[start + i] === b[start + j]) {
      close();
      (i += 1, j += 1);
      continue;
    }
    open ??= { oldStart: start + i, oldEnd: start + i, newStart: start + j, newEnd: start + j };
    if (j < m && (i === n || (lcs[i * width + j + 1] as number) >= (lcs[(i + 1) * width + j] as number))) {
      j += 1;
      open.newEnd = start + j;
    } else {
      i += 1;
      open.oldEnd = start + i;
    }
  }
  close();
  return regions;
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
