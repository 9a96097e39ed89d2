import { describe, expect, it } from 'vitest';
import { openTestPage } from './harness.js';

type Result = { id?: string; name: string; result?: any; error?: string; code?: string };
declare const th: {
  start(config: Record<string, unknown>, options?: { graceMs?: number }): Promise<number>;
  call(calls: unknown[], options?: unknown): Promise<Result[]>;
  restarts(): number;
  stored(workspace: string): Promise<{ ok: boolean; value?: any }>;
};

const opened = openTestPage('index.html', 'toolhost test page ready');

describe('hung worker', () => {
  it('answers a tool that blocks the worker with timeout within the deadline + 1 s, replaces the worker, and loses nothing acknowledged', async () => {
    const page = opened.session.page;
    await page.evaluate(() => th.start({ workspace: 'hang' }, { graceMs: 250 }));
    const line = `${'a'.repeat(40)}!`;
    const setup = await page.evaluate(
      (text) =>
        th.call([
          { name: 'create_file', args: { file_path: 'long.txt', content: `${text}\n` } },
          { name: 'create_file', args: { file_path: 'keep/me.txt', content: 'kept\n' } },
          { name: 'remember', args: { key: 'kept', value: [1, 2, 3] } },
        ]),
      line,
    );
    expect(setup.map((r) => r.code ?? 'ok')).toEqual(['ok', 'ok', 'ok']);
    const { elapsed, results } = await page.evaluate(async () => {
      const t0 = performance.now();
      const results = await th.call([{ name: 'spin', args: { ms: 60_000 } }], { timeoutMs: 1000 });
      return { elapsed: performance.now() - t0, results };
    });
    expect(results[0]?.code).toBe('timeout');
    expect(elapsed).toBeLessThan(2000);
    expect(await page.evaluate(() => th.restarts())).toBe(1);
    const after = await page.evaluate(() =>
      th.call([
        { name: 'view_file', args: { file_path: 'keep/me.txt' } },
        { name: 'recall', args: { keys: ['kept'] } },
        { name: 'create_file', args: { file_path: 'after.txt', content: 'after\n' } },
        { name: 'grep_search', args: { pattern: 'kep+t' } },
      ]),
    );
    expect(after.map((r) => r.code ?? 'ok')).toEqual(['ok', 'ok', 'ok', 'ok']);
    expect(after[0]?.result.content).toBe('kept');
    expect(after[1]?.result).toEqual({ kept: [1, 2, 3] });
    expect(after[3]?.result.matches.map((m: { file_path: string }) => m.file_path)).toEqual(['/workspace/keep/me.txt']);
    const stored = await page.evaluate(() => th.stored('hang'));
    expect(Object.keys(stored.value.files).sort()).toEqual(['/workspace/after.txt', '/workspace/keep/me.txt', '/workspace/long.txt']);
  });
});
