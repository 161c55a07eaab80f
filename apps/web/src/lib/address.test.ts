import { describe, expect, it } from 'vitest';
import { checksumAddress } from './address.ts';

describe('checksumAddress', () => {
  it('writes an address in its EIP-55 form, whatever case it came in', () => {
    // The EIP-55 specification's own examples.
    for (const address of [
      '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
      '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
    ]) {
      expect(checksumAddress(address.toLowerCase())).toBe(address);
      expect(checksumAddress(address.toUpperCase().replace('0X', '0x'))).toBe(address);
    }
  });
  it('leaves anything that is not an address as it is', () => {
    expect(checksumAddress('not an address')).toBe('not an address');
    expect(checksumAddress('0x1234')).toBe('0x1234');
  });
});
