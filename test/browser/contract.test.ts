import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, newProfile, removeProfile, requireChromium, startServer, type BrowserSession, type TestServer } from './harness.js';

declare const contract: { run(): Promise<Array<{ name: string; ok: boolean; error?: string; ms: number }>> };

let server: TestServer;
let session: BrowserSession;
let profile: string;
beforeAll(async () => {
  requireChromium();
  server = await startServer();
  profile = newProfile();
  session = await launch(profile, server.page('contract.html'));
  await session.page.waitForFunction(() => document.title === 'toolhost contract page ready');
});
afterAll(async () => {
  await session?.close();
  await server?.close();
  if (profile) removeProfile(profile);
});

describe('platform contract in Chromium', () => {
  it('passes every check of test/contract/platform-contract.ts on the web platform (IndexedDB and memory backends)', async () => {
    const outcomes = await session.page.evaluate(() => contract.run());
    const selfCheck = outcomes.filter((o) => o.name.startsWith('shim self-check'));
    expect(selfCheck.map((o) => [o.ok, /expected/.test(o.error ?? '')])).toEqual([
      [false, true],
      [false, true],
    ]);
    const suite = outcomes.filter((o) => !o.name.startsWith('shim self-check'));
    expect(suite.length).toBe(12);
    expect(suite.filter((o) => !o.ok).map((o) => `${o.name}: ${o.error}`)).toEqual([]);
  });
});
