/** Rows the benchmarks add to a database so a measured member's tables are full. */
import type { Services } from '../../apps/server/src/core/services.ts';
import { openDeposit, payDeposit } from '../../apps/server/src/modules/deposits/deposits.ts';
import { creditFromSystem } from '../../apps/server/src/modules/ledger/ledger.ts';
import { prepared } from '../../apps/server/src/modules/ledger/sql.ts';
import { buyPackage } from '../../apps/server/src/modules/packages/packages.ts';

const DAY_MS = 86_400_000;

/** `rows` paid deposits and Starter purchases of one member, a minute apart from 20 days ago. Caller holds the transaction. */
export function addMoneyRows(
  services: Services,
  memberId: number,
  rows: number,
  now = services.clock.now(),
): void {
  for (let k = 0; k < rows; k++) {
    const at = now - 20 * DAY_MS + k * 60_000;
    const deposit = openDeposit(services, memberId, 150_000_000, 'USDT.BEP20', at);
    payDeposit(services, deposit.transId, undefined, at + 1_000);
    buyPackage(services, memberId, 'Starter', at + 2_000);
  }
}

/**
 * `rows` level incomes, binary volumes, rank volumes and rank rewards of one member (the daily
 * runs' tables), written directly: their payouts are not what is measured. Caller holds the transaction.
 */
export function addEngineRows(
  services: Services,
  memberId: number,
  rows: number,
  members: number,
  now = services.clock.now(),
): void {
  const level = prepared(
    services.sqlite,
    `insert into level_incomes (trans_id, member_id, from_member_id, subscription_trans_id, level, percentage, subs_amount, expected_amount, received_amount, created_at) values (?, ?, ?, ?, ?, 100, 100000000, 1000000, 1000000, ?)`,
  );
  const volume = prepared(
    services.sqlite,
    `insert into volume_entries (kind, trans_id, member_id, from_member_id, transaction_id, side, volume, status, created_at) values (?, ?, ?, ?, ?, ?, 100000000, 'Counted', ?)`,
  );
  const reward = prepared(
    services.sqlite,
    'insert into rank_rewards (trans_id, member_id, rank, reward, status, created_at) values (?, ?, ?, 1000000, 1, ?)',
  );
  for (let k = 0; k < rows; k++) {
    const at = now - k * 60_000;
    const from = 1 + ((memberId + k) % members);
    level.run(`LV${memberId}-${k}`, memberId, from, `PK${k}`, 1 + (k % 5), at);
    volume.run('binary', `BV${memberId}-${k}`, memberId, from, `PK${k}`, k % 2 ? '1' : '0', at);
    volume.run('rank', `RV${memberId}-${k}`, memberId, from, `PK${k}`, k % 2 ? '1' : '0', at);
    reward.run(`RR${memberId}-${k}`, memberId, `Rank ${k + 1}`, at); // one reward per rank: unique (member, rank)
  }
}

/** A member who writes during a benchmark, with the token it calls with. */
export interface Writer {
  id: number;
  username: string;
  token: string;
}

/**
 * Up to `count` members at least `minDepth` sponsor levels below the root `rootId`: a purchase
 * pays level income to 5 uplines (modules/engine/income.ts), so with minDepth 6 their writes never
 * touch the root's rows, and a measured read of the root stays the same answer. Each gets a
 * token signed by `services` (start the measured server with the same JWT secret).
 */
export function pickWriters(services: Services, rootId: number, count: number, minDepth: number): Writer[] {
  const rows = services.sqlite
    .prepare<[number, number, number], { id: number; username: string; tokenVersion: number }>(
      `with recursive tree(id, depth) as (
         select ?, 0
         union all
         select m.id, tree.depth + 1 from members m join tree on m.sponsor_id = tree.id
       )
       select m.id, m.username, m.token_version as tokenVersion from tree join members m on m.id = tree.id
       where tree.depth >= ? order by m.id limit ?`,
    )
    .all(rootId, minDepth, count);
  return rows.map((row) => ({ id: row.id, username: row.username, token: services.tokens.sign(row) }));
}

/** Credits each writer's Deposit wallet (for purchases) and ROI wallet (for swaps). Caller holds the transaction. */
export function fundWriters(
  services: Services,
  writers: readonly Writer[],
  depositMicros: number,
  roiMicros: number,
  at = services.clock.now(),
): void {
  const credit = (
    system: 'deposits_clearing' | 'payouts',
    wallet: 'Deposit' | 'ROI',
    reason: 'deposit' | 'roi',
    amount: number,
    tag: string,
  ) =>
    creditFromSystem(
      services,
      system,
      writers.map((w) => ({ transId: `BENCH${tag}${w.id}`, memberId: w.id, wallet, amount, reason, at })),
    );
  credit('deposits_clearing', 'Deposit', 'deposit', depositMicros, 'D');
  credit('payouts', 'ROI', 'roi', roiMicros, 'R');
}
