import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type Plugin } from 'vite';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** Packages that only the users of a feature may bundle: ZenFS (mounts), ajv's compiler (runtime schemas), just-bash (the shell). */
const FORBIDDEN = ['/node_modules/@zenfs/', '/node_modules/ajv/', '/node_modules/just-bash/'];
/**
 * The one piece of ajv the default worker keeps: the 20-line string-length helper that the built-in
 * tools' precompiled validators import (ajv standalone output); the compiler itself never enters.
 */
const ALLOWED = ['/node_modules/ajv/dist/runtime/ucs2length.js'];

/** Records every module of the worker bundle (the output is unchanged: the plugin only looks). */
function recorder(seen: Set<string>): Plugin {
  return {
    name: 'record-modules',
    moduleParsed: (info) => void seen.add(info.id),
    generateBundle(_o, bundle) {
      if (!process.env.TOOLHOST_BUNDLE_REPORT) return;
      for (const c of Object.values(bundle)) if (c.type === 'chunk') console.log(Object.entries(c.modules).map(([id, m]) => [m.renderedLength, id.replace(ROOT, '')] as const).sort((a, b) => b[0] - a[0]).slice(0, 40).map((x) => x.join(' ')).join('\n'));
    },
  };
}

describe("README's worker example", () => {
  it('builds with Vite defaults (iife worker, inlined dynamic imports) to at most 60 KB gzip, with no ZenFS, ajv compiler or just-bash in it', async () => {
    const example = /```ts\n(\/\/ worker\.ts\n[\s\S]*?)```/.exec(README)?.[1];
    expect(example, 'README has a ```ts block starting with // worker.ts').toBeDefined();
    const [worker, page] = (example as string).split(/^\/\/ page\.ts\n/m);
    expect(page).toBeDefined();
    const dir = mkdtempSync(join(tmpdir(), 'toolhost-readme-worker-'));
    const seen = new Set<string>();
    try {
      writeFileSync(join(dir, 'worker.ts'), worker as string);
      writeFileSync(join(dir, 'page.ts'), page as string);
      writeFileSync(join(dir, 'index.html'), '<!doctype html><html><head><title>app</title></head><body><script type="module" src="./page.ts"></script></body></html>');
      await build({
        root: dir,
        configFile: false,
        logLevel: 'error',
        // toolhost as a user's app gets it, pointed at the sources.
        resolve: {
          alias: [
            { find: /^toolhost\/web$/, replacement: join(ROOT, 'web', 'index.ts') },
            { find: /^toolhost$/, replacement: join(ROOT, 'src', 'index.ts') },
          ],
        },
        worker: { plugins: () => [recorder(seen)] },
        build: { outDir: join(dir, 'dist') },
      });
      const assets = join(dir, 'dist', 'assets');
      const workers = readdirSync(assets).filter((name) => name.startsWith('worker') && name.endsWith('.js'));
      expect(workers).toHaveLength(1);
      const code = readFileSync(join(assets, workers[0] as string));
      const gzipKb = gzipSync(code).length / 1024;
      console.log(`README worker: ${(code.length / 1024).toFixed(1)} KB, ${gzipKb.toFixed(1)} KB gzip, ${seen.size} modules`);
      expect(gzipKb).toBeLessThanOrEqual(60);
      expect(seen.size).toBeGreaterThan(20);
      const offenders = [...seen].filter((id) => FORBIDDEN.some((f) => id.includes(f)) && !ALLOWED.some((a) => id.endsWith(a)));
      expect(offenders).toEqual([]);
      // And by content, in case a module id were rewritten: strings of ZenFS's context, just-bash's limits and ajv's core.
      const text = code.toString('utf8');
      for (const marker of ['No file system for', 'maxCommandCount', 'strictSchema']) expect(text.includes(marker), marker).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
