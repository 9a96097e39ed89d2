/**
 * A small reference for apply_patch, written from Codex's documented algorithm (its parser's grammar
 * and leniencies, `seek_sequence`'s four passes, `compute_replacements` and `apply_replacements`) and
 * kept deliberately plain: no shared code with toolhost's own applier, so the differential fuzz
 * compares two independent readings of the same rules. It handles one `*** Update File:` of a file
 * held as lines (LF, the final line break not a line).
 *
 * Where toolhost keeps a deliberate difference from Codex, the reference follows toolhost and says
 * so with a "toolhost:" comment:
 * - context lines matched loosely keep the file's text (Codex writes the patch's text);
 * - a pure addition under a `@@ context` header goes right after that line (Codex appends it at the
 *   end of the file, dropping the header's meaning);
 * - a hunk marked `*** End of File` may not match before the previous hunk's end (Codex would apply
 *   two overlapping replacements and garble the file);
 * - a pure addition at the end that a hunk ending there already passed goes after that hunk (Codex's
 *   descending application would remove the wrong lines).
 */

export interface RefChunk {
  context: string | null;
  /** Each hunk line: its kind and text. */
  body: Array<{ kind: ' ' | '-' | '+'; text: string }>;
  eof: boolean;
}

export type RefOutcome = { ok: true; lines: string[] } | { ok: false; stage: 'parse' | 'apply'; reason: string };

const fail = (stage: 'parse' | 'apply', reason: string): RefOutcome => ({ ok: false, stage, reason });

/** Parses a whole patch that holds one `*** Update File:` (Codex's lenient mode); a string is the parse error. */
export function refParse(patch: string): RefChunk[] | string {
  // Codex: trim the text, split into lines (a CR before LF is dropped), check the markers trimmed.
  let lines = patch.trim().split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
  const strictOk = (ls: string[]): boolean => ls.length >= 2 && ls[0]!.trim() === '*** Begin Patch' && ls[ls.length - 1]!.trim() === '*** End Patch';
  if (!strictOk(lines)) {
    const first = lines[0] ?? '';
    const heredoc = ['<<EOF', "<<'EOF'", '<<"EOF"'].includes(first) || /^apply_patch <<('EOF'|"EOF"|EOF)$/.test(first);
    if (heredoc && lines.length >= 4 && lines[lines.length - 1]!.endsWith('EOF') && strictOk(lines.slice(1, -1))) lines = lines.slice(1, -1);
    else return 'envelope';
  }
  let body = lines.slice(1, -1);
  if (body[0]?.trim().startsWith('*** Environment ID:')) {
    if (body[0].trim().slice('*** Environment ID:'.length).trim() === '') return 'empty environment id';
    body = body.slice(1);
  }
  const header = body[0]?.trim() ?? '';
  if (!header.startsWith('*** Update File: ')) return 'no update header';
  let i = 1;
  const chunks: RefChunk[] = [];
  while (i < body.length) {
    const line = body[i]!;
    if (line.trim() === '') {
      i += 1;
      continue;
    }
    if (line.startsWith('*')) return 'text after the update';
    let chunk: RefChunk;
    if (line === '@@' || line.startsWith('@@ ')) {
      const context = line === '@@' ? '' : line.slice(3);
      chunk = { context: context.trim() === '' ? null : context, body: [], eof: false };
      i += 1;
    } else if (chunks.length === 0) {
      chunk = { context: null, body: [], eof: false };
    } else {
      return 'hunk without @@';
    }
    if (i >= body.length) return 'empty hunk';
    let parsed = 0;
    for (; i < body.length; i += 1) {
      const l = body[i]!;
      if (l.trim() === '*** End of File') {
        if (parsed === 0) return 'empty hunk';
        chunk.eof = true;
        i += 1;
        break;
      }
      if (l === '' || l[0] === ' ') chunk.body.push({ kind: ' ', text: l.slice(1) });
      else if (l[0] === '-') chunk.body.push({ kind: '-', text: l.slice(1) });
      else if (l[0] === '+') chunk.body.push({ kind: '+', text: l.slice(1) });
      else if (parsed === 0) return 'unexpected line';
      else break;
      parsed += 1;
    }
    chunks.push(chunk);
  }
  return chunks.length === 0 ? 'no hunks' : chunks;
}

