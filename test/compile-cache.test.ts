import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from './support/build.js';

// bin/toolhost.mjs turns on Node's compile cache (module.enableCompileCache) before it loads the CLI,
// so every start after the first reads the compiled code from disk. The cache goes to
// <os.tmpdir()>/node-compile-cache unless NODE_COMPILE_CACHE names another folder.
const BIN = join(import.meta.dirname, '..', 'bin', 'toolhost.mjs');
let temp = '';

beforeAll(() => {
  ensureBuilt();
  temp = mkdtempSync(join(tmpdir(), 'toolhost-compile-cache-'));
}, 240_000);
afterAll(() => rmSync(temp, { recursive: true, force: true }));

/** Runs `toolhost --help` with TMPDIR=`dir` and no NODE_COMPILE_CACHE. */
function help(dir: string): { status: number | null; stdout: string } {
  const env: NodeJS.ProcessEnv = { ...process.env, TMPDIR: dir };
  delete env.NODE_COMPILE_CACHE;
  delete env.NODE_DISABLE_COMPILE_CACHE;
  const run = spawnSync(process.execPath, [BIN, '--help'], { env, encoding: 'utf8' });
  return { status: run.status, stdout: run.stdout };
}

/** The files below `dir`, recursively. */
function filesBelow(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

describe('the toolhost launcher', () => {
  it("writes the compiled CLI to Node's compile cache on its first start, in the temporary folder", () => {
    const first = help(temp);
    expect(first.status).toBe(0);
    expect(first.stdout).toMatch(/^Usage: toolhost <command>/);
    const cache = join(temp, 'node-compile-cache');
    expect(existsSync(cache)).toBe(true);
    // One entry per compiled module, the CLI's own among them.
    expect(filesBelow(cache).length).toBeGreaterThan(1);
    // The next start reads the cache and answers the same.
    expect(help(temp)).toEqual(first);
  });
});
