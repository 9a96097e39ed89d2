// The search index (src/search/index/) over the search bench's tree (bench/search-tree.mjs): how long
// a build takes next to one `rg -j1 -uu` pass over the same files, how big the index is next to the
// text it covers, and repeated grep_search calls with and without it (the same answers, checked), on
// the Node folder and on the memory platform. Run alone with `node bench/search-index.bench.mjs`
// after `npm run build`, or through bench/run.mjs.
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { BuiltinTools, ToolRunner, createMemoryPlatform } from '../dist/src/index.js';
import { createNodePlatform } from '../dist/node/platform.js';
import { openIndex, serializeIndex } from '../dist/src/search/index/format.js';
import { buildWorkspaceIndex, searchIndexCommitWork, searchIndexIdle, searchIndexOf } from '../dist/src/search/index/workspace.js';
import { setSearchIndex } from '../dist/src/search/index/engine.js';
import { searchIndexFile, watchSearchTree } from '../dist/node/search-index-store.js';
import { treeGeneration } from '../dist/src/search/index/reuse.js';
import { buildSearchTree, readTree, rgCount } from './search-tree.mjs';
import { largeSearchTree } from './search-tree-100k.mjs';

const RUNS = 5;
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The searches timed: a common literal, a rare one, a case-insensitive one, regexes with and without a literal. */
const CASES = [
  { name: 'literal "function" (common)', args: { pattern: 'function', fixed_strings: true, output_mode: 'count' }, rg: ['-F', 'function'] },
  { name: 'literal "createHash" (rare)', args: { pattern: 'createHash', fixed_strings: true, output_mode: 'count' }, rg: ['-F', 'createHash'] },
  { name: 'case-insensitive "readfilesync"', args: { pattern: 'readfilesync', case_sensitive: false, output_mode: 'count' }, rg: ['-i', 'readfilesync'] },
  { name: String.raw`regex require\(['"][^'"]+['"]\)`, args: { pattern: String.raw`require\(['"][^'"]+['"]\)`, output_mode: 'count' }, rg: [String.raw`require\(['"][^'"]+['"]\)`] },
  { name: String.raw`regex [A-Z][a-z]+[A-Z]\w* (no literal)`, args: { pattern: String.raw`[A-Z][a-z]+[A-Z]\w*`, output_mode: 'count' }, rg: [String.raw`[A-Z][a-z]+[A-Z]\w*`] },
];

function rgMs(args, cwd) {
  const t = performance.now();
  const run = spawnSync('rg', ['-j1', '-uu', '--count', '--no-config', ...args, '.'], { cwd, stdio: ['ignore', 'ignore', 'ignore'] });
  if (run.status !== 0 && run.status !== 1) throw new Error(`rg ${args.join(' ')} exited ${run.status}`);
  return performance.now() - t;
}

async function timed(fn) {
  const t = performance.now();
  const value = await fn();
  return { ms: performance.now() - t, value };
}

/** Median time of a repeated search on `runner` (one untimed run first), and its answer. */
async function repeated(runner, args) {
  const first = await runner.execute('grep_search', args);
  const times = [];
  for (let i = 0; i < RUNS; i += 1) times.push((await timed(() => runner.execute('grep_search', args))).ms);
  return { ms: median(times), answer: first };
}

