import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { searchIndexFile } from './search-index-store.js';

// `toolhost call … --search-index`: the first process builds the index after answering and saves it
// under $XDG_CACHE_HOME; the next reads it; every answer is the one without the flag.
const BIN = join(import.meta.dirname, '..', 'bin', 'toolhost.mjs');
const base = realpathSync(mkdtempSync(join(tmpdir(), 'toolhost-cli-index-')));
const root = join(base, 'ws');
const cache = join(base, 'cache');
afterAll(() => rmSync(base, { recursive: true, force: true }));

function call(args: Record<string, unknown>, flags: string[]): unknown {
  const run = spawnSync(process.execPath, [BIN, 'call', 'grep_search', JSON.stringify(args), '--root', root, ...flags], {
    encoding: 'utf8',
    env: { ...process.env, XDG_CACHE_HOME: cache },
  });
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  return JSON.parse(run.stdout);
}

describe('toolhost call --search-index', () => {
  it('saves the index when the first call exits, reads it in the next, and answers as without it', () => {
    for (let i = 0; i < 300; i += 1) {
      mkdirSync(join(root, `d${i % 10}`), { recursive: true });
      writeFileSync(join(root, `d${i % 10}/f${i}.txt`), `line ${i}\n${i % 100 === 3 ? 'quokka here\n' : ''}`.repeat(10));
    }
    const args = { pattern: 'quokka', output_mode: 'count' };
    const plain = call(args, []);
    expect(plain).toMatchObject({ result: { total_matches: 30, total_files: 3 } });
    const file = searchIndexFile(root, join(cache, 'toolhost', 'search-index'));
    expect(existsSync(file)).toBe(false);
    expect(call(args, ['--search-index'])).toEqual(plain);
    expect(statSync(file).size).toBeGreaterThan(0);
    expect(call(args, ['--search-index'])).toEqual(plain);
    writeFileSync(join(root, 'd0/new.txt'), 'quokka again\n');
    expect(call(args, ['--search-index'])).toMatchObject({ result: { total_matches: 31, total_files: 4 } });
  }, 60_000);
});
