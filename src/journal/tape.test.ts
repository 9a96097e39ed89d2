import { describe, expect, it } from 'vitest';
import type { RecordedCall } from '../core/journal-port.js';
import { defineTool } from '../core/tool.js';
import { ToolRunner } from '../runner.js';
import { CallTape } from './cassette.js';

/** What the tape held before it copied values itself: the call's JSON text, parsed. */
function viaJson(turn: number, call: RecordedCall): unknown {
  const out: Record<string, unknown> = { turn, via: call.via, tool: call.tool };
  if (call.id !== undefined) out.id = call.id;
  if (call.error !== undefined) out.error = { code: call.error.code, message: call.error.message };
  else out.result = call.result ?? null;
  return JSON.parse(JSON.stringify(call.input === undefined ? out : { ...out, input: call.input }));
}

class Point {
  constructor(
    readonly x: number,
    readonly y: number,
  ) {}
}

/** Values JSON treats in each of its ways: dropped, nulled, converted, kept. */
function samples(): Array<[string, unknown]> {
  const nullProto = Object.assign(Object.create(null) as object, { a: 1, b: [1, 2] });
  const hidden = Object.defineProperty({ shown: 1 }, 'hidden', { value: 2, enumerable: false });
  const withGetter = { get computed(): string { return 'from a getter'; }, plain: true };
  let deep: unknown = 'bottom';
  for (let i = 0; i < 150; i += 1) deep = { down: deep };
  const sparse: unknown[] = [1, , 3]; // eslint-disable-line no-sparse-arrays
  return [
    ['nested plain data', { file_path: 'a.txt', content: 'x\n"quoted"\ttab\\', n: 3.5, ok: false, none: null, list: [1, 'two', { three: [3] }] }],
    ['undefined, functions and symbols: dropped from objects, null in arrays', { a: undefined, f: () => 1, s: Symbol('s'), list: [undefined, () => 1, Symbol('s')] }],
    ['numbers JSON cannot hold become null; -0 becomes 0', { nan: NaN, inf: Infinity, ninf: -Infinity, zero: -0, list: [NaN, -0, 1e21, 5e-7] }],
    ['a holey array', { sparse }],
    ['a __proto__ key is data', JSON.parse('{"__proto__": {"polluted": true}, "kept": 1}') as unknown],
    ['an object without prototype', { inner: nullProto }],
    ['non-enumerable and symbol keys are left out', { hidden, [Symbol('k')]: 1 }],
    ['getters are read', { withGetter }],
    ['toJSON is called with its key (a Date)', { when: new Date(Date.UTC(2020, 0, 2)), list: [new Date(0)] }],
    ['an own toJSON', { custom: { toJSON: (key: string) => `key was ${key}` } }],
    ['class instances, maps, typed arrays and boxed values', { point: new Point(1, 2), map: new Map([[1, 2]]), bytes: new Uint8Array([1, 2]), boxed: Object('text') as unknown }],
    ['nesting deeper than the copy follows', deep],
    ['a string input', 'just text'],
    ['a number input', 42],
    ['an array input', [1, [2, [3]]]],
    ['keys needing escapes', { 'a"b': 1, 'line\nbreak': 'v' }],
    ['lone surrogates', { s: '\ud800x\udfff' }],
  ];
}

describe('CallTape: copies of recorded calls', () => {
  for (const [name, input] of samples()) {
    it(`holds what a JSON round trip of the call gives: ${name}`, () => {
      const tape = new CallTape(1_000_000);
      const call: RecordedCall = { via: 'batch', id: 'c1', tool: 't', input, result: { echo: input, n: [input] } };
      tape.record('conv', 1, [call]);
      expect(tape.calls('conv').calls).toEqual([viaJson(1, call)]);
    });
  }

  it('keeps a failure as its code and message, with no result', () => {
    const tape = new CallTape(1_000_000);
    const call: RecordedCall = { via: 'execute', tool: 't', input: { a: 1 }, error: { code: 'not_found', message: 'no such file' } };
    tape.record('conv', 2, [call]);
    expect(tape.calls('conv').calls).toEqual([{ turn: 2, via: 'execute', tool: 't', input: { a: 1 }, error: { code: 'not_found', message: 'no such file' } }]);
  });

  it('keeps an input JSON cannot hold (a bigint, a cycle, a throwing getter) as a note of why', () => {
    const tape = new CallTape(1_000_000);
    const cycle: Record<string, unknown> = { name: 'loop' };
    cycle.self = cycle;
    const throwing = { get bad(): string { throw new Error('getter failed'); } };
    tape.record('conv', 1, [
      { via: 'batch', id: 'a', tool: 't', input: { big: 10n }, result: 'ok' },
      { via: 'batch', id: 'b', tool: 't', input: cycle, result: 'ok' },
      { via: 'batch', id: 'c', tool: 't', input: throwing, result: 'ok' },
    ]);
    const [big, loop, getter] = tape.calls('conv').calls;
    expect((big?.input as { notJson: string }).notJson).toMatch(/BigInt/);
    expect((loop?.input as { notJson: string }).notJson).toMatch(/circular/i);
    expect(getter?.input).toEqual({ notJson: 'getter failed' });
    expect(getter?.result).toBe('ok');
  });

  it('is not changed by the caller changing the input or the result afterwards, at any depth', () => {
    const tape = new CallTape(1_000_000);
    const input = { file_path: 'a.txt', edits: [{ old: 'a', new: 'b' }] };
    const result = { file_path: '/workspace/a.txt', lines: ['one', 'two'], meta: { n: 1 } };
    tape.record('conv', 1, [{ via: 'batch', id: 'c', tool: 't', input, result }]);
    input.edits[0]!.new = 'changed';
    input.edits.push({ old: 'x', new: 'y' });
    result.lines[0] = 'changed';
    result.meta.n = 2;
    expect(tape.calls('conv').calls[0]).toMatchObject({
      input: { file_path: 'a.txt', edits: [{ old: 'a', new: 'b' }] },
      result: { file_path: '/workspace/a.txt', lines: ['one', 'two'], meta: { n: 1 } },
    });
  });

  it('answers fresh objects each time: changing one cassette\'s calls does not change the next', () => {
    const tape = new CallTape(1_000_000);
    tape.record('conv', 1, [{ via: 'batch', id: 'c', tool: 't', input: { list: [1] }, result: { a: { b: 1 } } }]);
    const first = tape.calls('conv').calls[0] as unknown as { input: { list: number[] }; result: { a: { b: number } } };
    first.input.list.push(2);
    first.result.a.b = 9;
    expect(tape.calls('conv').calls[0]).toMatchObject({ input: { list: [1] }, result: { a: { b: 1 } } });
  });

  it('counts a call at the length of its JSON text (strings without escapes; exactly for values it cannot copy)', () => {
    const calls: RecordedCall[] = [
      { via: 'batch', id: 'c1', tool: 'create_file', input: { file_path: 'a.txt', content: 'x'.repeat(500), n: -0, f: 1.25, t: true, u: undefined }, result: { ok: [1, null, 'z'], nan: NaN } },
      { via: 'execute', tool: 'edit_file', input: [undefined, 7, { k: false }], error: { code: 'no_match', message: 'not found' } },
      { via: 'batch', id: 'c3', tool: 't', input: { when: new Date(0) }, result: 'done' },
    ];
    for (const call of calls) {
      const tape = new CallTape(1_000_000);
      tape.record('conv', 12, [call]);
      expect(tape.chars).toBe(JSON.stringify(viaJson(12, call)).length);
    }
  });
});

