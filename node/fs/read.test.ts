import { existsSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ToolRunner } from '../../src/runner.js';
import { viewFileTool, type ViewFileTextResult } from '../../src/tools/view-file.js';
import { createNodePlatform } from '../platform.js';
import { readRegularFile, readRegularFileRange } from './read.js';

const base = realpathSync(mkdtempSync(join(tmpdir(), 'toolhost-read-')));
afterAll(() => rmSync(base, { recursive: true, force: true }));

const text = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);
/** A pseudo-file of procfs: `stat` gives it 0 bytes, a read gives its content (Linux only). */
const PROC_STATUS = '/proc/self/status';
const hasProc = existsSync(PROC_STATUS);

describe('readRegularFileRange', () => {
  it('of a file with content: the window within its size, as before', async () => {
    const file = join(base, 'ten.txt');
    writeFileSync(file, '0123456789');
    expect(text(await readRegularFileRange(file, file, 2, 3))).toBe('234');
    expect(text(await readRegularFileRange(file, file, 8, 100))).toBe('89');
    expect((await readRegularFileRange(file, file, 10, 5)).length).toBe(0);
  });

  it('of a real empty file: no bytes', async () => {
    const file = join(base, 'empty.txt');
    writeFileSync(file, '');
    expect((await readRegularFileRange(file, file, 0, 1024)).length).toBe(0);
  });

  // Needs Linux's procfs.
  it.skipIf(!hasProc)('of a pseudo-file whose stat size is 0: read on to its end, within the length; a whole-file read still stops at size 0', async () => {
    const whole = text(await readRegularFileRange(PROC_STATUS, PROC_STATUS, 0, 1024 * 1024));
    expect(whole).toMatch(/^Name:\t/);
    expect(whole).toContain('\nVmRSS:');
    expect((await readRegularFileRange(PROC_STATUS, PROC_STATUS, 0, 5)).length).toBe(5);
    expect(text(await readRegularFileRange(PROC_STATUS, PROC_STATUS, 1, 4))).toBe('ame:');
    expect((await readRegularFile(PROC_STATUS, PROC_STATUS)).length).toBe(0);
  });
});

describe('view_file of a procfs pseudo-file on the Node platform', () => {
  // Needs Linux's procfs; both confinements read through the same helper.
  it.skipIf(!hasProc).each(['descriptors', 'paths'] as const)('with %s confinement, shows its content and says it is generated', async (confinement) => {
    const platform = createNodePlatform({ root: realpathSync('/proc/self'), confinement });
    try {
      const runner = new ToolRunner({ platform, tools: [viewFileTool] });
      const result = (await runner.execute('view_file', { file_path: 'status' })) as ViewFileTextResult;
      expect(result.content).toMatch(/^Name:\t/);
      expect(result.content).toContain('\nVmRSS:');
      expect(result.total_lines).toBeGreaterThan(5);
      expect(result.note).toMatch(/^The filesystem reports a size of 0 bytes for \/.*status, so its content is generated when it is read/);
    } finally {
      await platform.dispose?.();
    }
  });
});
