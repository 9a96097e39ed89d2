import { describe, expect, it } from 'vitest';
import { TOOL_ERROR_CODES, ToolError, isToolError, isToolErrorCode } from '../src/index.js';
import { toToolError } from '../src/core/errors.js';

describe('ToolError', () => {
  it('lists the 20 codes in a fixed order', () => {
    expect(TOOL_ERROR_CODES).toHaveLength(20);
    expect(new Set(TOOL_ERROR_CODES).size).toBe(20);
    expect(isToolErrorCode('stale_file')).toBe(true);
    expect(isToolErrorCode('ENOENT')).toBe(false);
  });

  it('maps filesystem and storage errors by code, never by class', () => {
    const fsError = (code: string) => Object.assign(new Error(`${code}: something`), { code });
    expect(
      ['ENOENT', 'EEXIST', 'ENOTDIR', 'EISDIR', 'EACCES', 'ENOSPC', 'EFBIG', 'EWHATEVER'].map((code) => toToolError(fsError(code)).code),
    ).toEqual(['not_found', 'already_exists', 'not_a_directory', 'is_a_directory', 'permission_denied', 'quota_exceeded', 'too_large', 'execution_failed']);
    const quota = toToolError(Object.assign(new Error('full'), { name: 'QuotaExceededError' }));
    expect([quota.code, quota.message]).toEqual(['quota_exceeded', 'full']);
    expect(toToolError('plain').message).toBe('plain');
    expect(toToolError({ weird: true }).message).toBe('{"weird":true}');
  });

  it('survives a structured clone (a worker hop) by its code', () => {
    const hopped = structuredClone({ code: 'no_match', message: 'old_string not found' });
    expect(isToolError(hopped)).toBe(true);
    const rebuilt = toToolError(hopped);
    expect(rebuilt).toBeInstanceOf(ToolError);
    expect([rebuilt.code, rebuilt.message]).toEqual(['no_match', 'old_string not found']);
  });

  it('keeps the details of a ToolError that crossed a worker', () => {
    const hopped = structuredClone({ code: 'ambiguous_match', message: 'old_string occurs 3 times', details: { count: 3 } });
    const rebuilt = toToolError(hopped);
    expect([rebuilt.code, rebuilt.message, rebuilt.details]).toEqual(['ambiguous_match', 'old_string occurs 3 times', { count: 3 }]);
    expect(toToolError({ code: 'no_match', message: 'x', details: 'not an object' }).details).toBeUndefined();
  });

  it('maps a code named like an Object.prototype member to execution_failed, a value that can be cloned', () => {
    for (const code of ['constructor', 'toString', 'hasOwnProperty', '__proto__', 'valueOf']) {
      const error = toToolError(Object.assign(new Error(`odd ${code}`), { code }));
      expect([error.code, error.message]).toEqual(['execution_failed', `odd ${code}`]);
      expect(structuredClone({ code: error.code, message: error.message })).toEqual({ code: 'execution_failed', message: `odd ${code}` });
    }
  });
});
