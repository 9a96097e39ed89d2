import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SearchCountResult } from '../src/search/line-search.js';
import { builtSearchSuite } from './support/built-search.js';

const suite = builtSearchSuite();

const enc = (text: string): Uint8Array => new TextEncoder().encode(text);
const cat = (...parts: Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
};

/** Files at the edges of what a search reads, and how many of their lines hold `needle`, start with it and end with it (undefined: skipped as binary or no such line). */
const ODD: Record<string, { content: string | Uint8Array; literal?: number; starts?: number; ends?: number }> = {
  'bom.txt': { content: '\uFEFFneedle at start\nneedle 2\n', literal: 2, starts: 2 },
  'bom-only.txt': { content: '\uFEFF' },
  'crlf.txt': { content: 'needle a\r\nb\r\nneedle c\r\nneedle\r\n', literal: 3, starts: 3, ends: 1 },
  'cr.txt': { content: 'needle a\rneedle b\rc\rneedle', literal: 3, starts: 3, ends: 1 },
  'mixed.txt': { content: 'needle\r\rneedle\n\rneedle\r\n', literal: 3, starts: 3, ends: 3 },
  'empty.txt': { content: '' },
  'nul-early.bin': { content: cat(enc('needle\n'), new Uint8Array([0]), enc('needle\n')) },
  // A NUL past the first 8 KiB: text, as only the first 8 KiB decide.
  'nul-late.txt': { content: cat(enc('needle\n'), enc('a'.repeat(9000)), enc('\n\0needle\n')), literal: 2, starts: 1, ends: 2 },
  'latin1.txt': { content: new Uint8Array([0x6e, 0x65, 0x65, 0x64, 0x6c, 0x65, 0xe9, 0x0a]) },
  'replacement.txt': { content: 'needle \uFFFD here\n', literal: 1, starts: 1 },
  'five-mib.txt': { content: `needle line\n${'x'.repeat(100)}\n`.repeat(46_000), literal: 46_000, starts: 46_000 },
  'one-line-20mb.txt': { content: `${'z'.repeat(10_000_000)}needle${'z'.repeat(10_000_000)}needle`, literal: 1, ends: 1 },
};

function tree(pad: number): Record<string, string | Uint8Array> {
  const files: Record<string, string | Uint8Array> = {};
  for (const [name, { content }] of Object.entries(ODD)) files[`odd/${name}`] = content;
  for (let i = 0; i < pad; i += 1) files[`pad/p${String(i).padStart(3, '0')}.txt`] = `needle pad ${i}\n`;
  return files;
}

const LATIN1_NAME = Buffer.from('odd/n\xe9\xff.txt', 'latin1');

function expected(root: string, pad: number, key: 'literal' | 'starts' | 'ends'): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const [name, entry] of Object.entries(ODD)) if (entry[key] !== undefined) counts[join(root, 'odd', name)] = entry[key] as number;
  // A name that is not UTF-8 comes back with \xNN for its bytes.
  if (key !== 'ends') counts[`${root}/odd/n\\xe9\\xff.txt`] = 1;
  if (key !== 'ends') for (let i = 0; i < pad; i += 1) counts[join(root, `pad/p${String(i).padStart(3, '0')}.txt`)] = 1;
  return Object.fromEntries(Object.entries(counts).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

describe.each([
  ['one thread', 0],
  ['shared with the helper thread', 300],
])('grep_search over odd files on a Node folder (%s)', (_label, pad) => {
  it('counts BOM, CRLF and lone-CR files, late NULs, a non-UTF-8 name, a 5 MiB file and a 20 MB line exactly, first and repeated, in every output mode', async () => {
    const root = suite.tree('odd-files', tree(pad));
    writeFileSync(Buffer.concat([Buffer.from(`${root}/`), LATIN1_NAME]), 'needle in a latin1 name\n');
    const platform = suite.node.createNodePlatform({ root });
    const runner = new suite.core.ToolRunner({ platform, tools: suite.core.BuiltinTools.all() });
    const searches: Array<[Record<string, unknown>, 'literal' | 'starts' | 'ends']> = [
      [{ pattern: 'needle', fixed_strings: true }, 'literal'],
      [{ pattern: 'need(le)' }, 'literal'],
      [{ pattern: 'NEEDLE', case_sensitive: false }, 'literal'],
      [{ pattern: '^needle' }, 'starts'],
      [{ pattern: 'needle$' }, 'ends'],
    ];
    try {
      for (let round = 0; round < 2; round += 1) {
        for (const [search, key] of searches) {
          const want = expected(root, pad, key);
          const total = Object.values(want).reduce((sum, count) => sum + count, 0);
          const counted = (await runner.execute('grep_search', { ...search, output_mode: 'count', max_results: 2000 })) as SearchCountResult;
          expect(Object.fromEntries(counted.counts.map(({ file_path, count }) => [file_path, count]))).toEqual(want);
          expect(counted).toMatchObject({ total_matches: total, total_files: Object.keys(want).length, files_searched: pad + 11, binary_files_skipped: 2, truncated: false });
          const listed = (await runner.execute('grep_search', { ...search, output_mode: 'files_with_matches', max_results: 2000 })) as { files: string[]; total_matches: number };
          expect(listed.files).toEqual(Object.keys(want));
          expect(listed.total_matches).toBe(total);
          const content = (await runner.execute('grep_search', { ...search, dir_path: join(root, 'odd'), include: '{bom,crlf,cr,mixed,nul-late,replacement}.txt' })) as {
            matches: Array<{ file_path: string }>;
            total_matches: number;
          };
          const small = Object.entries(want).filter(([path]) => /\/odd\/(bom|crlf|cr|mixed|nul-late|replacement)\.txt$/.test(path));
          expect(content.total_matches).toBe(small.reduce((sum, [, count]) => sum + count, 0));
          expect(content.matches.map((match) => match.file_path)).toEqual(small.flatMap(([path, count]) => Array<string>(count).fill(path)));
        }
      }
    } finally {
      await platform.dispose();
    }
  }, 120_000);
});
