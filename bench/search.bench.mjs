// grep_search / find_file over a 5,700-file tree (bench/search-tree.mjs: npm's package + this
// project's node_modules in name order up to 5,700 files), next to ripgrep on the same files, measured in the same run:
// - Node on the real folder, first search in a fresh runner (a new platform: empty text cache; the
//   OS page cache is warm for both sides), and a repeated search in the same runner; nothing forces a
//   garbage collection before a search (one row does, to show what that costs: see the case's comment);
// - the memory platform, cold (the first search on a new platform: every file's bytes validated as
//   UTF-8 and scanned for the literal, none decoded) and warm (repeated while nothing changed);
// - peak RSS of this process (a process of its own: bench/run.mjs) by the end of the Node searches.
// rg runs as a whole process, single-threaded (-j1) and with every ignore rule off (-uu), since the
// tree has no .gitignore and toolhost skips nothing else in it; it is started and timed by
// bench/anchor-runner.mjs, a small process of its own, so this process never forks while it searches
// (see there why).
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { ToolRunner, createMemoryPlatform } from '../dist/src/index.js';
import { createNodePlatform } from '../dist/node/platform.js';
import { findFileTool } from '../dist/src/tools/find-file.js';
import { grepSearchTool } from '../dist/src/tools/grep-search.js';
import { buildSearchTree, readTree, rgCount } from './search-tree.mjs';

const RUNS = 5;
/** Warm-up rounds before the targeted Node rows (see the comment where they run). */
const WARM_ROUNDS = 6;
const LITERAL = 'function';
/** find_file's case, and rg's listing that is its anchor. */
const FIND_ARGS = { pattern: '*.js', max_results: 10_000 };
const FIND_RG = ['--files', '-uu', '-g', '*.js', '.'];
const WITH_LITERAL = String.raw`require\(['"][^'"]+['"]\)`;
const NO_LITERAL = String.raw`[A-Z][a-z]+[A-Z]\w*`;

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Times one rg run. Its output goes to a file, not into this process: rg's 18 MB of content output
 * buffered here would count in this process's peak RSS, which is meant to be the searches' own.
 */
/** The anchor runner (bench/anchor-runner.mjs), started before the bench process grows. */
let anchors;

function startAnchorRunner() {
  const child = spawn(process.execPath, [fileURLToPath(new URL('./anchor-runner.mjs', import.meta.url))], { stdio: ['pipe', 'pipe', 'inherit'] });
  const waiting = [];
  createInterface({ input: child.stdout }).on('line', (line) => waiting.shift()(JSON.parse(line)));
  return {
    run: (request) =>
      new Promise((resolve) => {
        waiting.push(resolve);
        child.stdin.write(`${JSON.stringify(request)}\n`);
      }),
    close: () => child.stdin.end(),
  };
}

/** Runs `rg args` in `cwd` through the anchor runner: its time in ms, and its output. */
async function rgTime(args, cwd) {
  const outPath = join(cwd, '..', 'rg-output');
  const answer = await anchors.run({ cmd: 'rg', args, cwd, outPath });
  if (answer.error) throw new Error(`rg ${args.join(' ')}: ${answer.error}`);
  return { ms: answer.ms, stdout: () => readFileSync(outPath, 'utf8') };
}

