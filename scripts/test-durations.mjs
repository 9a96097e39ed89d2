#!/usr/bin/env node
// Writes test/durations.json: each test file's duration in seconds (the longest of its projects), from
// the JSON report of a full run (`npm test` writes test-results/vitest.json). vite.config.ts starts the
// longest files first by these when vitest's own cache has no time for a file (a fresh clone, CI), so
// that the two workers end together. Only the order depends on them: refresh after a test file grows
// or shrinks a lot.
//
//   node scripts/test-durations.mjs [test-results/vitest.json]
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(fileURLToPath(new URL('.', import.meta.url)), '..');
const report = JSON.parse(readFileSync(process.argv[2] ?? join(ROOT, 'test-results', 'vitest.json'), 'utf8'));
const seconds = {};
for (const file of report.testResults) {
  const path = relative(ROOT, file.name).split('\\').join('/');
  const duration = Math.round((file.endTime - file.startTime) / 100) / 10;
  seconds[path] = Math.max(seconds[path] ?? 0, duration);
}
const sorted = Object.fromEntries(Object.entries(seconds).sort(([a], [b]) => (a < b ? -1 : 1)));
writeFileSync(join(ROOT, 'test', 'durations.json'), `${JSON.stringify(sorted, null, 2)}\n`);
console.log(`test/durations.json: ${Object.keys(sorted).length} files`);
