import { loadDiff, offThread } from '#lazy';
import { isToolError, toToolError } from '../../core/errors.js';
import { NO_PACE, type Pace } from './pace.js';
import { onDemand } from '../../core/on-demand.js';
import { clipForMessage, countCodePoints } from '../../fs/text.js';

/** Longest diff returned, in UTF-16 code units; a longer one is cut at a line with a marker. */
export const EDIT_MAX_DIFF_CHARS = 30_000;
/**
 * Longest line of a diff shown whole, in UTF-16 code units (as `view_file`'s line cut). A longer
 * changed line is shown as an excerpt around its first difference, other long lines as their start.
 */
export const EDIT_MAX_DIFF_LINE_CHARS = 2000;
/** Characters of unchanged text kept before and after the change in an excerpt of a long line. */
const DIFF_EXCERPT_CONTEXT = 200;
/** Time budget of the diff computation, in ms; past it the result says the diff was left out. */
const DIFF_TIMEOUT_MS = 2_000;
/** The diff library's patch module (in browsers a file of its own, fetched on the first edit). */
const diffLibrary = onDemand('the diff library', 'diff.min.js', loadDiff);

const isHigh = (c: number): boolean => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number): boolean => c >= 0xdc00 && c <= 0xdfff;

/** `i` moved back off the low half of a surrogate pair, so a cut there never splits a character. */
function pairStart(text: string, i: number): number {
  return i > 0 && i < text.length && isLow(text.charCodeAt(i)) && isHigh(text.charCodeAt(i - 1)) ? i - 1 : i;
}

/** `line[start, end)` with markers saying how many characters (code points) come before and after it. */
function excerpt(line: string, start: number, end: number): string {
  const from = pairStart(line, Math.max(0, Math.min(start, line.length)));
  const to = pairStart(line, Math.max(from, Math.min(end, line.length)));
  const before = from > 0 ? `[... ${countCodePoints(line, 0, from)} characters before] ` : '';
  const after = to < line.length ? ` [... ${countCodePoints(line, to)} characters after]` : '';
  return before + line.slice(from, to) + after;
}

/**
 * A removed line and the added line that replaces it, cut alike when either is longer than
 * {@link EDIT_MAX_DIFF_LINE_CHARS}: from a little before their first difference to a little after its
 * end, so that a change inside a long (minified, generated) line stays visible in the diff.
 */
function excerptPair(removed: string, added: string): [string, string] {
  const max = EDIT_MAX_DIFF_LINE_CHARS;
  if (removed.length <= max && added.length <= max) return [removed, added];
  const shorter = Math.min(removed.length, added.length);
  let prefix = 0;
  while (prefix < shorter && removed.charCodeAt(prefix) === added.charCodeAt(prefix)) prefix += 1;
  let suffix = 0;
  while (suffix < shorter - prefix && removed.charCodeAt(removed.length - 1 - suffix) === added.charCodeAt(added.length - 1 - suffix)) suffix += 1;
  const start = Math.max(0, prefix - DIFF_EXCERPT_CONTEXT);
  const cut = (line: string): string => {
    const changeEnd = line.length - suffix;
    return excerpt(line, start, Math.min(start + max, changeEnd + DIFF_EXCERPT_CONTEXT));
  };
  return [cut(removed), cut(added)];
}

/**
 * Hunk lines (`-`, `+`, ` ` or `\` first) with lines over {@link EDIT_MAX_DIFF_LINE_CHARS} cut: the
 * n-th removed and n-th added line of a block of changes as {@link excerptPair}, any other to its start.
 */
