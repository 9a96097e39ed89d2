// Baseline for the bundle-size figure: what any ZenFS-in-a-worker-over-comlink setup carries.
import { expose } from 'comlink';

expose({
  async mount() {
    const { resolveMountConfig, bindContext, InMemory } = await import('@zenfs/core');
    const { IndexedDB } = await import('@zenfs/dom');
    const fs = bindContext({ root: '/', mounts: { '/': await resolveMountConfig({ backend: InMemory }) } }).fs.promises;
    return [typeof IndexedDB, typeof fs.writeFile];
  },
});
