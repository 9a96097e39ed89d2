import { describe, expect, it } from 'vitest';
import { isNode } from './support/env.js';

// Runs in both vitest projects: under Node, and in headless Chromium (vitest browser mode), so a
// browser run that quietly fell back to Node, or to another origin, fails here.
describe('test environment', () => {
  it('knows where it runs: Node, or headless Chromium on http://127.0.0.1', () => {
    if (typeof (globalThis as { document?: unknown }).document === 'undefined') {
      expect(isNode).toBe(true);
      expect(process.versions.node).toMatch(/^\d+\./);
      return;
    }
    expect(isNode).toBe(false);
    expect(location.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(navigator.userAgent).toMatch(/HeadlessChrome\/\d+/);
    expect(globalThis.isSecureContext).toBe(true);
  });
});
