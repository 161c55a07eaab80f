/**
 * Monthly wallet statements (capability `statements`), from the ledger alone: the opening balance
 * is every credit minus every debit of the wallet's account before the month, the month's
 * transfers are summed by reason on each side and listed one by one with the running balance,
 * and the closing balance is opening + credits - debits. Exact micro-units throughout; the
 * account's kept balance is the last month's closing (the statements test holds them equal).
 * The current month is as of the moment it is made (the world's clock), never a future date; its
 * reference is a hash of the member, wallet, month, opening and rows, so the same ledger state
 * gives the same reference and a later movement a new one.
 */
import { createHash } from 'node:crypto';
import {
  microsToAmount,
  STATEMENT_LINES_MAX,
  type Statement,
  type StatementLine,
  type WalletName,
} from '@md/shared';
import { badRequest } from '../../core/errors.ts';
import { isoTime } from '../../core/iso-time.ts';
import { prepared } from '../../core/prepared.ts';
import type { AuthedCtx } from '../../core/services.ts';
import { reasonLabel } from '../tables/sources.ts';

export const STATEMENT_MESSAGES = { futureMonth: 'That month has not started yet' } as const;

/** First instant of a YYYY-MM month (UTC) and of the month after it. */
export function monthRange(month: string): { from: number; to: number } {
  const [year, index] = month.split('-').map(Number) as [number, number];
  return { from: Date.UTC(year, index - 1, 1), to: Date.UTC(year, index, 1) };
}

interface ReasonSum {
  reason: string;
  count: number;
  micros: number;
}

/** One movement of the wallet in the month; `micros` signed (into the wallet positive). */
interface Movement {
  id: number;
  transId: string;
  reason: string;
  createdAt: number;
  micros: number;
}

/** The current month by a clock, YYYY-MM (UTC). */
export const monthOf = (at: number) => isoTime(at).slice(0, 7);

/** The statement of one wallet and month, in micro-units (a wallet never used reads 0 throughout). */
export function statementMicros(
  ctx: Pick<AuthedCtx, 'sqlite'>,
  memberId: number,
  wallet: WalletName,
  from: number,
  to: number,
) {
  const account = prepared(ctx.sqlite, 'select id from accounts where member_id = ? and wallet = ?').get(
    memberId,
    wallet,
  ) as { id: number } | undefined;
  if (!account)
    return {
      opening: 0,
      credits: [] as ReasonSum[],
      debits: [] as ReasonSum[],
      totalCredits: 0,
      totalDebits: 0,
      closing: 0,
      movements: [] as Movement[],
    };
  // Both sides through their (account, time) indexes.
  const before = (column: 'to_account_id' | 'from_account_id') =>
    (
      prepared(
        ctx.sqlite,
        `select coalesce(sum(amount), 0) as micros from transfers where ${column} = ? and created_at < ?`,
      ).get(account.id, from) as { micros: number }
    ).micros;
  const during = (column: 'to_account_id' | 'from_account_id') =>
    prepared(
      ctx.sqlite,
      `select reason, count(*) as count, sum(amount) as micros from transfers where ${column} = ? and created_at >= ? and created_at < ? group by reason order by reason`,
    ).all(account.id, from, to) as ReasonSum[];
  const opening = before('to_account_id') - before('from_account_id');
  const credits = during('to_account_id');
  const debits = during('from_account_id');
  const totalCredits = credits.reduce((sum, r) => sum + r.micros, 0);
  const totalDebits = debits.reduce((sum, r) => sum + r.micros, 0);
  // Each side through its own index, merged in time order (a transfer never has both sides here).
  const movements = prepared(
    ctx.sqlite,
    `select id, trans_id as transId, reason, created_at as createdAt, amount as micros
       from transfers where to_account_id = @account and created_at >= @from and created_at < @to
     union all
     select id, trans_id as transId, reason, created_at as createdAt, -amount as micros
       from transfers where from_account_id = @account and created_at >= @from and created_at < @to
     order by createdAt, id`,
  ).all({ account: account.id, from, to }) as Movement[];
  return {
    opening,
    credits,
    debits,
    totalCredits,
    totalDebits,
    closing: opening + totalCredits - totalDebits,
    movements,
  };
}

/** `ST-ROI-202610-9F2C4A1B7E`: names the member, wallet, month and the ledger rows a statement covers. */
export function statementReference(
  memberId: number,
  wallet: WalletName,
  month: string,
  opening: number,
  movements: readonly Movement[],
): string {
  const hash = createHash('sha256').update(`${memberId}|${wallet}|${month}|${opening}`);
  for (const m of movements) hash.update(`|${m.id}:${m.transId}:${m.createdAt}:${m.micros}`);
  return `ST-${wallet.toUpperCase()}-${month.replace('-', '')}-${hash.digest('hex').slice(0, 10).toUpperCase()}`;
}

export function walletStatement(
  ctx: Pick<AuthedCtx, 'sqlite' | 'clock' | 'member'>,
  wallet: WalletName,
  month?: string,
): Statement {
  const now = ctx.clock.now();
  const asked = month ?? monthOf(now);
  const { from, to } = monthRange(asked);
  if (from > now) throw badRequest(STATEMENT_MESSAGES.futureMonth);
  // The current month stops at now: a transfer stamped later (none should be) is not in it yet.
  const asOf = Math.min(to, now);
  const end = to > now ? now + 1 : to;
  const s = statementMicros(ctx, ctx.member.id, wallet, from, end);
  const lines = (rows: ReasonSum[]) =>
    rows.map((r) => ({ Reason: reasonLabel(r.reason), Count: r.count, Amount: microsToAmount(r.micros) }));
  let balance = s.opening;
  const items: StatementLine[] = [];
  for (const m of s.movements) {
    balance += m.micros;
    if (items.length < STATEMENT_LINES_MAX)
      items.push({
        DateTime: isoTime(m.createdAt),
        Reason: reasonLabel(m.reason),
        Reference: m.transId,
        Amount: microsToAmount(m.micros),
        Balance: microsToAmount(balance),
      });
  }
  return {
    Wallet: wallet,
    Month: asked,
    From: isoTime(from),
    To: isoTime(to),
    Opening: microsToAmount(s.opening),
    Credits: lines(s.credits),
    Total_Credits: microsToAmount(s.totalCredits),
    Debits: lines(s.debits),
    Total_Debits: microsToAmount(s.totalDebits),
    Closing: microsToAmount(s.closing),
    As_Of: isoTime(asOf),
    Made_At: isoTime(now),
    Reference: statementReference(ctx.member.id, wallet, asked, s.opening, s.movements),
    Lines: items,
    Line_Count: s.movements.length,
  };
}
