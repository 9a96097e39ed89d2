// The README's worker example, built as a user's app builds it (Vite defaults: an iife worker, which
// inlines every dynamic import), carries none of the optional features' code. Its size is a figure
// of `npm run bench` (bench/bundle.bench.mjs), not a test.
import { describe, expect, it } from 'vitest';
import { buildReadmeWorker } from '../../scripts/readme-worker.mjs';

/** Packages that only the users of a feature may bundle: ZenFS (mounts), ajv's compiler (runtime schemas), just-bash (the shell). */
const FORBIDDEN = ['/node_modules/@zenfs/', '/node_modules/ajv/', '/node_modules/just-bash/'];
/**
 * The one piece of ajv the default worker keeps: the 20-line string-length helper that the built-in
 * tools' precompiled validators import (ajv standalone output); the compiler itself never enters.
 */
const ALLOWED = ['/node_modules/ajv/dist/runtime/ucs2length.js'];

describe("README's worker example", () => {
  it('builds with Vite defaults (iife worker, inlined dynamic imports) with no ZenFS, ajv compiler or just-bash in it', async () => {
    const { code, modules } = await buildReadmeWorker();
    expect(modules.size).toBeGreaterThan(20);
    const offenders = [...modules.keys()].filter((id) => FORBIDDEN.some((f) => id.includes(f)) && !ALLOWED.some((a) => id.endsWith(a)));
    expect(offenders).toEqual([]);
    // And by content, in case a module id were rewritten: strings of ZenFS's context, just-bash's limits and ajv's core.
    const text = code.toString('utf8');
    for (const marker of ['No file system for', 'maxCommandCount', 'strictSchema']) expect(text.includes(marker), marker).toBe(false);
  });
});
