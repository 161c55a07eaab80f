/**
 * Property: random sequences of money operations, valid and invalid, keep the ledger sound after
 * every step, and a refused operation (HTTP ≥ 400) changes nothing.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEMO_TRANSACTION_PASSWORD, DEMO_WALLET_ADDRESS } from '../src/seed/demo-money.ts';
import { saveWalletAddress, setTransactionPasswordHash } from '../src/modules/security/security.ts';
import { createTestApp, memberIdOf, moneySnapshot, type TestApp } from './helpers.ts';
import { grant } from './money-fixtures.ts';

let t: TestApp;
const tokens: Record<string, string> = {};
let actors: string[];
/** actor → a member in its downline, and one that is not. */
const targets: Record<string, { inside: string; outside: string }> = {};

beforeAll(async () => {
  t = await createTestApp({ seed: 'demo' });
  const direct = (
    t.services.sqlite
      .prepare(
        'select c.username from members c where c.sponsor_id = 1 and c.totp_enabled = 0 and exists (select 1 from members g where g.sponsor_id = c.id) limit 1',
      )
      .get() as { username: string }
  ).username;
  const grandchild = (
    t.services.sqlite
      .prepare('select username from members where sponsor_id = ? limit 1')
      .get(memberIdOf(t, direct)) as { username: string }
  ).username;
  actors = ['demo', direct];
  targets.demo = { inside: grandchild, outside: 'demo' };
  targets[direct] = { inside: grandchild, outside: 'demo' };
  const demoHash = (
    t.services.sqlite
      .prepare("select transaction_password_hash as h from members where username = 'demo'")
      .get() as { h: string }
  ).h;
  setTransactionPasswordHash(t.services, memberIdOf(t, direct), demoHash);
  saveWalletAddress(t.services, memberIdOf(t, direct), DEMO_WALLET_ADDRESS);
  for (const a of actors) tokens[a] = await t.login(a);
});
afterAll(() => t.close());

const WALLETS = ['Deposit', 'Direct', 'Binary', 'Level', 'P2P', 'Withdrawal', 'ROI', 'Rank'] as const;
const amount = fc.oneof(
  fc.integer({ min: 1, max: 3000 }),
  fc.integer({ min: 1, max: 300_000 }).map((n) => n / 100),
  fc.constant(20),
);

const step = fc.oneof(
  fc.record({
    op: fc.constant('deposit' as const),
    who: fc.nat(1),
    amount,
    settle: fc.constantFrom('full', 'partial', 'expire', 'none'),
  }),
  fc.record({
    op: fc.constant('income' as const),
    who: fc.nat(1),
    wallet: fc.constantFrom('Direct', 'ROI', 'Rank', 'Level', 'Binary'),
    amount,
  }),
  fc.record({
    op: fc.constant('buy' as const),
    who: fc.nat(1),
    plan: fc.constantFrom('Starter', 'Basic', 'Silver', 'Gold', 'Platinum', 'Diamond', 'Nope'),
  }),
  fc.record({
    op: fc.constant('swap' as const),
    who: fc.nat(1),
    from: fc.constantFrom(...WALLETS),
    to: fc.constantFrom(...WALLETS),
    amount,
  }),
  fc.record({
    op: fc.constant('p2p' as const),
    who: fc.nat(1),
    inside: fc.boolean(),
    rightPassword: fc.boolean(),
    amount,
  }),
  fc.record({
    op: fc.constant('withdraw' as const),
    who: fc.nat(1),
    rightPassword: fc.boolean(),
    amount: fc.oneof(amount, fc.constant(10)),
  }),
  fc.record({ op: fc.constant('decide' as const), decision: fc.constantFrom('approve', 'reject') }),
);

type Step = typeof step extends fc.Arbitrary<infer T> ? T : never;
async function run(s: Step): Promise<{ status: number }> {
  const who = 'who' in s ? actors[s.who]! : 'demo';
  const token = tokens[who]!;
  switch (s.op) {
    case 'deposit': {
      const open = await t.post<{ Success?: { TransID: string } }>(
        '/deposit/make_payment',
        { amount_usdt: s.amount, currency: 'USDT.BEP20' },
        { token },
      );
      if (!open.body.Success || s.settle === 'none') return open;
      const id = open.body.Success.TransID;
      if (s.settle === 'expire') return t.post(`/__qa/deposits/${id}/expire`, {});
      return t.post(
        `/__qa/deposits/${id}/pay`,
        s.settle === 'partial' ? { amount: Math.max(0.01, Math.floor(s.amount * 50) / 100) } : {},
      );
    }
    case 'income':
      grant(t, who, s.wallet, s.amount);
      return { status: 200 };
    case 'buy':
      return t.post('/subscription/buy_subscription_packages', { plan: s.plan }, { token });
    case 'swap':
      return t.post(
        '/wallet/transfer_wallet',
        { from_wallet: s.from, to_wallet: s.to, amount: s.amount },
        { token },
      );
    case 'p2p':
      return t.post(
        '/transfer_to_user',
        {
          username: s.inside ? targets[who]!.inside : targets[who]!.outside,
          amount: s.amount,
          password: s.rightPassword ? DEMO_TRANSACTION_PASSWORD : 'Wrong@123',
        },
        { token },
      );
    case 'withdraw':
      return t.post(
        '/withdraw/withdraw_request',
        { amount: s.amount, password: s.rightPassword ? DEMO_TRANSACTION_PASSWORD : 'Wrong@123' },
        { token },
      );
    case 'decide': {
      const pending = (await t.get<{ id: number }[]>('/__qa/withdrawals?status=PENDING')).body;
      return pending[0] ? t.post(`/__qa/withdrawals/${pending[0].id}/${s.decision}`, {}) : { status: 200 };
    }
  }
}

// Bounded work, not a race with the clock: 25 sequences of at most 50 steps, each step checked
// whole (~17 s alone; beside the browser files at load 10, several times that).
it(
  'keeps the ledger sound and refusals inert over random operation sequences',
  { timeout: 300_000 },
  async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 30, maxLength: 50 }), async (steps) => {
        for (const s of steps) {
          const before = moneySnapshot(t);
          const reply = await run(s);
          expect(reply.status, JSON.stringify(s)).toBeLessThan(500);
          if (reply.status >= 400)
            expect(moneySnapshot(t), `refused ${JSON.stringify(s)} changed nothing`).toBe(before);
          const check = await t.get<{
            balanced: boolean;
            negativeWallets: unknown[];
            mismatchedWallets: unknown[];
          }>('/__qa/ledger/check');
          expect(check.body, JSON.stringify(s)).toMatchObject({
            balanced: true,
            negativeWallets: [],
            mismatchedWallets: [],
          });
        }
      }),
      { numRuns: 25 },
    );
  },
);
