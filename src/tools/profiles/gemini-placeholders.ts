/**
 * Omission placeholders, as Gemini CLI refuses them in `replace`'s new_string and `write_file`'s
 * content: a line that stands for code the model left out ("(rest of methods ...)",
 * "// rest of code ...", "# ... existing code ..."). Written whole, such a line deletes the code it
 * names. Only a line that is nothing but the placeholder counts (optionally in a comment or in
 * parentheses): the phrase inside a string or after code on the same line is ordinary text.
 */

/** The phrases a placeholder names, lower case with single spaces (Gemini CLI's list, plus "existing code"). */
const OMITTED_PHRASES: ReadonlySet<string> = new Set([
  'rest of',
  'rest of method',
  'rest of methods',
  'rest of code',
  'rest of file',
  'rest of the code',
  'rest of the file',
  'rest of the methods',
  'unchanged code',
  'unchanged method',
  'unchanged methods',
  'existing code',
  'existing methods',
  'existing code here',
  'previous code',
]);

/** Comment openers stripped from the start of a line, and the closers stripped from its end. */
const LINE_COMMENT_OPENERS = ['//', '#', '--', ';', '%'];
const BLOCK_COMMENTS: ReadonlyArray<readonly [string, string]> = [
  ['/*', '*/'],
  ['<!--', '-->'],
  ['{/*', '*/}'],
  ['(*', '*)'],
];

/** `text` without one enclosing comment marker or pair of parentheses, trimmed; the same text when there is none. */
function unwrap(text: string): string {
  for (const [open, close] of BLOCK_COMMENTS) {
    if (text.startsWith(open) && text.endsWith(close) && text.length >= open.length + close.length) {
      return text.slice(open.length, text.length - close.length).trim();
    }
  }
  for (const open of LINE_COMMENT_OPENERS) {
    if (text.startsWith(open)) return text.slice(open.length).trim();
  }
  if (text.startsWith('(') && text.endsWith(')')) return text.slice(1, -1).trim();
  return text;
}

/** Whether `text` is one or more dots, or an ellipsis character. */
function isEllipsis(text: string): boolean {
  return text === '…' || /^\.{3,}$/.test(text);
}

/** The normalized phrase of a placeholder line ("rest of methods ..."), or null when the line is not one. */
export function placeholderOfLine(line: string): string | null {
  let text = line.trim();
  if (text.length === 0 || text.length > 200) return null;
  // Up to two wrappers: "// (rest of code ...)", "/* ... */".
  for (let i = 0; i < 2; i += 1) text = unwrap(text);
  text = text.replace(/…/g, '...');
  const first = text.indexOf('...');
  if (first < 0) return null;
  // "... rest of methods ..." (a leading ellipsis, as models write it) or "rest of methods ..." (Gemini CLI's form).
  const leading = first === 0;
  const body = leading ? text.slice(3) : text;
  const end = body.indexOf('...');
  const phraseRaw = end < 0 ? body : body.slice(0, end);
  const tail = end < 0 ? '' : body.slice(end + 3).trim();
  if (!leading && end < 0) return null;
  if (tail.length > 0 && !isEllipsis(tail) && !/^\.+$/.test(tail)) return null;
  const phrase = phraseRaw.trim().toLowerCase().split(/\s+/).filter(Boolean).join(' ');
  if (!OMITTED_PHRASES.has(phrase)) return null;
  return `${phrase} ...`;
}

/** The placeholders of `text`, one normalized phrase per placeholder line, in order (an empty array when there are none). */
export function detectOmissionPlaceholders(text: string): string[] {
  const found: string[] = [];
  for (const line of text.split(/\r\n|\n|\r/)) {
    const phrase = placeholderOfLine(line);
    if (phrase !== null) found.push(phrase);
  }
  return found;
}

/**
 * The first placeholder of `proposed` that `existing` does not already hold (the placeholder is then
 * new text, not a line the model kept), or undefined when there is none.
 */
export function newOmissionPlaceholder(proposed: string, existing: string | undefined): string | undefined {
  const placeholders = detectOmissionPlaceholders(proposed);
  if (placeholders.length === 0) return undefined;
  const kept = new Set(existing === undefined ? [] : detectOmissionPlaceholders(existing));
  return placeholders.find((p) => !kept.has(p));
}
