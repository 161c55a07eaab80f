/** Races and hostile amounts over HTTP: one withdrawal wins, one deposit credit, bad amounts move nothing. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@md/shared';
import { DEMO_TRANSACTION_PASSWORD } from '../src/seed/demo-money.ts';
import { createTestApp, expectLedgerSound, moneySnapshot, type TestApp } from './helpers.ts';
import { balanceOf, grant } from './money-fixtures.ts';

let t: TestApp;
let token: string;
let downline: string;
beforeAll(async () => {
  t = await createTestApp({ seed: 'demo' });
  token = await t.login('demo');
  downline = (
    t.services.sqlite
      .prepare('select username from members where sponsor_id = 1 and totp_enabled = 0 limit 1')
      .get() as { username: string }
  ).username;
});
afterAll(() => t.close());

describe('concurrency', () => {
  it('50 concurrent withdrawals of the whole Withdrawal balance: exactly one accepted', async () => {
    const whole = balanceOf(t, 'demo', 'Withdrawal');
    expect(whole).toBeGreaterThanOrEqual(20);
    const replies = await Promise.all(
      Array.from({ length: 50 }, () =>
        t.post(
          '/withdraw/withdraw_request',
          { amount: whole, password: DEMO_TRANSACTION_PASSWORD },
          { token },
        ),
      ),
    );
    expect(replies.filter((r) => r.status === 200)).toHaveLength(1);
    expect(
      replies.filter((r) => r.status === 400).every((r) => r.body.Error === MSG.insufficientBalance),
    ).toBe(true);
    expect(balanceOf(t, 'demo', 'Withdrawal')).toBe(0);
    await expectLedgerSound(t);
    // 50 scrypt checks of the transaction password: generous on a busy 2-core machine.
  }, 60_000);

  it('20 concurrent QA pays of one deposit: credited once', async () => {
    const open = (
      await t.post<{ Success: { TransID: string } }>(
        '/deposit/make_payment',
        { amount_usdt: 33, currency: 'USDT.BEP20' },
        { token },
      )
    ).body.Success;
    const before = balanceOf(t, 'demo', 'Deposit');
    const replies = await Promise.all(
      Array.from({ length: 20 }, () =>
        t.post<{ credited: boolean; status: string }>(`/__qa/deposits/${open.TransID}/pay`, {}),
      ),
    );
    expect(replies.every((r) => r.status === 200 && r.body.status === 'PAID')).toBe(true);
    expect(replies.filter((r) => r.body.credited)).toHaveLength(1);
    expect(balanceOf(t, 'demo', 'Deposit')).toBe(before + 33);
    await expectLedgerSound(t);
  });
});

describe('hostile amounts', () => {
  const BAD: { label: string; raw: (field: string, rest: string) => string }[] = [
    { label: 'negative', raw: (f, rest) => `{"${f}": -5${rest}}` },
    { label: 'zero', raw: (f, rest) => `{"${f}": 0${rest}}` },
    { label: 'NaN as a string', raw: (f, rest) => `{"${f}": "NaN"${rest}}` },
    { label: 'raw NaN (invalid JSON)', raw: (f, rest) => `{"${f}": NaN${rest}}` },
    { label: 'a numeric string', raw: (f, rest) => `{"${f}": "50"${rest}}` },
    { label: 'huge', raw: (f, rest) => `{"${f}": 1e12${rest}}` },
    { label: 'seven decimals', raw: (f, rest) => `{"${f}": 20.0000001${rest}}` },
    { label: 'Infinity-ish', raw: (f, rest) => `{"${f}": 1e400${rest}}` },
    { label: 'null', raw: (f, rest) => `{"${f}": null${rest}}` },
  ];
  const ENDPOINTS = [
    { url: '/deposit/make_payment', field: 'amount_usdt', rest: ', "currency": "USDT.BEP20"' },
    {
      url: '/wallet/transfer_wallet',
      field: 'amount',
      rest: ', "from_wallet": "Direct", "to_wallet": "Withdrawal"',
    },
    {
      url: '/transfer_to_user',
      field: 'amount',
      rest: `, "username": "DOWNLINE", "password": "${DEMO_TRANSACTION_PASSWORD}"`,
    },
    {
      url: '/withdraw/withdraw_request',
      field: 'amount',
      rest: `, "password": "${DEMO_TRANSACTION_PASSWORD}"`,
    },
    { url: '/withdraw/withdraw_fees', field: 'amount', rest: '' },
  ];

  it('answer 400 and move nothing on every money endpoint', async () => {
    grant(t, 'demo', 'Direct', 100);
    for (const endpoint of ENDPOINTS)
      for (const bad of BAD) {
        const before = moneySnapshot(t);
        const reply = await t.post(endpoint.url, undefined, {
          token,
          raw: bad.raw(endpoint.field, endpoint.rest.replace('DOWNLINE', downline)),
        });
        expect(reply.status, `${endpoint.url} ${bad.label}`).toBe(400);
        expect(reply.body.Error, `${endpoint.url} ${bad.label}`).toBeTruthy();
        expect(moneySnapshot(t), `${endpoint.url} ${bad.label}`).toBe(before);
      }
    await expectLedgerSound(t);
  });
});

describe('the demo seed', () => {
  it('leaves a sound ledger', async () => {
    const fresh = await createTestApp({ seed: 'demo' });
    await expectLedgerSound(fresh);
    expect(fresh.count('subscriptions')).toBeGreaterThan(2);
    await fresh.close();
  });
});
