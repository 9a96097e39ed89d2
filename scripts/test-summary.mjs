#!/usr/bin/env node
// Prints the plain closing line 'N passed, N failed' (', N skipped') from vitest's JSON reports, so CI
// logs end with a count any reader understands. Above it, one 'FAILED' line per failed test (its file,
// its full name and the first line of its error) and per file that failed with no failed test, so the
// last lines of a log say what failed even when only its tail is kept.
//
//   node scripts/test-summary.mjs [--label WORD] [report.json ...]   (default: test-results/vitest.json)
//
// Several reports (one run each, e.g. the same suite on two Node versions) add up. Failed counts the
// failed tests, plus once each test file that failed without a failed test of its own (it did not load,
// or a hook or an unhandled error in it failed): vitest's numFailedTestSuites is not added, since it
// counts the file and every describe block around a failed test again. Exits 1 when a report is missing
// or unreadable, or when the reports ran no test.
import { readFileSync } from 'node:fs';
import { isAbsolute, relative } from 'node:path';
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

/** Longest error excerpt of a FAILED line, in characters. */
const EXCERPT = 200;

/** The first non-blank line of `message`, without ANSI colours, cut to EXCERPT characters. */
function firstLine(message) {
  const line = String(message ?? '').replace(/\u001b\[[0-9;]*m/g, '').split('\n').map((l) => l.trim()).find((l) => l !== '') ?? '';
  return line.length > EXCERPT ? `${line.slice(0, EXCERPT - 1)}…` : line;
}

/** `name` relative to the working folder when inside it. */
function shortPath(name) {
  const rel = relative(process.cwd(), String(name ?? ''));
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel : String(name ?? '');
}

/**
 * One line per failed test of `report` ('FAILED file > full name: first error line') and per file that
 * failed with no failed test ('FAILED file: its message').
 * @param {any} report the parsed report
 * @param {string} label the run's label, first on each line when there are several reports
 * @returns {string[]}
 */
export function failureLines(report, label = '') {
  const lines = [];
  const prefix = label === '' ? 'FAILED' : `FAILED [${label}]`;
  for (const file of Array.isArray(report.testResults) ? report.testResults : []) {
    const failed = (file.assertionResults ?? []).filter((test) => test.status === 'failed');
    for (const test of failed) {
      const error = firstLine((test.failureMessages ?? [])[0]);
      lines.push(`${prefix} ${shortPath(file.name)} > ${test.fullName ?? test.title}${error === '' ? '' : `: ${error}`}`);
    }
    if (file.status === 'failed' && failed.length === 0) {
      const error = firstLine(file.message);
      lines.push(`${prefix} ${shortPath(file.name)}${error === '' ? '' : `: ${error}`}`);
    }
  }
  return lines;
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
  const failures = [];
  for (const file of files) {
    try {
      const report = JSON.parse(readFileSync(file, 'utf8'));
      counts.push(countReport(report));
      failures.push(...failureLines(report, files.length > 1 ? file.replace(/^.*\//, '').replace(/\.json$/, '') : ''));
    } catch (error) {
      console.error(`test-summary: cannot read ${file}: ${error.message}`);
      return 1;
    }
  }
  const { total, line } = summaryLine(counts, label);
  for (const failure of failures) console.log(failure);
  console.log(line);
  return total.passed + total.failed === 0 ? 1 : 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) process.exitCode = main(process.argv.slice(2));
