// A browser stand-in for the parts of `vitest` the shared contract suite uses (describe, it, expect),
// so test/contract/platform-contract.ts runs unchanged inside Chromium. The test-page build aliases
// `vitest` to this file. `expect` is vitest's own (@vitest/expect on chai), set up as vitest does.
import { ASYMMETRIC_MATCHERS_OBJECT, chai, getState, JestAsymmetricMatchers, JestChaiExpect, JestExtend, setState } from '@vitest/expect';

chai.use(JestExtend);
chai.use(JestChaiExpect);
chai.use(JestAsymmetricMatchers);

type ExpectFn = ((value: unknown, message?: string) => unknown) & Record<string, unknown>;

export const expect: ExpectFn = ((value: unknown, message?: string) => {
  const { assertionCalls } = getState(expect as never) as { assertionCalls: number };
  setState({ assertionCalls: assertionCalls + 1 }, expect as never);
  return chai.expect(value, message);
}) as ExpectFn;
Object.assign(expect, chai.expect);
Object.assign(expect, (globalThis as Record<symbol, unknown>)[ASYMMETRIC_MATCHERS_OBJECT as unknown as symbol]);
setState(
  {
    assertionCalls: 0,
    isExpectingAssertions: false,
    isExpectingAssertionsError: null,
    expectedAssertionsNumber: null,
    expectedAssertionsNumberErrorGen: null,
    testPath: 'contract.html',
    currentTestName: '',
  } as never,
  expect as never,
);

interface Collected {
  name: string;
  fn: () => unknown;
}

const collected: Collected[] = [];
const prefix: string[] = [];

export function describe(name: string, fn: () => void): void {
  prefix.push(name);
  try {
    fn();
  } finally {
    prefix.pop();
  }
}

export function it(name: string, fn: () => unknown): void {
  collected.push({ name: [...prefix, name].join(' > '), fn });
}

/** One collected test's outcome. */
export interface TestOutcome {
  name: string;
  ok: boolean;
  error?: string;
  ms: number;
}

/** Runs every collected test in order and reports each outcome. */
export async function runCollected(): Promise<TestOutcome[]> {
  const out: TestOutcome[] = [];
  for (const test of collected) {
    const t0 = performance.now();
    try {
      await test.fn();
      out.push({ name: test.name, ok: true, ms: Math.round(performance.now() - t0) });
    } catch (error) {
      const e = error as { message?: string; stack?: string };
      out.push({ name: test.name, ok: false, error: String(e.message ?? error), ms: Math.round(performance.now() - t0) });
    }
  }
  return out;
}
