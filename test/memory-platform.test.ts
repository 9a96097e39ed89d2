import { describe, expect, it } from 'vitest';
import { createMemoryPlatform } from '../src/platform/memory.js';
import { describePlatformContract } from './contract/platform-contract.js';

describePlatformContract('memory', () => createMemoryPlatform(), {
  name: 'memory',
  capabilities: { runCommand: false, webSearch: false, persistent: false },
});

describe('createMemoryPlatform', () => {
  it('seeds files relative to the root or absolute, and keeps instances apart', async () => {
    const a = createMemoryPlatform({ files: { 'src/a.ts': 'export {}', '/workspace/b.txt': 'b' } });
    const b = createMemoryPlatform();
    expect((await a.fs.readdir('/workspace')).sort()).toEqual(['b.txt', 'src']);
    expect(new TextDecoder().decode(await a.fs.readFile('/workspace/src/a.ts'))).toBe('export {}');
    expect(await b.fs.readdir('/workspace')).toEqual([]);
  });

  it('honours a custom root', async () => {
    const p = createMemoryPlatform({ root: '/home/me/project', files: { 'x.txt': 'x' } });
    expect(p.root).toBe('/home/me/project');
    expect(await p.fs.readdir('/home/me/project')).toEqual(['x.txt']);
  });
});
