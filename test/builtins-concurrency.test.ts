import { describe, expect, it } from 'vitest';
import { BuiltinTools, ToolRunner, createMemoryPlatform } from '../src/index.js';

describe('built-ins under concurrency', () => {
  it('lands two edit_file calls on one path in one batch, in order', async () => {
    const platform = createMemoryPlatform({ files: { 'notes.txt': 'alpha\nbeta\n' } });
    const runner = new ToolRunner({ platform, tools: BuiltinTools.all() });
    const results = await runner.processToolCalls([
      { id: '1', name: 'edit_file', args: { file_path: 'notes.txt', old_string: 'alpha', new_string: 'ALPHA' } },
      // Depends on the first edit having landed.
      { id: '2', name: 'edit_file', args: { file_path: 'notes.txt', old_string: 'ALPHA\nbeta', new_string: 'ALPHA\nBETA' } },
      { id: '3', name: 'view_file', args: { file_path: 'notes.txt' } },
    ]);
    expect(results.map((r) => ('code' in r ? r.code : 'ok'))).toEqual(['ok', 'ok', 'ok']);
    expect((results[2] as { result: { content: string } }).result.content).toBe('ALPHA\nBETA');
    expect(new TextDecoder().decode(await platform.fs.readFile('/workspace/notes.txt'))).toBe('ALPHA\nBETA\n');
  });

  it('keeps edits from concurrent batches on one path (per-path write lock)', async () => {
    const lines = Array.from({ length: 20 }, (_, i) => `line ${i}`);
    const platform = createMemoryPlatform({ files: { 'shared.txt': lines.join('\n') + '\n' } });
    const runner = new ToolRunner({ platform, tools: BuiltinTools.all() });
    const batches = lines.map((line, i) =>
      runner.processToolCalls([{ id: `e${i}`, name: 'edit_file', args: { file_path: 'shared.txt', old_string: `${line}\n`, new_string: `${line} edited\n` } }]),
    );
    const results = (await Promise.all(batches)).flat();
    expect(results.filter((r) => 'code' in r)).toEqual([]);
    const text = new TextDecoder().decode(await platform.fs.readFile('/workspace/shared.txt'));
    expect(text).toBe(lines.map((l) => `${l} edited`).join('\n') + '\n');
  });

  it('returns consistent results for 20 concurrent view_file and grep_search calls', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 30; i += 1) files[`src/m${i}.ts`] = `export const v${i} = ${i};\n// TODO item ${i}\n`;
    const runner = new ToolRunner({ platform: createMemoryPlatform({ files }), tools: BuiltinTools.all() });
    const calls = Array.from({ length: 20 }, (_, i) =>
      i % 2 === 0
        ? { id: `v${i}`, name: 'view_file', args: { file_path: `src/m${i}.ts` } }
        : { id: `g${i}`, name: 'grep_search', args: { pattern: 'TODO item \\d+', output_mode: 'count' } },
    );
    const results = await runner.processToolCalls(calls);
    results.forEach((r, i) => {
      expect(r.id).toBe(calls[i]?.id);
      if (i % 2 === 0) {
        expect(r).toMatchObject({ result: { content: `export const v${i} = ${i};\n// TODO item ${i}`, total_lines: 2 } });
      } else {
        const counts = (r as { result: { counts: { file_path: string; count: number }[] } }).result.counts;
        expect(counts).toHaveLength(30);
        expect(counts.every((c) => c.count === 1)).toBe(true);
      }
    });
    // All grep results are identical to each other.
    const greps = results.filter((_, i) => i % 2 === 1).map((r) => JSON.stringify((r as { result: unknown }).result));
    expect(new Set(greps).size).toBe(1);
  });
});
