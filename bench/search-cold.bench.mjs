// The first search of a new process, as a user meets it: the `toolhost` command (bin/toolhost.mjs)
// started for one search, and a stdio MCP server (`toolhost mcp`) started and asked for one search, as
// a coding agent starts it. Each run spawns a new Node process and times it from spawn to answer
// (the command: until it exits; the MCP server: until the search's answer arrives, start-up and the
// MCP handshake included), paired with an rg process spawned for the same search (rg -j1 -uu, single
// threaded with every ignore rule off, as in search.bench.mjs), also timed from spawn to exit. Both
// sides include their process start-up; the OS page cache is warm for both (the tree is read once
// before), and Node's compile cache (which the launcher turns on) holds toolhost's code from an
// unmeasured first start, as on every start after a user's first.
// Same tree as search.bench.mjs (bench/search-tree.mjs, 5,700 files).
import { spawn, spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSearchTree, rgCount } from './search-tree.mjs';

const RUNS = 7;
const LITERAL = 'function';
const BIN = fileURLToPath(new URL('../bin/toolhost.mjs', import.meta.url));
const GREP_ARGS = { pattern: LITERAL, fixed_strings: true, output_mode: 'count' };
const GREP_RG = ['-j1', '-uu', '-c', '-F', LITERAL, '.'];
const FIND_ARGS = { pattern: '*.js', max_results: 10_000 };
const FIND_RG = ['--files', '-uu', '-g', '*.js', '.'];
/** A literal in few of the tree's files, where a search index leaves most files unread. */
const RARE = 'createHash';
const RARE_ARGS = { pattern: RARE, fixed_strings: true, output_mode: 'count' };
const RARE_RG = ['-j1', '-uu', '-c', '-F', RARE, '.'];

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Spawns `cmd args` in `cwd` and waits for it to exit: its wall time (ms) and stdout. */
function timed(cmd, args, cwd) {
  const start = performance.now();
  const run = spawnSync(cmd, args, { cwd, encoding: 'utf8', maxBuffer: 256 * 2 ** 20 });
  const ms = performance.now() - start;
  if (run.error || run.status !== 0) throw new Error(`${cmd} ${args.join(' ')}: ${run.error?.message ?? `exit ${run.status}: ${run.stderr}`}`);
  return { ms, stdout: run.stdout };
}

/** `toolhost call <tool> <args> --root <dir>` (and `flags`) in a new process: its time and the tool's result. */
function cliCall(tool, args, dir, flags = []) {
  const { ms, stdout } = timed(process.execPath, [BIN, 'call', tool, JSON.stringify(args), '--root', dir, ...flags], dir);
  return { ms, result: JSON.parse(stdout).result };
}

/**
 * Starts `toolhost mcp --root <dir>`, initializes it and calls `tool` once: the time from spawn to the
 * call's answer (the server is then closed, untimed) and the call's structured result.
 */
function mcpCall(tool, args, dir) {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, [BIN, 'mcp', '--root', dir], { cwd: dir, stdio: ['pipe', 'pipe', 'inherit'] });
    const send = (message) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
    let buffered = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      buffered += chunk;
      for (let end = buffered.indexOf('\n'); end !== -1; end = buffered.indexOf('\n')) {
        const message = JSON.parse(buffered.slice(0, end));
        buffered = buffered.slice(end + 1);
        if (message.id === 1) {
          send({ method: 'notifications/initialized' });
          send({ id: 2, method: 'tools/call', params: { name: tool, arguments: args } });
        } else if (message.id === 2) {
          const ms = performance.now() - start;
          child.stdin.end();
          if (message.error || message.result.isError) reject(new Error(`mcp ${tool}: ${JSON.stringify(message.error ?? message.result)}`));
          else resolve({ ms, result: message.result.structuredContent });
        }
      }
    });
    child.on('error', reject);
    send({ id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } });
  });
}

const rgLines = (stdout) => stdout.split('\n').filter(Boolean).length;

