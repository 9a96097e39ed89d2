import { describe, expect, it } from 'vitest';
import { isToolError } from './errors.js';
import { onDemand } from './on-demand.js';

describe('onDemand', () => {
  it('loads the library once, on the first load(), and keeps it', async () => {
    let loads = 0;
    const library = onDemand('the test library', 'test.min.js', async () => {
      loads += 1;
      return { answer: 42 };
    });
    expect(library.loaded()).toBeUndefined();
    expect(loads).toBe(0);
    const [a, b] = await Promise.all([library.load(), library.load()]);
    expect(a).toBe(b);
    expect(await library.load()).toBe(a);
    expect(library.loaded()).toEqual({ answer: 42 });
    expect(loads).toBe(1);
  });

  it('answers unavailable naming the file when the load fails, and tries again on the next load()', async () => {
    let loads = 0;
    const library = onDemand('the test library', 'test.min.js', () => {
      loads += 1;
      if (loads === 1) return Promise.reject(new TypeError('Failed to fetch dynamically imported module'));
      return Promise.resolve('ok');
    });
    const error: unknown = await library.load().catch((e: unknown) => e);
    expect(isToolError(error)).toBe(true);
    expect(error).toMatchObject({
      code: 'unavailable',
      message:
        "the test library could not be loaded: Failed to fetch dynamically imported module; the app must serve toolhost's lazy/test.min.js beside the code that loads it",
    });
    expect(library.loaded()).toBeUndefined();
    expect(await library.load()).toBe('ok');
    expect(loads).toBe(2);
  });

  it('answers unavailable when the loader throws instead of rejecting', async () => {
    const library = onDemand<string>('the test library', 'test.min.js', () => {
      throw new Error('no');
    });
    await expect(library.load()).rejects.toMatchObject({ code: 'unavailable', message: expect.stringContaining('could not be loaded: no;') });
  });
});