/** Build, size and repeated searches on one platform; rows named by `where`. */
async function measure(where, platform, dir, textBytes) {
  const rows = [];
  const builds = [];
  let index;
  for (let i = 0; i < 3; i += 1) {
    const built = await timed(() => buildWorkspaceIndex(platform));
    builds.push(built.ms);
    index = built.value;
  }
  const rgPasses = [];
  for (let i = 0; i < 3; i += 1) rgPasses.push(rgMs(['-F', 'function'], dir));
  const bytes = serializeIndex(index, platform.root).length;
  rows.push({ figure: `${where}: index build (${index.size} files)`, value: median(builds), unit: 'ms', anchor: 'rg -j1 -uu one pass', anchorValue: median(rgPasses), note: 'median of 3' });
  rows.push({ figure: `${where}: index size (serialized) / text bytes`, value: Number(((bytes / textBytes) * 100).toFixed(1)), unit: '%', note: `${(bytes / 2 ** 20).toFixed(1)} MiB for ${(textBytes / 2 ** 20).toFixed(1)} MiB of files` });
  const plainPlatform = { ...platform };
  const plain = new ToolRunner({ platform: plainPlatform, tools: BuiltinTools.all() });
  const indexed = new ToolRunner({ platform, tools: BuiltinTools.all() });
  setSearchIndex(platform, index);
  for (const c of CASES) {
    const without = await repeated(plain, c.args);
    const withIndex = await repeated(indexed, c.args);
    await searchIndexIdle(platform);
    const same = isDeepStrictEqual(without.answer, withIndex.answer);
    const rg = median(Array.from({ length: RUNS }, () => rgMs(c.rg, dir)));
    rows.push({ figure: `${where}: repeated search with the index: ${c.name}`, value: withIndex.ms, unit: 'ms', anchor: 'rg -j1 -uu', anchorValue: rg, note: `without the index ${without.ms.toFixed(1)} ms; answers ${same ? 'identical' : 'DIFFER'}` });
    if (!same) throw new Error(`${where}: ${c.name}: the answers with and without the index differ`);
  }
  return rows;
}

/**
 * One edit_file commit on `platform` (index attached): the index work it did (the identity taken after
 * the write and the update; `searchIndexCommitWork`), next to the edit_file call itself on the same
 * files with no index, and the next search checked against a plain scan. `sample` is the text of a
 * file of the tree, written first as the file edited.
 */
async function editRows(where, platform, sample) {
  const path = `${platform.root}/bench-edited.ts`;
  const plainPlatform = { ...platform };
  const indexed = new ToolRunner({ platform, tools: BuiltinTools.all() });
  const plain = new ToolRunner({ platform: plainPlatform, tools: BuiltinTools.all() });
  await indexed.execute('create_file', { file_path: path, content: `${sample}\nconst benchMarker0 = 0;\n`, overwrite: true });
  const work = [];
  const withIndex = [];
  const without = [];
  let marker = 0;
  let visible = true;
  const edit = async (runner) => {
    const t = performance.now();
    await runner.execute('edit_file', { file_path: path, old_string: `benchMarker${marker}`, new_string: `benchMarker${marker + 1}` });
    marker += 1;
    return performance.now() - t;
  };
  for (let i = 0; i < RUNS; i += 1) {
    without.push(await edit(plain));
    const before = searchIndexCommitWork(platform);
    withIndex.push(await edit(indexed));
    const after = searchIndexCommitWork(platform);
    if (after.changes !== before.changes + 1) throw new Error(`${where}: one edit_file made ${after.changes - before.changes} index changes`);
    work.push(after.ms - before.ms);
    // The next search sees the edit, as a plain scan does.
    const args = { pattern: `benchMarker${marker}`, fixed_strings: true, output_mode: 'files_with_matches' };
    const found = await indexed.execute('grep_search', args);
    visible &&= isDeepStrictEqual(found, await plain.execute('grep_search', args)) && found.files?.length === 1;
  }
  await searchIndexIdle(platform);
  if (!visible) throw new Error(`${where}: a search after edit_file did not answer as a plain scan`);
  return [
    {
      figure: `${where}: an edit through toolhost is visible to the next search: index work of one edit_file commit`,
      value: median(work),
      unit: 'ms',
      anchor: 'the edit_file call, no index',
      anchorValue: median(without),
      target: '≤ 5 ms',
      note: `${(sample.length / 1024).toFixed(1)} KiB file; edit_file with the index ${median(withIndex).toFixed(2)} ms; next search = plain scan; median of ${RUNS}`,
    },
  ];
}

/**
 * The first search of a new Node platform (its file cache empty, as in a new process; the OS page
 * cache warm for both sides), with the index opened from its saved bytes and without one.
 */
