// The walk over a memory tree, as the walk's and the ignore rules' tests take it (they run in Node and in Chromium).
import { createMemoryPlatform } from '../../src/platform/memory.js';
import { walkWorkspace, type WalkResult } from '../../src/search/walk.js';

/** The memory platform's workspace root. */
export const W = '/workspace';

/** Walks a memory workspace holding `files` from `dir` (default the root); `rels`: the listed files' paths relative to `dir`, sorted. */
export async function walkMemoryTree(
  files: Record<string, string>,
  options: { dir?: string; includeIgnored?: boolean; maxEntries?: number } = {},
): Promise<WalkResult & { rels: string[] }> {
  const platform = createMemoryPlatform({ files });
  const result = await walkWorkspace({ fs: platform.fs, root: W, dir: options.dir ?? W, ...options });
  return { ...result, rels: result.files.map((f) => f.rel).sort() };
}
