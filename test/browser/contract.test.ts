import { describe, expect, it } from 'vitest';
import { openTestPage } from './harness.js';

declare const contract: { run(): Promise<Array<{ name: string; ok: boolean; error?: string; ms: number }>> };

const opened = openTestPage('contract.html', 'toolhost contract page ready');

describe('platform contract in Chromium', () => {
  it('passes every check of test/contract/platform-contract.ts on the web platform (IndexedDB and memory backends)', async () => {
    const outcomes = await opened.session.page.evaluate(() => contract.run());
    const selfCheck = outcomes.filter((o) => o.name.startsWith('shim self-check'));
    expect(selfCheck.map((o) => [o.ok, /expected/.test(o.error ?? '')])).toEqual([
      [false, true],
      [false, true],
    ]);
    const suite = outcomes.filter((o) => !o.name.startsWith('shim self-check'));
    expect(suite.length).toBe(14);
    expect(suite.filter((o) => !o.ok).map((o) => `${o.name}: ${o.error}`)).toEqual([]);
  });
});
