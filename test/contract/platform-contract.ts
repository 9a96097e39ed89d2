import { describe, expect, it } from 'vitest';
import { ToolRunner } from '../../src/runner.js';
import { defineTool } from '../../src/core/tool.js';
import type { Platform } from '../../src/core/types.js';
import { grepSearchTool, type SearchContentResult, type SearchCountResult } from '../../src/tools/grep-search.js';

/** Options of {@link describePlatformContract}. */
export interface PlatformContractOptions {
  /** Expected `platform.name`. */
  name: Platform['name'];
  /** Expected `platform.capabilities`. */
  capabilities: Platform['capabilities'];
}

function code(error: unknown): unknown {
  return (error as { code?: unknown }).code;
}

async function codeOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return code(error);
  }
  return 'resolved';
}

/**
 * The platform contract: what every platform's filesystem port, state store and
 * capabilities must do. Each platform's test file calls this with a factory giving a fresh platform
 * (after unstorage's `testDriver()` and ZenFS's shared suites).
 */
export function describePlatformContract(label: string, makePlatform: () => Promise<Platform> | Platform, options: PlatformContractOptions): void {
  describe(`platform contract: ${label}`, () => {
    it('names itself and reports its capabilities', async () => {
      const platform = await makePlatform();
      expect(platform.name).toBe(options.name);
      expect(platform.capabilities).toEqual(options.capabilities);
      expect(platform.root.startsWith('/')).toBe(true);
      expect(typeof platform.runCommand === 'function').toBe(options.capabilities.runCommand);
      expect(typeof platform.webSearch === 'function').toBe(options.capabilities.webSearch);
      await platform.dispose();
    });

    it('writes, reads, lists and stats files with spaces, unicode and parentheses in their names', async () => {
      const { fs, root } = await makePlatform();
      const dir = `${root}/contract dir/ünï (1)`;
      await fs.mkdir(dir, { recursive: true });
      const bytes = new Uint8Array([0, 1, 2, 250, 255]);
      await fs.writeFile(`${dir}/data.bin`, bytes);
      await fs.writeFile(`${dir}/täxt 😀.txt`, 'héllo\n');
      expect([...(await fs.readFile(`${dir}/data.bin`))]).toEqual([0, 1, 2, 250, 255]);
      expect(new TextDecoder().decode(await fs.readFile(`${dir}/täxt 😀.txt`))).toBe('héllo\n');
      expect((await fs.readdir(dir)).sort()).toEqual(['data.bin', 'täxt 😀.txt']);
      const typed = (await fs.readdir(`${root}/contract dir`, { withFileTypes: true })).map((d) => [d.name, d.isDirectory(), d.isFile()]);
      expect(typed).toEqual([['ünï (1)', true, false]]);
      const stats = await fs.stat(`${dir}/täxt 😀.txt`);
      expect([stats.isFile(), stats.isDirectory(), stats.size]).toEqual([true, false, 7]);
      expect(typeof stats.mtimeMs).toBe('number');
      expect((await fs.stat(dir)).isDirectory()).toBe(true);
    });

    it('renames over an existing file, removes files and trees, and creates symlinks', async () => {
      const { fs, root } = await makePlatform();
      await fs.mkdir(`${root}/r/deep/er`, { recursive: true });
      await fs.writeFile(`${root}/r/a.txt`, 'new');
      await fs.writeFile(`${root}/r/b.txt`, 'old');
      await fs.rename(`${root}/r/a.txt`, `${root}/r/b.txt`);
      expect(new TextDecoder().decode(await fs.readFile(`${root}/r/b.txt`))).toBe('new');
      expect(await codeOf(fs.stat(`${root}/r/a.txt`))).toBe('ENOENT');
      await fs.symlink(`${root}/r/b.txt`, `${root}/r/link`);
      const link = await fs.lstat(`${root}/r/link`);
      expect(link.isSymbolicLink()).toBe(true);
      expect(await fs.readlink(`${root}/r/link`)).toBe(`${root}/r/b.txt`);
      await fs.unlink(`${root}/r/link`);
      await fs.writeFile(`${root}/r/deep/er/x`, 'x');
      await fs.rm(`${root}/r/deep`, { recursive: true });
      expect((await fs.readdir(`${root}/r`)).sort()).toEqual(['b.txt']);
      await fs.rm(`${root}/r/missing`, { force: true });
    });

    it('fails with Node-style codes', async () => {
      const { fs, root } = await makePlatform();
      await fs.writeFile(`${root}/file.txt`, 'x');
      expect(await codeOf(fs.readFile(`${root}/nope.txt`))).toBe('ENOENT');
      expect(await codeOf(fs.readdir(`${root}/file.txt`))).toBe('ENOTDIR');
      expect(await codeOf(fs.mkdir(`${root}/file.txt`))).toBe('EEXIST');
      expect(await codeOf(fs.readFile(`${root}/file.txt/inner`))).toMatch(/^(ENOTDIR|ENOENT)$/);
      expect(await codeOf(fs.rm(`${root}/nope`))).toBe('ENOENT');
    });

    it('stores JSON state per conversation, with atomic setMany', async () => {
      const { state } = await makePlatform();
      await state.set('c1', 'count', 1);
      await state.set('c1', 'obj', { a: [1, 'two', null, true] });
      await state.set('c2', 'count', 99);
      expect(await state.get('c1', 'count')).toBe(1);
      expect(await state.get('c1', 'missing')).toBeUndefined();
      expect((await state.keys('c1')).sort()).toEqual(['count', 'obj']);
      expect(await state.getAll('c2')).toEqual({ count: 99 });
      const read = (await state.get('c1', 'obj')) as { a: unknown[] };
      read.a.push('mutated');
      expect(await state.get('c1', 'obj')).toEqual({ a: [1, 'two', null, true] });
      await state.setMany('c1', [
        ['count', 2],
        ['obj', undefined],
        ['new', 'x'],
      ]);
      expect(await state.getAll('c1')).toEqual({ count: 2, new: 'x' });
      await state.delete('c1', 'new');
      expect(await state.keys('c1')).toEqual(['count']);
      expect(await state.getAll('never-used')).toEqual({});
      expect(await state.keys('never-used')).toEqual([]);
    });

    it('answers repeated grep_search calls with every change made in between, binary files skipped', async () => {
      const platform = await makePlatform();
      const { fs, root } = platform;
      const dir = `${root}/contract search`;
      await fs.mkdir(`${dir}/sub`, { recursive: true });
      await fs.writeFile(`${dir}/a.js`, 'function a() {}\r\nfunction b() {}\n');
      await fs.writeFile(`${dir}/b.js`, 'const x = 1;\n');
      await fs.writeFile(`${dir}/sub/c.js`, 'function c() {}\n');
      await fs.writeFile(`${dir}/d.bin`, new Uint8Array([0x66, 0x75, 0x6e, 0x63, 0x74, 0x69, 0x6f, 0x6e, 0x00]));
      const runner = new ToolRunner({ platform, tools: [grepSearchTool] });
      const count = async (): Promise<[Record<string, number>, number]> => {
        const result = (await runner.execute('grep_search', { pattern: 'function', fixed_strings: true, output_mode: 'count', dir_path: dir })) as SearchCountResult;
        return [Object.fromEntries(result.counts.map((c) => [c.file_path.slice(dir.length + 1), c.count])), result.binary_files_skipped];
      };
      expect(await count()).toEqual([{ 'a.js': 2, 'sub/c.js': 1 }, 1]);
      expect(await count()).toEqual([{ 'a.js': 2, 'sub/c.js': 1 }, 1]);
      // Same size, right after the last search: only the content tells.
      await fs.writeFile(`${dir}/b.js`, 'function(){}\n');
      await fs.writeFile(`${dir}/a.js`, 'function a() {}\r\nfunctiox b() {}\n');
      expect(await count()).toEqual([{ 'a.js': 1, 'b.js': 1, 'sub/c.js': 1 }, 1]);
      await fs.rename(`${dir}/sub`, `${dir}/moved`);
      await fs.rm(`${dir}/d.bin`);
      expect(await count()).toEqual([{ 'a.js': 1, 'b.js': 1, 'moved/c.js': 1 }, 0]);
      const content = (await runner.execute('grep_search', { pattern: 'func[a-z]+ [a-z]\\(', dir_path: dir })) as SearchContentResult;
      expect(content.matches.map((m) => [m.file_path.slice(dir.length + 1), m.line_number, m.column])).toEqual([
        ['a.js', 1, 1],
        ['a.js', 2, 1],
        ['moved/c.js', 1, 1],
      ]);
      await platform.dispose();
    });

    it('keeps tool state set through a runner for the next runner on the same platform', async () => {
      const platform = await makePlatform();
      const counter = defineTool({
        name: 'counter',
        description: '',
        parameters: { type: 'object' },
        callWithContext: async (_args, ctx) => {
          const next = (ctx.getState<number>('n') ?? 0) + 1;
          ctx.setState('n', next);
          return next;
        },
      });
      const first = new ToolRunner({ platform, tools: [counter] });
      expect(await first.execute('counter', {}, { conversationId: 'k' })).toBe(1);
      expect(await first.execute('counter', {}, { conversationId: 'k' })).toBe(2);
      const second = new ToolRunner({ platform, tools: [counter] });
      expect(await second.execute('counter', {}, { conversationId: 'k' })).toBe(3);
      expect(await platform.state.get('k', 'n')).toBe(3);
    });
  });
}
