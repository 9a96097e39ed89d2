// The search bench's anchor commands (rg), run in this small process of its own and timed here: one
// JSON request a line on stdin ({ cmd, args, cwd, outPath }: the command's stdout goes to outPath),
// one JSON answer a line on stdout ({ ms } or { error }).
//
// Why not spawnSync in the bench process itself: Node spawns with fork(), which marks every writable
// page of the forking process copy-on-write. After each spawn the bench process paid a page fault on
// the first write to each page of its heap and of the cache slabs a search reads into (a 300 MB
// process: about 77,000 faults, 60 ms, to write one byte a page; about 8-20 ms added to the search
// after each rg run), so pairing each search with its anchor slowed the search being measured.
import { spawnSync } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { createInterface } from 'node:readline';

for await (const line of createInterface({ input: process.stdin })) {
  const { cmd, args, cwd, outPath } = JSON.parse(line);
  const out = openSync(outPath, 'w');
  let answer;
  try {
    const start = performance.now();
    const run = spawnSync(cmd, args, { cwd, stdio: ['ignore', out, 'ignore'] });
    const ms = performance.now() - start;
    answer = run.error ? { error: run.error.message } : { ms, status: run.status };
  } finally {
    closeSync(out);
  }
  process.stdout.write(`${JSON.stringify(answer)}\n`);
}
