import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// scripts/test-summary.mjs prints the closing line of `npm test` and .ci/run from vitest's JSON
// reports. These reports are crafted in the shape vitest 4's JSON reporter writes: numFailedTestSuites
// counts every failed suite, the file and each describe block around a failed test alike.
const SCRIPT = join(import.meta.dirname, '..', 'scripts', 'test-summary.mjs');
const dir = mkdtempSync(join(tmpdir(), 'toolhost-summary-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Status = 'passed' | 'failed' | 'skipped' | 'pending' | 'todo';

function file(name: string, status: 'passed' | 'failed', tests: Status[], message = '', failure = ''): object {
  return {
    name: `/repo/${name}`,
    status,
    message,
    startTime: 0,
    endTime: 10,
    assertionResults: tests.map((s, i) => ({ ancestorTitles: ['outer', 'inner'], title: `t${i}`, fullName: `outer inner t${i}`, status: s, failureMessages: s === 'failed' && failure !== '' ? [failure] : [] })),
  };
}

function report(counts: Record<string, number>, testResults: object[]): object {
  return { numTotalTestSuites: 0, numPassedTestSuites: 0, numPendingTestSuites: 0, numTotalTests: 0, numPendingTests: 0, numTodoTests: 0, success: false, startTime: 0, ...counts, testResults };
}

function write(name: string, content: object): string {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(content));
  return path;
}

function summary(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, [SCRIPT, ...args], { encoding: 'utf8' });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

// 7 failed tests in two files, each inside two describe blocks (vitest: 7 failed tests, 6 failed
// suites), and a file that failed to load (no test at all: 1 failed suite).
const SEVEN_FAILED = report({ numPassedTests: 3, numFailedTests: 7, numFailedTestSuites: 7 }, [
  file('a.test.ts', 'failed', ['failed', 'failed', 'failed', 'failed', 'passed'], '', '\n\u001b[31mAssertionError: expected 2 to be 3\u001b[39m\n    at a.test.ts:4:5'),
  file('b.test.ts', 'failed', ['failed', 'failed', 'failed', 'passed', 'passed']),
  file('c.test.ts', 'failed', [], 'Failed to load url ./missing.js'),
]);

describe('scripts/test-summary.mjs', () => {
  it('counts a failed test once, whatever suites around it failed too, and a file that failed with no failed test once', () => {
    const a = (i: number) => `FAILED /repo/a.test.ts > outer inner t${i}: AssertionError: expected 2 to be 3\n`;
    const b = (i: number) => `FAILED /repo/b.test.ts > outer inner t${i}\n`;
    expect(summary(write('seven.json', SEVEN_FAILED))).toEqual({
      status: 0,
      stdout: `${a(0)}${a(1)}${a(2)}${a(3)}${b(0)}${b(1)}${b(2)}FAILED /repo/c.test.ts: Failed to load url ./missing.js\ntests: 3 passed, 8 failed\n`,
      stderr: '',
    });
  });

  it('counts a file whose hook failed (its tests skipped) once, and adds skipped and todo tests', () => {
    const hook = report({ numPassedTests: 2, numFailedTests: 0, numFailedTestSuites: 2, numPendingTests: 3, numTodoTests: 1 }, [
      file('hook.test.ts', 'failed', ['passed', 'skipped', 'skipped', 'skipped', 'todo'], 'beforeAll failed'),
      file('ok.test.ts', 'passed', ['passed']),
    ]);
    expect(summary(write('hook.json', hook))).toEqual({ status: 0, stdout: 'FAILED /repo/hook.test.ts: beforeAll failed\ntests: 2 passed, 1 failed, 4 skipped\n', stderr: '' });
  });

  it('adds several reports up under the label given', () => {
    const passing = report({ numPassedTests: 5, numFailedTests: 0, numFailedTestSuites: 0 }, [file('d.test.ts', 'passed', ['passed', 'passed', 'passed', 'passed', 'passed'])]);
    const run = summary('--label', 'total', write('seven2.json', SEVEN_FAILED), write('passing.json', passing));
    expect(run.stdout.split('\n').filter((l) => l.startsWith('FAILED [seven2] /repo/'))).toHaveLength(8);
    expect(run).toEqual({
      status: 0,
      stdout: expect.stringMatching(/^(FAILED \[seven2\] [^\n]+\n){8}total: 8 passed, 8 failed\n$/),
      stderr: '',
    });
  });

  it('cuts a long error line to 200 characters and names a file inside the working folder by its relative path', () => {
    const long = report({ numPassedTests: 0, numFailedTests: 1 }, [
      { ...file('x.test.ts', 'failed', ['failed'], '', `Error: ${'y'.repeat(300)}`), name: join(process.cwd(), 'test', 'x.test.ts') },
    ]);
    const line = summary(write('long.json', long)).stdout.split('\n')[0]!;
    expect(line).toBe(`FAILED ${join('test', 'x.test.ts')} > outer inner t0: Error: ${'y'.repeat(192)}…`);
    expect(line.length - 'FAILED test/x.test.ts > outer inner t0: '.length).toBe(200);
  });

  it('prints 0 passed, 0 failed and exits 1 when no test ran', () => {
    expect(summary(write('empty.json', report({ numPassedTests: 0, numFailedTests: 0, numFailedTestSuites: 0 }, [])))).toEqual({
      status: 1,
      stdout: 'tests: 0 passed, 0 failed\n',
      stderr: '',
    });
  });

  it('exits 1 naming the report it cannot read, and 2 for a label that is not one word', () => {
    const missing = join(dir, 'missing.json');
    expect(summary(missing)).toEqual({ status: 1, stdout: '', stderr: `test-summary: cannot read ${missing}: ENOENT: no such file or directory, open '${missing}'\n` });
    expect(summary('--label', 'two words', write('passing2.json', report({ numPassedTests: 1 }, [])))).toMatchObject({
      status: 2,
      stdout: '',
      stderr: 'test-summary: --label must be one word (letters, digits, - or _), not "two words"\n',
    });
  });
});
