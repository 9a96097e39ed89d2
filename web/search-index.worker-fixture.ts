// A dedicated worker for web/search-index.test.ts: opens the workspace it is sent with `searchIndex`,
// answers the searches it is sent, and reports how the index was opened and how much a rare
// pattern's search left to read.
import { BuiltinTools, ToolRunner } from '../src/index.js';
import { walkWorkspace } from '../src/search/walk.js';
import { searchSourceOf } from '../src/search/engine-source.js';
import { compileSearchPattern } from '../src/search/dialect.js';
import { siftWithIndex } from '../src/search/index/sift.js';
import { searchIndexOf } from '../src/search/index/workspace.js';
import { createWebPlatform } from './index.js';
import { webSearchIndex } from './search-index.js';

self.onmessage = async (event: MessageEvent<{ workspace: string; searches: Array<Record<string, unknown>>; rare: string }>) => {
  const { workspace, searches, rare } = event.data;
  try {
    const platform = createWebPlatform({ workspace, searchIndex: webSearchIndex() });
    const runner = new ToolRunner({ platform, tools: BuiltinTools.all() });
    const answers: unknown[] = [];
    for (const args of searches) answers.push(await runner.execute('grep_search', args));
    const ready = await platform.searchIndexReady?.();
    const index = searchIndexOf(platform);
    const listed = (await walkWorkspace({ fs: platform.fs, root: platform.root, dir: platform.root, source: searchSourceOf(platform), changeCount: platform.changeCount })).files;
    const sifted = index ? await siftWithIndex(platform, index, compileSearchPattern(rare, { literal: true, caseSensitive: true }), listed, 1 << 26) : undefined;
    await platform.dispose();
    self.postMessage({ ready, answers, size: index?.size, scan: sifted?.scan.length, skipped: sifted ? sifted.text + sifted.binary : undefined });
  } catch (error) {
    self.postMessage({ error: String(error) });
  }
};
