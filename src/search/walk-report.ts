/**
 * What walks and reads could not take into account (entries skipped, `.gitignore` rules dropped),
 * gathered per call under its abort signal, and the notes that tell the model about them.
 */
import { errorCode } from '../core/errors.js';
import { clipForMessage, joinNotes } from '../fs/text.js';
import type { DroppedIgnoreRules, SkipKind, SkippedEntries } from '../core/search-engine.js';

/** Bytes of one `.gitignore` that are read as rules (1 MiB); the rest of the file is ignored. */
export const MAX_IGNORE_FILE_BYTES = 1024 * 1024;
/** Rules kept from one `.gitignore` (10,000); later ones are ignored. */
export const MAX_IGNORE_RULES = 10_000;
/**
 * Most `**` in one `.gitignore` rule (2, as in `**\/build/**`). The ignore library compiles each `**`
 * to a backtracking `.*`, so a rule with more takes time polynomial in the path's length to the power
 * of their count (`a/**\/a/**\/a/**\/b` blocks the thread for seconds on one deep path): such a rule is
 * left out, as are rules past {@link MAX_IGNORE_RULES}.
 */
export const MAX_IGNORE_RULE_GLOBSTARS = 2;
/** Longest `.gitignore` rule kept, in characters (4096, the longest path Linux takes). */
export const MAX_IGNORE_RULE_CHARS = 4096;

/** What one walk (or one call's walks) could not take into account, for the result's note. */
export interface WalkReport {
  skipped: SkippedEntries;
  ignoreDropped: readonly DroppedIgnoreRules[];
}

/** What a walk skipped and why (declared with the search engine's answers in src/core/search-engine.ts). */
export type { DroppedIgnoreRules, SkipKind, SkippedEntries } from '../core/search-engine.js';

const SKIP_KINDS: Readonly<Record<string, SkipKind>> = {
  ENAMETOOLONG: 'too_long',
  EACCES: 'unreadable',
  EPERM: 'unreadable',
  ENOENT: 'vanished',
  ENOTDIR: 'vanished',
  ELOOP: 'loop',
  outside_workspace: 'outside',
};

/** The {@link SkipKind} of a filesystem error, or undefined for an error that is not about one entry. */
export function skipKindOf(error: unknown): SkipKind | undefined {
  const code = errorCode(error);
  return code === undefined ? undefined : SKIP_KINDS[code];
}

/** No entries skipped yet. */
export function noSkippedEntries(): SkippedEntries {
  return { count: 0, kinds: {} };
}

/** Counts one skipped entry at `path` in `into`. */
export function countSkipped(into: SkippedEntries, kind: SkipKind, path: string): void {
  into.count += 1;
  into.kinds[kind] = (into.kinds[kind] ?? 0) + 1;
  into.first ??= path;
}

/** What the walks and reads under each call's signal left out, so a tool can report it. */
const reportsBySignal = new WeakMap<AbortSignal, { skipped: SkippedEntries; ignoreDropped: DroppedIgnoreRules[] }>();

function reportFor(signal: AbortSignal) {
  let report = reportsBySignal.get(signal);
  if (!report) {
    report = { skipped: noSkippedEntries(), ignoreDropped: [] };
    reportsBySignal.set(signal, report);
  }
  return report;
}

/** Counts one skipped entry at `path` in what the call under `signal` reports (see {@link walkReportUnder}). */
export function countSkippedUnder(signal: AbortSignal | undefined, kind: SkipKind, path: string): void {
  if (signal) countSkipped(reportFor(signal).skipped, kind, path);
}

export function noteDroppedFor(signal: AbortSignal | undefined, dropped: DroppedIgnoreRules): void {
  if (!signal) return;
  const list = reportFor(signal).ignoreDropped;
  if (!list.some((known) => known.file === dropped.file)) list.push(dropped);
}

/**
 * What every {@link walkWorkspace} and search read (`FsReads.fetch`, the content cache's loads) run with `signal` (one call's `ctx.signal`)
 * has left out so far: directories that could not be listed, files that could not be read, and
 * `.gitignore` rules not applied.
 */
export function walkReportUnder(signal: AbortSignal | undefined): WalkReport {
  return (signal && reportsBySignal.get(signal)) ?? { skipped: noSkippedEntries(), ignoreDropped: [] };
}

