#!/usr/bin/env node
// Prints the plain closing line 'N passed, N failed' (', N skipped') from vitest's JSON reports, so CI
// logs end with a count any reader understands.
//
//   node scripts/test-summary.mjs [--label WORD] [report.json ...]   (default: test-results/vitest.json)
//
// Several reports (one run each, e.g. the same suite on two Node versions) add up. Failed counts the
// failed tests, plus once each test file that failed without a failed test of its own (it did not load,
// or a hook or an unhandled error in it failed): vitest's numFailedTestSuites is not added, since it
// counts the file and every describe block around a failed test again. Exits 1 when a report is missing
// or unreadable, or when the reports ran no test.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

/**
 * The counts of one vitest JSON report.
 * @param {any} report the parsed report (vitest's `--reporter=json` output)
 * @returns {{ passed: number, failed: number, skipped: number }}
 */
export function countReport(report) {
  const passed = report.numPassedTests ?? 0;
  const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  const files = Array.isArray(report.testResults) ? report.testResults : [];
  const failedFilesWithoutFailedTest = files.filter(
    (file) => file.status === 'failed' && !(file.assertionResults ?? []).some((test) => test.status === 'failed'),
  ).length;
  return { passed, failed: (report.numFailedTests ?? 0) + failedFilesWithoutFailedTest, skipped };
}

/**
 * The closing line for the sum of `counts`: `label: N passed, N failed` (`, N skipped` when any).
 * @param {{ passed: number, failed: number, skipped: number }[]} counts
 * @param {string} label one word
 */
export function summaryLine(counts, label = 'tests') {
  const total = counts.reduce((sum, c) => ({ passed: sum.passed + c.passed, failed: sum.failed + c.failed, skipped: sum.skipped + c.skipped }), {
    passed: 0,
    failed: 0,
    skipped: 0,
  });
  return { total, line: `${label}: ${total.passed} passed, ${total.failed} failed` + (total.skipped > 0 ? `, ${total.skipped} skipped` : '') };
}

function main(argv) {
  let label = 'tests';
  const files = [];
  for (let i = 0; i < argv.length; i += 1) {
    if (argv[i] === '--label') label = argv[++i] ?? label;
    else files.push(argv[i]);
  }
  if (files.length === 0) files.push('test-results/vitest.json');
  if (!/^[A-Za-z0-9_-]+$/.test(label)) {
    console.error(`test-summary: --label must be one word (letters, digits, - or _), not ${JSON.stringify(label)}`);
    return 2;
  }
  const counts = [];
  for (const file of files) {
    try {
      counts.push(countReport(JSON.parse(readFileSync(file, 'utf8'))));
    } catch (error) {
      console.error(`test-summary: cannot read ${file}: ${error.message}`);
      return 1;
    }
  }
  const { total, line } = summaryLine(counts, label);
  console.log(line);
  return total.passed + total.failed === 0 ? 1 : 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) process.exitCode = main(process.argv.slice(2));