async function firstSearches(saved, dir) {
  const rows = [];
  const opens = [];
  for (let i = 0; i < RUNS; i += 1) opens.push((await timed(() => openIndex(saved, dir))).ms);
  rows.push({ figure: 'Node folder: opening the saved index (checksum and tables checked)', value: median(opens), unit: 'ms', note: `${(saved.length / 2 ** 20).toFixed(1)} MiB; median of ${RUNS}` });
  for (const c of CASES) {
    const withTimes = [];
    const withoutTimes = [];
    let same = true;
    for (let i = 0; i < RUNS; i += 1) {
      const a = createNodePlatform({ root: dir });
      setSearchIndex(a, openIndex(saved, dir));
      const withIndex = await timed(() => new ToolRunner({ platform: a, tools: BuiltinTools.all() }).execute('grep_search', c.args));
      const b = createNodePlatform({ root: dir });
      const without = await timed(() => new ToolRunner({ platform: b, tools: BuiltinTools.all() }).execute('grep_search', c.args));
      same &&= isDeepStrictEqual(withIndex.value, without.value);
      withTimes.push(withIndex.ms);
      withoutTimes.push(without.ms);
      await a.dispose();
      await b.dispose();
    }
    const rg = median(Array.from({ length: RUNS }, () => rgMs(c.rg, dir)));
    rows.push({ figure: `Node folder: first search of a new platform, index opened from disk: ${c.name}`, value: median(withTimes), unit: 'ms', anchor: 'rg -j1 -uu', anchorValue: rg, note: `without the index ${median(withoutTimes).toFixed(1)} ms; answers ${same ? 'identical' : 'DIFFER'}` });
    if (!same) throw new Error(`first search: ${c.name}: the answers with and without the index differ`);
  }
  return rows;
}

/**
 * The first search of a new Node platform created with `searchIndex` and no saved index, so the index
 * is being built (on its worker thread) while the search runs, next to the same search on a platform
 * without the option; and, from that search's end until the index is in use, the main thread's CPU
 * time and the longest it went without turning its event loop (a 5 ms timer's late ticks).
 */
async function whileBuilding(dir, base) {
  const c = CASES[1];
  const withBuild = [];
  const without = [];
  const stalls = [];
  const mainCpu = [];
  const readyAfter = [];
  const cpuMs = () => {
    const usage = process.threadCpuUsage?.() ?? process.cpuUsage();
    return (usage.user + usage.system) / 1000;
  };
  for (let i = 0; i < 3; i += 1) {
    const cacheDir = `${base}/index-cache-${i}`;
    const started = performance.now();
    const platform = createNodePlatform({ root: dir, searchIndex: { cacheDir } });
    const first = await timed(() => new ToolRunner({ platform, tools: BuiltinTools.all() }).execute('grep_search', c.args));
    const cpuBefore = cpuMs();
    let last = performance.now();
    let stall = 0;
    const ticker = setInterval(() => {
      const now = performance.now();
      stall = Math.max(stall, now - last - 5);
      last = now;
    }, 5);
    while (!searchIndexOf(platform)) await sleep(5);
    clearInterval(ticker);
    mainCpu.push(cpuMs() - cpuBefore);
    readyAfter.push(performance.now() - started);
    stalls.push(stall);
    withBuild.push(first.ms);
    await platform.dispose();
    const plain = createNodePlatform({ root: dir });
    const alone = await timed(() => new ToolRunner({ platform: plain, tools: BuiltinTools.all() }).execute('grep_search', c.args));
    await plain.dispose();
    if (!isDeepStrictEqual(first.value, alone.value)) throw new Error('first search during the build: the answers with and without the index differ');
    without.push(alone.ms);
  }
  return [
    {
      figure: `Node folder: first search of a new platform while its index is built on a worker thread: ${c.name}`,
      value: median(withBuild),
      unit: 'ms',
      anchor: 'the same first search, no index',
      anchorValue: median(without),
      note: `index in use ${median(readyAfter).toFixed(0)} ms after the platform was made; from the search's end until then the main thread used ${median(mainCpu).toFixed(0)} ms of CPU, longest event-loop stall ${median(stalls).toFixed(0)} ms (wall clock); answers identical; median of 3`,
    },
  ];
}