export default async function run() {
  if (spawnSync('rg', ['--version'], { stdio: 'ignore' }).status !== 0) {
    console.warn('note: the cold search bench compares with ripgrep, which is missing: apt-get install ripgrep; no figures this run');
    return [];
  }
  const tree = buildSearchTree();
  const { base, dir } = tree;
  const rows = [];
  let savedCacheHome;
  const note = (extra) => `${tree.files} files, ${(tree.bytes / 2 ** 20).toFixed(0)} MiB; median of ${RUNS} new processes, each paired with an rg process; ${extra}`;
  try {
    // Warms the page cache (both sides read the tree from memory) and Node's compile cache; the last
    // call builds the search index the --search-index rows read (XDG_CACHE_HOME below `base`).
    timed('rg', GREP_RG, dir);
    cliCall('grep_search', GREP_ARGS, dir);
    savedCacheHome = process.env.XDG_CACHE_HOME;
    process.env.XDG_CACHE_HOME = join(base, 'cache');
    cliCall('grep_search', RARE_ARGS, dir, ['--search-index']);
    const cases = [
      { figure: `new process, toolhost call grep_search literal "${LITERAL}" (count)`, run: () => cliCall('grep_search', GREP_ARGS, dir), rg: GREP_RG, anchor: 'rg -j1 -uu (a new process)', target: '≤ 2x', check: (r, out) => `matching lines: toolhost ${r.total_matches}, rg ${rgCount(out)}` },
      { figure: `new process, toolhost call grep_search literal "${RARE}" (count)`, run: () => cliCall('grep_search', RARE_ARGS, dir), rg: RARE_RG, anchor: 'rg -j1 -uu (a new process)', target: '≤ 2x', check: (r, out) => `matching lines: toolhost ${r.total_matches}, rg ${rgCount(out)}` },
      { figure: `new process, toolhost call --search-index (index on disk) grep_search literal "${RARE}" (count)`, run: () => cliCall('grep_search', RARE_ARGS, dir, ['--search-index']), rg: RARE_RG, anchor: 'rg -j1 -uu (a new process)', target: '≤ 2x', check: (r, out) => `matching lines: toolhost ${r.total_matches}, rg ${rgCount(out)}` },
      { figure: `new process, toolhost call --search-index (index on disk) grep_search literal "${LITERAL}" (count)`, run: () => cliCall('grep_search', GREP_ARGS, dir, ['--search-index']), rg: GREP_RG, anchor: 'rg -j1 -uu (a new process)', target: '≤ 2x', check: (r, out) => `the literal is in most files, so the index leaves them all to read; matching lines: toolhost ${r.total_matches}, rg ${rgCount(out)}` },
      { figure: 'new process, toolhost call find_file "*.js"', run: () => cliCall('find_file', FIND_ARGS, dir), rg: FIND_RG, anchor: "rg --files -uu -g '*.js' (a new process)", check: (r, out) => `files found: toolhost ${r.total} (the answer lists ${r.files.length}, capped by size), rg ${rgLines(out)}` },
      { figure: `new MCP server (toolhost mcp, stdio), its first grep_search literal "${LITERAL}" (count)`, run: () => mcpCall('grep_search', GREP_ARGS, dir), rg: GREP_RG, anchor: 'rg -j1 -uu (a new process)', target: '≤ 2x', check: (r, out) => `spawn to the tools/call answer, handshake included; matching lines: toolhost ${r?.total_matches}, rg ${rgCount(out)}` },
    ];
    for (const c of cases) {
      const ours = [];
      const theirs = [];
      let check = '';
      for (let i = 0; i < RUNS; i += 1) {
        const mine = await c.run();
        ours.push(mine.ms);
        const rg = timed('rg', c.rg, dir);
        theirs.push(rg.ms);
        if (i === 0) check = c.check(mine.result, rg.stdout);
      }
      // The machine's load: on a shared machine other processes take the cores too (both sides pay it).
      const load = `; load average ${loadavg()[0].toFixed(1)} on ${availableParallelism()} cores`;
      rows.push({ figure: c.figure, value: median(ours), unit: 'ms', anchor: c.anchor, anchorValue: median(theirs), ...(c.target ? { target: c.target } : {}), note: note(check) + load });
    }
    return rows;
  } finally {
    if (savedCacheHome === undefined) delete process.env.XDG_CACHE_HOME;
    else process.env.XDG_CACHE_HOME = savedCacheHome;
    rmSync(base, { recursive: true, force: true });
  }
}
