#!/usr/bin/env node
// The `toolhost` command (package "bin"): runs the compiled CLI, dist/node/cli.js, from its bundle.
// Exit codes: 0 ok, 1 failed `call`, 2 usage error, 130 interrupted (see `toolhost --help`).
// Node's modules through process.getBuiltinModule (Node 22.3+), not `import`: an imported Node module
// gets an ES module facade that reads every export, which loads node:fs's streams and promises API
// (about 10 ms of a start that needs neither).
const builtin = (name) => process.getBuiltinModule?.(name) ?? import(name);
const { statSync } = await builtin('node:fs');
const module = await builtin('node:module');

// Node's on-disk cache of compiled code (Node 22.1+; in the system temporary folder, or where
// NODE_COMPILE_CACHE says; NODE_DISABLE_COMPILE_CACHE=1 turns it off): every start after the first
// skips compiling the CLI and the modules it loads. Only modules imported after this call use it,
// hence the dynamic import below. A cache that cannot be written is ignored by Node.
module.enableCompileCache?.();

/**
 * `npm run build` bundles the CLI and what it imports into dist/node/cli.bundle.mjs (scripts/build-cli.mjs):
 * one module to load instead of about 125, most of a new process's start-up. The bundle is taken
 * while it is at least as new as dist/node/cli.js (a later tsc run alone leaves it stale), on a Node
 * with process.getBuiltinModule (22.3 and later).
 */
function entry() {
  // The bundle takes Node's modules through process.getBuiltinModule (Node 22.3+); an older Node runs dist/.
  if (typeof process.getBuiltinModule !== 'function') return '../dist/node/cli.js';
  const mtime = (name) => statSync(new URL(`../dist/node/${name}`, import.meta.url), { throwIfNoEntry: false })?.mtimeMs;
  const bundled = mtime('cli.bundle.mjs');
  const plain = mtime('cli.js');
  return bundled !== undefined && (plain === undefined || bundled >= plain) ? '../dist/node/cli.bundle.mjs' : '../dist/node/cli.js';
}

let cli;
try {
  cli = await import(entry());
} catch (error) {
  process.stderr.write(`toolhost: cannot load dist/node/cli.js (${error.message}); build the package first: npm run build\n`);
  process.exit(2);
}
const code = await cli.main(process.argv.slice(2));
// Everything the command started has ended by now (its platform disposed: its commands ended first,
// then its index saved; after SIGINT or SIGTERM an index build under way is left to the next process),
// and its answers are written. The process exits as soon as stdout and stderr have handed what they
// hold to the system, with the command's code, rather than through Node's own teardown, which first
// waits for the engine's background work (compiler and collector tasks) and then frees the whole heap:
// a few milliseconds on a quiet machine, more on a busy one (a `toolhost call` search's answer to its
// exit took 26 ms, 13 ms so, at load average 8). Node writes its compile cache either way. A tool of
// the host's (--tools) that ignored its call's abort and keeps a timer of its own does not hold the
// process; a reader that stops reading holds it a second at most (the output still unwritten then is
// lost, as it is when the reader closes the pipe).
const OUTPUT_FLUSH_MS = 1000;
const end = Date.now() + OUTPUT_FLUSH_MS;
const pending = () => [process.stdout, process.stderr].some((stream) => stream.writableLength > 0 && !stream.destroyed);
while (pending() && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 5));
process.exit(code);
