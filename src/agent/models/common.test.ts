import { describe, expect, it } from 'vitest';
import { callsById, generateCallId, invalidArgumentsResult, parseArguments, resultPayload, resultText, trimBase } from './common.js';

describe('model helpers', () => {
  it('parses arguments: objects pass, empty is {}, bad JSON and non-objects are errors', () => {
    expect(parseArguments('{"a":1}')).toEqual({ args: { a: 1 } });
    expect(parseArguments(' ')).toEqual({ args: {} });
    expect(parseArguments(undefined)).toEqual({ args: {} });
    expect(parseArguments({ b: 2 })).toEqual({ args: { b: 2 } });
    expect(parseArguments('{"a":')).toEqual({ args: {}, error: expect.stringMatching(/^arguments are not valid JSON \(/) });
    expect(parseArguments('"x"')).toEqual({ args: {}, error: 'arguments must be a JSON object, got string' });
    expect(parseArguments('null')).toEqual({ args: {}, error: 'arguments must be a JSON object, got null' });
    expect(parseArguments(5)).toEqual({ args: {}, error: 'arguments must be a JSON object, got number' });
  });

  it('answers an unreadable call with invalid_arguments, quoting at most 200 characters', () => {
    const long = `{"x": "${'y'.repeat(300)}`;
    const result = invalidArgumentsResult({ id: 'c1', name: 'view_file', args: {}, argumentsError: 'arguments are not valid JSON (eof)', rawArguments: long });
    expect(result).toMatchObject({ id: 'c1', name: 'view_file', code: 'invalid_arguments' });
    expect((result as { error: string }).error).toBe(
      `arguments are not valid JSON (eof): ${JSON.stringify(`${long.slice(0, 200)}…`)}; call view_file again with a JSON object that matches its parameters`,
    );
  });

  it('renders results as payloads and text', () => {
    expect(resultPayload({ name: 'a', result: 1 })).toEqual({ result: 1 });
    expect(resultPayload({ name: 'a', error: 'e', code: 'timeout' })).toEqual({ error: 'e', code: 'timeout' });
    expect(resultText({ name: 'a', result: { x: 1 } })).toBe('{"x":1}');
    expect(resultText({ name: 'a', result: 'plain' })).toBe('plain');
    expect(resultText({ name: 'a', result: null })).toBe('null');
    expect(resultText({ name: 'a', error: 'e', code: 'timeout' })).toBe('{"error":"e","code":"timeout"}');
  });

  it('makes ids, trims base URLs and indexes calls', () => {
    expect(generateCallId('x')).toMatch(/^x_[0-9a-f]{24}$/);
    expect(generateCallId('x')).not.toBe(generateCallId('x'));
    expect(trimBase('http://h/v1//')).toBe('http://h/v1');
    const map = callsById([{ role: 'user', text: 'q' }, { role: 'assistant', toolCalls: [{ id: 'a', name: 'n', args: {} }] }]);
    expect([...map.keys()]).toEqual(['a']);
  });
});
