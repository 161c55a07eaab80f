/**
 * The double-entry ledger (DESIGN §5). Every balance change is a transfer between two accounts;
 * balances are updated in the same transaction as the transfers, the sum of all balances is
 * always 0, and the accounts table's CHECK makes a negative member wallet impossible.
 *
 * `transfer` must run inside the caller's one synchronous transaction (`moneyTransaction`), so
 * the caller's reads (balance checks) and these writes are atomic.
 */
import Database from 'better-sqlite3';
import { MEMBER_WALLETS, SYSTEM_ACCOUNTS, type MemberWallet, type SystemAccount, type TransferReason } from '@md/db';
import { MSG } from '@md/shared';
import { badRequest } from '../../core/errors.ts';
import type { Services } from '../../core/services.ts';
import { prepared, rowWriter } from './sql.ts';

export type LedgerCtx = Pick<Services, 'sqlite' | 'clock'>;

export type AccountRef = { member: number; wallet: MemberWallet } | { system: SystemAccount };

export interface Leg {
  transId: string;
  from: AccountRef;
  to: AccountRef;
  /** Integer micro-units, > 0. */
  amount: number;
  reason: TransferReason;
  /** Whose history this leg belongs to. */
  memberId: number | null;
  counterpartyMemberId?: number | null;
  /** Defaults to the clock's now; the seed back-dates. */
  at?: number;
}

/**
 * Runs `work` in one IMMEDIATE transaction: the write lock is taken before the first read, so
 * two processes on one file cannot both read the same balance and both spend it. Nested inside
 * another transaction (the seed) it becomes a savepoint.
 */
export function moneyTransaction<T>(ctx: Pick<Services, 'sqlite'>, work: () => T): T {
  return ctx.sqlite.transaction(work).immediate();
}

/** Prepared statements, cached per connection (the seed and the property test run many moves). */
const stmt = (ctx: Pick<Services, 'sqlite'>, source: string) => prepared(ctx.sqlite, source);

/**
 * Id of an account, created on first use: a member's wallet is created by its first transfer (a
 * member who never moved money in a wallet has no row for it, and its figures read 0).
 */
export function accountId(ctx: Pick<Services, 'sqlite'>, ref: AccountRef): number {
  if ('member' in ref) {
    const found = stmt(ctx, 'select id from accounts where member_id = ? and wallet = ?').get(ref.member, ref.wallet) as { id: number } | undefined;
    if (found) return found.id;
    return (stmt(ctx, "insert into accounts (member_id, wallet, kind, balance) values (?, ?, 'member', 0) returning id").get(ref.member, ref.wallet) as { id: number }).id;
  }
  const find = stmt(ctx, 'select id from accounts where member_id is null and wallet = ?');
  const found = find.get(ref.system) as { id: number } | undefined;
  if (found) return found.id;
  stmt(ctx, "insert into accounts (member_id, wallet, kind, balance) values (null, ?, 'system', 0)").run(ref.system);
  return (find.get(ref.system) as { id: number }).id;
}

/** Balance of a member wallet in micro-units (0 before first use). */
export function walletBalance(ctx: Pick<Services, 'sqlite'>, memberId: number, wallet: MemberWallet): number {
  const row = stmt(ctx, 'select balance from accounts where member_id = ? and wallet = ?').get(memberId, wallet) as { balance: number } | undefined;
  return row?.balance ?? 0;
}

