import { describe, expect, it } from 'vitest';
import { checkAddressPolicy, isAddressEntry } from './network.js';

const allows = (entry: string, address: string): boolean => {
  try {
    checkAddressPolicy(address, address, { allowAddresses: [entry] });
    return true;
  } catch {
    return false;
  }
};

describe('allowAddresses', () => {
  it('matches an address however either side writes it (brackets, a long IPv6 form, case)', () => {
    for (const entry of ['::1', '[::1]', '0:0:0:0:0:0:0:1', '0000:0000:0000:0000:0000:0000:0000:0001']) {
      expect(isAddressEntry(entry)).toBe(true);
      expect([entry, allows(entry, '::1'), allows(entry, '[::1]')]).toEqual([entry, true, true]);
    }
    expect(allows('FE80::1', 'fe80::1')).toBe(true);
    expect(allows('127.0.0.1', '127.0.0.1')).toBe(true);
    expect(allows('10.0.0.0/8', '10.1.2.3')).toBe(true);
    // And only that address or range (the others here lie in ranges refused by default).
    expect(allows('::1', 'fe80::2')).toBe(false);
    expect(allows('127.0.0.1', '127.0.0.2')).toBe(false);
    expect(allows('10.0.0.0/8', '192.168.0.1')).toBe(false);
  });
});
