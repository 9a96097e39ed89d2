import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, newProfile, removeProfile, requireChromium, startServer, type BrowserSession, type TestServer } from './harness.js';

type Result = { id?: string; name: string; result?: any; error?: string; code?: string };
type Envelope = { ok: boolean; value?: any; code?: string; message?: string };
declare const th: {
  start(config: Record<string, unknown>): Promise<number>;
  startLocked(config: Record<string, unknown>): Promise<string>;
  call(calls: unknown[], options?: unknown): Promise<Result[]>;
  tools(): Promise<Envelope>;
  registerShout(): Promise<Envelope>;
  stop(): Promise<void>;
};

let server: TestServer;
let session: BrowserSession;
let profile: string;
beforeAll(async () => {
  requireChromium();
  server = await startServer();
  profile = newProfile();
  session = await launch(profile, server.page('index.html'));
  await session.page.waitForFunction(() => document.title === 'toolhost test page ready');
});
afterAll(async () => {
  await session?.close();
  await server?.close();
  if (profile) removeProfile(profile);
});

describe('execute-form and classic tools in the browser worker', () => {
  it('run side by side: a zod tool in the worker, a zod tool on the page, classic tools and built-ins', async () => {
    const { page } = session;
    await page.evaluate(() => th.start({ workspace: 'shapes' }));
    expect(await page.evaluate(() => th.registerShout())).toEqual({ ok: true, value: undefined });
    const results = await page.evaluate(() =>
      th.call([
        { id: 'w1', name: 'word_count', args: { text: '  two words ', min: '2' } },
        { id: 'w2', name: 'word_count', args: { text: 'x', min: 3 } },
        { id: 'w3', name: 'word_count', args: { text: 'x', extra: 1 } },
        { id: 'c1', name: 'remember', args: { key: 'k', value: 1 } },
        { id: 'c2', name: 'recall', args: { keys: ['k'] } },
        { id: 'p1', name: 'page_shout', args: { word: 'hey' } },
        { id: 'p2', name: 'page_shout', args: { word: 'two words' } },
        { id: 'b1', name: 'create_file', args: { file_path: 'a.txt', content: 'a' } },
      ]),
    );
    expect(results).toEqual([
      { id: 'w1', name: 'word_count', result: { words: 2, trimmed: 'two words', enough: true, conversation: 'default' } },
      { id: 'w2', name: 'word_count', code: 'invalid_arguments', error: 'invalid arguments for word_count: min must be even' },
      // zod's z.object strips a key it does not know (z.strictObject would refuse it).
      { id: 'w3', name: 'word_count', result: { words: 1, trimmed: 'x', enough: true, conversation: 'default' } },
      { id: 'c1', name: 'remember', result: { stored: 'k' } },
      { id: 'c2', name: 'recall', result: { k: 1 } },
      { id: 'p1', name: 'page_shout', result: { shouted: 'HEY!' } },
      { id: 'p2', name: 'page_shout', code: 'invalid_arguments', error: 'invalid arguments for page_shout: word: one word only' },
      { id: 'b1', name: 'create_file', result: expect.objectContaining({ file_path: '/workspace/a.txt' }) },
    ]);
    const tools = await page.evaluate(() => th.tools());
    const byName = Object.fromEntries((tools.value as Array<{ name: string; annotations: unknown; parameters: unknown }>).map((t) => [t.name, t]));
    expect(byName.word_count?.annotations).toEqual({ readOnlyHint: true, title: 'Word count' });
    expect(byName.word_count?.parameters).toEqual({
      type: 'object',
      properties: { text: { type: 'string' }, min: { type: 'integer', default: 0, minimum: -9007199254740991, maximum: 9007199254740991 } },
      required: ['text'],
      additionalProperties: false,
    });
    expect(byName.page_shout?.annotations).toEqual({ readOnlyHint: true });
    expect(byName.create_file?.annotations).toMatchObject({ readOnlyHint: false });
    await page.evaluate(() => th.stop());
  });

  it('lists the tools through the workspace runner too (Web Locks leader)', async () => {
    const { page } = session;
    expect(await page.evaluate(() => th.startLocked({ workspace: 'shapes-locked' }))).toBe('leader');
    const tools = await page.evaluate(() => th.tools());
    expect((tools.value as Array<{ name: string }>).map((t) => t.name)).toContain('word_count');
    const [result] = await page.evaluate(() => th.call([{ name: 'word_count', args: { text: 'a b c' } }]));
    expect(result).toEqual({ name: 'word_count', result: { words: 3, trimmed: 'a b c', enough: true, conversation: 'default' } });
    await page.evaluate(() => th.stop());
  });
});
