/** The zero address is never a withdrawal address — refused by the contract, before any handler. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG, ZERO_ADDRESS } from '@md/shared';
import { createTestApp, type TestApp } from './helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seed: 'demo', config: { rateLimits: false } });
});
afterAll(() => t.close());

const walletOf = async (token: string) =>
  (
    await t.post<{ Success: { Wallet_Details: { Wallet_Address: string | null } }[] }>(
      '/user/view_profile',
      {},
      { token },
    )
  ).body.Success[0]?.Wallet_Details.Wallet_Address;

describe('the zero address as a withdrawal address', () => {
  it("is refused with 400 'Invaid Wallet Address' on REST and tRPC, and changes nothing", async () => {
    const token = await t.login('demo');
    const saved = await walletOf(token);
    expect(saved).toMatch(/^0x[0-9a-fA-F]{40}$/);
    const mails = (await t.mailbox('demo')).length;

    for (const address of [ZERO_ADDRESS, ZERO_ADDRESS.toUpperCase().replace('0X', '0x')]) {
      const request = await t.post(
        '/wallet/update_wallet_address',
        { address, network: 'BEP.20' },
        { token },
      );
      expect(request, address).toMatchObject({ status: 400, body: { Error: MSG.invalidWalletAddress } });
      const verify = await t.post(
        '/wallet/wallet_address_verification',
        { address, network: 'BEP.20', otp: '123456' },
        { token },
      );
      expect(verify, address).toMatchObject({ status: 400, body: { Error: MSG.invalidWalletAddress } });
    }
    expect(MSG.invalidWalletAddress).toBe('Invaid Wallet Address');
    const rpc = await t.trpc(
      'wallet.update_wallet_address',
      'mutation',
      { address: ZERO_ADDRESS, network: 'BEP.20' },
      token,
    );
    expect(rpc.status).toBe(400);
    expect(JSON.stringify(rpc.body)).toContain(MSG.invalidWalletAddress);

    // No OTP mailed, the saved address untouched.
    expect((await t.mailbox('demo')).length).toBe(mails);
    expect(await walletOf(token)).toBe(saved);
    // A well-formed neighbour still goes through (the refusal is about this one address).
    const neighbour = `${ZERO_ADDRESS.slice(0, -1)}1`;
    expect(
      (await t.post('/wallet/update_wallet_address', { address: neighbour, network: 'BEP.20' }, { token }))
        .body,
    ).toEqual({ Success: MSG.otpSent });
    expect((await t.mailbox('demo')).length).toBe(mails + 1);
  });
});
