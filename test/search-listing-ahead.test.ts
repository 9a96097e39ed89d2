import { mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Buffer } from 'node:buffer';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FsDirent, Platform } from '../src/core/types.js';
import type { SearchSource, WalkDeeper } from '../src/search/source-port.js';
import { builtSearchSuite, type Core } from './support/built-search.js';
import { searchSourceOf } from '../src/search/engine-source.js';

// While the process's search helper thread runs and has no count to do, a walk on the Node platform
// hands it the directories it will list, and the helper lists them (and, where the walk goes on below
// without rules of its own, the directories below) through its own held descriptors. The walk must
// answer exactly what it would have read itself: same entries and types, the same ignore rules, the
// same refusal of a folder swapped for a link, and the same result when the helper is gone mid-walk.

const suite = builtSearchSuite();

/** The Node search source's diagnostics and the hand-over the walk calls. */
type AheadSource = SearchSource & {
  listedAhead: number;
  answeredAhead(path: string): boolean;
  prefetch(paths: readonly string[], deeper: WalkDeeper | undefined): void;
  end(): void;
};

function runnerOn(platform: Platform): InstanceType<Core['ToolRunner']> {
  return new suite.core.ToolRunner({ platform, tools: suite.core.BuiltinTools.all() });
}

/** Starts the helper thread (a count over 256+ files) if it is not running. */
async function startHelper(): Promise<void> {
  const warm = suite.tree('ahead-warm', Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`w${i}.txt`, 'w\n'])));
  const platform = suite.node.createNodePlatform({ root: warm });
  await runnerOn(platform).execute('grep_search', { pattern: 'w', fixed_strings: true, output_mode: 'count' });
  await platform.dispose();
}

beforeAll(startHelper, 180_000);

function sourceOf(platform: Platform): AheadSource {
  const source = searchSourceOf(platform) as AheadSource | undefined;
  if (!source?.prefetch) throw new Error('the Node platform on a real folder has a search source that lists ahead');
  return source;
}

