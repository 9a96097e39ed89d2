// The README's worker example built with Vite's default settings (an iife worker: every dynamic import
// inlined), next to a worker that only serves a comlink endpoint over idb-keyval, the least a
// hand-written IndexedDB tool worker needs. re2js (grep_search's linear-time engine) is not in the
// worker: it is a file of its own that the worker fetches the first time a pattern needs it.
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { LINEAR_REGEX_BUNDLE } from '../scripts/build-linear-regex.mjs';
import { buildReadmeWorker } from '../scripts/readme-worker.mjs';

const BARE = {
  worker: "import { expose } from 'comlink';\nimport { get, set } from 'idb-keyval';\nexpose({ get, set });\n",
  page: "import { wrap } from 'comlink';\nconst api = wrap(new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' }));\nawait api.get('x');\n",
};

export default async function run() {
  const readme = await buildReadmeWorker();
  const bare = await buildReadmeWorker({ files: BARE });
  const kb = (bytes) => bytes / 1024;
  const share = (match) => {
    let raw = 0;
    for (const [id, length] of readme.modules) if (match.test(id)) raw += length;
    return raw;
  };
  const total = [...readme.modules.values()].reduce((a, b) => a + b, 0);
  const re2 = share(/node_modules\/re2js\//);
  const engine = gzipSync(readFileSync(LINEAR_REGEX_BUNDLE)).length;
  return [
    {
      figure: "README worker, Vite defaults (iife), min+gzip",
      value: kb(readme.gzipBytes),
      unit: 'KB',
      anchor: 'comlink + idb-keyval worker, same build',
      anchorValue: kb(bare.gzipBytes),
      target: '≤ 60 KB',
      note: `${readme.modules.size} modules; re2js (the linear-time regex engine) is ${((100 * re2) / total).toFixed(0)} % of the rendered code: it is a separate file (${kb(engine).toFixed(1)} KB min+gzip) fetched on the first pattern V8 cannot run safely`,
    },
  ];
}
