#!/usr/bin/env node
// Writes test/durations.json: each test file's duration in seconds (the longest of its projects), from
// the JSON report of a full run (`npm test` writes test-results/vitest.json; a report of another clone
// is read relative to that clone). vite.config.ts starts the
// longest files first by these when vitest's own cache has no time for a file (a fresh clone, CI), so
// that the two workers end together. Only the order depends on them: refresh after a test file grows
// or shrinks a lot.
//
//   node scripts/test-durations.mjs [test-results/vitest.json]
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(fileURLToPath(new URL('.', import.meta.url)), '..');
const reportPath = resolve(process.argv[2] ?? join(ROOT, 'test-results', 'vitest.json'));
const report = JSON.parse(readFileSync(reportPath, 'utf8'));
// Paths relative to the checkout that wrote the report (its test-results/ folder's parent), so that a
// report of another clone (CI's) names the same files as this one.
const reportRoot = dirname(dirname(reportPath));
const seconds = {};
for (const file of report.testResults) {
  const path = relative(reportRoot, file.name).split('\\').join('/');
  const duration = Math.round((file.endTime - file.startTime) / 100) / 10;
  seconds[path] = Math.max(seconds[path] ?? 0, duration);
}
const sorted = Object.fromEntries(Object.entries(seconds).sort(([a], [b]) => (a < b ? -1 : 1)));
writeFileSync(join(ROOT, 'test', 'durations.json'), `${JSON.stringify(sorted, null, 2)}\n`);
console.log(`test/durations.json: ${Object.keys(sorted).length} files`);
