// The playground's .zip import when it cannot all go in, and the Tool console's batch when the host
// refuses it, in Debian Chromium. Set-up as test/demo/playground.test.ts, on the example workspace a
// fresh profile starts with; the zips are built with fflate, as the playground's worker reads them.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strToU8, zipSync, type Zippable } from 'fflate';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, settled, startDemo, type Browser, type DemoServer } from './harness.js';

interface ImportReport {
  workspace: string;
  files: number;
  cancelled: boolean;
  error?: string;
  refused?: string[];
}

/** Imports a zip of `files` through the "Import .zip" input; what `playground.lastImport` reports. */
async function importZip(page: Page, dir: string, name: string, files: Zippable): Promise<ImportReport> {
  const path = join(dir, name);
  writeFileSync(path, zipSync(files));
  await page.evaluate(() => ((globalThis as unknown as { playground: { lastImport?: unknown } }).playground.lastImport = undefined));
  await page.locator('#import-zip-input').setInputFiles(path);
  await page.waitForFunction(() => (globalThis as unknown as { playground: { lastImport?: unknown } }).playground.lastImport !== undefined, undefined, { timeout: 60_000 });
  await settled(page);
  return page.evaluate(() => (globalThis as unknown as { playground: { lastImport: ImportReport } }).playground.lastImport);
}

const workspaces = (page: Page): Promise<string[]> => page.$$eval('#workspace option', (els) => els.map((el) => (el as HTMLOptionElement).value));
const openWorkspace = (page: Page): Promise<string> => page.$eval('#workspace', (el) => (el as HTMLSelectElement).value);

/** The import panel is gone and says nothing any more. */
async function expectPanelEnded(page: Page): Promise<void> {
  expect(await page.isHidden('#import-progress')).toBe(true);
  expect(await page.textContent('#import-text')).toBe('');
}

