import { describe, expect, it } from 'vitest';
import { openTestPage } from './harness.js';

declare const bench: {
  idbKeyvalSetMany(): Promise<number>;
  createFileCalls(durability?: 'strict' | 'relaxed', perBatch?: boolean): Promise<{ ms: number; stored: number }>;
  writesThenOneFlush(): Promise<number>;
  zenfsDomPromises(): Promise<number>;
  memoryCalls(): Promise<number>;
};

const opened = openTestPage('bench.html', 'toolhost bench page ready');

describe('web platform write path (1,000 files of 4 KiB, Chromium)', () => {
  it('stores every file of 1,000 create_file calls, each committed before its result, and reports the figures', async () => {
    const page = opened.session.page;
    const keyval = await page.evaluate(() => bench.idbKeyvalSetMany());
    const calls = await page.evaluate(() => bench.createFileCalls());
    // The comparison figures take a while on these machines: only with TOOLHOST_WRITE_FIGURES=1.
    const figures = Boolean(process.env.TOOLHOST_WRITE_FIGURES);
    const relaxed = figures ? await page.evaluate(() => bench.createFileCalls('relaxed')) : { ms: NaN, stored: 1000 };
    const batched = await page.evaluate(() => bench.createFileCalls('strict', true));
    const oneFlush = figures ? await page.evaluate(() => bench.writesThenOneFlush()) : NaN;
    const memory = figures ? await page.evaluate(() => bench.memoryCalls()) : NaN;
    const zenfs = figures ? await page.evaluate(() => bench.zenfsDomPromises()) : undefined;
    console.log(
      `[write path] idb-keyval setMany: ${keyval} ms; 1,000 create_file calls (one strict commit each): ${calls.ms} ms` +
        ` (${(calls.ms / keyval).toFixed(1)}x); through ToolRunner honouring platform.batch (one strict commit for the batch): ${batched.ms} ms (${(batched.ms / keyval).toFixed(1)}x); per call with relaxed durability: ${relaxed.ms} ms (${(relaxed.ms / keyval).toFixed(1)}x); 1,000 writes + one flush: ${oneFlush} ms (${(oneFlush / keyval).toFixed(1)}x)` +
        `; the same calls on the memory platform: ${memory} ms` +
        (zenfs === undefined ? '' : `; @zenfs/dom promise API: ${zenfs} ms (${(zenfs / keyval).toFixed(1)}x)`),
    );
    expect(calls.stored).toBe(1000);
    expect(relaxed.stored).toBe(1000);
    expect(batched.stored).toBe(1000);
  }, 120_000);
});
