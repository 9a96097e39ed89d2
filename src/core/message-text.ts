// Model-given text as error messages quote it: cut at a bound without splitting a character.

/**
 * Cuts `text` to at most `max` UTF-16 code units without splitting a surrogate pair (an emoji at the
 * cut point is dropped whole). Returns the kept text and how many characters (code points) were cut.
 */
export function truncateText(text: string, max: number): { text: string; cut: number } {
  if (text.length <= max) return { text, cut: 0 };
  let end = max;
  const last = text.charCodeAt(end - 1);
  if (end > 0 && last >= 0xd800 && last <= 0xdbff) end -= 1;
  const kept = text.slice(0, end);
  return { text: kept, cut: countCodePoints(text, end) };
}

/** Number of Unicode code points in `text` from UTF-16 index `from` to the end. */
export function countCodePoints(text: string, from = 0, to = text.length): number {
  let count = 0;
  for (let i = from; i < to; i += 1) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < to) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i += 1;
    }
    count += 1;
  }
  return count;
}

/**
 * Most UTF-16 code units of one piece of model-given input (a path, pattern or string) quoted in an
 * error message. Messages go back to the model, which already has what it sent: enough to recognise
 * it is all they need, whatever its size.
 */
export const MESSAGE_QUOTE_CHARS = 200;

/**
 * `text` for an error message: whole when it has at most `max` UTF-16 code units, else its first
 * `max` (never splitting a surrogate pair) followed by `… (N more characters)`, N in code points.
 */
export function clipForMessage(text: string, max = MESSAGE_QUOTE_CHARS): string {
  const { text: kept, cut } = truncateText(text, max);
  return cut === 0 ? text : `${kept}… (${cut} more characters)`;
}

/**
 * `text` in double quotes for an error message, cut as {@link clipForMessage} with the marker after
 * the closing quote: `"src/a.ts"`, `"aaaa…" (999800 more characters)`. With `json` the text is
 * JSON-escaped, so tabs, line breaks and quotes show as `\t`, `\n`, `\"`.
 */
export function quoteForMessage(text: string, options: { max?: number; json?: boolean } = {}): string {
  const { text: kept, cut } = truncateText(text, options.max ?? MESSAGE_QUOTE_CHARS);
  const body = options.json === true ? JSON.stringify(kept).slice(1, -1) : kept;
  return cut === 0 ? `"${body}"` : `"${body}…" (${cut} more characters)`;
}

/**
 * An argument as error messages name it, from the keys of its path: `command`, `edits[0].old_string`
 * (an index, or a key of digits only, in brackets), `arguments` for the whole object (no keys). Keys
 * come from the model (an object's keys): the name is cut to a readable length ({@link clipForMessage}).
 */
export function argumentNameOf(keys: readonly string[]): string {
  if (keys.length === 0) return 'arguments';
  return clipForMessage(keys.map((key, i) => (/^\d+$/.test(key) ? `[${key}]` : i === 0 ? key : `.${key}`)).join(''));
}