export default async function run() {
  if (spawnSync('rg', ['--version'], { stdio: 'ignore' }).status !== 0) {
    console.warn('note: the search bench compares with ripgrep, which is missing: apt-get install ripgrep; no search figures this run');
    return [];
  }
  const tree = buildSearchTree();
  const { base, dir } = tree;
  const note = `${tree.files} files, ${(tree.bytes / 2 ** 20).toFixed(0)} MiB; median of ${RUNS}, each run paired with its anchor, after the process's ${WARM_ROUNDS} warm-up rounds (a first search, a repeated one, a find_file)`;
  // Files written in the last second are re-read by the cache (git's racy-clean rule): let it pass.
  await sleep(1100);
  const rows = [];
  try {
    anchors = startAnchorRunner();
    // ---------------------------------------------------------------------------------------------
    // Node, real folder.
    let peak = process.memoryUsage().rss;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
    const fresh = () => {
      const platform = createNodePlatform({ root: dir });
      return { platform, runner: new ToolRunner({ platform, tools: [grepSearchTool, findFileTool] }) };
    };
    const grepArgs = (pattern, extra = {}) => ({ pattern, output_mode: 'count', max_time_ms: 120_000, ...extra });
    const cases = [
      { name: `grep_search literal "${LITERAL}" (count)`, args: grepArgs(LITERAL, { fixed_strings: true }), rg: ['-j1', '-uu', '-c', '-F', LITERAL, '.'], target: '≤ 1.5x' },
      { name: `grep_search regex with a literal ${WITH_LITERAL} (count)`, args: grepArgs(WITH_LITERAL), rg: ['-j1', '-uu', '-c', '-e', WITH_LITERAL, '.'], target: '≤ 2x' },
      { name: `grep_search regex without a literal ${NO_LITERAL} (count)`, args: grepArgs(NO_LITERAL), rg: ['-j1', '-uu', '-c', '-e', NO_LITERAL, '.'], target: '≤ 2x' },
      { name: `grep_search literal "${LITERAL}" (content, 100 results)`, args: { pattern: LITERAL, fixed_strings: true }, rg: ['-j1', '-uu', '-n', '-F', LITERAL, '.'] },
      // A full collection before each search (no host does that per search): V8 then drops the
      // optimized code that pointed at the disposed platform's objects, and each search compiles it
      // again on the two cores it searches with.
      { name: `grep_search literal "${LITERAL}" (count), each after a full collection`, args: grepArgs(LITERAL, { fixed_strings: true }), rg: ['-j1', '-uu', '-c', '-F', LITERAL, '.'], collect: true },
    ];
    {
      // The process's first searches also compile toolhost's code and start the helper thread: the
      // first one (and the first repeated one, and the first find_file) is reported on its own (inside
      // this process, after it imported toolhost: what a new process meets, start-up included, is
      // measured by search-cold.bench.mjs, which spawns one per search), and the
      // cases below run after WARM_ROUNDS warm-up rounds (a first search in a fresh runner, the same
      // search repeated in it, a find_file in another fresh runner), so they measure each in a process
      // that has done all three before (a long-lived host). V8 optimizes a function only once it has
      // run a while, and the search path's long-running async functions (the walk, the shared count,
      // the helper's loop) ran once a search: `--trace-opt` showed it still compiling them (20-80 ms a
      // search, on the same two cores) until about the tenth search of the process, so after three
      // rounds of first searches only the rows measured the compiler as much as the search. The repeat
      // and the find_file are in the rounds because their code paths differ (validating cached files
      // and remembered counts; the walk with a glob and no count): without them, their rows measured
      // the process's first repeated searches and first find_file runs, while V8 compiled those paths.
      const warm = [];
      const warmRepeats = [];
      const warmFinds = [];
      for (let i = 0; i < WARM_ROUNDS; i += 1) {
        let { platform, runner } = fresh();
        let t = performance.now();
        await runner.execute('grep_search', cases[0].args);
        warm.push(performance.now() - t);
        t = performance.now();
        await runner.execute('grep_search', cases[0].args);
        warmRepeats.push(performance.now() - t);
        await platform.dispose();
        ({ platform, runner } = fresh());
        t = performance.now();
        await runner.execute('find_file', FIND_ARGS);
        warmFinds.push(performance.now() - t);
        await platform.dispose();
      }
      const r = await rgTime(cases[0].rg, dir);
      const list = (times) => times.map((ms) => ms.toFixed(0)).join(', ');
      rows.push({ figure: `Node folder, in-process: the bench process's first search (toolhost already imported; a new process: search-cold.bench.mjs): ${cases[0].name}`, value: warm[0], unit: 'ms', anchor: 'rg -j1 -uu', anchorValue: r.ms, note: `${tree.files} files; one run (the warm-up rounds' first searches, each in a fresh runner: ${list(warm)} ms)` });
      rows.push({ figure: `Node folder, in-process: the bench process's first repeated search: ${cases[0].name}`, value: warmRepeats[0], unit: 'ms', anchor: 'rg -j1 -uu', anchorValue: r.ms, note: `${tree.files} files; one run (the warm-up rounds' repeated searches: ${list(warmRepeats)} ms)` });
      const f = await rgTime(FIND_RG, dir);
      rows.push({ figure: 'Node folder, in-process: the bench process\'s first find_file "*.js" (toolhost already imported; a new process: search-cold.bench.mjs)', value: warmFinds[0], unit: 'ms', anchor: "rg --files -uu -g '*.js'", anchorValue: f.ms, note: `${tree.files} files; one run (the warm-up rounds' find_file runs, each in a fresh runner: ${list(warmFinds)} ms)` });
    }
    for (const c of cases) {
      const ours = [];
      const theirs = [];
      let counts;
      for (let i = 0; i < RUNS; i += 1) {
        const { platform, runner } = fresh();
        if (c.collect) globalThis.gc?.();
        let t = performance.now();
        const result = await runner.execute('grep_search', c.args);
        ours.push(performance.now() - t);
        await platform.dispose();
        const r = await rgTime(c.rg, dir);
        theirs.push(r.ms);
        if (i === 0 && c.args.output_mode === 'count') counts = [result.total_matches, rgCount(r.stdout())];
      }
      const check = counts ? `; matching lines: toolhost ${counts[0]}, rg ${counts[1]}` : '';
      rows.push({ figure: `Node folder, first search: ${c.name}`, value: median(ours), unit: 'ms', anchor: 'rg -j1 -uu', anchorValue: median(theirs), target: c.target, note: note + check });
    }
    {
      const ours = [];
      const theirs = [];
      for (let i = 0; i < RUNS; i += 1) {
        const { platform, runner } = fresh();
        const t = performance.now();
        await runner.execute('find_file', FIND_ARGS);
        ours.push(performance.now() - t);
        await platform.dispose();
        theirs.push((await rgTime(FIND_RG, dir)).ms);
      }
      rows.push({ figure: 'Node folder, first search: find_file "*.js"', value: median(ours), unit: 'ms', anchor: "rg --files -uu -g '*.js'", anchorValue: median(theirs), target: '≤ 1.5x', note });
    }
    {
      const { platform, runner } = fresh();
      await runner.execute('grep_search', cases[0].args);
      const ours = [];
      const theirs = [];
      for (let i = 0; i < RUNS; i += 1) {
        const t = performance.now();
        await runner.execute('grep_search', cases[0].args);
        ours.push(performance.now() - t);
        theirs.push((await rgTime(cases[0].rg, dir)).ms);
      }
      await platform.dispose();
      rows.push({ figure: `Node folder, repeated search: grep_search literal "${LITERAL}" (count)`, value: median(ours), unit: 'ms', anchor: 'rg -j1 -uu', anchorValue: median(theirs), target: '≤ 0.5x', note });
    }
    clearInterval(sampler);
    // The kernel's peak for this process (bench/run.mjs runs each bench file in a process of its own),
    // which also catches peaks between two samples; so far the process has only copied the tree and
    // run the Node searches (the helper thread's heap included).
    peak = Math.max(peak, process.resourceUsage().maxRSS * 1024);
    rows.push({ figure: 'peak RSS during the Node searches', value: peak / 2 ** 20, unit: 'MiB', anchor: 'target', anchorValue: 400, target: '≤ 400 MiB (ratio ≤ 1x)', note: "the bench process's peak RSS (getrusage) after the tree copy and the Node searches; a process of its own" });

    // ---------------------------------------------------------------------------------------------
    // Memory platform.
    const files = readTree(dir);
    const coldTimes = [];
    const warmTimes = [];
    const theirs = [];
    for (let i = 0; i < 3; i += 1) {
      const platform = createMemoryPlatform({ files });
      const runner = new ToolRunner({ platform, tools: [grepSearchTool] });
      await platform.fs.stat(platform.root);
      await sleep(1100);
      let t = performance.now();
      await runner.execute('grep_search', cases[0].args);
      coldTimes.push(performance.now() - t);
      for (let k = 0; k < 3; k += 1) {
        t = performance.now();
        await runner.execute('grep_search', cases[0].args);
        warmTimes.push(performance.now() - t);
      }
      await platform.dispose();
      theirs.push((await rgTime(cases[0].rg, dir)).ms);
    }
    rows.push({ figure: `memory platform, cold: grep_search literal "${LITERAL}" (count)`, value: median(coldTimes), unit: 'ms', anchor: 'rg -j1 -uu', anchorValue: median(theirs), target: '≤ 2x', note: `${tree.files} files; median of 3` });
    rows.push({ figure: `memory platform, warm: grep_search literal "${LITERAL}" (count)`, value: median(warmTimes), unit: 'ms', anchor: 'rg -j1 -uu', anchorValue: median(theirs), target: '≤ 0.5x', note: `${tree.files} files; median of 9` });
    return rows;
  } finally {
    anchors?.close();
    rmSync(base, { recursive: true, force: true });
  }
}
