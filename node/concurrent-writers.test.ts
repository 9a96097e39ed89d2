import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildPackage } from '../test/support/build.js';
import { FileStateStore } from './state-store.js';
import { createNodePlatform } from './platform.js';
import { ToolRunner } from '../src/runner.js';
import { defineTool } from '../src/core/tool.js';
import { BuiltinTools } from '../src/tools/index.js';

const base = mkdtempSync(join(tmpdir(), 'toolhost-writers-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** Starts `count` children running `child` with `args`, lets them go at once, and resolves with each one's JSON answer. */
async function runChildren(child: string, argsOf: (tag: string) => string[], tags: string[]): Promise<unknown[]> {
  const children = tags.map((tag) => {
    const proc = spawn(process.execPath, [child, ...argsOf(tag)], { stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    const ready = new Promise<void>((resolve) =>
      proc.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.startsWith('ready\n')) resolve();
      }),
    );
    const done = new Promise<unknown>((resolve, reject) =>
      proc.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out.split('\n')[1]!)) : reject(new Error(`child ${tag} exited ${code}`)))),
    );
    return { proc, ready, done };
  });
  await Promise.all(children.map((c) => c.ready));
  for (const c of children) c.proc.stdin.end('go\n');
  return Promise.all(children.map((c) => c.done));
}

describe('concurrent writers on one workspace', () => {
  it('two processes, 300 edits of one file and 300 increments of one state key: every acknowledged one is present', async () => {
    const built = buildPackage('toolhost-writers-test');
    const child = join(built, 'writer-child.mjs');
    writeFileSync(
      child,
      `import { ToolRunner, defineTool, BuiltinTools } from './src/index.js';
import { createNodePlatform } from './node/index.js';
const [root, stateDir, count, tag] = process.argv.slice(2);
const increment = defineTool({ name: 'increment', description: '', parameters: { type: 'object' },
  callWithContext: async (_args, ctx) => {
    const next = (ctx.getState('count') ?? 0) + 1;
    // Yield between the read and the write, so an unlocked store would lose updates.
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 2));
    ctx.setState('count', next);
    return next;
  } });
const runner = new ToolRunner({ platform: createNodePlatform({ root, stateDir }), tools: [...BuiltinTools.all(), increment] });
process.stdout.write('ready\\n');
await new Promise((resolve) => process.stdin.once('data', resolve));
const edits = [];
const counts = [];
for (let i = 0; i < Number(count); i++) {
  const [edit] = await runner.processToolCalls([{ name: 'edit_file', args: { file_path: 'shared.txt', old_string: 'todo-' + tag + '-' + i + ';', new_string: 'done-' + tag + '-' + i + ';' } }]);
  edits.push('code' in edit ? edit.code : 'ok');
  const [inc] = await runner.processToolCalls([{ name: 'increment', args: {} }], { conversationId: 'shared counter' });
  counts.push('code' in inc ? inc.code : inc.result);
}
process.stdout.write(JSON.stringify({ edits, counts }) + '\\n');
process.exit(0);
`,
    );
    const root = join(base, 'root');
    const stateDir = join(base, 'state');
    rmSync(root, { recursive: true, force: true });
    (await import('node:fs')).mkdirSync(root);
    const markers = ['p', 'q'].flatMap((tag) => Array.from({ length: 150 }, (_, i) => `todo-${tag}-${i};`));
    writeFileSync(join(root, 'shared.txt'), markers.join('\n') + '\n');
    const answers = (await runChildren(child, (tag) => [root, stateDir, '150', tag], ['p', 'q'])) as { edits: string[]; counts: number[] }[];
    const text = readFileSync(join(root, 'shared.txt'), 'utf8');
    const lines = text.split('\n');
    for (const [t, answer] of ['p', 'q'].map((tag, k) => [tag, answers[k]!] as const)) {
      expect(answer.edits).toEqual(Array.from({ length: 150 }, () => 'ok'));
      for (let i = 0; i < 150; i++) expect(lines).toContain(`done-${t}-${i};`);
    }
    expect(lines.filter((line) => line.startsWith('todo-'))).toEqual([]);
    const counts = answers.flatMap((a) => a.counts).sort((x, y) => x - y);
    expect(counts).toEqual(Array.from({ length: 300 }, (_, i) => i + 1));
    expect(await new FileStateStore(stateDir).getAll('shared counter')).toEqual({ count: 300 });
  }, 180_000);

  it('edit_file answers stale_file and writes nothing when the file changes between its read and its write', async () => {
    const root = join(base, 'stale');
    (await import('node:fs')).mkdirSync(root, { recursive: true });
    writeFileSync(join(root, 'a.txt'), 'alpha\n');
    const platform = createNodePlatform({ root });
    const fs = platform.fs;
    const readFile = fs.readFile.bind(fs);
    // Another writer (an editor, a process without the lock) changes the file right after edit_file read it.
    fs.readFile = async (path: string) => {
      const bytes = await readFile(path);
      if (path.endsWith('a.txt')) writeFileSync(join(root, 'a.txt'), 'alpha, edited elsewhere\n');
      return bytes;
    };
    const runner = new ToolRunner({ platform, tools: BuiltinTools.all() });
    const [edit] = await runner.processToolCalls([{ name: 'edit_file', args: { file_path: 'a.txt', old_string: 'alpha', new_string: 'beta' } }]);
    expect(edit).toEqual({
      name: 'edit_file',
      code: 'stale_file',
      error: `${join(platform.root, 'a.txt')} changed while edit_file was editing it; nothing was written. View it again, then retry the edit`,
    });
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('alpha, edited elsewhere\n');
    await platform.dispose();
  });

  it('refuses a state directory that cannot be written at platform creation, naming it and what to do', () => {
    const file = join(base, 'a-file');
    writeFileSync(file, 'not a directory');
    const stateDir = join(file, 'state');
    expect(() => createNodePlatform({ stateDir })).toThrow(
      expect.objectContaining({
        code: 'unavailable',
        message: `the state directory ${stateDir} cannot be written (ENOTDIR); give createNodePlatform a stateDir that is a writable directory (or a path where one can be created)`,
      }),
    );
  });

  it('takes over a lock file whose holder process is gone', async () => {
    const root = join(base, 'dead-holder');
    (await import('node:fs')).mkdirSync(root, { recursive: true });
    const lockDir = join(base, 'locks-dead');
    const platform = createNodePlatform({ root, fileLocks: { dir: lockDir } });
    const dead = spawn(process.execPath, ['-e', '']);
    const pid = dead.pid!;
    await new Promise((resolve) => dead.once('exit', resolve));
    // A holder that died holding the lock of root/x.txt leaves its file behind.
    const { createHash } = await import('node:crypto');
    (await import('node:fs')).mkdirSync(lockDir, { recursive: true });
    const lockFile = join(lockDir, `${createHash('sha256').update(join(platform.root, 'x.txt')).digest('hex').slice(0, 40)}.lock`);
    writeFileSync(lockFile, `${pid}:abandoned:${Date.now()}`);
    const runner = new ToolRunner({ platform, tools: [...BuiltinTools.all(), defineTool({ name: 'noop', description: '', parameters: { type: 'object' }, call: () => null })] });
    expect(await runner.processToolCalls([{ name: 'create_file', args: { file_path: 'x.txt', content: 'x' } }], { timeoutMs: 5000 })).toEqual([
      { name: 'create_file', result: { file_path: join(platform.root, 'x.txt'), bytes_written: 1, created: true } },
    ]);
    expect(() => readFileSync(lockFile)).toThrow(expect.objectContaining({ code: 'ENOENT' }));
    await platform.dispose();
  });
});
