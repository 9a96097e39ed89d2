import { describe, expect, it } from 'vitest';
import { ToolRunner } from '../runner.js';
import type { FsPromises, Platform } from '../core/types.js';
import { createMemoryPlatform } from '../platform/memory.js';
import { VIEW_MAX_FILE_BYTES, viewFileTool } from './view-file.js';
import { WINDOW_CHUNK_BYTES } from './view-stream.js';

const W = '/workspace';
const MB40 = 40 * 1000 * 1000;

/** The platform with its fs recording the largest single read and refusing a whole-file read of `path`. */
function watched(platform: Platform, path: string): { platform: Platform; largestRead: () => number } {
  let largest = 0;
  const real = platform.fs;
  const fs: FsPromises = {
    ...real,
    readFile: async (p) => {
      if (p === path) throw new Error(`${p} was read whole`);
      return real.readFile(p);
    },
    readRange: async (p, position, length) => {
      const bytes = await (real.readRange as NonNullable<FsPromises['readRange']>)(p, position, length);
      largest = Math.max(largest, bytes.length);
      return bytes;
    },
  };
  return { platform: { ...platform, fs }, largestRead: () => largest };
}

/** `count` bytes of `x`, the file's content as the memory platform keeps it (a string that long is encoded first). */
function xs(count: number): Uint8Array {
  return new Uint8Array(count).fill(0x78);
}

/**
 * `count` lines `line 0000001` to `line <count>` (7 digits), each ending in CRLF, as UTF-8 bytes: written
 * straight into one buffer (an array of 4,000,000 strings joined and encoded cost about 2.5 s of CPU).
 */
function numberedLines(count: number): Uint8Array {
  const LINE = 14; // 'line ' + 7 digits + CRLF
  const bytes = new Uint8Array(count * LINE);
  const prefix = [0x6c, 0x69, 0x6e, 0x65, 0x20];
  for (let i = 0; i < count; i += 1) {
    const at = i * LINE;
    bytes.set(prefix, at);
    let n = i + 1;
    for (let digit = 6; digit >= 0; digit -= 1) {
      bytes[at + 5 + digit] = 0x30 + (n % 10);
      n = Math.floor(n / 10);
    }
    bytes[at + 12] = 0x0d;
    bytes[at + 13] = 0x0a;
  }
  return bytes;
}

async function view(platform: Platform, args: Record<string, unknown>) {
  const runner = new ToolRunner({ platform, tools: [viewFileTool] });
  const [outcome] = await runner.processToolCalls([{ name: 'view_file', args }], { timeoutMs: 20_000 });
  return outcome as { result?: Record<string, unknown>; code?: string; error?: string };
}

describe('view_file of a file over its 32 MiB cap (memory platform)', () => {
  it('serves a 40 MB one-line file as an excerpt with a note, reading a MiB at a time and never the whole file', async () => {
    const { platform, largestRead } = watched(createMemoryPlatform({ files: { 'one.txt': xs(MB40) } }), `${W}/one.txt`);
    expect(MB40).toBeGreaterThan(VIEW_MAX_FILE_BYTES);
    const outcome = await view(platform, { file_path: 'one.txt' });
    expect(outcome.result).toEqual({
      file_path: `${W}/one.txt`,
      content: `${'x'.repeat(2000)}… [${MB40 - 2000} characters cut]`,
      start_line: 1,
      end_line: 1,
      total_lines: 1,
      truncated: false,
      line_ending: 'none',
      lines_cut: 1,
      note:
        `${W}/one.txt is ${MB40} bytes, more than the ${VIEW_MAX_FILE_BYTES} view_file reads whole, so this window was streamed from it (bytes that are not UTF-8 show as U+FFFD). ` +
        '1 line was longer than 2000 characters and cut (marked "… [N characters cut]"); use search_dir or grep_search to find text inside them.',
    });
    expect(largestRead()).toBe(WINDOW_CHUNK_BYTES);
  });

  it('serves start_line and end_line of a 40 MB file of numbered lines, with the total and where to go on', async () => {
    const text = numberedLines(4_000_000);
    expect(text.length).toBeGreaterThan(VIEW_MAX_FILE_BYTES);
    expect(new TextDecoder().decode(text.subarray(0, 28))).toBe('line 0000001\r\nline 0000002\r\n');
    const { platform, largestRead } = watched(createMemoryPlatform({ files: { 'many.txt': text } }), `${W}/many.txt`);
    const outcome = await view(platform, { file_path: 'many.txt', start_line: 3_000_001, end_line: 3_000_003 });
    expect(outcome.result).toEqual({
      file_path: `${W}/many.txt`,
      content: 'line 3000001\nline 3000002\nline 3000003',
      start_line: 3_000_001,
      end_line: 3_000_003,
      total_lines: 4_000_000,
      truncated: true,
      line_ending: 'crlf',
      next_start_line: 3_000_004,
      note:
        `${W}/many.txt is ${text.length} bytes, more than the ${VIEW_MAX_FILE_BYTES} view_file reads whole, so this window was streamed from it (bytes that are not UTF-8 show as U+FFFD). ` +
        'Showing lines 3000001-3000003 of 4000000. To read more, call view_file with start_line 3000004.',
    });
    expect(largestRead()).toBe(WINDOW_CHUNK_BYTES);
    const past = await view(platform, { file_path: 'many.txt', start_line: 4_000_001 });
    expect(past).toEqual({
      name: 'view_file',
      code: 'invalid_arguments',
      error: `start_line 4000001 is past the end of ${W}/many.txt, which has 4000000 lines; use a start_line from 1 to 4000000`,
    });
  });

  it('answers a binary file over the cap from its first 8 KiB', async () => {
    const bytes = new Uint8Array(VIEW_MAX_FILE_BYTES + 10);
    bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const { platform, largestRead } = watched(createMemoryPlatform({ files: { 'big.png': bytes } }), `${W}/big.png`);
    expect((await view(platform, { file_path: 'big.png' })).result).toEqual({
      file_path: `${W}/big.png`,
      binary: true,
      size: VIEW_MAX_FILE_BYTES + 10,
      mime_type: 'image/png',
      note: 'The image is larger than 5242880 bytes, so its data is not included',
    });
    expect(largestRead()).toBe(8192);
  });

  it('is too_large where the fs has no readRange', async () => {
    const memory = createMemoryPlatform({ files: { 'one.txt': xs(VIEW_MAX_FILE_BYTES + 1) } });
    const { readRange: _dropped, ...fs } = memory.fs;
    const outcome = await view({ ...memory, fs: fs as FsPromises }, { file_path: 'one.txt' });
    expect(outcome).toEqual({
      name: 'view_file',
      code: 'too_large',
      error: `${W}/one.txt is ${VIEW_MAX_FILE_BYTES + 1} bytes; view_file reads files up to ${VIEW_MAX_FILE_BYTES} bytes here. Use search_dir or grep_search to find the part you need`,
    });
  });
});