function excerptLongLines(lines: string[]): string[] {
  const max = EDIT_MAX_DIFF_LINE_CHARS + 1;
  if (lines.every((line) => line.length <= max)) return lines;
  const out = lines.slice();
  const head = (i: number): void => {
    const line = out[i] as string;
    if (line.length > max) out[i] = line[0] + excerpt(line.slice(1), 0, EDIT_MAX_DIFF_LINE_CHARS);
  };
  let i = 0;
  while (i < out.length) {
    const kind = (out[i] as string)[0];
    if (kind !== '-' && kind !== '+') {
      head(i);
      i += 1;
      continue;
    }
    // One block of changes: its removed lines, then its added lines (a `\ No newline` note may sit between).
    const removed: number[] = [];
    const added: number[] = [];
    for (; i < out.length; i += 1) {
      const k = (out[i] as string)[0];
      if (k === '-' && added.length === 0) removed.push(i);
      else if (k === '+') added.push(i);
      else if (k !== '\\') break;
    }
    for (let n = 0; n < Math.max(removed.length, added.length); n += 1) {
      const r = removed[n];
      const a = added[n];
      if (r !== undefined && a !== undefined) {
        const [oldLine, newLine] = excerptPair((out[r] as string).slice(1), (out[a] as string).slice(1));
        out[r] = '-' + oldLine;
        out[a] = '+' + newLine;
      } else head((r ?? a) as number);
    }
  }
  return out;
}

/** Most characters of changed text (both sides) that are diffed line by line; a larger change is summarised. */
export const EDIT_MAX_DIFFED_CHARS = 2_000_000;
/** Lines of context around a change, as `diff -u` gives. */
const CONTEXT_LINES = 3;

/**
 * Characters of changed text (both sides) from which the diff runs on a worker thread where there is
 * one (Node): its up to {@link DIFF_TIMEOUT_MS} of work then never holds the calling thread.
 */
const DIFF_OFF_THREAD_CHARS = 64 * 1024;

/** Index just past the `n`th line break after `i` in `text` (or its end). */
function forwardLines(text: string, i: number, n: number): number {
  let at = i;
  for (let k = 0; k < n && at < text.length; k += 1) {
    const next = text.indexOf('\n', at);
    at = next === -1 ? text.length : next + 1;
  }
  return at;
}

/** Start of the line `n` lines before the line that starts at `lineStart` in `text` (or 0). */
function backLines(text: string, lineStart: number, n: number): number {
  let at = lineStart;
  // text[at - 1] is the break ending the line before; the one ending the line before that starts it.
  for (let k = 0; k < n && at > 0; k += 1) at = at <= 1 ? 0 : text.lastIndexOf('\n', at - 2) + 1;
  return at;
}

/** Line breaks in `text[0, end)`, paced by `pace`. */
async function countLines(text: string, end: number, pace: Pace): Promise<number> {
  let n = 0;
  for (let at = text.indexOf('\n'); at !== -1 && at < end; at = text.indexOf('\n', at + 1)) {
    n += 1;
    if ((n & 0xffff) === 0 && pace.due()) await pace.pause();
  }
  return n;
}

/** The lines `text` has between `start` (a line's start) and `end`: its line breaks there, and a last line without one. */
async function linesIn(text: string, start: number, end: number, pace: Pace): Promise<number> {
  const breaks = (await countLines(text, end, pace)) - (await countLines(text, start, pace));
  return end > start && text.charCodeAt(end - 1) !== 10 ? breaks + 1 : breaks;
}

/** Characters compared between two checks of the pace in {@link commonEnds}. */
const COMPARE_STEP = 1 << 16;

/** Lengths of the common prefix and suffix of `before` and `after` (the suffix not overlapping the prefix), paced by `pace`. */
async function commonEnds(before: string, after: string, pace: Pace): Promise<{ prefix: number; suffix: number }> {
  const shorter = Math.min(before.length, after.length);
  let prefix = 0;
  while (prefix < shorter && before.charCodeAt(prefix) === after.charCodeAt(prefix)) {
    prefix += 1;
    if ((prefix & (COMPARE_STEP - 1)) === 0 && pace.due()) await pace.pause();
  }
  let suffix = 0;
  while (suffix < shorter - prefix && before.charCodeAt(before.length - 1 - suffix) === after.charCodeAt(after.length - 1 - suffix)) {
    suffix += 1;
    if ((suffix & (COMPARE_STEP - 1)) === 0 && pace.due()) await pace.pause();
  }
  return { prefix, suffix };
}

