import { describe, expect, it } from 'vitest';
import { isModelError, ModelError } from './types.js';

describe('ModelError', () => {
  it('carries code, provider, status, the API message and the retry count', () => {
    const error = new ModelError('rate_limited', 'Gemini API error 429: quota (after 3 retries)', { provider: 'gemini', status: 429, apiMessage: 'quota', retries: 3 });
    expect(error).toBeInstanceOf(Error);
    expect({ ...error, name: error.name, message: error.message }).toEqual({
      name: 'ModelError',
      message: 'Gemini API error 429: quota (after 3 retries)',
      code: 'rate_limited',
      provider: 'gemini',
      status: 429,
      apiMessage: 'quota',
      retries: 3,
    });
    expect(new ModelError('cancelled', 'x', { provider: 'openai' })).not.toHaveProperty('status');
  });

  it('is recognised by shape, as after a worker hop', () => {
    expect(isModelError(structuredClone({ code: 'server_error', provider: 'anthropic', message: 'm' }))).toBe(true);
    expect(isModelError({ code: 'not_found', message: 'a ToolError' })).toBe(false);
    expect(isModelError(null)).toBe(false);
  });
});
