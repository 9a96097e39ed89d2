// The playground's vite config: `npm run demo` serves it on 127.0.0.1:5173 (another port: the `PORT`
// environment variable, `PORT=8080 npm run demo`, or Vite's flag, `npm run demo -- --port 8080`, which
// wins over both), `npm run build:demo` writes a static site to demo-dist/ (relative base, so any
// static file server can host it).
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { ensureLazyBundles } from '../scripts/build-lazy.mjs';

const here = (path: string): string => fileURLToPath(new URL(path, import.meta.url));

/** The playground's default port. */
const DEFAULT_PORT = 5173;

/**
 * The dev server's port: `PORT` from the environment when set (a whole number from 1 to 65535; anything
 * else throws, naming it, rather than serving elsewhere than asked), else 5173. The port is strict: a
 * port in use stops the server with Vite's message instead of moving to the next one.
 */
export function demoPort(value: string | undefined): number {
  if (value === undefined || value === '') return DEFAULT_PORT;
  const port = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isInteger(port) || port < 1 || port > 65_535) {
    throw new Error(`PORT must be a whole number from 1 to 65535 (the playground's port), not ${JSON.stringify(value)}`);
  }
  return port;
}

export default defineConfig({
  root: here('.'),
  base: './',
  // The demo imports toolhost the way a user does; the aliases point at the sources.
  resolve: {
    alias: [
      { find: /^toolhost\/web$/, replacement: here('../web/index.ts') },
      { find: /^toolhost\/agent$/, replacement: here('../src/agent/index.ts') },
      { find: /^toolhost\/web\/zenfs$/, replacement: here('../web/zenfs.ts') },
      { find: /^toolhost\/web\/folders$/, replacement: here('../web/folders.ts') },
      { find: /^toolhost$/, replacement: here('../src/index.ts') },
    ],
  },
  // In browsers the libraries that only some calls need load by URL (lazy/*.min.js, generated): make sure they are there.
  plugins: [{ name: 'lazy-bundles', buildStart: () => ensureLazyBundles() }],
  server: { host: '127.0.0.1', port: demoPort(process.env.PORT), strictPort: true },
  preview: { host: '127.0.0.1', port: 4173 },
  worker: { format: 'es' },
  build: { outDir: here('../demo-dist'), emptyOutDir: true, target: 'es2022' },
});