/** The text of the tree's first JavaScript file of 8 to 16 KiB (the file an edit is timed on). */
function editSample(files) {
  for (const [path, data] of Object.entries(files)) {
    if (!/\.(js|ts|mjs)$/.test(path) || data.length < 8192 || data.length > 16384) continue;
    const text = new TextDecoder().decode(data);
    if (!text.includes('\0') && !text.includes('benchMarker')) return text;
  }
  throw new Error('no JavaScript file of 8 to 16 KiB in the tree');
}

/** One `rg -j1 -uu --count` run in `cwd`: its time and its total count. */
function rgCounted(args, cwd) {
  const t = performance.now();
  const run = spawnSync('rg', ['-j1', '-uu', '--count', '--no-config', ...args, '.'], { cwd, encoding: 'utf8', maxBuffer: 1 << 30 });
  const ms = performance.now() - t;
  if (run.status !== 0 && run.status !== 1) throw new Error(`rg ${args.join(' ')} exited ${run.status}`);
  return { ms, count: rgCount(run.stdout) };
}

/**
 * The 100,000-file tree (bench/search-tree-100k.mjs): the index built as a Node platform builds it
 * (its worker thread, in a process of its own so the peak RSS is the build's), its size, and repeated
 * searches with it opened from disk, each next to `rg -j1 -uu` in this run and its count checked
 * against rg's.
 */
async function largeRows(base) {
  const tree = largeSearchTree();
  const made = tree.built === undefined ? 'reused from an earlier run' : `generated in ${(tree.built / 1000).toFixed(0)} s by this run`;
  const rows = [];
  const passes = [rgCounted(['-F', 'function'], tree.dir).ms, rgCounted(['-F', 'function'], tree.dir).ms];
  const cacheDir = `${base}/large-index`;
  const child = spawnSync(process.execPath, [fileURLToPath(new URL('./search-index-build-child.mjs', import.meta.url)), tree.dir, cacheDir], { encoding: 'utf8' });
  if (child.status !== 0) throw new Error(`the large tree's index build failed: ${child.stderr}`);
  const built = JSON.parse(child.stdout);
  const saved = new Uint8Array(readFileSync(searchIndexFile(tree.dir, cacheDir)));
  const where = '100k-file tree';
  rows.push({ figure: `${where}: index build on its worker thread, saved to disk (${tree.files} files)`, value: built.savedMs, unit: 'ms', anchor: 'rg -j1 -uu one pass', anchorValue: Math.min(...passes), target: '≤ 3x', note: `${tree.note}; ${made}; rg best of 2, build once` });
  rows.push({ figure: `${where}: index size (serialized) / text bytes`, value: Number(((saved.length / tree.bytes) * 100).toFixed(1)), unit: '%', target: '≤ 30 %', note: `${(saved.length / 2 ** 20).toFixed(1)} MiB for ${(tree.bytes / 2 ** 20).toFixed(0)} MiB of files` });
  rows.push({ figure: `${where}: peak RSS of the build process`, value: Number((built.maxRssBytes / 1e6).toFixed(0)), unit: 'MB', target: '≤ 600 MB', note: 'peak resident memory (VmHWM) of a process that only runs the build thread (its main thread idle)' });
  // As a host would: a platform with `searchIndex`, which opens the saved index and watches the tree.
  const armed = performance.now();
  const platform = createNodePlatform({ root: tree.dir, searchIndex: { cacheDir } });
  const armMs = performance.now() - armed;
  try {
    while (!searchIndexOf(platform)) await sleep(5);
    // Until its tree watch is armed the tree does not vouch for itself, and a search checks every file.
    const arming = performance.now();
    while (treeGeneration(platform) === undefined) await sleep(20);
    const armedMs = performance.now() - arming;
    const runner = new ToolRunner({ platform, tools: BuiltinTools.all() });
    for (const c of CASES) {
      if (c.name.startsWith('case-insensitive')) continue;
      // The whole tree, never cut short by the default 10 s budget on a busy machine.
      const args = { ...c.args, max_time_ms: 120_000 };
      const firstRun = await timed(() => runner.execute('grep_search', args));
      const first = firstRun.value;
      // (Its list of counts stops at max_results; total_matches counts the whole tree, checked against rg below.)
      const times = [];
      for (let i = 0; i < 3; i += 1) times.push((await timed(() => runner.execute('grep_search', args))).ms);
      const rg = [rgCounted(c.rg, tree.dir), rgCounted(c.rg, tree.dir)];
      const same = first.total_matches === rg[0].count;
      const target = c.name.includes('no literal') ? '≤ 1x' : '≤ 0.05x';
      rows.push({ figure: `${where}: first search with the index: ${c.name}`, value: firstRun.ms, unit: 'ms', anchor: 'rg -j1 -uu', anchorValue: Math.min(rg[0].ms, rg[1].ms), note: `the index opened from disk, the tree watch armed (${armedMs.toFixed(0)} ms after the index), nothing remembered yet: the files the plan leaves are read` });
      rows.push({ figure: `${where}: repeated search with the index: ${c.name}`, value: median(times), unit: 'ms', anchor: 'rg -j1 -uu', anchorValue: Math.min(rg[0].ms, rg[1].ms), target, note: `${first.total_matches} matching lines, rg's count ${same ? 'identical' : `DIFFERS (${rg[0].count})`}; median of 3 after the first, rg best of 2; answered from the result memo of matching-line counts where the index and the tree watch vouch for the files; platform made in ${armMs.toFixed(0)} ms` });
      if (!same) throw new Error(`${where}: ${c.name}: ${first.total_matches} matching lines, rg counts ${rg[0].count}`);
    }
  } finally {
    await platform.dispose();
  }
  // The machine is shared: each row says how loaded it was when the section ended.
  const load = `load average ${loadavg().map((l) => l.toFixed(1)).join(' / ')}`;
  for (const row of rows) row.note = `${row.note}; ${load}`;
  return rows;
}

