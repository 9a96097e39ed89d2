// The README's worker example built with Vite's default settings (an iife worker: every dynamic import
// inlined), next to a worker that only serves a comlink endpoint over idb-keyval, the least a
// hand-written IndexedDB tool worker needs. What only some calls need (re2js, ignore, diff, edit_file's
// no_match hint) is not in the worker: each is a file of its own that the worker fetches on first use.
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { LAZY_MODULES, lazyFile } from '../scripts/build-lazy.mjs';
import { buildReadmeWorker } from '../scripts/readme-worker.mjs';

const BARE = {
  worker: "import { expose } from 'comlink';\nimport { get, set } from 'idb-keyval';\nexpose({ get, set });\n",
  page: "import { wrap } from 'comlink';\nconst api = wrap(new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' }));\nawait api.get('x');\n",
};

export default async function run() {
  const readme = await buildReadmeWorker();
  const bare = await buildReadmeWorker({ files: BARE });
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
  ];
}
