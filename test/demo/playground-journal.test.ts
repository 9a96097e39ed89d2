// The playground's Changes tab in Debian Chromium: the conversation's per-turn timeline with each call's
// diff, "Rewind to here", and review mode's Accept / Reject per hunk, all through the runner in the
// workspace's tool worker. Set-up as test/demo/playground.test.ts, on the example workspace a fresh
// profile starts with.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, launch, ROOT, settled, startDemo, type Browser, type DemoServer } from './harness.js';

const SHOTS = join(ROOT, 'test-results', 'playground');

const TWELVE = 'one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\neleven\ntwelve\n';

/** Runs one call from the tool console (in the current conversation); the parsed result or the error code. */
async function call(page: Page, tool: string, args: unknown): Promise<{ code?: string; result?: unknown }> {
  await page.click('#console-tab');
  await page.click(`#tool-list button[data-tool="${tool}"]`);
  if ((await page.getAttribute('#as-json', 'aria-pressed')) !== 'true') await page.click('#as-json');
  await page.fill('#args-json', JSON.stringify(args));
  await page.evaluate(() => document.getElementById('result')?.replaceChildren());
  await page.click('#run');
  await page.waitForSelector('#result .outcome');
  await settled(page);
  const badge = await page.$('#result .code-badge');
  if (badge) return { code: (await badge.textContent()) ?? '' };
  return { result: JSON.parse((await page.textContent('#result pre.json')) ?? 'null') as unknown };
}

/** The diff lines (class and text) shown under a selector. */
const diffLines = (page: Page, selector: string): Promise<string[][]> =>
  page.$$eval(`${selector} .diff span`, (els) => els.map((el) => [el.className, el.textContent ?? '']));

/** The changed lines (`+`/`-`) of a diff shown under a selector. */
const changedLines = async (page: Page, selector: string): Promise<string[]> =>
  (await diffLines(page, selector)).filter(([kind]) => kind === 'add' || kind === 'del').map(([, text]) => text as string);

async function showChanges(page: Page): Promise<void> {
  await page.click('#changes-tab');
  await expect.poll(() => page.getAttribute('#changes-tab', 'aria-selected')).toBe('true');
}

