import { ToolError, isToolError } from '../core/errors.js';
import { clipForMessage, MESSAGE_QUOTE_CHARS } from '../fs/text.js';
import type { RegexSandbox, RegexScanRequest } from '../core/types.js';
import { YIELD_INTERVAL_MS, throwIfAborted, yieldToEventLoop } from '../fs/walk.js';

/**
 * Scans `texts` with one global regex and returns, per text, the UTF-16 `[start, end)` offsets of at
 * most `maxMatchesPerText` matches (an empty match advances one code point under the `u` flag).
 * When `deadline` (a `Date.now()` value) passes between two texts it throws an error whose `code` is
 * `'timeout'`. Self-contained on purpose: `node/regex-sandbox.ts` evaluates its source text inside a
 * vm context (Node), so it must not refer to anything outside its own body.
 */
export function scanRegexTexts(
  source: string,
  flags: string,
  texts: readonly string[],
  maxMatchesPerText: number,
  deadline: number,
): Array<Array<[number, number]>> {
  const re = new RegExp(source, flags.indexOf('g') === -1 ? flags + 'g' : flags);
  const unicode = re.unicode;
  const out: Array<Array<[number, number]>> = [];
  for (let t = 0; t < texts.length; t += 1) {
    if (t > 0 && Date.now() > deadline) {
      const error = new Error('regex scan ran out of time') as Error & { code: string };
      error.code = 'timeout';
      throw error;
    }
    const text = texts[t] as string;
    const found: Array<[number, number]> = [];
    re.lastIndex = 0;
    while (found.length < maxMatchesPerText) {
      const match = re.exec(text);
      if (match === null) break;
      const start = match.index;
      const end = start + match[0].length;
      found.push([start, end]);
      if (end === start) {
        const c = text.charCodeAt(start);
        re.lastIndex = start + (unicode && c >= 0xd800 && c <= 0xdbff && start + 1 < text.length ? 2 : 1);
        if (re.lastIndex > text.length) break;
      }
    }
    out.push(found);
  }
  return out;
}

/**
 * The default {@link RegexSandbox}, used when `platform.regex` is absent: it runs in the calling thread
 * and checks its budget only between texts, so it **cannot interrupt** one catastrophic match
 * (`(a+)+$` over a long line blocks the thread). Hosts that take patterns from a model should supply an
 * interruptible one: `createVmRegexSandbox()` from `toolhost/node`, or run the runner in a web worker
 * that the page replaces when it hangs. Rejects with `invalid_pattern` for a bad pattern and `timeout`.
 */
export function createInThreadRegexSandbox(): RegexSandbox {
  return {
    async scan(request: RegexScanRequest): Promise<Array<Array<[number, number]>>> {
      try {
        return scanRegexTexts(
          request.source,
          request.flags,
          request.texts,
          request.maxMatchesPerText,
          Date.now() + request.timeoutMs,
        );
      } catch (error) {
        if ((error as { code?: unknown }).code === 'timeout') {
          throw new ToolError('timeout', `the regular expression did not finish within ${request.timeoutMs} ms`);
        }
        throw new ToolError('invalid_pattern', regexErrorMessage(error, request.source));
      }
    },
  };
}

/**
 * The message of a RegExp syntax error with the pattern in it cut to {@link MESSAGE_QUOTE_CHARS}:
 * V8 repeats the whole source (`Invalid regular expression: /(((…/u: Unterminated group`), and
 * the message goes back to the model that sent the pattern. Reads `message` as a field, so errors
 * from another realm (a vm context) work too. Engines that do not quote the source are unchanged.
 */
export function regexErrorMessage(error: unknown, source: string): string {
  const raw = (error as { message?: unknown } | null)?.message;
  const message = typeof raw === 'string' ? raw : String(error);
  if (source.length <= MESSAGE_QUOTE_CHARS || !message.includes(source)) return clipForMessage(message, 1000);
  return message.split(source).join(clipForMessage(source));
}

/** Escapes every RegExp syntax character of `text` (valid under the `u` flag). */
export function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
}

