import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolRunner } from '../src/runner.js';
import { BuiltinTools } from '../src/tools/index.js';
import { buildPackage } from '../test/support/build.js';
import { createNodePlatform } from './platform.js';

// One journalDir written by several writers at once: two runners on one platform, and two processes.
// Every turn either makes must be kept under a number of its own, listed in order, and rewound.

let base: string;
beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'toolhost-journal-shared-')));
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

const turnFiles = async (journalDir: string): Promise<string[]> => (await readdir(join(journalDir, 'turns'))).filter((name) => name.endsWith('.json'));

describe('two runners on one platform with journalDir', () => {
  it('number one conversation\'s turns together: every turn is kept, both list all of them in order, and a rewind to 0 restores every file', async () => {
    const root = join(base, 'two-runners', 'ws');
    const journalDir = join(base, 'two-runners', 'journal');
    await mkdir(root, { recursive: true });
    await writeFile(join(root, 'plan.md'), 'plan v0\n');
    const platform = createNodePlatform({ root, journalDir });
    const left = new ToolRunner({ platform, tools: BuiltinTools.all() });
    const right = new ToolRunner({ platform, tools: BuiltinTools.all() });
    try {
      const written: string[] = [];
      for (let i = 1; i <= 3; i += 1) {
        await left.processToolCalls([{ id: `l${i}`, name: 'create_file', args: { file_path: 'plan.md', content: `plan v${i} (left)\n`, overwrite: true } }], { conversationId: 'shared' });
        written.push(`l${i}`);
        // A read-only batch is a turn too (numbered, not listed).
        await right.processToolCalls([{ id: `v${i}`, name: 'view_file', args: { file_path: 'plan.md' } }], { conversationId: 'shared' });
        await right.processToolCalls([{ id: `r${i}`, name: 'create_file', args: { file_path: `right-${i}.md`, content: `right ${i}\n` } }], { conversationId: 'shared' });
        written.push(`r${i}`);
      }
      for (const runner of [left, right]) {
        const { turns } = await runner.changes('shared');
        expect(turns.map((turn) => turn.calls[0]!.callId)).toEqual(written);
        const numbers = turns.map((turn) => turn.turn);
        expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
        expect(new Set(numbers).size).toBe(6);
      }
      expect(await turnFiles(journalDir)).toHaveLength(6);
      const rewound = await left.rewind('shared', { toTurn: 0 });
      expect(rewound.conflicts).toEqual([]);
      expect(rewound.restored.sort()).toEqual(['plan.md', 'right-1.md', 'right-2.md', 'right-3.md'].map((name) => join(root, name)));
      expect(await readFile(join(root, 'plan.md'), 'utf8')).toBe('plan v0\n');
      expect((await readdir(root)).sort()).toEqual(['plan.md']);
      // The other runner sees the rewind as the conversation's last turn and can undo it.
      const { turns } = await right.changes('shared');
      expect(turns.at(-1)).toMatchObject({ turn: rewound.turn, calls: [{ tool: 'rewind' }] });
      expect(await right.rewind('shared', { toTurn: rewound.turn! - 1 })).toMatchObject({ conflicts: [] });
      expect(await readFile(join(root, 'right-3.md'), 'utf8')).toBe('right 3\n');
    } finally {
      await platform.dispose();
    }
  });
});

/** Each child: a platform on ROOT with journalDir JOURNAL; once GO exists, TURNS turns of conversation `together`, each writing two files of its own, each after a turn that only reads. */
const CHILD = `
import { createNodePlatform } from './node/platform.js';
import { ToolRunner } from './src/runner.js';
import { BuiltinTools } from './src/tools/index.js';
import { existsSync } from 'node:fs';
const { ROOT, JOURNAL, NAME, TURNS, GO } = process.env;
const platform = createNodePlatform({ root: ROOT, journalDir: JOURNAL });
const runner = new ToolRunner({ platform, tools: BuiltinTools.all(), conversationId: 'together' });
// Both writers start together, once both are loaded.
await runner.changes('together');
console.log('ready');
while (!existsSync(GO)) await new Promise((resolve) => setTimeout(resolve, 5));
for (let i = 1; i <= Number(TURNS); i += 1) {
  // A batch that only reads is a turn too: numbered, never stored.
  await runner.processToolCalls([{ id: NAME + '-look-' + i, name: 'list_dir', args: { path: '.' } }]);
  const results = await runner.processToolCalls([
    { id: NAME + '-' + i, name: 'create_file', args: { file_path: NAME + '/' + i + '.txt', content: NAME + ' ' + i + '\\n' } },
    { id: NAME + '-log-' + i, name: 'create_file', args: { file_path: NAME + '.log', content: NAME + ' log ' + i + '\\n', overwrite: true } },
  ]);
  if (results.some((result) => 'error' in result)) throw new Error(JSON.stringify(results));
}
await platform.dispose();
console.log('done');
`;

/** Runs a writer; `ready` resolves once it has loaded, the answer once it has ended. */
function runChild(compiled: string, env: Record<string, string>, ready: () => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(compiled, 'journal-writer.mjs')], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('ready\n')) ready();
    });
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`writer ${env.NAME} exited with ${code}: ${output}`))));
  });
}

describe('two processes on one journalDir', () => {
  it('writing one conversation at once keep every turn: all are listed, each under its own number, and a rewind to 0 restores every file without a conflict', async () => {
    const compiled = buildPackage('toolhost-journal-shared-test');
    await writeFile(join(compiled, 'journal-writer.mjs'), CHILD);
    const root = join(base, 'two-processes', 'ws');
    const journalDir = join(base, 'two-processes', 'journal');
    await mkdir(root, { recursive: true });
    await writeFile(join(root, 'keep.txt'), 'untouched\n');
    const turns = 20;
    const go = join(base, 'two-processes', 'go');
    let waiting = 2;
    const start = (): void => void (--waiting === 0 && writeFile(go, ''));
    await Promise.all(['ant', 'bee'].map((name) => runChild(compiled, { ROOT: root, JOURNAL: journalDir, NAME: name, TURNS: String(turns), GO: go }, start)));
    expect(await turnFiles(journalDir)).toHaveLength(2 * turns);

    const platform = createNodePlatform({ root, journalDir });
    const runner = new ToolRunner({ platform, tools: BuiltinTools.all(), conversationId: 'together' });
    try {
      const changes = await runner.changes('together');
      expect(changes.droppedThrough).toBeUndefined();
      const numbers = changes.turns.map((turn) => turn.turn);
      expect(numbers).toHaveLength(2 * turns);
      expect(new Set(numbers).size).toBe(2 * turns);
      expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
      for (const name of ['ant', 'bee']) {
        expect(changes.turns.filter((turn) => turn.calls[0]!.callId.startsWith(`${name}-`)).map((turn) => turn.calls[0]!.callId)).toEqual(
          Array.from({ length: turns }, (_, i) => `${name}-${i + 1}`),
        );
      }
      const rewound = await runner.rewind('together', { toTurn: 0 });
      expect(rewound.conflicts).toEqual([]);
      expect(rewound.restored).toHaveLength(2 * turns + 2);
      // The folders the writers made are left (a rewind restores files), empty.
      expect((await readdir(root)).sort()).toEqual(['ant', 'bee', 'keep.txt']);
      expect([...(await readdir(join(root, 'ant'))), ...(await readdir(join(root, 'bee')))]).toEqual([]);
      expect(await readFile(join(root, 'keep.txt'), 'utf8')).toBe('untouched\n');
    } finally {
      await platform.dispose();
    }
  }, 240_000);
});
