// Worst cases of the glob matcher (src/glob.ts): how long compiling a glob and matching one name or
// path takes for patterns a model can send, and how fast ordinary patterns match many paths.
//
//   npm run build && node bench/glob-worst-case.mjs            # the build in dist/
//   node bench/glob-worst-case.mjs /tmp/other-build            # another build (tsc --outDir)
//
// Each case runs in a worker thread that is terminated after CAP_MS, so a matcher that never
// returns is reported as "> CAP_MS" instead of hanging the script. Times are wall-clock ms of one
// compile + match (the worst of the listed inputs), or of the whole find_file call.
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const CAP_MS = 10_000;
const a = (n) => 'a'.repeat(n);
const deep = (depth) => Array.from({ length: depth }, () => 'a').join('/');

/** [label, pattern, inputs]: each input is matched with compileGlob(pattern).matches(input). */
const MATCH_CASES = [
  ['8 stars, 40-char name', `${'*a'.repeat(8)}b`, [a(40)]],
  ['8 stars, 80-char name', `${'*a'.repeat(8)}b`, [a(80)]],
  ['8 stars, 255-char name', `${'*a'.repeat(8)}b`, [a(255)]],
  ['30 stars, 255-char name', `${'*a'.repeat(30)}b`, [a(255)]],
  ['8 ?* pairs, 255-char name', `${'?*'.repeat(8)}b`, [a(255)]],
  ['8 [a]* pairs, 255-char name', `${'[a]*'.repeat(8)}b`, [a(255)]],
  ['8 ** segments, 200-deep path', `${'**/a/'.repeat(8)}b`, [deep(200)]],
  ['20 ** segments, 1000-deep path', `${'**/a/'.repeat(20)}b`, [deep(1000)]],
  ['stars across segments, 4096-char path', `${'*a'.repeat(8)}/**/b`, [`${a(255)}/${deep(1900)}`]],
  ['20 x {a,aa}, 60-char name', `${'{a,aa}'.repeat(20)}b`, [a(60)]],
  ['{a,b} x 20 then c, 40-char name', `${'{a,b}'.repeat(20)}c`, ['ab'.repeat(20)]],
  ['brace of stars x 8, 255-char name', `${'{*a,*b}'.repeat(8)}c`, [a(255)]],
  ['extglob +(a|aa) x 4, 60-char name', `${'+(a|aa)'.repeat(4)}b`, [a(60)]],
  ['extglob *(a|b) x 8, 255-char name', `${'*(a|b)'.repeat(8)}c`, [a(255)]],
  ['extglob @(*a|*b) x 8, 255-char name', `${'@(*a|*b)'.repeat(8)}c`, [a(255)]],
  ['!(...) with stars, 255-char name', `!(*a*a*a)${'*a'.repeat(8)}b`, [a(255)]],
  ['newline name with **', '**', ['line\nbreak']],
  // At the length limit (1000 characters): the slowest a glob can make one name or path.
  ['999-char glob of stars, 255-char name', `${'*a'.repeat(499)}b`, [a(255)]],
  ['999-char glob of stars and **, 4096-char path', `**/${'*a/'.repeat(332)}b`, [`${deep(1800)}/${a(400)}`]],
  ['996-char glob of classes, 255-char name', `${'[a-z]*'.repeat(166)}`, [`${a(254)}!`]],
  ['995-char glob of braces, 255-char name', `${'{a,b}'.repeat(199)}`, [a(255)]],
  ['{1..1000} range, 4-char name', '{1..1000}', ['1000']],
  ['20 ranges of 1000 (refused)', '{1..1000}'.repeat(20), ['1']],
  ['10 KB pattern, ordinary name', `${'a'.repeat(10_000)}*`, ['src/index.ts']],
];