/** Waits (polling) until `check` holds; fails after 60 s (a bound for a hang: a busy machine takes many seconds over 20,000 entries). */
async function until(check: () => boolean, what: string): Promise<void> {
  const end = Date.now() + 60_000;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** A listing as comparable values: name and type, in the order listed. */
function shape(entries: readonly FsDirent[]): string[] {
  return entries.map((entry) => `${entry.isDirectory() ? 'd' : entry.isSymbolicLink() ? 'l' : entry.isFile() ? 'f' : 'o'} ${entry.name}`);
}

/** What a source that lists everything itself answers for `path` (a platform of its own, never handed anything). */
function listedHere(root: string, path: string): string[] {
  const platform = suite.node.createNodePlatform({ root });
  try {
    return shape(sourceOf(platform).readdir(path));
  } finally {
    void platform.dispose();
  }
}

/**
 * On `count` platforms over `root`, one after another and all kept open: hands `dirs` to the helper,
 * waits until it answered each, runs `check`, ends the walk; then checks the helper thread is still
 * the one running (`stopSearchWorker` finds it), and starts a new one after.
 */
async function onPlatformsListedAhead(root: string, count: number, dirs: readonly string[], deeper: WalkDeeper | undefined, check: (source: AheadSource, k: number) => void | Promise<void>): Promise<void> {
  const platforms: Platform[] = [];
  try {
    for (let k = 0; k < count; k += 1) {
      const platform = suite.node.createNodePlatform({ root });
      platforms.push(platform);
      const source = sourceOf(platform);
      source.begin?.();
      source.prefetch(dirs, deeper);
      for (const dir of dirs) await until(() => source.answeredAhead(dir), `the helper to list ${dir} for platform ${k}`);
      await check(source, k);
      source.end();
    }
    expect(suite.node.stopSearchWorker()).toBe(true);
  } finally {
    await Promise.all(platforms.map((platform) => platform.dispose()));
    await startHelper();
  }
}

describe('directories listed ahead of a walk by the search helper thread (Node platform, built package)', () => {
  it('answers what the walk would list itself, and goes on below as the walk does: past node_modules never, through the .gitignore rules in force and those it meets, everywhere with ignore rules off', async () => {
    const root = suite.tree('ahead', {
      'a/one.js': '1',
      'a/b/two.js': '2',
      'a/b/c/three.js': '3',
      'a/node_modules/x/four.js': '4',
      'a/g/.gitignore': 'h/\n',
      'a/g/h/five.js': '5',
      'a/g/k/six.js': '6',
      'r/skipme/x/seven.js': '7',
      'r/keep/eight.js': '8',
    });
    mkdirSync(join(root, 'outside'));
    symlinkSync(join(root, 'outside'), join(root, 'a/link'));
    mkdirSync(Buffer.concat([Buffer.from(`${root}/a/`), Buffer.from([0x6e, 0xff])]));
    const platform = suite.node.createNodePlatform({ root });
    const source = sourceOf(platform);
    try {
      source.begin?.();
      const a = join(root, 'a');
      source.prefetch([a], []);
      await until(() => source.answeredAhead(a), 'the helper to list a/');
      const listed = shape(source.readdir(a));
      expect(listed).toEqual(listedHere(root, a));
      expect([...listed].sort()).toEqual(['d b', 'd g', 'd n\\xff', 'd node_modules', 'f one.js', 'l link']);
      expect(source.listedAhead).toBe(1);

      // Below a/ the helper went on into b, g and the non-UTF-8 folder, not node_modules (the walk skips it).
      for (const name of ['b', 'g', 'n\\xff']) await until(() => source.answeredAhead(join(a, name)), `the helper to list a/${name}`);
      expect(source.answeredAhead(join(a, 'node_modules'))).toBe(false);
      expect(shape(source.readdir(join(a, 'b')))).toEqual(listedHere(root, join(a, 'b')));
      expect(shape(source.readdir(join(a, 'n\\xff')))).toEqual([]);
      await until(() => source.answeredAhead(join(a, 'b/c')), 'the helper to list a/b/c');
      expect(shape(source.readdir(join(a, 'b/c')))).toEqual(['f three.js']);
      // a/g's .gitignore ignores h/: the helper read it and goes on into k only.
      expect(shape(source.readdir(join(a, 'g')))).toEqual(listedHere(root, join(a, 'g')));
      await until(() => source.answeredAhead(join(a, 'g/k')), 'the helper to list a/g/k');
      expect(source.answeredAhead(join(a, 'g/h'))).toBe(false);
      expect(shape(source.readdir(join(a, 'g/k')))).toEqual(['f six.js']);
      expect(source.listedAhead).toBe(6);

      // Rules in force from above (the walk's): skipme/ is ignored, keep/ is not.
      source.begin?.();
      const r = join(root, 'r');
      source.prefetch([r], [{ dir: root, lines: ['skipme/'] }]);
      await until(() => source.answeredAhead(r), 'the helper to list r/');
      expect(shape(source.readdir(r)).sort()).toEqual(['d keep', 'd skipme']);
      await until(() => source.answeredAhead(join(r, 'keep')), 'the helper to list r/keep');
      expect(source.answeredAhead(join(r, 'skipme'))).toBe(false);

    } finally {
      await platform.dispose();
    }
    // With ignore rules off ('all') it goes into node_modules and ignored folders too (a new platform: nothing listed yet).
    const second = suite.node.createNodePlatform({ root });
    try {
      const source = sourceOf(second);
      const a = join(root, 'a');
      const r = join(root, 'r');
      source.begin?.();
      source.prefetch([a], 'all');
      await until(() => source.answeredAhead(a), 'the helper to list a/ with rules off');
      source.readdir(a);
      const modules = join(a, 'node_modules');
      await until(() => source.answeredAhead(modules), 'the helper to list node_modules');
      expect(shape(source.readdir(modules))).toEqual(['d x']);
      await until(() => source.answeredAhead(join(modules, 'x')), 'the helper to list node_modules/x');
      expect(shape(source.readdir(join(modules, 'x')))).toEqual(['f four.js']);
      source.readdir(join(a, 'g'));
      await until(() => source.answeredAhead(join(a, 'g/h')), 'the helper to list a/g/h');
      // Undefined (a pruning glob decides): only what is handed over.
      source.begin?.();
      source.prefetch([r], undefined);
      await until(() => source.answeredAhead(r), 'the helper to list r/ once more');
      source.readdir(r);
      expect(source.answeredAhead(join(r, 'keep'))).toBe(false);
    } finally {
      await second.dispose();
    }
  });

  it('refuses, as the walk itself does, a folder swapped for a link out after it was handed over, and lists nothing from outside', async () => {
    const root = suite.tree('ahead-swap', { 'inside/s/mine.txt': 'm', 'away/secret.txt': 's' });
    const outside = suite.tree('ahead-outside', { 'secret.txt': 's' });
    const platform = suite.node.createNodePlatform({ root });
    const source = sourceOf(platform);
    try {
      source.begin?.();
      const s = join(root, 'inside/s');
      // Listed as a folder, then swapped for a link out before the helper reads it.
      rmSync(s, { recursive: true });
      symlinkSync(outside, s);
      source.prefetch([s], 'all');
      await until(() => source.answeredAhead(s), 'the helper to answer for the swapped folder');
      let error: unknown;
      try {
        source.readdir(s);
      } catch (caught) {
        error = caught;
      }
      expect((error as { code?: string } | undefined)?.code).toMatch(/^(ELOOP|ENOTDIR)$/);
      expect(source.listedAhead).toBe(0);

      // Through the tools: the swapped folder is skipped and counted, its target never listed.
      const found = (await runnerOn(platform).execute('find_file', { pattern: '*.txt' })) as { files: string[]; skipped_entries?: number };
      expect(found.files).toEqual([join(root, 'away/secret.txt')]);
    } finally {
      await platform.dispose();
    }
  });

  it('lists on the calling thread what the helper had not answered when its thread stopped mid-walk, and the same after', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 60; i += 1) files[`d${i}/e${i % 4}/f${i}.js`] = `${i}`;
    const root = suite.tree('ahead-stop', files);
    const platform = suite.node.createNodePlatform({ root });
    const source = sourceOf(platform);
    try {
      source.begin?.();
      const dirs = Array.from({ length: 60 }, (_, i) => join(root, `d${i}`));
      source.prefetch(dirs, 'all');
      expect(suite.node.stopSearchWorker()).toBe(true);
      for (let i = 0; i < 60; i += 1) expect(shape(source.readdir(dirs[i] as string))).toEqual([`d e${i % 4}`]);
      for (let i = 0; i < 60; i += 1) expect(shape(source.readdir(join(root, `d${i}/e${i % 4}`)))).toEqual([`f f${i}.js`]);
    } finally {
      await platform.dispose();
      await startHelper();
    }
  });

  it('keeps the helper thread running when it cannot open the root (renamed away mid-walk): the walk lists through its own descriptor', async () => {
    const root = suite.tree('ahead-root-gone', { 'a1/b/f.js': 'f', 'a2/g.js': 'g' });
    const moved = `${root}-moved`;
    const platform = suite.node.createNodePlatform({ root });
    const source = sourceOf(platform);
    try {
      source.begin?.();
      renameSync(root, moved);
      const a1 = join(root, 'a1');
      // The helper opens this platform's root by its path on first use: now there is none.
      source.prefetch([a1], 'all');
      await until(() => source.answeredAhead(a1), 'the helper to answer that it could not list a1');
      expect(shape(source.readdir(a1))).toEqual(['d b']);
      expect(source.listedAhead).toBe(0);
      source.end();
      expect(suite.node.stopSearchWorker()).toBe(true);
    } finally {
      renameSync(moved, root);
      await platform.dispose();
      await startHelper();
    }
  });

  it('starts a new helper thread for the first count after the last one was stopped, before the stopped one has exited', async () => {
    const root = suite.tree('ahead-restart', Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`r${i % 10}/w${i}.txt`, 'w\n'])));
    const platform = suite.node.createNodePlatform({ root });
    const second = suite.node.createNodePlatform({ root });
    try {
      expect(suite.node.stopSearchWorker()).toBe(true);
      // Out of service at once, before its exit is seen: there is no thread to stop now, and the count
      // (no turn of the event loop between) starts a new one instead of posting to the stopped one.
      expect(suite.node.stopSearchWorker()).toBe(false);
      const counted = (await runnerOn(platform).execute('grep_search', { pattern: 'w', fixed_strings: true, output_mode: 'count' })) as { total_matches: number };
      expect(counted.total_matches).toBe(300);
      // The count went to a new thread, which still runs and lists ahead for the next walk (on a new
      // platform: this one's walk has r0 in its listing cache and hands nothing over).
      const source = sourceOf(second);
      source.begin?.();
      const dir = join(root, 'r0');
      source.prefetch([dir], 'all');
      await until(() => source.answeredAhead(dir), 'the new helper to list r0');
      expect(shape(source.readdir(dir))).toHaveLength(30);
      expect(source.listedAhead).toBe(1);
    } finally {
      await platform.dispose();
      await second.dispose();
      await startHelper();
    }
  });

  it('ends the hand-over of every platform when a count on another platform is shared with the helper', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 200; i += 1) files[`c${i}/d/e/f${i}.js`] = `${i}`;
    const rootA = suite.tree('ahead-a', files);
    const rootB = suite.tree('ahead-b', Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`b${i % 10}/w${i}.txt`, 'w\n'])));
    const a = suite.node.createNodePlatform({ root: rootA });
    const b = suite.node.createNodePlatform({ root: rootB });
    const source = sourceOf(a);
    try {
      source.begin?.();
      const dirs = Array.from({ length: 200 }, (_, i) => join(rootA, `c${i}`));
      source.prefetch(dirs, 'all');
      await until(() => source.answeredAhead(dirs[0] as string), 'the helper to list c0');
      const counted = (await runnerOn(b).execute('grep_search', { pattern: 'w', fixed_strings: true, output_mode: 'count' })) as { total_matches: number };
      expect(counted.total_matches).toBe(300);
      // Platform a's hand-over ended with the count: its folders are listed on the calling thread.
      expect(source.answeredAhead(dirs[0] as string)).toBe(false);
      expect(shape(source.readdir(dirs[0] as string))).toEqual(['d d']);
      expect(source.listedAhead).toBe(0);
    } finally {
      await a.dispose();
      await b.dispose();
    }
  });

  it('drops a listing session on the helper thread when its walk ends: many platforms with a large .gitignore leave it running', async () => {
    // A walk's .gitignore rules are compiled on the helper thread for its session. Kept there after
    // the walk until the platform listed again, ten platforms' 10,000 rules filled its heap.
    const root = suite.tree('ahead-rules', Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`s${i}/t/x.js`, 'x'])));
    const lines = Array.from({ length: 10_000 }, (_, i) => `some/dir${i}/*.generated-${i}.[ch]`);
    const dirs = Array.from({ length: 8 }, (_, i) => join(root, `s${i}`));
    await onPlatformsListedAhead(root, 30, dirs, [{ dir: root, lines }], async (source, k) => {
      // It went on below through the rules (none of them ignores t).
      expect(shape(source.readdir(dirs[0] as string))).toEqual(['d t']);
      await until(() => source.answeredAhead(join(dirs[0] as string, 't')), `the helper to list s0/t for platform ${k}`);
    });
  }, 180_000);

  it('keeps no listings of its own on the helper thread: many platforms listed ahead of there leave it running', async () => {
    // 40 folders of 500 entries with long names: 20,000 entries a platform. Kept per platform in the
    // helper's 96 MiB heap, some 30 platforms' listings filled it and the thread ran out of memory.
    const files: Record<string, string> = {};
    for (let d = 0; d < 40; d += 1) for (let i = 0; i < 500; i += 1) files[`p${d % 4}/d${d}/${'n'.repeat(80)}${i}`] = '';
    const root = suite.tree('ahead-many', files);
    const dirs = Array.from({ length: 40 }, (_, d) => join(root, `p${d % 4}/d${d}`));
    await onPlatformsListedAhead(root, 50, dirs, undefined, (source) => {
      expect(source.readdir(dirs[39] as string).length).toBe(500);
    });
  }, 180_000);

  it('finds the same files with the helper listing ahead as without it, over ignore rules, node_modules, links, renames between calls and odd names', async () => {
    const files: Record<string, string> = { '.gitignore': 'ignored/\n*.log\n' };
    for (let i = 0; i < 400; i += 1) {
      const pkg = `pkg${i % 37}`;
      files[`deps/${pkg}/lib${i % 5}/f${i}.js`] = `${i}`;
      if (i % 9 === 0) files[`deps/${pkg}/node_modules/inner/g${i}.js`] = `${i}`;
      if (i % 11 === 0) files[`deps/${pkg}/ignored/h${i}.js`] = `${i}`;
      if (i % 13 === 0) files[`deps/${pkg}/lib${i % 5}/x${i}.log`] = `${i}`;
    }
    files['sub/.gitignore'] = 'skip*/\n';
    for (let i = 0; i < 40; i += 1) files[`sub/${i % 2 === 0 ? 'skip' : 'keep'}${i}/deep/k${i}.js`] = `${i}`;
    const root = suite.tree('ahead-same', files);
    symlinkSync(join(root, 'deps'), join(root, 'sub/link-to-deps'));
    mkdirSync(Buffer.concat([Buffer.from(`${root}/deps/`), Buffer.from([0x62, 0xe9])]));
    writeFileSync(Buffer.concat([Buffer.from(`${root}/deps/`), Buffer.from([0x62, 0xe9]), Buffer.from('/odd.js')]), 'odd');
    const cases = [{ pattern: '*.js' }, { pattern: '*.js', include_ignored: true }, { pattern: 'deps/pkg1*/**/*.js' }, { pattern: '*.log', include_ignored: true }];
    const run = async (): Promise<unknown[]> => {
      const platform = suite.node.createNodePlatform({ root });
      try {
        const runner = runnerOn(platform);
        const results: unknown[] = [];
        for (const args of cases) results.push(await runner.execute('find_file', { ...args, max_results: 5000 }));
        results.push(await runner.execute('grep_search', { pattern: '1', fixed_strings: true, output_mode: 'files_with_matches', max_results: 2000 }));
        return results;
      } finally {
        await platform.dispose();
      }
    };
    const withHelper = await run();
    {
      // The same on one platform twice, with a folder renamed between: listings cached and handed over mix.
      const platform = suite.node.createNodePlatform({ root });
      const runner = runnerOn(platform);
      try {
        await runner.execute('find_file', { pattern: '*.js', max_results: 5000 });
        renameSync(join(root, 'deps/pkg3'), join(root, 'deps/pkg3-renamed'));
        const again = (await runner.execute('find_file', { pattern: '*.js', max_results: 5000 })) as { files: string[] };
        expect(again.files.filter((file) => file.startsWith(join(root, 'deps/pkg3/')))).toEqual([]);
        expect(again.files.filter((file) => file.startsWith(join(root, 'deps/pkg3-renamed/'))).length).toBe(11);
        renameSync(join(root, 'deps/pkg3-renamed'), join(root, 'deps/pkg3'));
      } finally {
        await platform.dispose();
      }
    }
    expect(suite.node.stopSearchWorker()).toBe(true);
    const alone = await run();
    expect(withHelper).toEqual(alone);
    const js = alone[0] as { files: string[] };
    expect(js.files).toContain(join(root, 'deps/b\\xe9/odd.js'));
    expect(js.files.some((file) => file.includes('/node_modules/') || file.includes('/ignored/') || file.includes('link-to-deps') || file.includes('/sub/skip'))).toBe(false);
    expect(js.files.filter((file) => file.startsWith(join(root, 'sub/keep'))).length).toBe(20);
    expect(js.files.length).toBe(400 + 20 + 1);
    expect((alone[1] as { files: string[] }).files.some((file) => file.includes('/node_modules/'))).toBe(true);
    await startHelper();
  });
});
