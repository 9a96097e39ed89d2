import { describe, expect, it } from 'vitest';
import { decodeBody, metaCharset } from './charset.js';

const bytes = (text: string): Uint8Array => Uint8Array.from(text, (c) => c.charCodeAt(0));

describe('metaCharset', () => {
  it('passes over a <meta> inside an HTML comment, as browsers do, and reads the one after it', () => {
    expect(metaCharset(bytes('<!-- <meta charset="shift_jis"> --><meta charset="utf-8"><p>x</p>'))).toBe('utf-8');
    expect(metaCharset(bytes('<!-- <meta charset="shift_jis"> --><p>x</p>'))).toBeUndefined();
    // A comment left open hides what follows it in the scanned head.
    expect(metaCharset(bytes('<!-- <meta charset="koi8-r">'))).toBeUndefined();
    expect(metaCharset(bytes('<head><meta charset="windows-1251"></head>'))).toBe('windows-1251');
    // A UTF-8 page is not read as Shift_JIS for a commented-out tag.
    const page = new TextEncoder().encode('<!-- <meta charset="shift_jis"> --><p>café</p>');
    expect(decodeBody(page, 'text/html', true).text).toContain('café');
  });
});
