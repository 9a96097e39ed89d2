// One regular-expression scan, as toolhost's in-thread sandbox does it: per text, the UTF-16
// [start, end) of at most `maxMatchesPerText` matches; an empty match advances one code point.
// Throws (SyntaxError) for a bad pattern.
export function scanTexts(source: string, flags: string, texts: readonly string[], maxMatchesPerText: number): Array<Array<[number, number]>> {
  const re = new RegExp(source, flags.includes('g') ? flags : `${flags}g`);
  return texts.map((text) => {
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
        re.lastIndex = start + (re.unicode && c >= 0xd800 && c <= 0xdbff && start + 1 < text.length ? 2 : 1);
        if (re.lastIndex > text.length) break;
      }
    }
    return found;
  });
}
