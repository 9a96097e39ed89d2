import { describe, expect, it } from 'vitest';
import { fsMount, opfsWorkspace } from './folders.js';
import { createWebPlatform } from './platform.js';
import { searchSourceOf } from '../src/search/engine-source.js';

describe('createWebPlatform search source', () => {
  it('reads the journalled tree once loaded, and moves with its change count', async () => {
    const platform = createWebPlatform({ workspace: 'search-source', backend: 'memory', files: { 'a.txt': 'function\n' } });
    const source = searchSourceOf(platform);
    expect(source).toBeDefined();
    // Nothing is loaded before the first call through fs (which every search makes first).
    expect(() => source?.readdir('/workspace')).toThrow(expect.objectContaining({ code: 'unavailable' }));
    await platform.fs.stat('/workspace');
    expect(source?.readdir('/workspace').map((d) => d.name)).toEqual(['a.txt']);
    expect(new TextDecoder().decode(source?.read('/workspace/a.txt', 100)?.bytes)).toBe('function\n');
    await platform.fs.writeFile('/workspace/b.txt', 'x');
    expect(source?.readdir('/workspace').map((d) => d.name)).toEqual(['a.txt', 'b.txt']);
    await platform.dispose();
  });

  it('is absent where files can change outside the platform: with mounts or an overlay, and on folder backends', () => {
    const other = createWebPlatform({ workspace: 'search-source-base', backend: 'memory' });
    expect(searchSourceOf(createWebPlatform({ workspace: 'with-mount', backend: 'memory', mounts: { '/workspace/m': fsMount(other.fs) } }))).toBeUndefined();
    expect(searchSourceOf(createWebPlatform({ workspace: 'with-overlay', backend: 'memory', overlay: { base: fsMount(other.fs) } }))).toBeUndefined();
    expect(searchSourceOf(createWebPlatform({ workspace: 'opfs', backend: opfsWorkspace() }))).toBeUndefined();
  });
});