type Patch = ReturnType<typeof import('diff/lib/patch/create.js').structuredPatch>;

/**
 * The diff library's structured patch of the two regions: on a worker thread for a large change where
 * there is one (terminated when `signal` aborts, which rejects with its reason), else here. Undefined
 * where the library gave up at {@link DIFF_TIMEOUT_MS}.
 */
async function structuredDiff(path: string, before: string, after: string, signal: AbortSignal | undefined): Promise<Patch | undefined> {
  const options = { context: CONTEXT_LINES, timeout: DIFF_TIMEOUT_MS };
  const threads = before.length + after.length >= DIFF_OFF_THREAD_CHARS ? offThread() : undefined;
  if (threads) {
    try {
      return (await threads.run('diff', { path, before, after, options }, signal ? { signal, what: 'the diff' } : { what: 'the diff' })) ?? undefined;
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      throw isToolError(error) ? toToolError(error) : error;
    }
  }
  const { structuredPatch } = await diffLibrary.load();
  return structuredPatch(path, path, before, after, '', '', options);
}

/**
 * Unified diff of two LF texts with `path` in both headers: lines over {@link EDIT_MAX_DIFF_LINE_CHARS}
 * as excerpts ({@link excerptLongLines}), the whole capped at {@link EDIT_MAX_DIFF_CHARS}. Only the
 * changed region (between the texts' common first and last lines, plus context) is diffed, so a small
 * edit of a large file costs little; a region over {@link EDIT_MAX_DIFFED_CHARS} is summarised instead.
 * The walks over the texts are paced by `options.pace` (yielding to the event loop every few ms); a
 * change of 64 Ki characters or more is diffed on a worker thread where there is one (Node), ended
 * when `options.signal` aborts (rejecting with its reason). Errors: `unavailable` (the diff library or
 * its thread could not be loaded or started), `too_large` (the thread ran out of memory).
 */
export async function unifiedDiff(path: string, before: string, after: string, options: { pace?: Pace; signal?: AbortSignal } = {}): Promise<string> {
  const pace = options.pace ?? NO_PACE;
  // The common prefix and suffix, in whole lines, are left out of the diff (but for the context).
  const { prefix, suffix } = await commonEnds(before, after, pace);
  const start = backLines(before, prefix === 0 ? 0 : before.lastIndexOf('\n', prefix - 1) + 1, CONTEXT_LINES);
  const endBefore = forwardLines(before, before.length - suffix, CONTEXT_LINES + 1);
  const endAfter = forwardLines(after, after.length - suffix, CONTEXT_LINES + 1);
  const changed = endBefore - start + (endAfter - start);
  if (changed > EDIT_MAX_DIFFED_CHARS) {
    const removed = await linesIn(before, start, endBefore, pace);
    const added = await linesIn(after, start, endAfter, pace);
    return `(diff left out: the change to ${clipForMessage(path)} spans about ${removed} old and ${added} new lines, ${changed} characters; view_file the file to check it)`;
  }
  const skippedLines = await countLines(before, start, pace);
  // Each region ends at a line break or at its text's end, so a final newline is reported as the file has it.
  const patch = await structuredDiff(path, before.slice(start, endBefore), after.slice(start, endAfter), options.signal);
  if (patch === undefined) {
    return `(diff left out: the change to ${clipForMessage(path)} is too large to diff quickly; view_file the file to check it)`;
  }
  for (const hunk of patch.hunks) {
    hunk.oldStart += skippedLines;
    hunk.newStart += skippedLines;
    hunk.lines = excerptLongLines(hunk.lines);
  }
  // Loaded on the first edit, not with the worker: the diff library's patch module, not its index.
  const { FILE_HEADERS_ONLY, formatPatch } = await diffLibrary.load();
  const text = formatPatch(patch, FILE_HEADERS_ONLY);
  if (text.length <= EDIT_MAX_DIFF_CHARS) return text;
  const cutAt = text.lastIndexOf('\n', EDIT_MAX_DIFF_CHARS) + 1;
  return `${text.slice(0, cutAt)}… [${text.length - cutAt} characters of diff cut]\n`;
}