describe('playground Changes tab: timeline, rewind and review', () => {
  let server: DemoServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    // The demo's build and server start beside Chromium's launch.
    [server, browser] = await Promise.all([startDemo(), launch()]);
    page = await browser.open(server.url);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('shows each turn with its calls and per-call diffs, and rewinds to an earlier turn', async () => {
    expect(await page.$eval('#conversation', (el) => (el as HTMLSelectElement).value)).toBe('chat-1');
    expect((await call(page, 'create_file', { file_path: 'plan.txt', content: 'alpha\nbeta\n' })).result).toMatchObject({ created: true });
    expect((await call(page, 'edit_file', { file_path: 'plan.txt', old_string: 'beta', new_string: 'gamma' })).result).toMatchObject({ replacements: 1 });
    expect((await call(page, 'create_file', { file_path: 'twelve.txt', content: TWELVE })).result).toMatchObject({ created: true });

    await showChanges(page);
    await expect.poll(() => page.textContent('#journal-info')).toBe('3 turns of chat-1 changed files.');
    expect(await page.$$eval('#timeline .turn', (els) => els.map((el) => [(el as HTMLElement).dataset.turn, [...el.querySelectorAll('.call')].map((c) => (c as HTMLElement).dataset.tool)]))).toEqual([
      ['1', ['create_file']],
      ['2', ['edit_file']],
      ['3', ['create_file']],
    ]);
    expect(await changedLines(page, '#timeline .turn[data-turn="1"] .call-file[data-path="/workspace/plan.txt"]')).toEqual(['+alpha', '+beta']);
    expect(await changedLines(page, '#timeline .turn[data-turn="2"] .call-file[data-path="/workspace/plan.txt"]')).toEqual(['-beta', '+gamma']);

    await page.click('#timeline .turn[data-turn="1"] button[data-rewind-to="1"]');
    await expect.poll(() => page.textContent('#rewind-result')).toBe('Rewound to turn 1: restored plan.txt, twelve.txt.');
    // The rewind is a turn of its own, listed last.
    await expect.poll(() => page.$$eval('#timeline .turn', (els) => els.map((el) => (el as HTMLElement).dataset.turn))).toEqual(['1', '2', '3', '4']);
    await page.locator('#changes-panel').screenshot({ path: join(SHOTS, 'changes-timeline.png') });
    // The conversation as a cassette: every call with its turn, the rewind included.
    await showChanges(page);
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#cassette-download')]);
    expect(download.suggestedFilename()).toBe('chat-1.cassette.json');
    const cassette = JSON.parse(readFileSync(await download.path(), 'utf8')) as { conversationId: string; calls: Array<{ turn: number; via: string; tool: string }> };
    expect(cassette.conversationId).toBe('chat-1');
    expect(cassette.calls.map((c) => [c.turn, c.via, c.tool])).toEqual([
      [1, 'batch', 'create_file'],
      [2, 'batch', 'edit_file'],
      [3, 'batch', 'create_file'],
      [4, 'rewind', 'rewind'],
    ]);
    expect((await call(page, 'view_file', { file_path: 'plan.txt' })).result).toMatchObject({ content: 'alpha\nbeta' });
    expect((await call(page, 'view_file', { file_path: 'twelve.txt' })).code).toBe('not_found');
  }, 60_000);

  it('in review mode accepts one hunk and rejects another: the workspace file holds exactly the accepted text', async () => {
    // The base file, written in chat-1 (not reviewed).
    expect((await call(page, 'create_file', { file_path: 'twelve.txt', content: TWELVE })).result).toMatchObject({ created: true });
    await page.click('#conv-new');
    await expect.poll(() => page.$eval('#conversation', (el) => (el as HTMLSelectElement).value)).toBe('chat-2');
    await showChanges(page);
    await page.check('#review-switch');
    await expect.poll(() => page.textContent('#pending-info')).toBe('Nothing pending: the workspace holds everything this conversation wrote.');

    expect((await call(page, 'edit_file', { file_path: 'twelve.txt', old_string: 'one\n', new_string: 'ONE\n' })).result).toMatchObject({ replacements: 1 });
    expect((await call(page, 'edit_file', { file_path: 'twelve.txt', old_string: 'twelve', new_string: 'TWELVE' })).result).toMatchObject({ replacements: 1 });
    await showChanges(page);
    const file = '#pending-files .pending-file[data-path="/workspace/twelve.txt"]';
    await expect.poll(() => page.$$eval(`${file} .pending-hunk`, (els) => els.length)).toBe(2);
    expect(await changedLines(page, `${file} .pending-hunk[data-hunk="1"]`)).toEqual(['-one', '+ONE']);
    expect(await changedLines(page, `${file} .pending-hunk[data-hunk="2"]`)).toEqual(['-twelve', '+TWELVE']);
    expect(await page.getAttribute(`${file} .pending-hunk[data-hunk="1"] button.accept-hunk`, 'aria-label')).toBe('Accept change 1 (lines 1–4 of twelve.txt)');

    await page.locator('#changes-panel').screenshot({ path: join(SHOTS, 'changes-review.png') });
    // The review controls (switch, per-file and per-hunk buttons) have names: no serious or critical axe-core violation.
    const violations = await axeViolations(page, '#changes-panel');
    expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
    await page.click(`${file} .pending-hunk[data-hunk="1"] button.accept-hunk`);
    await expect.poll(() => page.$$eval(`${file} .pending-hunk`, (els) => els.length)).toBe(1);
    expect(await changedLines(page, `${file} .pending-hunk[data-hunk="1"]`)).toEqual(['-twelve', '+TWELVE']);
    await page.fill('#reject-reason', 'keep the last line');
    await page.click(`${file} .pending-hunk[data-hunk="1"] button.reject-hunk`);
    await expect.poll(() => page.textContent('#pending-info')).toBe('Nothing pending: the workspace holds everything this conversation wrote.');

    // The workspace as the file viewer (the admin channel, not the model's view) reads it.
    await page.click('#tree button[data-path="/workspace/twelve.txt"]');
    await expect.poll(() => page.$$eval('#viewer .line', (els) => els.map((el) => el.textContent).join(''))).toBe(TWELVE.replace('one\n', 'ONE\n'));
    // The accept is a journal turn of chat-2; the model hears of the rejection with its next call.
    expect(await page.$$eval('#timeline .call', (els) => els.map((el) => (el as HTMLElement).dataset.tool))).toEqual(['accept']);
    const next = await call(page, 'view_file', { file_path: 'twelve.txt', end_line: 1 });
    expect(JSON.stringify(next.result)).toContain('keep the last line');
    expect(browser.errors).toEqual([]);
  }, 60_000);
});
