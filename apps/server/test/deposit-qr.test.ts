/**
 * The deposit QR as a wallet app reads it: the PNG decoded (pngjs → RGBA, jsQR → text) holds an
 * EIP-681 payment request — chain 56, the USDT BEP20 contract, the deposit address, the exact amount
 * in base units (BNB.BSC: a native request in wei) — inside a 4-module quiet zone.
 */
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { getAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STANDIN_BNB_PRICE_MICROS } from '../src/modules/deposits/deposits.ts';
import { createTestApp, type TestApp } from './helpers.ts';

const USDT_BSC = '0x55d398326f99059fF775485246999027B3197955';

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp({ seed: 'demo' });
  token = await t.login('demo');
});
afterAll(() => t.close());

type Payment = { Amount: number; QR_Code: string; Address: string; TransID: string };
async function deposit(amount_usdt: number, currency: 'USDT.BEP20' | 'BNB.BSC'): Promise<Payment> {
  const reply = await t.post<{ Success: Payment }>(
    '/deposit/make_payment',
    { amount_usdt, currency },
    { token },
  );
  expect(reply.status).toBe(200);
  return reply.body.Success;
}

interface DecodedQr {
  text: string;
  /** Side of the symbol in modules, without the quiet zone. */
  modules: number;
  png: PNG;
}
function decodeQr(dataUrl: string): DecodedQr {
  const prefix = 'data:image/png;base64,';
  expect(dataUrl.startsWith(prefix)).toBe(true);
  const png = PNG.sync.read(Buffer.from(dataUrl.slice(prefix.length), 'base64'));
  const code = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
  if (!code) throw new Error('the QR code does not decode');
  return { text: code.data, modules: 17 + 4 * code.version, png };
}

/** An EIP-681 request read independently of the builder: target, chain, function and parameters. */
function parseEip681(uri: string) {
  const match = /^ethereum:(0x[0-9a-fA-F]{40})@(\d+)(?:\/(\w+))?\?(.*)$/.exec(uri);
  if (!match) throw new Error(`not an EIP-681 request with a chain id: ${uri}`);
  return {
    target: match[1]!,
    chainId: Number(match[2]),
    fn: match[3],
    params: Object.fromEntries(new URLSearchParams(match[4])),
  };
}

const isWhite = (png: PNG, x: number, y: number) => {
  const i = (y * png.width + x) * 4;
  return png.data[i] === 255 && png.data[i + 1] === 255 && png.data[i + 2] === 255;
};

describe('deposit QR', () => {
  it('asks for USDT BEP20 on BSC, to the deposit address, for the exact amount in base units', async () => {
    const payment = await deposit(1234.567891, 'USDT.BEP20');
    const request = parseEip681(decodeQr(payment.QR_Code).text);
    expect(request).toEqual({
      target: USDT_BSC,
      chainId: 56,
      fn: 'transfer',
      // 1234.567891 USDT at 18 decimals, exactly (a float product would end in other digits).
      params: { address: payment.Address, uint256: '1234567891000000000000' },
    });
    // The address shown beside the QR is the plain checksummed one, the same the QR pays.
    expect(payment.Address).toBe(getAddress(payment.Address.toLowerCase()));
    expect(payment.Amount).toBe(1234.567891);
  });

  it('asks for whole USDT amounts without rounding', async () => {
    const payment = await deposit(10, 'USDT.BEP20');
    expect(parseEip681(decodeQr(payment.QR_Code).text).params).toEqual({
      address: payment.Address,
      uint256: (10n * 10n ** 18n).toString(),
    });
  });

  it('asks a BNB.BSC deposit as a native transfer in wei, rounded up so that paying it is never partial', async () => {
    expect(STANDIN_BNB_PRICE_MICROS).toBe(600_000_000n);
    const half = await deposit(300, 'BNB.BSC');
    expect(parseEip681(decodeQr(half.QR_Code).text)).toEqual({
      target: half.Address,
      chainId: 56,
      fn: undefined,
      params: { value: '500000000000000000' },
    });
    // $10 at $600 a BNB is 0.0166… BNB: 16666666666666666.6… wei, asked as …667.
    const ten = await deposit(10, 'BNB.BSC');
    expect(parseEip681(decodeQr(ten.QR_Code).text)).toEqual({
      target: ten.Address,
      chainId: 56,
      fn: undefined,
      params: { value: '16666666666666667' },
    });
  });

  it('has a quiet zone of 4 modules on every side, and no more', async () => {
    const { png, modules } = decodeQr((await deposit(50, 'USDT.BEP20')).QR_Code);
    expect(png.width).toBe(png.height);
    const moduleSize = png.width / (modules + 2 * 4);
    const zone = Math.floor(4 * moduleSize);
    const edge: number[] = [];
    for (let a = 0; a < png.width; a++)
      for (let b = 0; b < zone; b++)
        edge.push(
          +isWhite(png, a, b),
          +isWhite(png, b, a),
          +isWhite(png, a, png.height - 1 - b),
          +isWhite(png, png.width - 1 - b, a),
        );
    expect(edge.every(Boolean), 'every pixel of the 4-module border is white').toBe(true);
    // The finder pattern's dark frame starts right after it (top left, top right, bottom left).
    const inside = Math.ceil(4 * moduleSize);
    expect(isWhite(png, inside, inside)).toBe(false);
    expect(isWhite(png, png.width - 1 - inside, inside)).toBe(false);
    expect(isWhite(png, inside, png.height - 1 - inside)).toBe(false);
  });
});
