// The tree watch that lets a repeated search on a Node folder reuse its walk and file checks: every
// search right after a change made behind the runner's back (no wait in between) answers as a plain
// scan, and the watch vouches again once nothing changes.
import { appendFile, mkdir, mkdtemp, realpath, rename, rm, truncate, utimes, writeFile } from 'node:fs/promises';
import { existsSync, mkdirSync, readFileSync, writeFileSync, statSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Platform } from '../src/core/types.js';
import { ToolRunner } from '../src/runner.js';
import { buildWorkspaceIndex } from '../src/search/index/workspace.js';
import { setSearchIndex } from '../src/search/index/engine.js';
import { BuiltinTools } from '../src/tools/index.js';
import { createNodePlatform } from './platform.js';
import { watchSearchTree } from './search-index-store.js';
import { TreeWatch } from './search-index-watch.js';
import { seededRandom } from '../test/support/random.js';

const bases: string[] = [];
afterAll(async () => {
  for (const base of bases) await rm(base, { recursive: true, force: true });
});

async function tempRoot(): Promise<string> {
  const base = await realpath(await mkdtemp(join(tmpdir(), 'toolhost-index-watch-')));
  bases.push(base);
  const root = join(base, 'ws');
  await mkdir(root);
  return root;
}

/** A text of `bytes` bytes (at least) of filler words, without the needle. */
function filler(bytes: number, seed: number): string {
  const words = ['alpha', 'beta', 'gamma', 'delta', 'hay', 'stack', 'x12'];
  let out = '';
  let i = seed;
  while (out.length < bytes) out += `${words[i++ % words.length]} ${words[(i * 7) % words.length]}\n`;
  return out;
}

const SEARCHES: Array<Record<string, unknown>> = [
  { pattern: 'needle', fixed_strings: true, output_mode: 'count' },
  { pattern: 'needle', output_mode: 'files_with_matches' },
  { pattern: 'NEEDLE', case_sensitive: false, output_mode: 'count' },
  { pattern: 'ne+dle\\d', output_mode: 'count' },
];

describe('the tree watch of a Node folder', () => {
  it('moves its generation at an outside write and vouches for nothing once closed', async () => {
    const root = await tempRoot();
    await mkdir(join(root, 'a', 'b'), { recursive: true });
    writeFileSync(join(root, 'a', 'b', 'f.txt'), 'one\n');
    const watch = new TreeWatch(root);
    try {
      await watch.ready;
      expect(watch.folders).toBe(3);
      await watch.settled();
      const before = watch.generation();
      expect(before).toBeTypeOf('number');
      writeFileSync(join(root, 'a', 'b', 'f.txt'), 'two\n');
      await watch.settled();
      expect(watch.generation()).toBeGreaterThan(before as number);
      // A folder made behind its back is watched before the settle that saw it returns.
      await mkdir(join(root, 'a', 'new', 'deeper'), { recursive: true });
      await watch.settled();
      expect(watch.folders).toBe(5);
      const after = watch.generation() as number;
      writeFileSync(join(root, 'a', 'new', 'deeper', 'g.txt'), 'three\n');
      await watch.settled();
      expect(watch.generation()).toBeGreaterThan(after);
    } finally {
      watch.close();
    }
    expect(watch.generation()).toBeUndefined();
  });

  it('answers every search right after an outside change as a plain scan: same-size writes with old times, large files, new, renamed and removed folders', async () => {
    const random = seededRandom(20261207);
    const root = await tempRoot();
    const old = Math.floor(Date.now() / 1000) - 60;
    const files: string[] = [];
    for (let i = 0; i < 30; i += 1) {
      const path = join(root, `d${i % 3}`, `s${i % 2}`, `f${i}.txt`);
      await mkdir(dirname(path), { recursive: true });
      // Every fifth file is large (past the size from which the sift reads a candidate for its needle).
      await writeFile(path, filler(i % 5 === 0 ? 70_000 : 200, i));
      await utimes(path, old, old);
      files.push(path);
    }
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const platform = createNodePlatform({ root });
    const plain: Platform = { ...platform };
    const watch = watchSearchTree(platform);
    try {
      await watch.ready;
      setSearchIndex(platform, await buildWorkspaceIndex(platform));
      const tools = BuiltinTools.all();
      const indexed = new ToolRunner({ platform, tools });
      const scanned = new ToolRunner({ platform: plain, tools });
      let vouched = 0;
      for (let round = 0; round < 60; round += 1) {
        const target = files[Math.floor(random() * files.length)] as string;
        const roll = random();
        let change = 'none';
        if (!existsSync(target)) {
          // Gone with its folder in an earlier round: made again first.
          mkdirSync(dirname(target), { recursive: true });
          writeFileSync(target, filler(300, round));
        }
        if (roll < 0.3) {
          // The same size and the old times back: only the watch (or the change time) tells.
          change = 'same-size write';
          const bytes = readFileSync(target, 'utf8');
          const at = Math.floor(random() * Math.max(1, bytes.length - 8));
          writeFileSync(target, `${bytes.slice(0, at)}needle${round % 10}${bytes.slice(at + 7)}`.slice(0, bytes.length));
          utimesSync(target, old, old);
        } else if (roll < 0.4) {
          change = 'append';
          await appendFile(target, 'NEEDLE\n');
        } else if (roll < 0.45) {
          change = 'truncate';
          await truncate(target, 10);
        } else if (roll < 0.55) {
          change = 'new folder';
          const path = join(root, `n${round}`, 'deep', 'x.txt');
          await mkdir(dirname(path), { recursive: true });
          await writeFile(path, `needle${round % 10}\n`);
          files.push(path);
        } else if (roll < 0.6) {
          change = 'folder renamed';
          const from = join(root, `d${Math.floor(random() * 3)}`, `s${Math.floor(random() * 2)}`);
          const to = `${from}-moved${round}`;
          await rename(from, to).catch(() => undefined);
          await mkdir(from, { recursive: true });
          await writeFile(join(from, 'again.txt'), 'needle7\n');
        } else if (roll < 0.65) {
          change = 'folder removed';
          await rm(join(root, `d${Math.floor(random() * 3)}`), { recursive: true, force: true });
        }
        const args = SEARCHES[Math.floor(random() * SEARCHES.length)] as Record<string, unknown>;
        expect(await indexed.execute('grep_search', args), `round ${round}: ${change}, ${JSON.stringify(args)}`).toEqual(await scanned.execute('grep_search', args));
        // The same search again, the tree unchanged: from the kept walk and checks, the same answer.
        expect(await indexed.execute('grep_search', args), `round ${round} again`).toEqual(await scanned.execute('grep_search', args));
        if (watch.generation() !== undefined) vouched += 1;
      }
      expect(vouched).toBe(60);
      // Files stay where the rounds left them: the last search saw them all.
      expect(statSync(root).isDirectory()).toBe(true);
    } finally {
      await platform.dispose();
      watch.close();
    }
  }, 120_000);
});
