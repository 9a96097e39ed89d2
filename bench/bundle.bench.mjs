// The README's worker example built with Vite's default settings (an iife worker: every dynamic import
// inlined), next to a worker that only serves a comlink endpoint over idb-keyval, the least a
// hand-written IndexedDB tool worker needs, and the same worker with a search index (its code comes
// with its own entry, toolhost/web/search-index). What only some calls need (re2js, ignore, diff, edit_file's
// no_match hint) is not in the worker: each is a file of its own that the worker fetches on first use.
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { LAZY_MODULES, lazyFile } from '../scripts/build-lazy.mjs';
import { buildReadmeWorker, readmeWorkerExample } from '../scripts/readme-worker.mjs';

const BARE = {
  worker: "import { expose } from 'comlink';\nimport { get, set } from 'idb-keyval';\nexpose({ get, set });\n",
  page: "import { wrap } from 'comlink';\nconst api = wrap(new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' }));\nawait api.get('x');\n",
};

/** The README's example with a search index (`searchIndex: webSearchIndex()`), whose code comes with its own entry. */
function withSearchIndex() {
  const { worker, page } = readmeWorkerExample();
  const indexed = worker
    .replace("from 'toolhost/web';\n", "from 'toolhost/web';\nimport { webSearchIndex } from 'toolhost/web/search-index';\n")
    .replace("createWebPlatform({ workspace: 'my-project' })", "createWebPlatform({ workspace: 'my-project', searchIndex: webSearchIndex() })");
  if (!indexed.includes('searchIndex: webSearchIndex()') || !indexed.includes("from 'toolhost/web/search-index'")) throw new Error('the README worker example changed: update withSearchIndex() in bench/bundle.bench.mjs');
  return { worker: indexed, page };
}

export default async function run() {
  const readme = await buildReadmeWorker();
  const bare = await buildReadmeWorker({ files: BARE });
  const indexed = await buildReadmeWorker({ files: withSearchIndex() });
  const kb = (bytes) => bytes / 1024;
  const lazy = LAZY_MODULES.map(({ file }) => `${file} ${kb(gzipSync(readFileSync(lazyFile(file))).length).toFixed(1)} KB`).join(', ');
  return [
    {
      figure: "README worker, Vite defaults (iife), min+gzip",
      value: kb(readme.gzipBytes),
      unit: 'KB',
      anchor: 'comlink + idb-keyval worker, same build',
      anchorValue: kb(bare.gzipBytes),
      target: '≤ 60 KB',
      note: `${readme.modules.size} modules; beside it, fetched on first use (min+gzip): ${lazy}`,
    },
    {
      figure: 'README worker with searchIndex: webSearchIndex() (toolhost/web/search-index), min+gzip',
      value: kb(indexed.gzipBytes),
      unit: 'KB',
      anchor: 'README worker',
      anchorValue: kb(readme.gzipBytes),
      note: `${indexed.modules.size} modules: the search index's code comes only with its entry`,
    },
  ];
}
