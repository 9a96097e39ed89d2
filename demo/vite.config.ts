// The playground's vite config: `npm run demo` serves it on 127.0.0.1:5173, `npm run build:demo`
// writes a static site to demo-dist/ (relative base, so any static file server can host it).
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { ensureLazyBundles } from '../scripts/build-lazy.mjs';

const here = (path: string): string => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  root: here('.'),
  base: './',
  // The demo imports toolhost the way a user does; the aliases point at the sources.
  resolve: {
    alias: [
      { find: /^toolhost\/web$/, replacement: here('../web/index.ts') },
      { find: /^toolhost\/agent$/, replacement: here('../src/agent/index.ts') },
      { find: /^toolhost\/ajv$/, replacement: here('../src/core/ajv.ts') },
      { find: /^toolhost\/web\/zenfs$/, replacement: here('../web/zenfs.ts') },
      { find: /^toolhost\/web\/folders$/, replacement: here('../web/folders.ts') },
      { find: /^toolhost$/, replacement: here('../src/index.ts') },
    ],
  },
  // In browsers the libraries that only some calls need load by URL (lazy/*.min.js, generated): make sure they are there.
  plugins: [{ name: 'lazy-bundles', buildStart: () => ensureLazyBundles() }],
  server: { host: '127.0.0.1', port: 5173, strictPort: true },
  preview: { host: '127.0.0.1', port: 4173 },
  worker: { format: 'es' },
  build: { outDir: here('../demo-dist'), emptyOutDir: true, target: 'es2022' },
});
