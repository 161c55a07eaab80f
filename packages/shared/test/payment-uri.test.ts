import { describe, expect, it } from 'vitest';
import {
  BSC_CHAIN_ID,
  CURRENCIES,
  depositPaymentUri,
  microsToBaseUnits,
  nativeTransferUri,
  tokenTransferUri,
  USDT_BEP20_CONTRACT,
  USDT_BEP20_DECIMALS,
} from '../src/index.ts';

const RECIPIENT = '0x842dad94eaA5655D6452EEe18419FaA8a085dab8';

describe('microsToBaseUnits', () => {
  it('scales integer micro-units to 18-decimal base units exactly', () => {
    expect(microsToBaseUnits(10_000_000, 18)).toBe(10_000_000_000_000_000_000n);
    // 12.345678 USDT: a float product (12.345678 * 1e18) would not be this integer.
    expect(microsToBaseUnits(12_345_678, 18)).toBe(12_345_678_000_000_000_000n);
    expect(microsToBaseUnits(1, 18)).toBe(1_000_000_000_000n);
    // The largest amount a request may name (1e9 USDT) stays exact past 2^53.
    expect(microsToBaseUnits(1_000_000_000_000_000, 18)).toBe(10n ** 27n);
    expect(microsToBaseUnits(0, 18)).toBe(0n);
  });

  it('keeps 6 decimals as they are and divides only exactly below 6', () => {
    expect(microsToBaseUnits(12_345_678, 6)).toBe(12_345_678n);
    expect(microsToBaseUnits(12_340_000, 4)).toBe(123_400n);
    expect(() => microsToBaseUnits(12_345_678, 4)).toThrow(RangeError);
  });

  it('refuses what is not a whole, non-negative amount', () => {
    expect(() => microsToBaseUnits(1.5, 18)).toThrow(RangeError);
    expect(() => microsToBaseUnits(-1, 18)).toThrow(RangeError);
    expect(() => microsToBaseUnits(2 ** 53, 18)).toThrow(RangeError);
    expect(() => microsToBaseUnits(1, 1.5)).toThrow(RangeError);
  });
});

describe('EIP-681 payment requests', () => {
  it('writes a token transfer: contract, chain, function, recipient and amount', () => {
    expect(
      tokenTransferUri({ chainId: 56, token: USDT_BEP20_CONTRACT, recipient: RECIPIENT, amount: 10n ** 19n }),
    ).toBe(
      `ethereum:0x55d398326f99059fF775485246999027B3197955@56/transfer?address=${RECIPIENT}&uint256=10000000000000000000`,
    );
  });

  it('writes a native transfer with its value in wei', () => {
    expect(nativeTransferUri({ chainId: 56, recipient: RECIPIENT, value: 5n * 10n ** 17n })).toBe(
      `ethereum:${RECIPIENT}@56?value=500000000000000000`,
    );
  });

  it('builds a deposit request for each accepted currency on BSC', () => {
    const usdt = depositPaymentUri(
      'USDT.BEP20',
      RECIPIENT,
      microsToBaseUnits(25_500_000, USDT_BEP20_DECIMALS),
    );
    expect(usdt).toBe(
      `ethereum:${USDT_BEP20_CONTRACT}@${BSC_CHAIN_ID}/transfer?address=${RECIPIENT}&uint256=25500000000000000000`,
    );
    expect(depositPaymentUri('BNB.BSC', RECIPIENT, 123n)).toBe(`ethereum:${RECIPIENT}@56?value=123`);
    expect(CURRENCIES).toEqual(['USDT.BEP20', 'BNB.BSC']);
  });

  it('refuses a malformed address, chain id or amount instead of writing a request a wallet would misread', () => {
    expect(() =>
      tokenTransferUri({ chainId: 56, token: USDT_BEP20_CONTRACT, recipient: '0x1234', amount: 1n }),
    ).toThrow(RangeError);
    expect(() => tokenTransferUri({ chainId: 56, token: 'USDT', recipient: RECIPIENT, amount: 1n })).toThrow(
      RangeError,
    );
    expect(() => nativeTransferUri({ chainId: 0, recipient: RECIPIENT, value: 1n })).toThrow(RangeError);
    expect(() => nativeTransferUri({ chainId: 56, recipient: RECIPIENT, value: -1n })).toThrow(RangeError);
    expect(() => nativeTransferUri({ chainId: 56, recipient: `${RECIPIENT}&value=1`, value: 1n })).toThrow(
      RangeError,
    );
  });

  it('names the BSC USDT contract as its EIP-55 checksum spells it', async () => {
    const { getAddress } = await import('viem');
    expect(getAddress(USDT_BEP20_CONTRACT.toLowerCase())).toBe(USDT_BEP20_CONTRACT);
    expect(USDT_BEP20_DECIMALS).toBe(18);
  });
});