const SKIP_REASONS: Readonly<Record<SkipKind, string>> = {
  too_long: 'name or path too long (ENAMETOOLONG)',
  unreadable: 'permission denied (EACCES)',
  vanished: 'removed or replaced while the call ran (ENOENT, ENOTDIR)',
  loop: 'replaced by a symbolic link (ELOOP)',
  outside: 'replaced by a link out of the workspace',
};

const SKIP_ORDER: readonly SkipKind[] = ['too_long', 'unreadable', 'vanished', 'loop', 'outside'];

/**
 * The note of a result that left entries out: how many, of which kinds, the first one's path, and what
 * to do: `2 entries could not be read and were skipped (1 name or path too long (ENAMETOOLONG), 1
 * removed or replaced while the call ran (ENOENT, ENOTDIR)), the first /workspace/a/…; their contents are not in this
 * result: shorten (rename or move) a path that is too long, make an unreadable one readable, and call
 * again for one that was removed.`
 */
export function skippedNote(skipped: SkippedEntries): string {
  const parts = SKIP_ORDER.filter((kind) => (skipped.kinds[kind] ?? 0) > 0).map((kind) => `${skipped.kinds[kind]} ${SKIP_REASONS[kind]}`);
  const noun = skipped.count === 1 ? 'entry' : 'entries';
  const first = skipped.first === undefined ? '' : `, the first ${clipForMessage(skipped.first, 200)}`;
  return (
    `${skipped.count} ${noun} could not be read and ${skipped.count === 1 ? 'was' : 'were'} skipped (${parts.join(', ')})${first}; ` +
    'their contents are not in this result: shorten (rename or move) a path that is too long, make an unreadable one readable, and call again for one that was removed.'
  );
}

/** `.gitignore` files named in one note; the others are counted. */
const NOTED_IGNORE_FILES = 5;

/**
 * The note of a result whose walk left `.gitignore` rules out: each file (up to five) with how many
 * rules were left out and why, and what to do: `Some .gitignore rules were not applied, so files they
 * would ignore may be included: /workspace/.gitignore (20888896 bytes, only the first 1048576 read;
 * 25000 rules past the first 10000 left out; 1 rule with more than two ** left out). Keep a .gitignore
 * under 1048576 bytes and 10000 rules, each rule under 4096 characters with at most two **.`
 */
export function ignoreDroppedNote(dropped: readonly DroppedIgnoreRules[]): string {
  const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;
  const files = dropped.slice(0, NOTED_IGNORE_FILES).map((file) => {
    const parts: string[] = [];
    if (file.fileBytes !== undefined) parts.push(`${file.fileBytes} bytes, only the first ${MAX_IGNORE_FILE_BYTES} read`);
    if (file.pastCap > 0) parts.push(`${plural(file.pastCap, 'rule', 'rules')} past the first ${MAX_IGNORE_RULES} left out`);
    if (file.globstars > 0) parts.push(`${plural(file.globstars, 'rule', 'rules')} with more than two ** left out`);
    if (file.tooLong > 0) parts.push(`${plural(file.tooLong, 'rule', 'rules')} over ${MAX_IGNORE_RULE_CHARS} characters left out`);
    return `${clipForMessage(file.file, 200)} (${parts.join('; ')})`;
  });
  const more = dropped.length > NOTED_IGNORE_FILES ? ` and ${plural(dropped.length - NOTED_IGNORE_FILES, 'other file', 'other files')}` : '';
  return (
    `Some .gitignore rules were not applied, so files they would ignore may be included: ${files.join(', ')}${more}. ` +
    `Keep a .gitignore under ${MAX_IGNORE_FILE_BYTES} bytes and ${MAX_IGNORE_RULES} rules, each rule under ${MAX_IGNORE_RULE_CHARS} characters with at most two **.`
  );
}

/**
 * Adds to a tool result what its walks left out: `skipped_entries` with the {@link skippedNote} when
 * entries were skipped, and the {@link ignoreDroppedNote} when `.gitignore` rules were left out, each
 * after any note the result has. Returns `result`, changed in place.
 */
export function reportWalk<R extends { note?: string; skipped_entries?: number }>(result: R, report: WalkReport): R {
  const notes: string[] = result.note === undefined ? [] : [result.note];
  if (report.skipped.count > 0) {
    result.skipped_entries = report.skipped.count;
    notes.push(skippedNote(report.skipped));
  }
  if (report.ignoreDropped.length > 0) notes.push(ignoreDroppedNote(report.ignoreDropped));
  if (notes.length > 0) result.note = notes.reduce<string | undefined>((joined, note) => joinNotes(joined, note), undefined);
  return result;
}
