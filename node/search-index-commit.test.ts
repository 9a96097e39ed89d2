import { lstat, mkdir, mkdtemp, readFile, realpath, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Platform } from '../src/core/types.js';
import { ToolRunner } from '../src/runner.js';
import { compileSearchPattern } from '../src/search/dialect.js';
import type { SearchIndex } from '../src/search/index/search-index.js';
import { worthSifting } from '../src/search/index/sift.js';
import { buildWorkspaceIndex, searchIndexCommitWork, searchIndexIdle, searchIndexOf } from '../src/search/index/workspace.js';
import { setSearchIndex } from '../src/search/index/engine.js';
import { toolProfiles } from '../src/tools/profiles/index.js';
import { BuiltinTools } from '../src/tools/index.js';
import { createNodePlatform } from './platform.js';

// A Node folder's search index kept up with the tools' writes as each is made (create_file,
// edit_file, apply_patch's deletes and moves, the text editor): every search after them answers
// exactly what a plain scan of the folder answers, including after a write behind the tools' back in
// the same second as theirs.

let base: string;
let root: string;
/** A minute ago, past the window in which the index does not trust a file's times. */
const OLD = Math.floor(Date.now() / 1000) - 60;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'toolhost-index-commit-')));
  root = join(base, 'ws');
  for (let i = 0; i < 40; i += 1) {
    const rel = `d${i % 4}/f${i}.ts`;
    await mkdir(dirname(join(root, rel)), { recursive: true });
    await writeFile(join(root, rel), `export function f${i}() {\n  return ${i};\n}\n${i === 7 ? 'const walrus = 7;\n' : ''}`);
    await utimes(join(root, rel), OLD, OLD);
  }
  // Their status-change times are now: past the one-second window, the index trusts them.
  await new Promise((resolve) => setTimeout(resolve, 1100));
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

const SEARCHES: Array<Record<string, unknown>> = [
  { pattern: 'walrus', output_mode: 'files_with_matches' },
  { pattern: 'narwhal', output_mode: 'count' },
  { pattern: 'OCELOT', case_sensitive: false },
  { pattern: 'f1\\d\\(', output_mode: 'files_with_matches' },
];

async function answers(runner: ToolRunner): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const args of SEARCHES) out.push(await runner.execute('grep_search', { ...args, max_time_ms: 60_000 }));
  return out;
}

/** The file's identity as the index records it, from `lstat`. */
async function identity(path: string): Promise<{ size: number; mtimeMs: number; ctimeMs: number; ino: number }> {
  const stats = await lstat(path);
  return { size: stats.size, mtimeMs: stats.mtimeMs, ctimeMs: stats.ctimeMs, ino: stats.ino };
}

describe('a Node folder\'s search index follows the tools\' writes as they are made', () => {
  it('after create_file, edit_file, apply_patch (delete, move) and the text editor, and a same-second write behind their back, every search equals a plain scan', async () => {
    const platform: Platform = createNodePlatform({ root });
    const plain: Platform = createNodePlatform({ root });
    try {
      setSearchIndex(platform, await buildWorkspaceIndex(platform));
      const index = (): SearchIndex => searchIndexOf(platform) as SearchIndex;
      expect(index().size).toBe(40);
      const runner = new ToolRunner({ platform, tools: [...BuiltinTools.all()] });
      const patcher = new ToolRunner({ platform, tools: toolProfiles.openai() });
      const editor = new ToolRunner({ platform, tools: toolProfiles.anthropic() });
      const scan = new ToolRunner({ platform: plain, tools: BuiltinTools.all() });

      await runner.execute('edit_file', { file_path: join(root, 'd1/f5.ts'), old_string: 'return 5;', new_string: 'return narwhal;' });
      await runner.execute('create_file', { file_path: join(root, 'd9/new.ts'), content: 'const ocelot = 1;\n' });
      const [patched] = await patcher.processToolCalls([
        { id: 'p', name: 'apply_patch', args: { input: '*** Begin Patch\n*** Delete File: d3/f7.ts\n*** Update File: d2/f10.ts\n*** Move to: moved/f10.ts\n@@\n-  return 10;\n+  return walrus;\n*** End Patch' } },
      ]);
      expect(patched).not.toHaveProperty('code');
      await editor.execute('str_replace_based_edit_tool', { command: 'str_replace', path: join(root, 'd0/f12.ts'), old_str: 'return 12;', new_str: 'return Ocelot;' });

      // Each change is in the index already, with the identity the file has now.
      for (const rel of ['d1/f5.ts', 'd9/new.ts', 'moved/f10.ts', 'd0/f12.ts']) expect(index().file(join(root, rel))?.stat).toEqual(await identity(join(root, rel)));
      expect(index().file(join(root, 'd3/f7.ts'))).toBeUndefined();
      expect(index().file(join(root, 'd2/f10.ts'))).toBeUndefined();
      expect(index().size).toBe(40);
      expect(searchIndexCommitWork(platform).changes).toBeGreaterThanOrEqual(5);
      const expected = await answers(scan);
      expect(expected[0]).toMatchObject({ files: [join(root, 'moved/f10.ts')] });
      expect(await answers(runner)).toEqual(expected);

      // A write behind the tools' back in the same second as theirs, the same size, its times set back
      // to those of the tool's write: only the racy rule tells it apart.
      const path = join(root, 'd1/f5.ts');
      await runner.execute('edit_file', { file_path: path, old_string: 'narwhal', new_string: 'lemming' });
      const written = await identity(path);
      const text = await readFile(path, 'utf8');
      await writeFile(path, text.replace('lemming', 'ocelot '));
      await utimes(path, written.mtimeMs / 1000, written.mtimeMs / 1000);
      expect(index().file(path)?.racy).toBe(true);
      const after = await answers(scan);
      expect((after[2] as { total_matches: number }).total_matches).toBe(3);
      expect(await answers(runner)).toEqual(after);
    } finally {
      await searchIndexIdle(platform);
      await platform.dispose();
      await plain.dispose();
    }
  }, 120_000);

  it('an edit leaves the index in use: a rare word is still sifted, and the edited file is found', async () => {
    const platform: Platform = createNodePlatform({ root });
    try {
      setSearchIndex(platform, await buildWorkspaceIndex(platform));
      const runner = new ToolRunner({ platform, tools: BuiltinTools.all() });
      await runner.execute('edit_file', { file_path: join(root, 'd0/f0.ts'), old_string: 'return 0;', new_string: 'return quokka;' });
      const index = searchIndexOf(platform) as SearchIndex;
      expect(worthSifting(index, compileSearchPattern('quokka', { literal: true, caseSensitive: true }))).toBe(true);
      expect(await runner.execute('grep_search', { pattern: 'quokka', fixed_strings: true, output_mode: 'files_with_matches' })).toMatchObject({ files: [join(root, 'd0/f0.ts')] });
    } finally {
      await searchIndexIdle(platform);
      await platform.dispose();
    }
  }, 60_000);
});