export default async function run() {
  if (spawnSync('rg', ['--version'], { stdio: 'ignore' }).status !== 0) {
    console.warn('note: the search index bench compares with ripgrep, which is missing: apt-get install ripgrep');
    return [];
  }
  const tree = buildSearchTree();
  try {
    // `SEARCH_INDEX_BENCH=large`: the 100,000-file tree's rows alone.
    if (process.env.SEARCH_INDEX_BENCH === 'large') return await largeRows(tree.base);
    // Files written in the last second are racy (always scanned): let the window pass.
    await sleep(1100);
    const files = readTree(tree.dir);
    const textBytes = Object.values(files).reduce((sum, data) => sum + data.length, 0);
    const node = createNodePlatform({ root: tree.dir });
    // Its tree watched, as a platform made with `searchIndex` has it (repeated searches reuse their walk and file checks).
    const watch = watchSearchTree(node);
    await watch.ready;
    const rows = await measure('Node folder', node, tree.dir, textBytes);
    rows.push(...(await firstSearches(serializeIndex(searchIndexOf(node), tree.dir), tree.dir)));
    rows.push(...(await whileBuilding(tree.dir, tree.base)));
    const sample = editSample(files);
    rows.push(...(await editRows('Node folder', node, sample)));
    await node.dispose();
    watch.close();
    const memory = createMemoryPlatform({ root: '/ws', files });
    await sleep(1100);
    rows.push(...(await measure('memory platform', memory, tree.dir, textBytes)));
    rows.push(...(await editRows('memory platform', memory, sample)));
    rows.push(...(await largeRows(tree.base)));
    return rows;
  } finally {
    rmSync(tree.base, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const row of await run()) console.log(JSON.stringify(row));
}
