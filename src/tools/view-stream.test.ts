import { describe, expect, it } from 'vitest';
import { createMemoryPlatform } from '../platform/memory.js';
import { detectLineEnding, splitLines, truncateText } from '../fs/text.js';
import { readLineWindow } from './view-stream.js';
import { seededRandom } from '../../test/support/random.js';

const PIECES = ['a', 'bc', '\n', '\r', '\r\n', 'é', '😀', 'xyz', '\n\n'];

describe('readLineWindow', () => {
  it('gives the lines, counts and line-ending style that splitting the whole text gives, at every chunk size', async () => {
    const random = seededRandom(7);
    for (let round = 0; round < 1000; round += 1) {
      const parts: string[] = [];
      const count = Math.floor(random() * 30);
      for (let i = 0; i < count; i += 1) parts.push(PIECES[Math.floor(random() * PIECES.length)] as string);
      const text = (random() < 0.2 ? '\uFEFF' : '') + parts.join('');
      const platform = createMemoryPlatform({ files: { 'f.txt': text } });
      const size = new TextEncoder().encode(text).length;
      const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
      const { lines } = splitLines(body);
      const start = 1 + Math.floor(random() * Math.max(lines.length, 1));
      const end = start + Math.floor(random() * 5);
      const maxLineChars = 1 + Math.floor(random() * 4);
      const chunkBytes = 1 + Math.floor(random() * 7);
      const window = await readLineWindow(platform.fs, '/workspace/f.txt', size, { start, end, maxLineChars, maxChars: 1_000_000, chunkBytes });
      const expected = lines.slice(start - 1, end).map((line) => truncateText(line, maxLineChars));
      const where = JSON.stringify({ text, start, end, maxLineChars, chunkBytes });
      expect(window.lines, where).toEqual(expected);
      expect([window.total, window.lineEnding, window.end, window.binary], where).toEqual([lines.length, detectLineEnding(body), start + expected.length - 1, false]);
    }
  });

  it('ends the window at the character budget, keeping at least one line', async () => {
    const platform = createMemoryPlatform({ files: { 'f.txt': 'aaaa\nbbbb\ncccc\n' } });
    const window = await readLineWindow(platform.fs, '/workspace/f.txt', 15, { start: 1, end: 3, maxLineChars: 100, maxChars: 9 });
    expect([window.lines, window.end, window.capped, window.total]).toEqual([[{ text: 'aaaa', cut: 0 }, { text: 'bbbb', cut: 0 }], 2, true, 3]);
    const one = await readLineWindow(platform.fs, '/workspace/f.txt', 15, { start: 2, end: 3, maxLineChars: 100, maxChars: 1 });
    expect([one.lines, one.end, one.capped]).toEqual([[{ text: 'bbbb', cut: 0 }], 2, true]);
  });

  it('reports a NUL in the first 8 KiB as binary without reading further', async () => {
    const platform = createMemoryPlatform({ files: { 'f.bin': new Uint8Array([0x89, 0x50, 0, 1, 2]) } });
    const window = await readLineWindow(platform.fs, '/workspace/f.bin', 5, { start: 1, end: 10, maxLineChars: 10, maxChars: 100 });
    expect([window.binary, [...window.head], window.lines]).toEqual([true, [0x89, 0x50, 0, 1, 2], []]);
  });
});
