import { describe, expect, it } from 'vitest';
import { BuiltinTools, ToolRunner, createMemoryPlatform, isToolErrorCode, type FsPromises, type ToolCall } from '../src/index.js';
import { junk, seededRandom } from './support/random.js';
import { writeOutside } from './support/outside.js';

const PATHS = [
  'a.txt', 'src/index.ts', 'src/new file (1).ts', 'ünï/😀.md', 'dir', 'dir/', '.', '', '/workspace', '/workspace/a.txt',
  '../outside/secret.txt', '/outside/secret.txt', 'out/secret.txt', 'out', 'loop/x', 'loop', 'dir/../../outside/x',
  'missing/../out/secret.txt', '/etc/passwd', 'file:///etc/passwd', 'a\u0000b', 'crlf.txt', 'bin.dat', 'CON', ' ',
];
const STRINGS = ['', 'a', 'alpha', 'TODO', '\n', '\r\n', '$&', '$1', '.*', '[', '{a,b', '*.ts', '**/*', 'src/**', '(', 'x'.repeat(3000), '😀'];

async function snapshot(fs: FsPromises, dir: string, out: Map<string, string>): Promise<Map<string, string>> {
  for (const name of await fs.readdir(dir)) {
    const path = `${dir === '/' ? '' : dir}/${name}`;
    const stats = await fs.lstat(path);
    if (path === '/workspace') continue;
    if (stats.isSymbolicLink()) out.set(path, `link:${await fs.readlink(path)}`);
    else if (stats.isDirectory()) {
      out.set(path, 'dir');
      await snapshot(fs, path, out);
    } else out.set(path, new TextDecoder().decode(await fs.readFile(path)));
  }
  return out;
}

describe('built-ins fuzz', () => {
  it('answers 10,000 random argument sets with a value or a code, changes nothing outside the workspace, and keeps working', async () => {
    const random = seededRandom(42);
    const pick = <T,>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
    const platform = createMemoryPlatform({
      files: {
        'a.txt': 'alpha\nbeta\nTODO gamma\n',
        'src/index.ts': 'export const x = 1;\n// TODO\n',
        'crlf.txt': 'one\r\ntwo\r\n',
        'bin.dat': new Uint8Array([0, 1, 2, 3]),
        'dir/inner.txt': 'inner',
      },
    });
    await writeOutside(platform.fs, { '/outside/secret.txt': 'do not touch' });
    await platform.fs.symlink('/outside', '/workspace/out');
    await platform.fs.symlink('/workspace/loop', '/workspace/loop');
    const before = await snapshot(platform.fs, '/', new Map());
    const runner = new ToolRunner({ platform, tools: BuiltinTools.all(), defaultTimeoutMs: 10_000 });
    const tools = runner.declarations();
    const value = (schema: { type?: unknown; enum?: readonly unknown[] } | undefined, key: string): unknown => {
      const r = random();
      if (r < 0.1) return junk(random, 1);
      if (schema?.enum) return pick(schema.enum);
      switch (schema?.type) {
        case 'string':
          return /path|name|cwd/.test(key) ? pick(PATHS) : key === 'pattern' && random() < 0.3 ? pick(['*.ts', '**/*', '{a,{b,c}}', 'a+', '(x|y)', '[']) : pick(STRINGS);
        case 'integer':
        case 'number':
          return pick([0, 1, 2, 5, -1, 100, 1e9, 1.5, '3']);
        case 'boolean':
          return pick([true, false, 'true']);
        case 'array':
          return [pick(PATHS), pick(STRINGS)];
        default:
          return junk(random, 1);
      }
    };
    const codes = new Map<string, number>();
    let successes = 0;
    for (let batch = 0; batch < 500; batch += 1) {
      const calls: ToolCall[] = Array.from({ length: 20 }, (_, i) => {
        const tool = pick(tools);
        const props = (tool.parameters.properties ?? {}) as Record<string, { type?: unknown; enum?: readonly unknown[] }>;
        const args: Record<string, unknown> = {};
        for (const [key, schema] of Object.entries(props)) if (random() < 0.75 || tool.parameters.required?.includes(key)) args[key] = value(schema, key);
        if (random() < 0.05) args[pick(['extra', 'path', 'file'])] = pick(STRINGS);
        return { id: `${batch}.${i}`, name: tool.name, args: random() < 0.03 ? junk(random, 1) : args };
      });
      const results = await runner.processToolCalls(calls, { conversationId: `c${batch % 3}` });
      expect(results.map((r) => r.id)).toEqual(calls.map((c) => c.id));
      for (const result of results) {
        if ('code' in result) {
          expect(isToolErrorCode(result.code), JSON.stringify(result)).toBe(true);
          expect(result.error.length).toBeGreaterThan(0);
          codes.set(result.code, (codes.get(result.code) ?? 0) + 1);
          // The only execution_failed here is the symlink loop; anything else would be a tool bug.
          if (result.code === 'execution_failed') expect(result.error).toMatch(/has too many levels of symbolic links/);
        } else {
          expect(result.result).not.toBeUndefined();
          successes += 1;
        }
      }
    }
    expect(successes).toBeGreaterThan(1000);
    expect(codes.get('outside_workspace') ?? 0).toBeGreaterThan(100);
    expect(codes.get('invalid_arguments') ?? 0).toBeGreaterThan(100);
    // Nothing outside the workspace changed (the workspace itself may).
    expect(await snapshot(platform.fs, '/', new Map())).toEqual(before);
    // The runner still works.
    expect(await runner.execute('view_file', { file_path: 'out/../a.txt' }).catch((e: { code: string }) => e.code)).toBe('outside_workspace');
    await runner.execute('create_file', { file_path: 'after.txt', content: 'still fine\n', overwrite: true });
    expect(await runner.execute('view_file', { file_path: 'after.txt' })).toMatchObject({ content: 'still fine', total_lines: 1 });
  }, 180_000);
});
