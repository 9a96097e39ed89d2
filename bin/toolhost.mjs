#!/usr/bin/env node
// The `toolhost` command (package "bin"): runs the compiled CLI in dist/node/cli.js.
// Exit codes: 0 ok, 1 failed `call`, 2 usage error, 130 interrupted (see `toolhost --help`).
import module from 'node:module';

// Node's on-disk cache of compiled code (Node 22.1+; in the system temporary folder, or where
// NODE_COMPILE_CACHE says; NODE_DISABLE_COMPILE_CACHE=1 turns it off): every start after the first
// skips compiling the CLI and the modules it loads. Only modules imported after this call use it,
// hence the dynamic import below. A cache that cannot be written is ignored by Node.
module.enableCompileCache?.();

let cli;
try {
  cli = await import('../dist/node/cli.js');
} catch (error) {
  process.stderr.write(`toolhost: cannot load dist/node/cli.js (${error.message}); build the package first: npm run build\n`);
  process.exit(2);
}
process.exitCode = await cli.main(process.argv.slice(2));