function normalise(s: string): string {
  let out = '';
  for (const c of s.trim()) {
    if ('\u2010\u2011\u2012\u2013\u2014\u2015\u2212'.includes(c)) out += '-';
    else if ('\u2018\u2019\u201A\u201B'.includes(c)) out += "'";
    else if ('\u201C\u201D\u201E\u201F'.includes(c)) out += '"';
    else if ('\u00A0\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200A\u202F\u205F\u3000'.includes(c)) out += ' ';
    else out += c;
  }
  return out;
}

/** Codex's `seek_sequence`: exact, trim-end, trim, punctuation-normalised, each over the whole range. */
export function refSeek(lines: string[], pattern: string[], start: number, eof: boolean): number | null {
  if (pattern.length === 0) return start;
  if (pattern.length > lines.length) return null;
  // toolhost: the end-of-file position only when it is not before `start`.
  const from = eof ? Math.max(lines.length - pattern.length, start) : start;
  const tests: Array<(a: string, b: string) => boolean> = [
    (a, b) => a === b,
    (a, b) => a.trimEnd() === b.trimEnd(),
    (a, b) => a.trim() === b.trim(),
    (a, b) => normalise(a) === normalise(b),
  ];
  for (const same of tests) {
    for (let i = from; i + pattern.length <= lines.length; i += 1) {
      if (pattern.every((p, k) => same(lines[i + k]!, p))) return i;
    }
  }
  return null;
}

/** Applies parsed chunks to a file's lines as Codex's `compute_replacements` / `apply_replacements` do. */
export function refApply(original: string[], chunks: RefChunk[]): RefOutcome {
  const replacements: Array<{ at: number; remove: number; insert: string[] }> = [];
  let index = 0;
  for (const chunk of chunks) {
    if (chunk.context !== null) {
      const found = refSeek(original, [chunk.context], index, false);
      if (found === null) return fail('apply', `context ${chunk.context}`);
      index = found + 1;
    }
    const oldLines = chunk.body.filter((b) => b.kind !== '+').map((b) => b.text);
    // New lines, each context line remembering which old line it is.
    let written: Array<{ text: string; old: number | null }> = [];
    let oldAt = 0;
    for (const b of chunk.body) {
      if (b.kind === '-') oldAt += 1;
      else if (b.kind === '+') written.push({ text: b.text, old: null });
      else written.push({ text: b.text, old: oldAt++ });
    }
    if (oldLines.length === 0) {
      const end = original.length > 0 && original[original.length - 1] === '' ? original.length - 1 : original.length;
      // toolhost: under a context header, right after it.
      replacements.push({ at: chunk.context !== null ? index : end, remove: 0, insert: written.map((w) => w.text) });
      continue;
    }
    let pattern = oldLines;
    let found = refSeek(original, pattern, index, chunk.eof);
    if (found === null && pattern[pattern.length - 1] === '') {
      pattern = pattern.slice(0, -1);
      if (written.length > 0 && written[written.length - 1]!.text === '') written = written.slice(0, -1);
      found = refSeek(original, pattern, index, chunk.eof);
    }
    if (found === null) return fail('apply', 'expected lines');
    const at = found;
    // toolhost: context lines keep the file's text.
    replacements.push({ at, remove: pattern.length, insert: written.map((w) => (w.old !== null && w.old < pattern.length ? original[at + w.old]! : w.text)) });
    index = at + pattern.length;
  }
  const sorted = replacements.map((r, order) => ({ ...r, order })).sort((a, b) => a.at - b.at || a.order - b.order);
  let next = 0;
  for (const r of sorted) {
    // toolhost: a pure addition a hunk has already passed goes after it.
    if (r.remove === 0 && r.at < next) r.at = next;
    if (r.at < next) return fail('apply', 'overlap');
    next = r.at + r.remove;
  }
  const lines = original.slice();
  for (const r of [...sorted].reverse()) lines.splice(r.at, r.remove, ...r.insert);
  return { ok: true, lines };
}

/** Parses and applies in one step. */
export function refPatch(original: string[], patch: string): RefOutcome {
  const chunks = refParse(patch);
  if (typeof chunks === 'string') return fail('parse', chunks);
  return refApply(original, chunks);
}