describe('playground import failures and batch errors', () => {
  let server: DemoServer;
  let browser: Browser;
  let page: Page;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'toolhost-zip-import-'));
    [server, browser] = await Promise.all([startDemo(), launch()]);
    page = await browser.open(server.url);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses zip entries whose path has a ".." segment, naming them, and imports the rest where they say', async () => {
    const report = await importZip(page, dir, 'slip.zip', {
      'normal.txt': strToU8('normal\n'),
      '../evil.txt': strToU8('evil\n'),
      'a/../../b.txt': strToU8('b\n'),
      'c\\..\\..\\win.txt': strToU8('win\n'),
      '/abs.txt': strToU8('abs\n'),
      'dir/./ok.txt': strToU8('ok\n'),
    });
    expect(report).toMatchObject({ workspace: 'slip', files: 3, cancelled: false, refused: ['../evil.txt', 'a/../../b.txt', 'c\\..\\..\\win.txt'] });
    expect(report.error).toBeUndefined();
    expect(await page.textContent('#busy')).toContain('Left out 3 zip entries whose path has a “..” segment: ../evil.txt, a/../../b.txt, c\\..\\..\\win.txt.');
    expect(await openWorkspace(page)).toBe('slip');
    await expect.poll(() => page.textContent('#tree-summary')).toMatch(/^3 files,/);
    const top = await page.$$eval('#tree button[data-path]', (els) => els.map((el) => (el as HTMLElement).dataset.path));
    expect(top).toEqual(expect.arrayContaining(['/workspace/normal.txt', '/workspace/abs.txt', '/workspace/dir']));
    expect(top).not.toContain('/workspace/evil.txt');
    expect(top).not.toContain('/workspace/a');
    await expectPanelEnded(page);
  }, 90_000);

  it('refuses a zip holding a file and a folder of one name before making a workspace, naming both', async () => {
    const before = await workspaces(page);
    const report = await importZip(page, dir, 'clash.zip', { 'normal.txt': strToU8('n\n'), 'e': strToU8('a file\n'), 'e/inner.txt': strToU8('inner\n') });
    expect(report.error).toBe('it holds a file “e” and also “e/inner.txt”, which needs a folder of that name: a path cannot be both');
    expect(await page.textContent('#busy')).toBe(`Import failed: ${report.error}. Nothing was imported.`);
    expect(await workspaces(page)).toEqual(before);
    expect(await openWorkspace(page)).toBe('slip');
    await expect.poll(() => page.textContent('#tree-summary')).toMatch(/^3 files,/);
    await expectPanelEnded(page);
  }, 90_000);

  it('removes the new workspace when a file cannot be written part-way, naming it and what is in its way', async () => {
    const before = await workspaces(page);
    // The import waits after its first chunk (100 files); meanwhile a tool call makes "d" a file, which
    // "d/x.txt" of the next chunk needs as a folder.
    await page.evaluate(() => {
      const playground = (globalThis as unknown as { playground: { importGate?: Promise<void> } }).playground;
      playground.importGate = new Promise((resolve) => ((globalThis as unknown as { releaseImport: () => void }).releaseImport = resolve));
    });
    const files: Zippable = {};
    for (let i = 0; i < 100; i += 1) files[`small-${String(i).padStart(3, '0')}.txt`] = strToU8(`file ${i}\n`);
    files['d/x.txt'] = strToU8('x\n');
    const path = join(dir, 'late.zip');
    writeFileSync(path, zipSync(files));
    await page.evaluate(() => ((globalThis as unknown as { playground: { lastImport?: unknown } }).playground.lastImport = undefined));
    await page.locator('#import-zip-input').setInputFiles(path);
    await expect.poll(() => page.textContent('#import-text'), { timeout: 30_000 }).toMatch(/^Importing into “late”: 100 of 101 files/);
    await page.click('#console-tab');
    await page.click('#tool-list button[data-tool="create_file"]');
    if ((await page.getAttribute('#as-json', 'aria-pressed')) !== 'true') await page.click('#as-json');
    await page.fill('#args-json', JSON.stringify({ file_path: 'd', content: 'in the way\n' }));
    await page.evaluate(() => document.getElementById('result')?.replaceChildren());
    await page.click('#run');
    await page.waitForSelector('#result .outcome.ok');
    await page.evaluate(() => {
      const scope = globalThis as unknown as { playground: { importGate?: Promise<void> }; releaseImport: () => void };
      scope.playground.importGate = undefined;
      scope.releaseImport();
    });
    await page.waitForFunction(() => (globalThis as unknown as { playground: { lastImport?: unknown } }).playground.lastImport !== undefined, undefined, { timeout: 30_000 });
    await settled(page);
    const report = await page.evaluate(() => (globalThis as unknown as { playground: { lastImport: ImportReport } }).playground.lastImport);
    expect(report).toMatchObject({ workspace: 'late', files: 0 });
    expect(report.error).toBe('“d/x.txt” could not be written: “d” is a file, so it cannot also be the folder “d/” that “d/x.txt” is in');
    expect(await page.textContent('#busy')).toBe(`Import failed: ${report.error}. The new workspace “late” was removed: nothing was imported.`);
    expect(await workspaces(page)).toEqual(before);
    // Back in the workspace open before, with its files in the tree.
    expect(await openWorkspace(page)).toBe('slip');
    await expect.poll(() => page.textContent('#tree-summary')).toMatch(/^3 files,/);
    await expectPanelEnded(page);
  }, 120_000);

  it('shows a batch the host refuses in the batch results, in place of the previous results; the batch time once', async () => {
    await page.click('#console-tab');
    await page.click('.batch summary');
    await page.fill('#batch-json', JSON.stringify([
      { id: '4', name: 'nope', args: {} },
      { id: '5', name: 'list_dir', args: { dir_path: '.' } },
    ]));
    await page.click('#run-batch');
    await page.waitForSelector('#batch-result .batch-item >> nth=1');
    await settled(page);
    // processToolCalls does not time each call: no per-item time, the batch's once.
    expect(await page.$$eval('#batch-result .batch-item .time', (els) => els.length)).toBe(0);
    expect(await page.$$eval('#batch-result > .time', (els) => els.map((el) => el.textContent))).toEqual([expect.stringMatching(/^2 results in \d+ ms$/)]);

    await page.fill('#batch-json', JSON.stringify([{ id: '1', name: 'list_dir', args: {} }, { id: '1', name: 'list_dir', args: {} }]));
    await page.click('#run-batch');
    await page.waitForSelector('#batch-result .error-message');
    await settled(page);
    expect(await page.$$eval('#batch-result .batch-item', (els) => els.length)).toBe(0);
    expect(await page.textContent('#batch-result .error-message')).toMatch(/share the id "1"/);

    await page.fill('#batch-json', JSON.stringify({ id: '5' }));
    await page.click('#run-batch');
    await expect.poll(() => page.textContent('#batch-result .error-message')).not.toMatch(/share the id/);
    expect(await page.$$eval('#batch-result .batch-item', (els) => els.length)).toBe(0);
    expect(await page.textContent('#busy')).not.toMatch(/^Error:/);
  }, 60_000);
});