/** Writes the legs and moves the balances. Caller holds the transaction. */
export function transfer(ctx: LedgerCtx, legs: readonly Leg[]): void {
  if (!ctx.sqlite.inTransaction) throw new Error('ledger.transfer must run inside moneyTransaction');
  const insert = stmt(
    ctx,
    'insert into transfers (trans_id, from_account_id, to_account_id, amount, reason, member_id, counterparty_member_id, created_at) values (?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const debit = stmt(ctx, 'update accounts set balance = balance - ? where id = ?');
  const credit = stmt(ctx, 'update accounts set balance = balance + ? where id = ?');
  for (const leg of legs) {
    if (!Number.isSafeInteger(leg.amount) || leg.amount <= 0) throw new Error(`Invalid transfer amount ${leg.amount}`);
    const from = accountId(ctx, leg.from);
    const to = accountId(ctx, leg.to);
    try {
      insert.run(leg.transId, from, to, leg.amount, leg.reason, leg.memberId, leg.counterpartyMemberId ?? null, leg.at ?? ctx.clock.now());
      debit.run(leg.amount, from);
      credit.run(leg.amount, to);
    } catch (error) {
      // The CHECK is the last line of defence; handlers check balances first with clearer words.
      if (error instanceof Database.SqliteError && error.code === 'SQLITE_CONSTRAINT_CHECK') throw badRequest(MSG.insufficientBalance);
      throw error;
    }
  }
}

/** A credit to a member wallet from a system account (the daily runs' payouts). */
export interface SystemCredit {
  transId: string;
  memberId: number;
  wallet: MemberWallet;
  /** Integer micro-units, > 0. */
  amount: number;
  reason: TransferReason;
  counterpartyMemberId?: number | null;
  at: number;
}

/** The columns of a staged credit, in SystemCredit's order. */
const STAGED_CREDIT_COLUMNS = ['trans_id', 'member_id', 'wallet', 'amount', 'reason', 'counterparty_member_id', 'created_at'] as const;

/**
 * Opens this connection's staged credits, empty: a temporary table (never on disk, gone with the
 * connection) that the credits of one creditStagedFromSystem call are put in, in order (`seq`).
 * The daily runs fill it with one INSERT ... SELECT per chunk; creditFromSystem from a list.
 * Caller holds the transaction.
 */
export function openStagedCredits(ctx: Pick<Services, 'sqlite'>): void {
  stmt(
    ctx,
    `create temp table if not exists staged_credits (seq integer primary key, trans_id text not null, member_id integer not null, wallet text not null,
       amount integer not null, reason text not null, counterparty_member_id integer, created_at integer not null, account_id integer)`,
  ).run();
  stmt(ctx, 'delete from temp.staged_credits').run();
}

/**
 * Credits from one system account to member wallets, writing what `transfer` would write for
 * each credit in turn (the same transfers rows in the same order, a wallet created on its first
 * credit, the same balances at commit) at a fraction of the cost. The credits are staged, then
 * written by creditStagedFromSystem. Caller holds the transaction.
 */
export function creditFromSystem(ctx: LedgerCtx, system: SystemAccount, credits: readonly SystemCredit[]): void {
  if (!ctx.sqlite.inTransaction) throw new Error('ledger.creditFromSystem must run inside moneyTransaction');
  if (credits.length === 0) return;
  for (const c of credits) if (!Number.isSafeInteger(c.amount) || c.amount <= 0) throw new Error(`Invalid transfer amount ${c.amount}`);
  openStagedCredits(ctx);
  const rows = rowWriter(ctx.sqlite, 'temp.staged_credits', STAGED_CREDIT_COLUMNS);
  for (const c of credits) rows.push([c.transId, c.memberId, c.wallet, c.amount, c.reason, c.counterpartyMemberId ?? null, c.at]);
  rows.end();
  creditStagedFromSystem(ctx, system);
}

/**
 * The batch credit primitive: credits every staged credit (openStagedCredits) from one system
 * account to its member wallet, in staging order, and empties the stage. Set-based, a dozen
 * statements whatever the count: the missing wallets are created in the order of their first
 * credit, the transfers inserted in one INSERT ... SELECT (consecutive ids in staging order),
 * each one's earning_entries row and the members' earning counts written from them, the balances
 * raised once per account, and the system account (which may go negative) debited once with the
 * total. Credits only raise member wallets, so no member wallet can go negative here. Answers the
 * count and total credited. Caller holds the transaction.
 */
export function creditStagedFromSystem(ctx: LedgerCtx, system: SystemAccount): { count: number; total: number } {
  if (!ctx.sqlite.inTransaction) throw new Error('ledger.creditStagedFromSystem must run inside moneyTransaction');
  const { count, total, invalid } = stmt(
    ctx,
    "select count(*) as count, coalesce(sum(amount), 0) as total, count(*) filter (where typeof(amount) <> 'integer' or amount <= 0) as invalid from temp.staged_credits",
  ).get() as { count: number; total: number; invalid: number };
  if (count === 0) return { count, total };
  if (invalid > 0) {
    const bad = stmt(ctx, "select amount from temp.staged_credits where typeof(amount) <> 'integer' or amount <= 0 order by seq limit 1").get() as { amount: unknown };
    throw new Error(`Invalid transfer amount ${String(bad.amount)}`);
  }
  if (!Number.isSafeInteger(total)) throw new Error(`Invalid transfer total ${total}`);
  const from = accountId(ctx, { system });
  // `or fail` on every multi-row write here: no statement journal (see rowWriter); nothing can
  // fail a constraint, and an error would roll the caller's whole transaction back.
  // Each credit's wallet id, then the missing wallets created in the order of their first credit
  // (most days none: every wallet exists after a member's first payout of its kind).
  const walletId = stmt(
    ctx,
    'update temp.staged_credits set account_id = (select id from accounts a where a.member_id = staged_credits.member_id and a.wallet = staged_credits.wallet) where account_id is null',
  );
  walletId.run();
  const created = stmt(
    ctx,
    `insert or fail into accounts (member_id, wallet, kind, balance)
     select member_id, wallet, 'member', 0 from (select member_id, wallet, min(seq) as first from temp.staged_credits where account_id is null group by member_id, wallet)
      order by first`,
  ).run();
  if (created.changes > 0) walletId.run();
  // Each credit is in its member's earning history only (from a system account to the member's
  // wallet): its earning_entries row and count are written set-based below, while migration 0008's
  // row triggers, which cost ~3 µs a row, stand aside (the mark never outlives this transaction).
  const { before } = stmt(ctx, 'select coalesce(max(id), 0) as before from transfers').get() as { before: number };
  stmt(ctx, "insert or replace into meta (key, value) values ('earning_entries_batch', '1')").run();
  try {
    stmt(
      ctx,
      `insert or fail into transfers (trans_id, from_account_id, to_account_id, amount, reason, member_id, counterparty_member_id, created_at)
       select trans_id, ?, account_id, amount, reason, member_id, counterparty_member_id, created_at from temp.staged_credits order by seq`,
    ).run(from);
    stmt(ctx, 'insert or fail into earning_entries (member_id, created_at, transfer_id) select member_id, created_at, id from transfers where id > ?').run(before);
    stmt(
      ctx,
      `insert into table_rows (member_id, source, total) select member_id, 'earning', count(*) from temp.staged_credits where true group by member_id
       on conflict (member_id, source) do update set total = total + excluded.total`,
    ).run();
  } finally {
    stmt(ctx, "delete from meta where key = 'earning_entries_batch'").run();
  }
  stmt(
    ctx,
    `update or fail accounts set balance = balance + c.amount
       from (select account_id, sum(amount) as amount from temp.staged_credits group by account_id) c where accounts.id = c.account_id`,
  ).run();
  stmt(ctx, 'update accounts set balance = balance - ? where id = ?').run(total, from);
  stmt(ctx, 'delete from temp.staged_credits').run();
  return { count, total };
}

/** Next TransID for an operation recorded in `table`: prefix + the row id it will get, zero-padded. */
export function nextTransId(ctx: Pick<Services, 'sqlite'>, prefix: string, table: 'deposits' | 'subscriptions' | 'withdrawals' | 'transfers'): string {
  const row = stmt(ctx, `select coalesce(max(id), 0) + 1 as next from ${table}`).get() as { next: number };
  return `${prefix}${String(row.next).padStart(8, '0')}`;
}

/** Start of the UTC month containing `at`, and of the month before it. */
export function monthStarts(at: number) {
  const d = new Date(at);
  const thisMonth = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  const lastMonth = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 1, 1);
  return { thisMonth, lastMonth };
}