/** A pattern ready for line-oriented scanning (see {@link compileLinePattern}). */
export interface LinePattern {
  /** `(?:pattern)[^\n\r]*` — at most one match per line, starting at the line's first match. */
  source: string;
  /** `mu`, plus `i` when case-insensitive (the scanner adds `g`). */
  flags: string;
  /** Flags for re-checking a single line on its own (no `m`: `^`/`$` are the line's ends). */
  lineFlags: string;
  /** The pattern as given (escaped when literal). */
  pattern: string;
  /** True when `^` or `$` may act as an anchor (lines holding U+2028/U+2029 are then re-checked). */
  anchors: boolean;
  /** Literal search: a plain-string pattern that cannot backtrack, safe to run in the calling thread. */
  literal: boolean;
}

/**
 * Compiles a search pattern: ECMAScript RegExp syntax with the `u` flag (the one dialect of
 * grep_search, SPEC §6.7), or a literal string (`literal`, escaped). Case-insensitive adds `i`.
 * Errors: `invalid_pattern` with the engine's message (e.g. `Unterminated group`), never an empty result.
 */
export function compileLinePattern(
  pattern: string,
  options: { literal: boolean; caseSensitive: boolean; argName?: string },
): LinePattern {
  const argName = options.argName ?? 'pattern';
  const body = options.literal ? escapeRegExp(pattern) : pattern;
  const lineFlags = options.caseSensitive ? 'u' : 'iu';
  try {
    new RegExp(body, lineFlags);
  } catch (error) {
    throw new ToolError(
      'invalid_pattern',
      `${argName} is not a valid regular expression (ECMAScript syntax, u flag): ${regexErrorMessage(error, body)}; ` +
        'fix the pattern, or set fixed_strings to search for the text literally',
    );
  }
  const source = `(?:${body})[^\\n\\r]*`;
  try {
    new RegExp(source, 'g' + lineFlags + 'm');
  } catch (error) {
    throw new ToolError('invalid_pattern', `${argName} cannot be used: ${regexErrorMessage(error, body)}`);
  }
  return {
    source,
    flags: 'm' + lineFlags,
    lineFlags,
    pattern: body,
    anchors: !options.literal && /[\^$]/.test(body),
    literal: options.literal,
  };
}

/** Default wall-clock budget of one search's regex work when the call has no earlier deadline (ms). */
export const DEFAULT_REGEX_BUDGET_MS = 10_000;
/** Shortest budget one sandbox call gets (ms). */
const MIN_SLICE_MS = 250;
/** Each retry may use this share of the time spent so far: the overshoot past a deadline stays ≤ 25 %. */
const SLICE_GROWTH = 0.25;
/** UTF-16 code units per sandbox call: a vm call with a timeout costs ≈ 0.2 ms (a watchdog thread). */
const BATCH_CHARS = 1 << 20;
const MAX_MATCHES_PER_TEXT = 10_000_000;

interface ScanPiece {
  index: number;
  offset: number;
  text: string;
}

/** Options of {@link scanWithBudget}. */
export interface BudgetedScan {
  sandbox: RegexSandbox;
  source: string;
  flags: string;
  texts: readonly string[];
  /** The call's signal: fires at its deadline (`timeout`) or on cancel. */
  signal?: AbortSignal;
  /** Total budget in ms (default {@link DEFAULT_REGEX_BUDGET_MS}). */
  budgetMs?: number;
}

