import { describe, expect, it } from 'vitest';
import { MemoryFs } from '../src/fs/memfs.js';
import { fsFromSync } from '../src/platform/memory.js';
import { ToolRunner } from '../src/runner.js';
import { BuiltinTools } from '../src/tools/index.js';
import { fsMount } from './folders.js';
import { createWebPlatform } from './platform.js';

// Review mode (per conversation, in the runner) on the web platform, alone and over an overlay
// workspace (the platform's own copy-on-write layer over a base folder): the two compose, a
// conversation's accepted changes land in the overlay, which the page then applies to the base.

const decode = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

function memoryFs(files: Record<string, string>) {
  const memory = new MemoryFs();
  for (const [path, text] of Object.entries(files)) {
    memory.mkdirSync(path.slice(0, path.lastIndexOf('/')) || '/', { recursive: true });
    memory.writeFileSync(path, text);
  }
  return fsFromSync(memory);
}

describe('review mode on the web platform', () => {
  it('stages a conversation on a memory workspace: grep sees the staged text, the workspace gets it only once accepted', async () => {
    const platform = createWebPlatform({ workspace: 'review-web', backend: 'memory', files: { 'a.txt': 'one\n' } });
    const runner = new ToolRunner({ platform, tools: BuiltinTools.all(), review: true });
    await runner.execute('edit_file', { file_path: 'a.txt', old_string: 'one', new_string: 'uno' });
    const grep = (await runner.execute('grep_search', { pattern: 'uno' })) as { matches: { file_path: string }[] };
    expect(grep.matches.map((m) => m.file_path)).toEqual(['/workspace/a.txt']);
    expect(decode(await platform.fs.readFile('/workspace/a.txt'))).toBe('one\n');
    await runner.accept('default', {});
    expect(decode(await platform.fs.readFile('/workspace/a.txt'))).toBe('uno\n');
  });

  it('composes with an overlay workspace: accepted changes go to the overlay, the base changes only when the overlay is applied', async () => {
    const base = memoryFs({ '/b.txt': 'base\n' });
    const platform = createWebPlatform({ workspace: 'review-overlay', backend: 'memory', overlay: { base: fsMount(base) } });
    const runner = new ToolRunner({ platform, tools: BuiltinTools.all(), review: true });
    await runner.execute('edit_file', { file_path: 'b.txt', old_string: 'base', new_string: 'changed' });
    expect(await platform.changes?.()).toEqual([]);
    await runner.accept('default', {});
    expect((await platform.changes?.())?.map((c) => [c.path, c.kind])).toEqual([['b.txt', 'modified']]);
    expect(decode(await base.readFile('/b.txt'))).toBe('base\n');
    await platform.apply?.();
    expect(decode(await base.readFile('/b.txt'))).toBe('changed\n');
  });
});