describe('CallTape: its bound', () => {
  it('drops the oldest turns of any conversation past the bound, each conversation noting its last turn dropped (checked against a model over 5,000 turns)', () => {
    const tape = new CallTape(20_000);
    const model: Array<{ conversationId: string; turn: number; size: number }> = [];
    const dropped = new Map<string, number>();
    const last = new Map<string, number>();
    let held = 0;
    for (let i = 0; i < 5000; i += 1) {
      const conversationId = ['a', 'b', 'c'][i % 7 === 0 ? 2 : i % 2] as string;
      const turn = (last.get(conversationId) ?? 0) + 1;
      last.set(conversationId, turn);
      const call: RecordedCall = { via: 'batch', id: `c${i}`, tool: 't', input: { text: 'y'.repeat((i * 37) % 900) }, result: i };
      tape.record(conversationId, turn, [call]);
      const size = JSON.stringify(viaJson(turn, call)).length;
      model.push({ conversationId, turn, size });
      held += size;
      while (held > 20_000) {
        const oldest = model.shift()!;
        held -= oldest.size;
        dropped.set(oldest.conversationId, oldest.turn);
      }
      if (i % 499 === 0 || i === 4999) {
        expect(tape.chars).toBe(held);
        for (const id of ['a', 'b', 'c']) {
          const { calls, droppedThrough } = tape.calls(id);
          expect(calls.map((call) => call.turn)).toEqual(model.filter((entry) => entry.conversationId === id).map((entry) => entry.turn));
          expect(droppedThrough).toBe(dropped.get(id));
        }
      }
    }
  });

  it('drops a turn larger than the whole bound at once, and keeps the next one that fits', () => {
    const tape = new CallTape(1_000);
    tape.record('conv', 1, [{ via: 'batch', id: 'c', tool: 't', input: 'z'.repeat(2_000), result: null }]);
    expect(tape.calls('conv')).toEqual({ calls: [], droppedThrough: 1 });
    tape.record('conv', 2, [{ via: 'batch', id: 'c', tool: 't', input: 'small', result: null }]);
    expect(tape.calls('conv')).toEqual({ calls: [viaJson(2, { via: 'batch', id: 'c', tool: 't', input: 'small', result: null })], droppedThrough: 1 });
  });
});

describe('cassettes: what the caller received', () => {
  it('holds the input and result as they were when the call returned, though the host changes both afterwards', async () => {
    const tool = defineTool({
      name: 'report',
      description: 'answers a nested result',
      inputSchema: { type: 'object' },
      execute: (input: unknown) => ({ got: input, rows: [{ n: 1 }, { n: 2 }] }),
    });
    const runner = new ToolRunner({ tools: [tool] });
    const args = { query: { terms: ['a', 'b'] } };
    const [answer] = await runner.processToolCalls([{ id: 'r1', name: 'report', args }]);
    const result = (answer as { result: { got: { query: { terms: string[] } }; rows: Array<{ n: number }> } }).result;
    result.rows[0]!.n = 99;
    result.got.query.terms.push('changed');
    args.query.terms[0] = 'changed';
    const direct = (await runner.execute('report', { query: { terms: ['c'] } })) as { rows: Array<{ n: number }> };
    direct.rows.pop();
    const cassette = await runner.cassette();
    expect(cassette.calls.map((call) => [call.input, call.result])).toEqual([
      [{ query: { terms: ['a', 'b'] } }, { got: { query: { terms: ['a', 'b'] } }, rows: [{ n: 1 }, { n: 2 }] }],
      [{ query: { terms: ['c'] } }, { got: { query: { terms: ['c'] } }, rows: [{ n: 1 }, { n: 2 }] }],
    ]);
  });
});