export interface WalletFigures {
  balance: number;
  /** Lifetime credits. */
  total: number;
  thisMonth: number;
  lastMonth: number;
}

/** Every wallet of a member, in micro-units: balance and credits (lifetime, this and last UTC month). */
export function walletFigures(ctx: LedgerCtx, memberId: number): Record<MemberWallet, WalletFigures> {
  const { thisMonth, lastMonth } = monthStarts(ctx.clock.now());
  return computeWalletFigures(ctx, memberId, thisMonth, lastMonth);
}

function computeWalletFigures(ctx: LedgerCtx, memberId: number, thisMonth: number, lastMonth: number): Record<MemberWallet, WalletFigures> {
  const rows = stmt(
    ctx,
    `select a.wallet as wallet, a.balance as balance,
            coalesce(sum(t.amount), 0) as total,
            coalesce(sum(case when t.created_at >= @thisMonth then t.amount end), 0) as thisMonth,
            coalesce(sum(case when t.created_at >= @lastMonth and t.created_at < @thisMonth then t.amount end), 0) as lastMonth
       from accounts a left join transfers t on t.to_account_id = a.id
      where a.member_id = @member
      group by a.id`,
  ).all({ member: memberId, thisMonth, lastMonth }) as ({ wallet: MemberWallet } & WalletFigures)[];
  const result = Object.fromEntries(MEMBER_WALLETS.map((w) => [w, { balance: 0, total: 0, thisMonth: 0, lastMonth: 0 }])) as Record<MemberWallet, WalletFigures>;
  for (const { wallet, ...figures } of rows) if (wallet in result) result[wallet] = figures;
  return result;
}

export interface LedgerProblem {
  accountId: number;
  username: string | null;
  wallet: string;
  balance: number;
  /** Sum of the account's transfers (in − out), micro-units. */
  fromTransfers: number;
}

export interface LedgerCheck {
  /** The sum of every balance is 0. */
  balanced: boolean;
  total: number;
  negativeWallets: LedgerProblem[];
  mismatchedWallets: LedgerProblem[];
}

/** The ledger's invariants over the whole database (QA and tests). */
export function ledgerCheck(ctx: Pick<Services, 'sqlite'>): LedgerCheck {
  const total = (stmt(ctx, 'select coalesce(sum(balance), 0) as total from accounts').get() as { total: number }).total;
  const rows = stmt(
    ctx,
    `select a.id as accountId, m.username as username, a.wallet as wallet, a.kind as kind, a.balance as balance,
            coalesce((select sum(amount) from transfers where to_account_id = a.id), 0)
          - coalesce((select sum(amount) from transfers where from_account_id = a.id), 0) as fromTransfers
       from accounts a left join members m on m.id = a.member_id`,
  ).all() as (LedgerProblem & { kind: string })[];
  const strip = ({ kind: _kind, ...problem }: LedgerProblem & { kind: string }): LedgerProblem => problem;
  return {
    balanced: total === 0,
    total,
    negativeWallets: rows.filter((r) => r.kind === 'member' && r.balance < 0).map(strip),
    mismatchedWallets: rows.filter((r) => r.balance !== r.fromTransfers).map(strip),
  };
}

export { MEMBER_WALLETS, SYSTEM_ACCOUNTS };
