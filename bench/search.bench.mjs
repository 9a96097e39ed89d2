// grep_search / search_dir / find_file over npm's own package (≈ 1,900 files, 19 MB) in a memory
// platform, next to ripgrep, grep and fast-glob over the same files on disk, measured in the same run.
//
// npm keeps almost everything under node_modules/, which the walker skips by design (SPEC §6.4), so
// the tree is copied with every `node_modules` directory renamed `deps` (symlinks left out: neither
// side follows them), once on disk for the native tools and once into the memory platform.
// Tool figures are warm: the first search reads and decodes every file into the per-platform text
// cache; later ones stat each file and reuse the decoded text (the cold first search is reported too).
// Native figures are whole processes (`spawnSync`), as FACTS.md measures them.
import { execSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import fg from 'fast-glob';
import { ToolRunner, createMemoryPlatform } from '../dist/src/index.js';
import { createVmRegexSandbox } from '../dist/node/regex-sandbox.js';
import { findFileTool } from '../dist/src/tools/find-file.js';
import { grepSearchTool } from '../dist/src/tools/grep-search.js';
import { searchDirTool } from '../dist/src/tools/search-dir.js';

const RUNS = 9;
const LITERAL = 'function';
const REGEX = String.raw`require\(['"][^'"]+['"]\)`;

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

function timeProcess(command, args, cwd, runs = RUNS) {
  const times = [];
  for (let i = 0; i < runs; i += 1) {
    const start = performance.now();
    const result = spawnSync(command, args, { cwd, maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'ignore'] });
    times.push(performance.now() - start);
    if (result.error) throw result.error;
  }
  return median(times);
}

function hasCommand(name) {
  return spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;
}

/** Copies npm's package to a temp dir, `node_modules` renamed `deps`, symlinks dropped. */
function prepareTree() {
  const npmRoot = join(execSync('npm root -g', { encoding: 'utf8' }).trim(), 'npm');
  if (!existsSync(npmRoot)) throw new Error(`npm's package not found at ${npmRoot}`);
  const base = mkdtempSync(join(tmpdir(), 'toolhost-bench-'));
  const dir = join(base, 'npm');
  cpSync(npmRoot, dir, { recursive: true, filter: (src) => !lstatSync(src).isSymbolicLink() });
  const rename = (path) => {
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      let child = join(path, entry.name);
      if (entry.name === 'node_modules') {
        const renamed = join(path, 'deps');
        renameSync(child, renamed);
        child = renamed;
      }
      rename(child);
    }
  };
  rename(dir);
  const files = {};
  let bytes = 0;
  const collect = (path) => {
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      const child = join(path, entry.name);
      if (entry.isDirectory()) collect(child);
      else if (entry.isFile()) {
        const data = readFileSync(child);
        bytes += data.length;
        files[relative(dir, child)] = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
      }
    }
  };
  collect(dir);
  return { base, dir, files, bytes };
}

