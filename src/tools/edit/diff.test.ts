import { applyPatch, FILE_HEADERS_ONLY, formatPatch, structuredPatch } from 'diff';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../test/support/random.js';
import { EDIT_MAX_DIFFED_CHARS, unifiedDiff } from './diff.js';

/** What the diff of the whole texts gives (for texts with short lines, where no excerpt applies). */
function wholeDiff(path: string, before: string, after: string): string {
  return formatPatch(structuredPatch(path, path, before, after, '', '', { context: 3 }), FILE_HEADERS_ONLY);
}

function randomText(random: () => number): string {
  const words = ['a', 'b', 'c', 'x y', '', 'end'];
  const lines = Array.from({ length: Math.floor(random() * 40) }, () => words[Math.floor(random() * words.length)] as string);
  return lines.join('\n') + (random() < 0.5 ? '\n' : '');
}

function randomEdit(random: () => number, text: string): string {
  const lines = text.split('\n');
  for (let n = Math.floor(random() * 4); n >= 0; n -= 1) {
    const at = Math.floor(random() * (lines.length + 1));
    const kind = random();
    if (kind < 0.33) lines.splice(at, 1);
    else if (kind < 0.66) lines.splice(at, 0, `new ${n}`);
    else lines[at] = `changed ${n}`;
  }
  return lines.join('\n');
}

describe('unifiedDiff', () => {
  /** Lines the diff adds and removes (its hunk bodies), without headers. */
  const changes = (patch: string): number => patch.split('\n').filter((line) => /^[-+](?![-+]{2} )/.test(line)).length;

  it('gives a diff that turns the old text into the new one, as small as diffing the whole texts, for 2,000 random edits', async () => {
    const random = seededRandom(7);
    for (let i = 0; i < 2000; i += 1) {
      const before = randomText(random);
      const after = random() < 0.1 ? randomText(random) : randomEdit(random, before);
      if (before === after) continue;
      const ours = await unifiedDiff('/w/f.txt', before, after);
      const label = `case ${i}: ${JSON.stringify([before, after])}`;
      // Where several alignments are equally small, the one found may differ from the whole-text diff's.
      expect(applyPatch(before, ours), label).toBe(after);
      expect(changes(ours), label).toBe(changes(wholeDiff('/w/f.txt', before, after)));
    }
  });

  it('diffs one changed line of a 200,000-line file with correct line numbers', async () => {
    const lines = Array.from({ length: 200_000 }, (_, i) => `line ${i + 1}`);
    const before = `${lines.join('\n')}\n`;
    lines[150_000] = 'edited';
    const after = `${lines.join('\n')}\n`;
    expect(await unifiedDiff('/w/big.txt', before, after)).toBe(
      '--- /w/big.txt\n+++ /w/big.txt\n@@ -149998,7 +149998,7 @@\n line 149998\n line 149999\n line 150000\n-line 150001\n+edited\n line 150002\n line 150003\n line 150004\n',
    );
  });

  it('summarises a change larger than it diffs instead of diffing it', async () => {
    const before = 'x;'.repeat(EDIT_MAX_DIFFED_CHARS / 2);
    const after = 'x;\n'.repeat(EDIT_MAX_DIFFED_CHARS / 2);
    expect(await unifiedDiff('/w/min.js', before, after)).toBe(
      `(diff left out: the change to /w/min.js spans about 1 old and ${EDIT_MAX_DIFFED_CHARS / 2} new lines, ${before.length + after.length} characters; view_file the file to check it)`,
    );
  });
});
