// Prints the plain closing line 'N passed, N failed' (', N skipped') from vitest's JSON report, so CI
// logs end with a count any reader understands. Exits 1 when the report is missing or ran no test.
import { readFileSync } from 'node:fs';

const file = process.argv[2] ?? 'test-results/vitest.json';
let report;
try {
  report = JSON.parse(readFileSync(file, 'utf8'));
} catch (error) {
  console.error(`test-summary: cannot read ${file}: ${error.message}`);
  process.exit(1);
}
const passed = report.numPassedTests ?? 0;
const failed = (report.numFailedTests ?? 0) + (report.numFailedTestSuites ?? 0);
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
console.log(`tests: ${passed} passed, ${failed} failed` + (skipped > 0 ? `, ${skipped} skipped` : ''));
if (passed + failed === 0) process.exit(1);
