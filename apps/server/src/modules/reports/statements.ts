/**
 * Monthly wallet statements (capability `statements`), from the ledger alone: the opening balance
 * is every credit minus every debit of the wallet's account before the month, the month's
 * transfers are summed by reason on each side, and the closing balance is opening + credits -
 * debits. Exact micro-units throughout; the account's kept balance is the last month's closing
 * (the statements test holds them equal).
 */
import { microsToAmount, type Statement, type WalletName } from '@md/shared';
import { badRequest } from '../../core/errors.ts';
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
  return {
    opening,
    credits,
    debits,
    totalCredits,
    totalDebits,
    closing: opening + totalCredits - totalDebits,
  };
}

export function walletStatement(
  ctx: Pick<AuthedCtx, 'sqlite' | 'clock' | 'member'>,
  wallet: WalletName,
  month: string,
): Statement {
  const { from, to } = monthRange(month);
  if (from > ctx.clock.now()) throw badRequest(STATEMENT_MESSAGES.futureMonth);
  const s = statementMicros(ctx, ctx.member.id, wallet, from, to);
  const lines = (rows: ReasonSum[]) =>
    rows.map((r) => ({ Reason: reasonLabel(r.reason), Count: r.count, Amount: microsToAmount(r.micros) }));
  return {
    Wallet: wallet,
    Month: month,
    From: new Date(from).toISOString(),
    To: new Date(to).toISOString(),
    Opening: microsToAmount(s.opening),
    Credits: lines(s.credits),
    Total_Credits: microsToAmount(s.totalCredits),
    Debits: lines(s.debits),
    Total_Debits: microsToAmount(s.totalDebits),
    Closing: microsToAmount(s.closing),
  };
}