export default async function run() {
  const { base, dir, files, bytes } = prepareTree();
  try {
    const count = Object.keys(files).length;
    const platform = createMemoryPlatform({ files, regex: createVmRegexSandbox() });
    const runner = new ToolRunner({ platform, tools: [findFileTool, searchDirTool, grepSearchTool] });
    await platform.fs.stat(platform.root); // writes the files into ZenFS now, not inside the first timing
    // Files changed within a second of being read are re-read (git's racy-clean rule): let that pass.
    await new Promise((resolve) => setTimeout(resolve, 1100));

    const grepLiteral = () => runner.execute('grep_search', { pattern: LITERAL, fixed_strings: true });
    const grepRegex = () => runner.execute('grep_search', { pattern: REGEX });
    const searchDir = () => runner.execute('search_dir', { query: LITERAL });
    const findAll = () => runner.execute('find_file', { pattern: '**/*', max_results: 10_000 });

    const coldStart = performance.now();
    const cold = await grepLiteral();
    const coldMs = performance.now() - coldStart;
    const found = await findAll();
    if (found.total !== count) throw new Error(`find_file found ${found.total} files, expected ${count}`);

    const rg = hasCommand('rg');
    const anchorName = rg ? 'rg -j1 -uu' : 'grep -rn (rg missing: apt-get install ripgrep)';
    if (rg) {
      // Same answer check: matching lines of the literal search.
      const out = spawnSync('rg', ['-j1', '-uu', '-c', '-F', LITERAL, 'npm'], { cwd: base, encoding: 'utf8', maxBuffer: 1 << 30 });
      const rgLines = out.stdout.split('\n').filter(Boolean).reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(':') + 1)), 0);
      if (rgLines !== cold.total_matches) console.warn(`note: rg counts ${rgLines} matching lines, grep_search ${cold.total_matches}`);
    }

    // Each run times the tool and its anchor back to back, so both see the same machine load.
    const paired = async (toolFn, anchorFn) => {
      for (let i = 0; i < 2; i += 1) await toolFn(); // warm-up: JIT and the text cache's line tables
      globalThis.gc?.();
      const a = [];
      const b = [];
      for (let i = 0; i < RUNS; i += 1) {
        let t = performance.now();
        await toolFn();
        a.push(performance.now() - t);
        t = performance.now();
        await anchorFn();
        b.push(performance.now() - t);
      }
      return [median(a), median(b)];
    };
    const nativeRun = (extra, pattern, grepExtra) => () =>
      rg
        ? timeProcess('rg', ['-j1', '-uu', '-n', ...extra, '-e', pattern, 'npm'], base, 1)
        : timeProcess('grep', ['-rn', ...grepExtra, '-e', pattern, 'npm'], base, 1);
    const rows = [];
    const [literal, literalAnchor] = await paired(grepLiteral, nativeRun(['-F'], LITERAL, ['-F']));
    const [regex, regexAnchor] = await paired(grepRegex, nativeRun([], REGEX, ['-E']));
    const [search, searchAnchor] = await paired(searchDir, nativeRun(['-F', '-i'], LITERAL, ['-F', '-i']));
    const [literal2, grepAnchor] = await paired(grepLiteral, () => timeProcess('grep', ['-rn', '-F', LITERAL, 'npm'], base, 1));
    const [find, findAnchor] = await paired(findAll, () => fg('**/*', { cwd: dir, dot: true, onlyFiles: true, followSymbolicLinks: false }));
    const tool = { literal, regex, search, literal2, find };
    const anchors = { literal: literalAnchor, regex: regexAnchor, search: searchAnchor, grep: grepAnchor, find: findAnchor };
    const note = `${count} files, ${(bytes / 2 ** 20).toFixed(1)} MiB, warm text cache; median of ${RUNS}, each run paired with its anchor`;
    rows.push(
      { figure: `grep_search literal "${LITERAL}"`, value: tool.literal, unit: 'ms', anchor: anchorName, anchorValue: anchors.literal, target: '≤ 3x', note },
      { figure: `grep_search regex ${REGEX}`, value: tool.regex, unit: 'ms', anchor: anchorName, anchorValue: anchors.regex, target: '≤ 3x', note },
      { figure: `search_dir "${LITERAL}" (case-insensitive)`, value: tool.search, unit: 'ms', anchor: `${anchorName} -i`, anchorValue: anchors.search, target: '≤ 3x', note },
      { figure: `grep_search literal "${LITERAL}"`, value: tool.literal2, unit: 'ms', anchor: 'grep -rn -F', anchorValue: anchors.grep, note },
      { figure: 'grep_search literal, cold (first search reads and decodes every file)', value: coldMs, unit: 'ms', anchor: anchorName, anchorValue: anchors.literal, note: `${count} files` },
      { figure: 'find_file **/*', value: tool.find, unit: 'ms', anchor: 'fast-glob **/* on disk', anchorValue: anchors.find, target: '≤ 2x', note: `${count} files; median of ${RUNS}` },
    );
    await platform.dispose();
    return rows;
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}
