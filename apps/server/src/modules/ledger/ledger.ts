/**
 * The double-entry ledger (DESIGN §5). Every balance change is a transfer between two accounts;
 * balances are updated in the same transaction as the transfers, the sum of all balances is
 * always 0, and the accounts table's CHECK makes a negative member wallet impossible.
 *
 * Each account keeps its running totals (migration 0009): debits and credits posted, and credits
 * per UTC month. `transfer` (and the scale seed, which writes what it would) gathers what its
 * transfers add in `Postings` and writes it with `post`; the daily runs' batch credits
 * (`creditStagedFromSystem`) add the same totals set-based, in SQL. Both in the transfers'
 * transaction: the wallet figures read a few rows whatever the history, and `ledgerCheck`
 * compares every total with the transfers.
 *
 * `transfer` must run inside the caller's one synchronous transaction (`moneyTransaction`), so
 * the caller's reads (balance checks) and these writes are atomic.
 */
import Database from 'better-sqlite3';
import {
  MEMBER_WALLETS,
  SYSTEM_ACCOUNTS,
  type MemberWallet,
  type SystemAccount,
  type TransferReason,
} from '@md/db';
import { MSG } from '@md/shared';
import { badRequest } from '../../core/errors.ts';
import { recordAnswer, replayOf, storedAnswer } from '../../core/idempotency.ts';
import type { Ctx, Services } from '../../core/services.ts';
import { immediateTransaction } from '../../core/prepared.ts';
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
 * another moneyTransaction (a move inside moneyAnswer's) it is part of that one: its failure fails
 * the whole (core/prepared.ts), as in the seeds' transactions; inside a plain transaction it is a
 * savepoint. The sessions' last-seen times waiting to be written go in the same commit
 * (core/tokens.ts), so they cost no commit of their own.
 */
export function moneyTransaction<T>(
  ctx: Pick<Services, 'sqlite'> & { tokens?: Pick<Services['tokens'], 'flushLastSeen'> },
  work: () => T,
): T {
  const tokens = ctx.sqlite.inTransaction ? undefined : ctx.tokens;
  if (!tokens) return immediateTransaction(ctx.sqlite, work);
  return immediateTransaction(ctx.sqlite, () => {
    const done = work();
    tokens.flushLastSeen();
    return done;
  });
}

/**
 * A money move's handler: `work` moves the money and builds the call's answer, in one
 * moneyTransaction. With an Idempotency-Key (core/idempotency.ts) the answer is written with the
 * key in that same transaction, so no crash can part a move from its answer; a key another
 * connection answered first (a second process on the file) is answered from the store instead.
 */
export function moneyAnswer<T>(
  ctx: Pick<Ctx, 'sqlite' | 'clock' | 'idempotency' | 'replayed'>,
  work: () => T,
): T {
  const claim = ctx.idempotency;
  if (!claim || claim.recorded) return moneyTransaction(ctx, work);
  return moneyTransaction(ctx, () => {
    const now = ctx.clock.now();
    const stored = storedAnswer(ctx.sqlite, claim.memberId, claim.key, now);
    if (stored) {
      const replay = replayOf(stored, claim.fingerprint);
      claim.recorded = true;
      ctx.replayed?.();
      return replay.body as T;
    }
    const answer = work();
    recordAnswer(ctx.sqlite, claim, 200, answer, now);
    return answer;
  });
}

/** Prepared statements, cached per connection (the seed and the property test run many moves). */
const stmt = (ctx: Pick<Services, 'sqlite'>, source: string) => prepared(ctx.sqlite, source);

/**
 * Id of an account, created on first use: a member's wallet is created by its first transfer (a
 * member who never moved money in a wallet has no row for it, and its figures read 0).
 */
export function accountId(ctx: Pick<Services, 'sqlite'>, ref: AccountRef): number {
  if ('member' in ref) {
    const found = stmt(ctx, 'select id from accounts where member_id = ? and wallet = ?').get(
      ref.member,
      ref.wallet,
    ) as { id: number } | undefined;
    if (found) return found.id;
    return (
      stmt(
        ctx,
        "insert into accounts (member_id, wallet, kind, balance) values (?, ?, 'member', 0) returning id",
      ).get(ref.member, ref.wallet) as { id: number }
    ).id;
  }
  const find = stmt(ctx, 'select id from accounts where member_id is null and wallet = ?');
  const found = find.get(ref.system) as { id: number } | undefined;
  if (found) return found.id;
  stmt(ctx, "insert into accounts (member_id, wallet, kind, balance) values (null, ?, 'system', 0)").run(
    ref.system,
  );
  return (find.get(ref.system) as { id: number }).id;
}

/** Balance of a member wallet in micro-units (0 before first use). */
export function walletBalance(ctx: Pick<Services, 'sqlite'>, memberId: number, wallet: MemberWallet): number {
  const row = stmt(ctx, 'select balance from accounts where member_id = ? and wallet = ?').get(
    memberId,
    wallet,
  ) as { balance: number } | undefined;
  return row?.balance ?? 0;
}

/** Writes the legs and moves the balances. Caller holds the transaction. */
export function transfer(ctx: LedgerCtx, legs: readonly Leg[]): void {
  if (!ctx.sqlite.inTransaction) throw new Error('ledger.transfer must run inside moneyTransaction');
  const insert = stmt(
    ctx,
    'insert into transfers (trans_id, from_account_id, to_account_id, amount, reason, member_id, counterparty_member_id, created_at) values (?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const postings = new Postings();
  for (const leg of legs) {
    if (!Number.isSafeInteger(leg.amount) || leg.amount <= 0)
      throw new Error(`Invalid transfer amount ${leg.amount}`);
    const from = accountId(ctx, leg.from);
    const to = accountId(ctx, leg.to);
    const at = leg.at ?? ctx.clock.now();
    insert.run(
      leg.transId,
      from,
      to,
      leg.amount,
      leg.reason,
      leg.memberId,
      leg.counterpartyMemberId ?? null,
      at,
    );
    postings.move(from, to, leg.amount, at);
  }
  try {
    post(ctx, postings);
  } catch (error) {
    // The CHECK is the last line of defence; handlers check balances first with clearer words.
    if (error instanceof Database.SqliteError && error.code === 'SQLITE_CONSTRAINT_CHECK')
      throw badRequest(MSG.insufficientBalance, 'INSUFFICIENT_BALANCE');
    throw error;
  }
}

/** Start (epoch ms) of the UTC month containing `at`. */
export function monthOf(at: number): number {
  const d = new Date(at);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
}

/**
 * What a set of transfers adds to their accounts' running totals: debits and credits per account,
 * credits per account and UTC month. Gathered in JS (many credits to one account become one
 * row) and written by `post`.
 */
export class Postings {
  /** Account id → [debits, credits]. */
  readonly accounts = new Map<number, [number, number]>();
  /** Month → account id → credits. */
  readonly months = new Map<number, Map<number, number>>();
  #lastAt = Number.NaN;
  #lastMonth = 0;

  private totals(account: number): [number, number] {
    let totals = this.accounts.get(account);
    if (!totals) this.accounts.set(account, (totals = [0, 0]));
    return totals;
  }

  debit(account: number, amount: number): void {
    this.totals(account)[0] += amount;
  }

  credit(account: number, amount: number, at: number): void {
    this.totals(account)[1] += amount;
    // A batch's credits mostly share one instant: its month is worked out once.
    if (at !== this.#lastAt) {
      this.#lastAt = at;
      this.#lastMonth = monthOf(at);
      if (!this.months.has(this.#lastMonth)) this.months.set(this.#lastMonth, new Map());
    }
    const credits = this.months.get(this.#lastMonth)!;
    credits.set(account, (credits.get(account) ?? 0) + amount);
  }

  /** [account, month, credits] rows. */
  *monthRows(): Generator<[number, number, number]> {
    for (const [month, credits] of this.months)
      for (const [account, amount] of credits) yield [account, month, amount];
  }

  /** One transfer of `amount` from one account to another at `at`. */
  move(from: number, to: number, amount: number, at: number): void {
    this.debit(from, amount);
    this.credit(to, amount, at);
  }
}

/** Rows per statement when postings are written; a smaller remainder goes through 32, 16, … 1 row statements. */
const POSTING_ROWS = 64;
const postAccountsSql: string[] = [];
const postMonthsSql: string[] = [];

/** Runs `statementFor(rows)` over `rows` (each `width` values), POSTING_ROWS at a time, then halving. */
function writeRows(
  rows: Iterable<readonly number[]>,
  width: number,
  statementFor: (rows: number) => Database.Statement,
): void {
  const params: number[] = [];
  for (const row of rows) {
    for (const value of row) params.push(value);
    if (params.length === POSTING_ROWS * width) {
      statementFor(POSTING_ROWS).run(params);
      params.length = 0;
    }
  }
  for (let size = POSTING_ROWS >> 1; size >= 1; size >>= 1) {
    if (params.length >= size * width) statementFor(size).run(params.splice(0, size * width));
  }
}

/**
 * Writes `postings`: each account's balance and running totals in one update, each (account,
 * month)'s credits in one upsert, several per statement. The only writer of balances and totals
 * (the scale seed aside, which writes the rows these calls would leave). Caller holds the
 * transaction; a member wallet taken below 0 fails the accounts CHECK and throws.
 */
export function post(ctx: Pick<Services, 'sqlite'>, postings: Postings): void {
  // `or fail`: no statement journal for these multi-row statements (see rowWriter); a failure
  // throws, and the caller's transaction (or savepoint) rolls back whole.
  writeRows(
    [...postings.accounts].map(([id, [debits, credits]]) => [id, debits, credits]),
    3,
    (rows) =>
      stmt(
        ctx,
        (postAccountsSql[rows] ??=
          `with v(id, debits, credits) as (values ${Array<string>(rows).fill('(?, ?, ?)').join(', ')})
         update or fail accounts set balance = balance + v.credits - v.debits, debits_posted = debits_posted + v.debits, credits_posted = credits_posted + v.credits
           from v where accounts.id = v.id`),
      ),
  );
  writeRows(postings.monthRows(), 3, (rows) =>
    stmt(
      ctx,
      (postMonthsSql[rows] ??=
        `insert into account_months (account_id, month, credits) values ${Array<string>(rows).fill('(?, ?, ?)').join(', ')}
       on conflict (account_id, month) do update set credits = credits + excluded.credits`),
    ),
  );
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
const STAGED_CREDIT_COLUMNS = [
  'trans_id',
  'member_id',
  'wallet',
  'amount',
  'reason',
  'counterparty_member_id',
  'created_at',
] as const;

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

/** Up to this many credits, creditFromSystem writes them as transfers rather than through the stage. */
const FEW_CREDITS = 8;

/**
 * Credits from one system account to member wallets, writing what `transfer` would write for
 * each credit in turn (the same transfers rows in the same order, a wallet created on its first
 * credit, the same balances at commit) at a fraction of the cost. The credits are staged, then
 * written by creditStagedFromSystem. Caller holds the transaction.
 */
export function creditFromSystem(
  ctx: LedgerCtx,
  system: SystemAccount,
  credits: readonly SystemCredit[],
): void {
  if (!ctx.sqlite.inTransaction) throw new Error('ledger.creditFromSystem must run inside moneyTransaction');
  if (credits.length === 0) return;
  // A purchase's few level credits: the stage's fixed dozen statements cost more than the transfers.
  if (credits.length <= FEW_CREDITS)
    return transfer(
      ctx,
      credits.map((c) => ({
        transId: c.transId,
        from: { system },
        to: { member: c.memberId, wallet: c.wallet },
        amount: c.amount,
        reason: c.reason,
        memberId: c.memberId,
        counterpartyMemberId: c.counterpartyMemberId ?? null,
        at: c.at,
      })),
    );
  for (const c of credits)
    if (!Number.isSafeInteger(c.amount) || c.amount <= 0)
      throw new Error(`Invalid transfer amount ${c.amount}`);
  openStagedCredits(ctx);
  const rows = rowWriter(ctx.sqlite, 'temp.staged_credits', STAGED_CREDIT_COLUMNS);
  for (const c of credits)
    rows.push([c.transId, c.memberId, c.wallet, c.amount, c.reason, c.counterpartyMemberId ?? null, c.at]);
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
export function creditStagedFromSystem(
  ctx: LedgerCtx,
  system: SystemAccount,
): { count: number; total: number } {
  if (!ctx.sqlite.inTransaction)
    throw new Error('ledger.creditStagedFromSystem must run inside moneyTransaction');
  const { count, total, invalid } = stmt(
    ctx,
    "select count(*) as count, coalesce(sum(amount), 0) as total, count(*) filter (where typeof(amount) <> 'integer' or amount <= 0) as invalid from temp.staged_credits",
  ).get() as { count: number; total: number; invalid: number };
  if (count === 0) return { count, total };
  if (invalid > 0) {
    const bad = stmt(
      ctx,
      "select amount from temp.staged_credits where typeof(amount) <> 'integer' or amount <= 0 order by seq limit 1",
    ).get() as { amount: unknown };
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
  const { before } = stmt(ctx, 'select coalesce(max(id), 0) as before from transfers').get() as {
    before: number;
  };
  stmt(ctx, "insert or replace into meta (key, value) values ('earning_entries_batch', '1')").run();
  try {
    stmt(
      ctx,
      `insert or fail into transfers (trans_id, from_account_id, to_account_id, amount, reason, member_id, counterparty_member_id, created_at)
       select trans_id, ?, account_id, amount, reason, member_id, counterparty_member_id, created_at from temp.staged_credits order by seq`,
    ).run(from);
    stmt(
      ctx,
      'insert or fail into earning_entries (member_id, created_at, transfer_id) select member_id, created_at, id from transfers where id > ?',
    ).run(before);
    stmt(
      ctx,
      `insert into table_rows (member_id, source, total) select member_id, 'earning', count(*) from temp.staged_credits where true group by member_id
       on conflict (member_id, source) do update set total = total + excluded.total`,
    ).run();
  } finally {
    stmt(ctx, "delete from meta where key = 'earning_entries_batch'").run();
  }
  // The running totals (see `post`), set-based: each wallet raised once, each (wallet, UTC month)'s
  // credits once, the system account debited once with the total.
  stmt(
    ctx,
    `update or fail accounts set balance = balance + c.amount, credits_posted = credits_posted + c.amount
       from (select account_id, sum(amount) as amount from temp.staged_credits group by account_id) c where accounts.id = c.account_id`,
  ).run();
  stmt(
    ctx,
    `insert into account_months (account_id, month, credits)
     select account_id, cast(strftime('%s', created_at / 1000, 'unixepoch', 'start of month') as integer) * 1000 as month, sum(amount)
       from temp.staged_credits where true group by account_id, month
     on conflict (account_id, month) do update set credits = credits + excluded.credits`,
  ).run();
  stmt(ctx, 'update accounts set balance = balance - ?, debits_posted = debits_posted + ? where id = ?').run(
    total,
    total,
    from,
  );
  stmt(ctx, 'delete from temp.staged_credits').run();
  return { count, total };
}

/** Next TransID for an operation recorded in `table`: prefix + the row id it will get, zero-padded. */
export function nextTransId(
  ctx: Pick<Services, 'sqlite'>,
  prefix: string,
  table: 'deposits' | 'subscriptions' | 'withdrawals' | 'transfers',
): string {
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

/**
 * From the running totals: a few rows per wallet whatever its history. This month counts every
 * month from this one on (a clock QA moved back leaves later credits there, as a sum over the
 * transfers from this month's start would).
 */
function computeWalletFigures(
  ctx: LedgerCtx,
  memberId: number,
  thisMonth: number,
  lastMonth: number,
): Record<MemberWallet, WalletFigures> {
  // As arrays: better-sqlite3's row objects (and a rest pattern per row) were half of a cold read.
  const rows = stmt(
    ctx,
    `select a.wallet, a.balance, a.credits_posted,
            coalesce((select sum(credits) from account_months m where m.account_id = a.id and m.month >= @thisMonth), 0),
            coalesce((select credits from account_months m where m.account_id = a.id and m.month = @lastMonth), 0)
       from accounts a
      where a.member_id = @member`,
  )
    .raw(true)
    .all({ member: memberId, thisMonth, lastMonth }) as [MemberWallet, number, number, number, number][];
  const result = Object.fromEntries(
    MEMBER_WALLETS.map((w) => [w, { balance: 0, total: 0, thisMonth: 0, lastMonth: 0 }]),
  ) as Record<MemberWallet, WalletFigures>;
  for (const [wallet, balance, total, creditsThisMonth, creditsLastMonth] of rows)
    if (wallet in result)
      result[wallet] = { balance, total, thisMonth: creditsThisMonth, lastMonth: creditsLastMonth };
  return result;
}

export interface LedgerProblem {
  accountId: number;
  username: string | null;
  wallet: string;
  balance: number;
  /** Sum of the account's transfers (in − out), micro-units. */
  fromTransfers: number;
  /** The running totals kept on the account, and what its transfers sum to. */
  debitsPosted: number;
  debitsFromTransfers: number;
  creditsPosted: number;
  creditsFromTransfers: number;
  /** Months whose kept credits differ from the account's transfers into it that month. */
  monthsMismatched: number;
}

export interface LedgerCheck {
  /** The sum of every balance is 0. */
  balanced: boolean;
  total: number;
  negativeWallets: LedgerProblem[];
  /** Accounts whose balance or running totals differ from the sums of their transfers. */
  mismatchedWallets: LedgerProblem[];
}

/** The ledger's invariants over the whole database (QA and tests). */
export function ledgerCheck(ctx: Pick<Services, 'sqlite'>): LedgerCheck {
  const total = (
    stmt(ctx, 'select coalesce(sum(balance), 0) as total from accounts').get() as { total: number }
  ).total;
  // Each kept month is compared with the account's transfers in its range (an index range, as the
  // totals' sums are); credits in no kept month show as the account's credits minus its months'.
  const rows = stmt(
    ctx,
    `with months as (
       select account_id, month, credits,
              coalesce((select sum(amount) from transfers
                         where to_account_id = k.account_id and created_at >= k.month
                           and created_at < strftime('%s', k.month / 1000, 'unixepoch', '+1 month') * 1000), 0) as fromTransfers
         from account_months k),
     kept as (
       select account_id,
              sum(credits <> fromTransfers or month <> strftime('%s', month / 1000, 'unixepoch', 'start of month') * 1000) as differing,
              sum(fromTransfers) as fromTransfers
         from months group by account_id),
     sums as (
       select a.id as accountId, m.username as username, a.wallet as wallet, a.kind as kind, a.balance as balance,
              a.debits_posted as debitsPosted, a.credits_posted as creditsPosted,
              coalesce((select sum(amount) from transfers where from_account_id = a.id), 0) as debitsFromTransfers,
              coalesce((select sum(amount) from transfers where to_account_id = a.id), 0) as creditsFromTransfers,
              coalesce(kept.differing, 0) as differing, coalesce(kept.fromTransfers, 0) as inKeptMonths
         from accounts a left join members m on m.id = a.member_id left join kept on kept.account_id = a.id)
     select accountId, username, wallet, kind, balance, debitsPosted, creditsPosted, debitsFromTransfers, creditsFromTransfers,
            creditsFromTransfers - debitsFromTransfers as fromTransfers, differing + (inKeptMonths <> creditsFromTransfers) as monthsMismatched
       from sums
     union all
     -- Months kept for an account that does not exist.
     select account_id, null, '', 'system', 0, 0, 0, 0, 0, 0, count(*) from account_months
      where account_id not in (select id from accounts) group by account_id`,
  ).all() as (LedgerProblem & { kind: string })[];
  const strip = ({ kind: _kind, ...problem }: LedgerProblem & { kind: string }): LedgerProblem => problem;
  return {
    balanced: total === 0,
    total,
    negativeWallets: rows.filter((r) => r.kind === 'member' && r.balance < 0).map(strip),
    mismatchedWallets: rows
      .filter(
        (r) =>
          r.balance !== r.fromTransfers ||
          r.debitsPosted !== r.debitsFromTransfers ||
          r.creditsPosted !== r.creditsFromTransfers ||
          r.monthsMismatched !== 0,
      )
      .map(strip),
  };
}

export { MEMBER_WALLETS, SYSTEM_ACCOUNTS };
