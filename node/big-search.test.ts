import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPackage } from '../test/support/build.js';

const MiB = 1024 * 1024;
const PEAK_LIMIT = 512 * MiB;

/** The one-line file: 200 MiB of text and no line break until its last byte. */
const LINE_BYTES = 200 * MiB;
/** Where its needles are: one inside the second window, one across the second window edge, one late. */
const NEEDLES: Array<[number, string]> = [
  [5 * MiB + 17, 'NEEDLE-1'],
  [16 * MiB - 3, 'NEEDLE-2'],
  [150 * MiB + 3, 'NEEDLE-3'],
];
/** The many-lines file: 30 million lines of 7 bytes, every thousandth with an X. */
const LINES = 30_000_000;

let base: string;
let child: string;

async function writeChunks(path: string, next: () => Buffer | null): Promise<void> {
  const out = createWriteStream(path);
  for (let chunk = next(); chunk !== null; chunk = next()) {
    if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  }
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
}

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'toolhost-big-search-')));
  const block = Buffer.alloc(MiB);
  const filler = 'lorem ipsum dolor sit amet, consectetur adipiscing elit ';
  for (let i = 0; i < MiB; i += 1) block[i] = filler.charCodeAt(i % filler.length);
  let written = 0;
  await writeChunks(join(base, 'one-line.txt'), () => {
    if (written >= LINE_BYTES + 1) return null;
    const chunk = Buffer.from(block);
    for (const [at, needle] of NEEDLES) {
      for (let i = 0; i < needle.length; i += 1) if (at + i >= written && at + i < written + MiB) chunk[at + i - written] = needle.charCodeAt(i);
    }
    written += MiB;
    return written > LINE_BYTES ? Buffer.from('\n') : chunk;
  });
  const lines = Buffer.from('abcdef\n'.repeat(1000));
  lines.write('abXdef\n', 999 * 7);
  let blocks = 0;
  await writeChunks(join(base, 'many-lines.txt'), () => (blocks++ < LINES / 1000 ? lines : null));
  const built = buildPackage('toolhost-big-search-test');
  child = join(built, 'big-search-child.mjs');
  await writeFile(
    child,
    `import { ToolRunner, BuiltinTools } from './src/index.js';
import { createNodePlatform } from './node/index.js';
const [root, calls] = process.argv.slice(2);
const platform = createNodePlatform({ root });
const runner = new ToolRunner({ platform, tools: BuiltinTools.all() });
const results = [];
for (const args of JSON.parse(calls)) results.push(await runner.execute('grep_search', { max_time_ms: 120000, ...args }));
await platform.dispose();
process.stdout.write(JSON.stringify({ results, peak: process.resourceUsage().maxRSS * 1024 }));
`,
  );
}, 120_000);

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

/** Runs grep_search calls in a fresh Node process; resolves with their results and the process's peak RSS in bytes. */
function runChild(calls: object[]): Promise<{ results: Array<Record<string, unknown>>; peak: number }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [child, base, JSON.stringify(calls)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    proc.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    proc.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`child exited ${code}`))));
  });
}

describe('grep_search over big files (Node, real folder)', () => {
  it('searches a 200 MB one-line file in bounded memory, with exact columns and the match window', async () => {
    const { results, peak } = await runChild([
      { pattern: 'NEEDLE', fixed_strings: true, dir_path: 'one-line.txt', output_mode: 'count' },
      { pattern: 'NEEDLE-\\d', dir_path: 'one-line.txt' },
      { pattern: 'needle-2', case_sensitive: false, dir_path: 'one-line.txt', output_mode: 'count' },
      { pattern: 'NEEDLE-9', fixed_strings: true, dir_path: 'one-line.txt', output_mode: 'count' },
    ]);
    expect(results[0]).toMatchObject({ counts: [{ file_path: join(base, 'one-line.txt'), count: 1 }], total_matches: 1, truncated: false, files_searched: 1 });
    const [at] = NEEDLES[0] as [number, string];
    const start = at - (2000 - 8) / 2;
    const match = (results[1] as { matches: Array<{ line: string }> }).matches[0];
    expect(match).toMatchObject({ file_path: join(base, 'one-line.txt'), line_number: 1, column: at + 1 });
    expect(match?.line.startsWith(`[... ${start} characters before] `)).toBe(true);
    expect(match?.line.endsWith(` [... ${LINE_BYTES - start - 2000} characters after]`)).toBe(true);
    expect(match?.line.length).toBe(`[... ${start} characters before] `.length + 2000 + ` [... ${LINE_BYTES - start - 2000} characters after]`.length);
    expect(match?.line).toContain('NEEDLE-1');
    expect(results[1]).toMatchObject({ total_matches: 1, truncated: false });
    expect(results[2]).toMatchObject({ counts: [{ count: 1 }], total_matches: 1 });
    expect(results[3]).toMatchObject({ counts: [], total_matches: 0, files_searched: 1 });
    expect(peak).toBeLessThan(PEAK_LIMIT);
  }, 120_000);

  it('searches a file of 30 million short lines in bounded memory, with exact counts and line numbers', async () => {
    const { results, peak } = await runChild([
      { pattern: 'X', fixed_strings: true, dir_path: 'many-lines.txt', output_mode: 'count' },
      { pattern: 'a', fixed_strings: true, dir_path: 'many-lines.txt', output_mode: 'count' },
      { pattern: '^ab[X]', dir_path: 'many-lines.txt', max_results: 3 },
    ]);
    expect(results[0]).toMatchObject({ counts: [{ file_path: join(base, 'many-lines.txt'), count: LINES / 1000 }], total_matches: LINES / 1000, truncated: false });
    expect(results[1]).toMatchObject({ counts: [{ count: LINES }], total_matches: LINES, truncated: false });
    expect(results[2]).toMatchObject({
      matches: [1000, 2000, 3000].map((line_number) => ({ file_path: join(base, 'many-lines.txt'), line_number, column: 1, line: 'abXdef' })),
      total_matches: LINES / 1000,
      truncated: true,
    });
    expect(peak).toBeLessThan(PEAK_LIMIT);
  }, 120_000);
});
