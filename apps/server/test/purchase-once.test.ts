/**
 * One purchase per click (docs/decisions/money-and-ledger.md): identical purchases within the repeat window, sent at
 * once over real HTTP on loopback (REST and tRPC together), make one subscription and one charge,
 * and every answer is the first purchase's success. After the window, or for another package, a
 * purchase is a new one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { amountToMicros } from '@md/shared';
import { PACKAGE_MESSAGES, PURCHASE_REPEAT_WINDOW_MS } from '../src/modules/packages/packages.ts';
import { moneyTransaction, transfer } from '../src/modules/ledger/ledger.ts';
import { createTestApp, expectLedgerSound, memberIdOf, type TestApp } from './helpers.ts';
import { balanceOf, grant } from './money-fixtures.ts';

let t: TestApp;
let token: string;
let base: string;
let memberId: number;

beforeAll(async () => {
  t = await createTestApp({ seed: 'demo' });
  token = await t.login('demo');
  base = await t.fastify.listen({ port: 0, host: '127.0.0.1' });
  memberId = memberIdOf(t, 'demo');
});
afterAll(() => t.close());

const headers = () => ({ 'content-type': 'application/json', authorization: `Bearer ${token}` });
const buyRest = async (plan: string) => {
  const response = await fetch(`${base}/subscription/buy_subscription_packages`, {
    method: 'POST',
    headers: headers(),
    body: JSON.stringify({ plan }),
  });
  return { status: response.status, body: (await response.json()) as unknown };
};
const buyTrpc = async (plan: string) => {
  const response = await fetch(`${base}/trpc/subscription.buy_subscription_packages`, {
    method: 'POST',
    headers: headers(),
    body: JSON.stringify({ plan }),
  });
  return { status: response.status, body: (await response.json()) as unknown };
};

const subscriptionsOf = (plan: string) =>
  (
    t.services.sqlite
      .prepare('select count(*) as n from subscriptions where member_id = ? and plan = ?')
      .get(memberId, plan) as { n: number }
  ).n;
const purchaseCharges = () =>
  (
    t.services.sqlite
      .prepare("select count(*) as n from transfers where reason = 'package_purchase' and member_id = ?")
      .get(memberId) as { n: number }
  ).n;

describe('a burst of identical purchases', () => {
  it('10 at once (5 REST, 5 tRPC): one subscription, one charge, every answer the same success', async () => {
    grant(t, 'demo', 'Deposit', 1000);
    const before = {
      deposit: balanceOf(t, 'demo', 'Deposit'),
      starter: subscriptionsOf('Starter'),
      charges: purchaseCharges(),
    };
    const price = t.services.plan.packages.find((p) => p.name === 'Starter')!.price;

    const replies = await Promise.all([
      ...Array.from({ length: 5 }, () => buyRest('Starter')),
      ...Array.from({ length: 5 }, () => buyTrpc('Starter')),
    ]);

    const success = { Success: PACKAGE_MESSAGES.purchased('Starter') };
    expect(replies.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(replies.slice(0, 5).map((r) => r.body)).toEqual(Array(5).fill(success));
    expect(replies.slice(5).map((r) => r.body)).toEqual(Array(5).fill({ result: { data: success } }));
    expect(subscriptionsOf('Starter')).toBe(before.starter + 1);
    expect(purchaseCharges()).toBe(before.charges + 1);
    // Exact to the micro-unit: one price left the Deposit wallet.
    expect(amountToMicros(balanceOf(t, 'demo', 'Deposit'))).toBe(
      amountToMicros(before.deposit) - amountToMicros(price),
    );
    await expectLedgerSound(t);
  });

  it('a repeat is answered as the first was even when the balance is gone; after the window it is a new purchase', async () => {
    // Empty the Deposit wallet through the ledger (so the ledger check stays meaningful).
    const drained = amountToMicros(balanceOf(t, 'demo', 'Deposit'));
    moneyTransaction(t.services, () =>
      transfer(t.services, [
        {
          transId: 'TESTDRAIN',
          from: { member: memberId, wallet: 'Deposit' },
          to: { system: 'payouts' },
          amount: drained,
          reason: 'swap',
          memberId,
        },
      ]),
    );
    const starters = subscriptionsOf('Starter');
    t.clock.advance(PURCHASE_REPEAT_WINDOW_MS - 1);
    expect(await buyRest('Starter')).toEqual({
      status: 200,
      body: { Success: PACKAGE_MESSAGES.purchased('Starter') },
    });
    expect(subscriptionsOf('Starter')).toBe(starters);

    // Past the window it is a new purchase: refused without the balance, bought with it.
    t.clock.advance(1);
    expect(await buyRest('Starter')).toMatchObject({
      status: 400,
      body: { Error: PACKAGE_MESSAGES.insufficient },
    });
    grant(t, 'demo', 'Deposit', 100);
    expect((await buyRest('Starter')).status).toBe(200);
    expect(subscriptionsOf('Starter')).toBe(starters + 1);
    expect(balanceOf(t, 'demo', 'Deposit')).toBe(0);
    await expectLedgerSound(t);
  });

  it('another package within the window is its own purchase', async () => {
    t.clock.advance(PURCHASE_REPEAT_WINDOW_MS);
    grant(t, 'demo', 'Deposit', 2000);
    const charges = purchaseCharges();
    const [a, b] = await Promise.all([buyRest('Starter'), buyRest('Gold')]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(purchaseCharges()).toBe(charges + 2);
    await expectLedgerSound(t);
  });

  it('an unknown package is refused and changes nothing', async () => {
    const charges = purchaseCharges();
    const reply = await buyRest('Nope');
    expect(reply).toMatchObject({ status: 400, body: { Error: PACKAGE_MESSAGES.unknown } });
    expect(purchaseCharges()).toBe(charges);
  });
});
