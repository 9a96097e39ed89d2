import { describe, expect, it } from 'vitest';
import { createVmRegexSandbox } from './regex-sandbox.js';

const request = (source: string, texts: string[], timeoutMs = 1000) => ({ source, flags: 'u', texts, maxMatchesPerText: 1000, timeoutMs });

describe('createVmRegexSandbox', () => {
  it('returns match offsets per text, many texts in one call', async () => {
    const sandbox = createVmRegexSandbox();
    expect(await sandbox.scan(request('o+', ['foo', 'bar', 'oo o']))).toEqual([[[1, 3]], [], [[0, 2], [3, 4]]]);
  });

  it('interrupts a catastrophic pattern with timeout and keeps working', async () => {
    const sandbox = createVmRegexSandbox();
    const started = Date.now();
    await expect(sandbox.scan(request('(a+)+$', ['a'.repeat(50_000) + '!'], 200))).rejects.toMatchObject({
      code: 'timeout',
      name: 'ToolError',
    });
    expect(Date.now() - started).toBeLessThan(1500);
    expect(await sandbox.scan(request('a+$', ['xaa']))).toEqual([[[1, 3]]]);
  });

  it('maps a bad pattern to invalid_pattern with the engine message', async () => {
    const sandbox = createVmRegexSandbox();
    await expect(sandbox.scan(request('(', ['x']))).rejects.toMatchObject({ code: 'invalid_pattern', message: expect.stringContaining('Unterminated group') });
  });

  it('does no work until the first scan', () => {
    expect(() => createVmRegexSandbox()).not.toThrow();
  });
});