/** Splits texts into sandbox batches of about {@link BATCH_CHARS}, cutting long texts after a line break. */
function makeBatches(texts: readonly string[]): ScanPiece[][] {
  const batches: ScanPiece[][] = [];
  let batch: ScanPiece[] = [];
  let chars = 0;
  const push = (piece: ScanPiece): void => {
    if (chars + piece.text.length > BATCH_CHARS && batch.length > 0) {
      batches.push(batch);
      batch = [];
      chars = 0;
    }
    batch.push(piece);
    chars += piece.text.length;
  };
  texts.forEach((text, index) => {
    if (text.length <= BATCH_CHARS) {
      push({ index, offset: 0, text });
      return;
    }
    let from = 0;
    while (from < text.length) {
      let cut = Math.min(text.length, from + BATCH_CHARS);
      if (cut < text.length) {
        const lf = text.lastIndexOf('\n', cut - 1);
        const cr = text.lastIndexOf('\r', cut - 1);
        let brk = Math.max(lf, cr);
        if (brk === cr && text.charCodeAt(cr + 1) === 10) brk = cr + 1;
        if (brk >= from) cut = brk + 1;
        else {
          // One line longer than a batch: find its end instead of cutting it.
          const nextLf = text.indexOf('\n', cut);
          const nextCr = text.indexOf('\r', cut);
          const next = nextLf === -1 ? nextCr : nextCr === -1 ? nextLf : Math.min(nextLf, nextCr);
          cut = next === -1 ? text.length : next + (text.charCodeAt(next) === 13 && text.charCodeAt(next + 1) === 10 ? 2 : 1);
        }
      }
      push({ index, offset: from, text: text.slice(from, cut) });
      from = cut;
    }
  });
  if (batch.length > 0) batches.push(batch);
  return batches;
}

/**
 * Runs one regex over many texts through a {@link RegexSandbox} under a wall-clock budget and the
 * call's signal, and returns per text the `[start, end)` offsets of its matches (in order).
 * Texts go in batches of about 1 Mi code units. The deadline of a call is not known, only its signal,
 * and the signal can only fire while the event loop turns; so each sandbox call gets a slice of
 * max(250 ms, 25 % of the time spent so far), a batch that runs out is split (or, when it is a single
 * text, retried after an event-loop turn with a bigger slice), and the signal is checked between
 * slices: a catastrophic pattern ends within about a quarter past the call's deadline.
 * Errors: `timeout` (the budget ran out), the signal's `timeout`/`cancelled`, `invalid_pattern`.
 */
export async function scanWithBudget(options: BudgetedScan): Promise<Array<Array<[number, number]>>> {
  const { sandbox, source, flags, texts, signal } = options;
  const budgetMs = options.budgetMs ?? DEFAULT_REGEX_BUDGET_MS;
  const results: Array<Array<[number, number]>> = texts.map(() => []);
  const queue = makeBatches(texts).reverse();
  const started = Date.now();
  let lastYield = started;
  let forceYield = false;
  while (queue.length > 0) {
    if (forceYield || Date.now() - lastYield > YIELD_INTERVAL_MS) {
      await yieldToEventLoop();
      lastYield = Date.now();
      forceYield = false;
    }
    throwIfAborted(signal);
    const elapsed = Date.now() - started;
    const remaining = budgetMs - elapsed;
    if (remaining <= 0) {
      throw new ToolError(
        'timeout',
        `the regular expression did not finish within ${budgetMs} ms (catastrophic backtracking?); ` +
          'simplify it (avoid nested quantifiers such as (a+)+), narrow include, or use fixed_strings',
      );
    }
    const slice = Math.max(1, Math.min(remaining, Math.max(MIN_SLICE_MS, Math.round(elapsed * SLICE_GROWTH))));
    const batch = queue.pop() as ScanPiece[];
    let found: Array<Array<[number, number]>>;
    try {
      found = await sandbox.scan({
        source,
        flags,
        texts: batch.map((piece) => piece.text),
        maxMatchesPerText: MAX_MATCHES_PER_TEXT,
        timeoutMs: slice,
      });
    } catch (error) {
      if (!isToolError(error) || error.code !== 'timeout') throw error;
      if (batch.length > 1) {
        const half = Math.ceil(batch.length / 2);
        queue.push(batch.slice(half), batch.slice(0, half));
      } else {
        queue.push(batch);
      }
      forceYield = true;
      continue;
    }
    batch.forEach((piece, k) => {
      const target = results[piece.index] as Array<[number, number]>;
      for (const [start, end] of found[k] ?? []) target.push([start + piece.offset, end + piece.offset]);
    });
  }
  return results;
}
