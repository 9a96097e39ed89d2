// What ripgrep's Unicode defaults cost grep_search: each search over the bench tree (bench/search-tree.mjs)
// in the default Unicode mode, next to the same search under (?-u) (ASCII \w \d \s \b and ASCII-only
// case folding, what the dialect did before it followed ripgrep), in the same run and the same
// process. The memory platform, warm (every file's text cached), so the figures are the matching
// alone; count mode; median of 7 alternating runs. Run alone with `node bench/run.mjs unicode`.
import { rmSync } from 'node:fs';
import { ToolRunner, createMemoryPlatform } from '../dist/src/index.js';
import { grepSearchTool } from '../dist/src/tools/grep-search.js';
import { buildSearchTree, readTree } from './search-tree.mjs';

const RUNS = 7;
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Each case: its name, the Unicode (default) arguments; the ASCII anchor is the same pattern under (?-u). */
const CASES = [
  { name: 'literal "function"', args: { pattern: 'function', fixed_strings: true } },
  { name: 'case-insensitive literal "FUNCTION"', args: { pattern: 'FUNCTION', case_sensitive: false } },
  { name: String.raw`regex with a literal require\(['"][^'"]+['"]\)`, args: { pattern: String.raw`require\(['"][^'"]+['"]\)` } },
  { name: String.raw`regex with a literal \bfunction\s+\w+`, args: { pattern: String.raw`\bfunction\s+\w+` } },
];

/** The ASCII twin of `args`: the pattern under (?-u) (a fixed string is escaped into a regex). */
function ascii(args) {
  const pattern = args.fixed_strings ? args.pattern.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&') : args.pattern;
  return { ...args, fixed_strings: false, pattern: `(?-u)${pattern}` };
}

export default async function run() {
  const tree = buildSearchTree();
  const rows = [];
  try {
    const platform = createMemoryPlatform({ files: readTree(tree.dir) });
    const runner = new ToolRunner({ platform, tools: [grepSearchTool] });
    await sleep(1100);
    const time = async (args) => {
      const t = performance.now();
      const result = await runner.execute('grep_search', { ...args, output_mode: 'count' });
      return { ms: performance.now() - t, total: result.total_matches };
    };
    for (const c of CASES) {
      const twin = ascii(c.args);
      // Warm: both texts cached, both patterns compiled once.
      await time(c.args);
      await time(twin);
      const ours = [];
      const theirs = [];
      let totals = '';
      for (let i = 0; i < RUNS; i += 1) {
        const a = await time(c.args);
        const b = await time(twin);
        ours.push(a.ms);
        theirs.push(b.ms);
        totals = `${a.total} matching lines (ASCII: ${b.total})`;
      }
      rows.push({
        figure: `memory platform, warm: Unicode grep_search ${c.name} (count)`,
        value: median(ours),
        unit: 'ms',
        anchor: 'the same search under (?-u)',
        anchorValue: median(theirs),
        target: '≤ 1.2x',
        note: `${tree.files} files; ${totals}; median of ${RUNS}`,
      });
    }
    await platform.dispose();
    return rows;
  } finally {
    rmSync(tree.base, { recursive: true, force: true });
  }
}
