#!/usr/bin/env node
// The `toolhost` command (package "bin"): runs the compiled CLI in dist/node/cli.js.
// Exit codes: 0 ok, 1 failed `call`, 2 usage error, 130 interrupted (see `toolhost --help`).
let cli;
try {
  cli = await import('../dist/node/cli.js');
} catch (error) {
  process.stderr.write(`toolhost: cannot load dist/node/cli.js (${error.message}); build the package first: npm run build\n`);
  process.exit(2);
}
process.exitCode = await cli.main(process.argv.slice(2));