async function runCase(dist, kind, index) {
  // The matcher moved from src/glob.js to src/search/glob.js; builds from before that still compare.
  const glob = await import(pathToFileURL(resolve(dist, 'src/search/glob.js')).href).catch(() => import(pathToFileURL(resolve(dist, 'src/glob.js')).href));
  await glob.loadGlobEngine?.(); // builds before the linear-time matcher had to load picomatch first
  await glob.loadGlobMatcher?.(); // builds where the compiler is a file loaded on demand
  if (kind === 'match') {
    const [, pattern, inputs] = MATCH_CASES[index];
    const start = performance.now();
    let result;
    try {
      const matcher = glob.compileGlob(pattern);
      result = inputs.map((input) => matcher.matches(input)).join(',');
    } catch (error) {
      result = `${error.code ?? 'error'}: ${String(error.message).slice(0, 70)}`;
    }
    return { ms: performance.now() - start, result };
  }
  if (kind === 'find') {
    const { ToolRunner, createMemoryPlatform } = await import(pathToFileURL(resolve(dist, 'src/index.js')).href);
    const { findFileTool } = await import(pathToFileURL(resolve(dist, 'src/tools/find-file.js')).href);
    const length = [40, 60, 80][index];
    const runner = new ToolRunner({ platform: createMemoryPlatform({ files: { [a(length)]: 'x' } }), tools: [findFileTool] });
    const start = performance.now();
    let result;
    try {
      result = JSON.stringify(await runner.execute('find_file', { pattern: `${'*a'.repeat(8)}b` }, { timeoutMs: 2000 }));
    } catch (error) {
      result = `${error.code}: ${String(error.message).slice(0, 70)}`;
    }
    return { ms: performance.now() - start, result };
  }
  // kind === 'throughput': ordinary patterns over 100,000 synthetic paths.
  const patterns = ['*.ts', 'src/**/*.test.ts', '**/*', '*.{js,jsx,ts,tsx}', 'README*', '**/node_modules/**'];
  const paths = [];
  for (let i = 0; i < 100_000; i += 1) {
    paths.push(`src/module${i % 97}/sub${i % 13}/file-${i}.${['ts', 'test.ts', 'js', 'md', 'json'][i % 5]}`);
  }
  const out = {};
  for (const pattern of patterns) {
    const matcher = glob.compileGlob(pattern);
    let hits = 0;
    for (const path of paths) if (matcher.matches(path)) hits += 1; // warm-up
    const start = performance.now();
    for (let r = 0; r < 3; r += 1) for (const path of paths) if (matcher.matches(path)) hits += 1;
    out[pattern] = { ms: (performance.now() - start) / 3, hits: hits / 4 };
  }
  return { ms: 0, result: out };
}

function inWorker(dist, kind, index) {
  return new Promise((resolvePromise) => {
    const worker = new Worker(new URL(import.meta.url), { workerData: { dist, kind, index } });
    const started = performance.now();
    const timer = setTimeout(() => {
      void worker.terminate();
      resolvePromise({ ms: performance.now() - started, result: `did not finish; terminated after ${CAP_MS} ms`, capped: true });
    }, CAP_MS);
    worker.once('message', (message) => {
      clearTimeout(timer);
      void worker.terminate();
      resolvePromise(message);
    });
    worker.once('error', (error) => {
      clearTimeout(timer);
      resolvePromise({ ms: performance.now() - started, result: `worker error: ${error.message}` });
    });
  });
}

if (!isMainThread) {
  const { dist, kind, index } = workerData;
  parentPort.postMessage(await runCase(dist, kind, index));
} else {
  const dist = resolve(process.argv[2] ?? new URL('../dist', import.meta.url).pathname);
  const fmt = ({ ms, capped }) => (capped ? `> ${CAP_MS} ms` : `${ms.toFixed(1)} ms`);
  console.log(`glob worst cases, build ${dist}, node ${process.version}\n`);
  for (let i = 0; i < 3; i += 1) {
    const row = await inWorker(dist, 'find', i);
    console.log(`find_file *a x8 b, ${[40, 60, 80][i]}-char name (timeoutMs 2000): ${fmt(row)}  ${row.result}`);
  }
  for (let i = 0; i < MATCH_CASES.length; i += 1) {
    const row = await inWorker(dist, 'match', i);
    console.log(`${MATCH_CASES[i][0]}: ${fmt(row)}  ${row.result}`);
  }
  const throughput = await inWorker(dist, 'throughput', 0);
  console.log('\nordinary patterns, 100,000 paths, ms per pass (matches):');
  for (const [pattern, { ms, hits }] of Object.entries(throughput.result)) console.log(`  ${pattern}: ${ms.toFixed(1)} ms (${hits})`);
}
