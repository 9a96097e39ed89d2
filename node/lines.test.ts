import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { LineSplitter, readLineFrames, type LineFrame } from './lines.js';

/** Every frame of `chunks` fed one by one, then the end. */
function frames(max: number, chunks: (string | Uint8Array)[]): LineFrame[] {
  const splitter = new LineSplitter(max);
  return [...chunks.flatMap((chunk) => splitter.push(chunk)), ...splitter.end()];
}

describe('LineSplitter', () => {
  it('takes a line of exactly the cap and reports one byte more as overlong, dropping it up to its newline', () => {
    expect(frames(4, ['abcd\nabcde\nok\n'])).toEqual([
      { kind: 'line', line: 1, text: 'abcd' },
      { kind: 'overlong', line: 2, bytes: 5 },
      { kind: 'line', line: 3, text: 'ok' },
    ]);
  });

  it('reports an over-long line as soon as it passes the cap, across chunks, and drops the rest as it comes', () => {
    const splitter = new LineSplitter(4);
    expect(splitter.push('ab')).toEqual([]);
    expect(splitter.push('cde')).toEqual([{ kind: 'overlong', line: 1, bytes: 5 }]);
    expect(splitter.push('fghij')).toEqual([]);
    expect(splitter.push('kl\nmn')).toEqual([]);
    expect(splitter.end()).toEqual([{ kind: 'line', line: 2, text: 'mn' }]);
  });

  it('joins a line split in any pieces (a UTF-8 character cut in two too), drops one \\r before \\n, counts blank lines', () => {
    const bytes = Buffer.from('{"a":"é€"}\r\n\n{"b":1}', 'utf8');
    const pieces = Array.from(bytes, (byte) => Uint8Array.of(byte));
    expect(frames(64, pieces)).toEqual([
      { kind: 'line', line: 1, text: '{"a":"é€"}' },
      { kind: 'line', line: 2, text: '' },
      { kind: 'line', line: 3, text: '{"b":1}' },
    ]);
  });

  it('refuses a cap that is not a positive integer with a TypeError', () => {
    expect(() => new LineSplitter(0)).toThrow(new TypeError('LineSplitter: maxLineBytes must be a positive integer, not 0'));
  });
});

describe('readLineFrames', () => {
  it('reads a stream to its end, and stops (leaving the stream paused) when its signal aborts', async () => {
    const ended = new PassThrough();
    ended.end('one\ntwo');
    const seen: LineFrame[] = [];
    for await (const frame of readLineFrames(ended, 100)) seen.push(frame);
    expect(seen).toEqual([
      { kind: 'line', line: 1, text: 'one' },
      { kind: 'line', line: 2, text: 'two' },
    ]);

    const open = new PassThrough();
    const stop = new AbortController();
    const lines: string[] = [];
    const reading = (async () => {
      for await (const frame of readLineFrames(open, 100, stop.signal)) if (frame.kind === 'line') lines.push(frame.text);
    })();
    open.write('first\n');
    await new Promise((resolve) => setTimeout(resolve, 20));
    stop.abort();
    await reading;
    expect(lines).toEqual(['first']);
    expect(open.isPaused()).toBe(true);
    expect(open.listenerCount('data')).toBe(0);
  });
});
