import type { FsPromises } from '../../src/core/types.js';

/**
 * Writes files outside a memory platform's workspace (absolute paths, their folders made), for tests of
 * what the tools must never reach: `createMemoryPlatform({ files })` takes paths inside the root only.
 */
export async function writeOutside(fs: FsPromises, files: Record<string, string>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await fs.mkdir(path.slice(0, path.lastIndexOf('/')) || '/', { recursive: true });
    await fs.writeFile(path, content);
  }
}
