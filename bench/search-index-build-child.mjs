// Builds one workspace's search index the way a Node platform does (node/search-index-worker.js on a
// worker thread: walk, reads, trigrams, serialization, save) in a process of its own, so its peak
// resident memory is the build's alone. Prints one JSON line: `{ ms, savedMs, maxRssBytes, cpuMs }`, `ms`
// from the thread's start until its index reached this thread (the thread saves it first), `savedMs` until it said the file was written,
// `cpuMs` the process's CPU time (all its threads).
// Usage: node bench/search-index-build-child.mjs <root> <cacheDir>
import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';

/**
 * This process's peak resident memory in bytes: Linux's VmHWM, which starts afresh at exec (maxRSS of
 * getrusage does not: a child keeps the high-water mark of the process that spawned it, here the bench
 * with a whole tree in memory); maxRSS elsewhere.
 */
function peakResidentBytes() {
  try {
    const kib = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
    if (kib) return Number(kib) * 1024;
  } catch {
    // not Linux
  }
  return process.resourceUsage().maxRSS * 1024; // maxRSS is in kibibytes
}

const [root, cacheDir] = process.argv.slice(2);
const started = performance.now();
// SEARCH_INDEX_SPLIT_FILES: files from which the build is split between two threads (0: never; default: the worker's own).
const split = process.env.SEARCH_INDEX_SPLIT_FILES;
const worker = new Worker(new URL('../dist/node/search-index-worker.js', import.meta.url), { workerData: { root, cacheDir, ...(split ? { splitFiles: Number(split) } : {}) } });
let ms;
worker.on('message', (message) => {
  if (message.type === 'parts') ms = performance.now() - started;
  else if (message.type === 'saved') {
    const savedMs = performance.now() - started;
    const cpu = process.cpuUsage();
    console.log(JSON.stringify({ ms, savedMs, maxRssBytes: peakResidentBytes(), cpuMs: (cpu.user + cpu.system) / 1000 }));
    process.exit(0);
  } else {
    console.error(`the index build failed: ${JSON.stringify(message)}`);
    process.exit(1);
  }
});
worker.on('error', (error) => {
  console.error(error);
  process.exit(1);
});
