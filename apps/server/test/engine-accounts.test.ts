/**
 * Wallet accounts are created by their first credit: the daily runs create the
 * wallets of a chunk's members in one statement, only the wallets they credit, and the ledger
 * stays sound. Members here never moved money before (rows written as the bulk scripts do).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { manualClock } from '../src/core/clock.ts';
import { DEMO_PASSWORD_HASH } from '../src/core/passwords.ts';
import { insertMember } from '../src/modules/auth/members.ts';
import { runDueJobs } from '../src/modules/engine/jobs.ts';
import {
  creditFromSystem,
  moneyTransaction,
  transfer,
  walletBalance,
  walletFigures,
} from '../src/modules/ledger/ledger.ts';
import { createTestApp, expectLedgerSound, type TestApp } from './helpers.ts';

const apps: TestApp[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) {
    await expectLedgerSound(app);
    await app.close();
  }
});

async function world() {
  const t = await createTestApp({ seed: 'empty', clock: manualClock(Date.parse('2026-03-02T09:00:00Z')) });
  apps.push(t);
  let n = 0;
  const member = (sponsorId: number | null, side: '0' | '1' = '0') =>
    insertMember(t.services, {
      username: `m${++n}`,
      name: `Member ${n}`,
      email: `m${n}@example.com`,
      country: 'United Kingdom',
      passwordHash: DEMO_PASSWORD_HASH,
      sponsorId,
      side,
      createdAt: t.clock.now(),
    }).id;
  const accounts = (memberId: number) =>
    t.services.sqlite
      .prepare('select id, wallet, balance from accounts where member_id = ? order by id')
      .all(memberId) as { id: number; wallet: string; balance: number }[];
  return { t, member, accounts };
}

describe('wallet accounts created by the daily runs', () => {
  it('pays members who never had an account: each credited wallet is created once, the others read 0', async () => {
    const { t, member, accounts } = await world();
    const root = member(null);
    const left = member(root, '0');
    const right = member(root, '1');
    const db = t.services.sqlite;
    // A Gold package each (1,000 USDT, 1.5 % a day, cap 3,000) and a day's volume on both legs, written
    // directly: no purchase, so no wallet exists yet.
    const subscribe = db.prepare(
      `insert into subscriptions (trans_id, member_id, plan, amount, roi_basis_points, max_earnings, binary_volume, rank_volume, created_at)
       values (?, ?, 'Gold', 1000000000, 150, 3000000000, 1000000000, 1000000000, ?)`,
    );
    for (const id of [root, left, right]) subscribe.run(`PKT${id}`, id, t.clock.now() - 3_600_000);
    db.prepare(
      'update binary_stats set own_binary_pending = 1000000000, own_rank_pending = 1000000000 where member_id in (?, ?)',
    ).run(left, right);
    expect(db.prepare('select count(*) as n from accounts where member_id is not null').get()).toEqual({
      n: 0,
    });

    // Monday's binary (1,000 matched: 100) and ranks (Bronze: 50), Tuesday's ROI (15 each).
    t.clock.set(Date.parse('2026-03-03T09:00:00Z'));
    runDueJobs(t.services, Date.parse('2026-03-02T09:00:00Z'), t.clock.now());
    expect(accounts(root).map((a) => [a.wallet, a.balance])).toEqual([
      ['Binary', 100_000_000],
      ['Rank', 50_000_000],
      ['ROI', 15_000_000],
    ]);
    expect(accounts(left).map((a) => [a.wallet, a.balance])).toEqual([['ROI', 15_000_000]]);
    expect(accounts(right).map((a) => [a.wallet, a.balance])).toEqual([['ROI', 15_000_000]]);
    const figures = walletFigures(t.services, left);
    expect(figures.ROI).toMatchObject({ balance: 15_000_000, total: 15_000_000 });
    expect(figures.Binary).toEqual({ balance: 0, total: 0, thisMonth: 0, lastMonth: 0 });
    // Each credit is a transfer into the wallet just created.
    const roiIn = db.prepare(
      "select t.to_account_id as account, t.amount from transfers t where t.reason = 'roi' and t.member_id = ?",
    );
    expect(roiIn.all(left)).toEqual([{ account: accounts(left)[0]!.id, amount: 15_000_000 }]);

    // Wednesday's ROI credits the same wallets: no new account.
    const before = db.prepare('select count(*) as n from accounts').get();
    t.clock.set(Date.parse('2026-03-04T09:00:00Z'));
    runDueJobs(t.services, Date.parse('2026-03-03T09:00:00Z'), t.clock.now());
    expect(db.prepare('select count(*) as n from accounts').get()).toEqual(before);
    expect(walletBalance(t.services, left, 'ROI')).toBe(30_000_000);
    expect(walletBalance(t.services, root, 'ROI')).toBe(30_000_000);
    // The payouts account paid out exactly what the wallets received.
    expect(
      db.prepare("select balance from accounts where member_id is null and wallet = 'payouts'").get(),
    ).toEqual({ balance: -(100 + 50 + 6 * 15) * 1_000_000 });
  });

  it('credits several times into one wallet within a batch, and creates the missing wallets in first-credit order', async () => {
    const { t, member, accounts } = await world();
    const a = member(null);
    const b = member(a, '0');
    const at = t.clock.now();
    // b already has a Deposit wallet (and only that one).
    moneyTransaction(t.services, () =>
      transfer(t.services, [
        {
          transId: 'DP1',
          from: { system: 'deposits_clearing' },
          to: { member: b, wallet: 'Deposit' },
          amount: 1_000_000,
          reason: 'deposit',
          memberId: b,
        },
      ]),
    );
    moneyTransaction(t.services, () =>
      creditFromSystem(t.services, 'payouts', [
        { transId: 'C1', memberId: a, wallet: 'Rank', amount: 5_000_000, reason: 'rank_reward', at },
        { transId: 'C2', memberId: b, wallet: 'Rank', amount: 1_000_000, reason: 'rank_reward', at },
        { transId: 'C3', memberId: a, wallet: 'Rank', amount: 7_000_000, reason: 'rank_reward', at },
        { transId: 'C4', memberId: a, wallet: 'ROI', amount: 2_000_000, reason: 'roi', at },
        { transId: 'C5', memberId: b, wallet: 'Deposit', amount: 3_000_000, reason: 'roi', at },
      ]),
    );
    const aAccounts = accounts(a);
    const bAccounts = accounts(b);
    expect(aAccounts.map((x) => [x.wallet, x.balance])).toEqual([
      ['Rank', 12_000_000],
      ['ROI', 2_000_000],
    ]);
    expect(bAccounts.map((x) => [x.wallet, x.balance])).toEqual([
      ['Deposit', 4_000_000],
      ['Rank', 1_000_000],
    ]);
    // Created in the order of their first credit: a's Rank, b's Rank, a's ROI.
    expect(aAccounts[0]!.id).toBeLessThan(bAccounts[1]!.id);
    expect(bAccounts[1]!.id).toBeLessThan(aAccounts[1]!.id);
    // One transfer per credit, in queue order, each into its wallet.
    const transfers = t.services.sqlite
      .prepare(
        "select trans_id, to_account_id as account, amount from transfers where trans_id like 'C%' order by id",
      )
      .all();
    expect(transfers).toEqual([
      { trans_id: 'C1', account: aAccounts[0]!.id, amount: 5_000_000 },
      { trans_id: 'C2', account: bAccounts[1]!.id, amount: 1_000_000 },
      { trans_id: 'C3', account: aAccounts[0]!.id, amount: 7_000_000 },
      { trans_id: 'C4', account: aAccounts[1]!.id, amount: 2_000_000 },
      { trans_id: 'C5', account: bAccounts[0]!.id, amount: 3_000_000 },
    ]);
    expect(
      t.services.sqlite
        .prepare("select balance from accounts where member_id is null and wallet = 'payouts'")
        .get(),
    ).toEqual({ balance: -18_000_000 });
  });
});
