/**
 * A member's notices, newest first: the stored ones (notify(), notifyMany()) and the notices of
 * their payouts that are read from the ledger: daily ROI, and a purchase's direct and level income.
 *
 * Rule: such a payout's notice is its credit to the member's wallet (CREDIT_NOTICES): the credit's
 * TransID and time, the payout's type, and the text the payout would have stored, built from the
 * credit: its amount; for ROI the business date its TransID carries (ROI + yyyymmdd + M + member
 * id); for direct and level income the buyer (its counterparty) and the level its TransID ends with
 * (LI + the purchase's TransID + L + level). It is listed unless notices_withheld names it (the
 * member had payout notices off in the app when it was paid, or a stored notice stands for it). A
 * daily run pays tens of thousands of members and a purchase up to five sponsors: a stored copy of
 * each payout was an index entry on its member's pages, half of what a daily run wrote
 * (docs/performance.md).
 * At the same time, a payout's notice comes before a stored one (the ROI run is the day's last;
 * the sponsors of a purchase get no other notice in its transaction).
 */
import type { Services } from '../../core/services.ts';
import { limitSql } from '../../core/prepared.ts';
import { moneyTextSql, prepared } from '../ledger/sql.ts';

/** The text of an ROI payout's notice, in SQL: the amount received and the business date given as SQL. */
export const roiNoticeTextSql = (received: string, date: string) =>
  `'You earned ' || ${moneyTextSql(received)} || ' daily ROI for ' || ${date} || '.'`;

/** The text of an ROI credit's notice, in SQL: its amount, and the business date its TransID carries. */
export const roiCreditNoticeTextSql = (amount: string, transId: string) =>
  roiNoticeTextSql(
    amount,
    `substr(${transId}, 4, 4) || '-' || substr(${transId}, 8, 2) || '-' || substr(${transId}, 10, 2)`,
  );

/** A purchase's income to a sponsor (level 1 is direct income): its push, and its notice in the list. */
export const purchaseIncomeNotice = (received: string, level: number, buyer: string) =>
  level === 1
    ? `You earned ${received} direct income from ${buyer}'s purchase.`
    : `You earned ${received} level ${level} income from ${buyer}'s purchase.`;

/** purchaseIncomeNotice in SQL, for a credit: its amount, its TransID (which ends with the level), the buyer's id. */
const purchaseIncomeCreditTextSql = (direct: boolean) => (amount: string, transId: string, buyer: string) =>
  `'You earned ' || ${moneyTextSql(amount)} || ${direct ? `' direct income'` : `' level ' || substr(${transId}, -1) || ' income'`} || ' from ' || (select username from members where id = ${buyer}) || '''s purchase.'`;

/**
 * The payouts whose notice is read from their credit: the wallet credited, which of its credits
 * (`credit`, SQL over the credit `t`: its reason, and for a purchase's income the buyer), the
 * notice's type, and its text in SQL over the credit's amount, TransID and counterparty.
 */
export const CREDIT_NOTICES = [
  {
    wallet: 'ROI',
    reason: 'roi',
    credit: `t.reason = 'roi'`,
    type: 'ROI_Income',
    text: (amount: string, transId: string) => roiCreditNoticeTextSql(amount, transId),
  },
  {
    wallet: 'Direct',
    reason: 'direct_income',
    credit: `t.reason = 'direct_income' and t.counterparty_member_id is not null`,
    type: 'Direct_Income',
    text: purchaseIncomeCreditTextSql(true),
  },
  {
    wallet: 'Level',
    reason: 'level_income',
    credit: `t.reason = 'level_income' and t.counterparty_member_id is not null`,
    type: 'Level_Income',
    text: purchaseIncomeCreditTextSql(false),
  },
] as const;
type CreditNotice = (typeof CREDIT_NOTICES)[number];

/** A kind's credits that have a notice, not withheld (`member`: the SQL of the credit's member). */
const listed = (kind: CreditNotice, member: string) =>
  `${kind.credit} and not exists (select 1 from notices_withheld w where w.member_id = ${member} and w.trans_id = t.trans_id)`;
/** The member's credits of a kind that have a notice (its wallet's time index, read backwards for a page). */
const creditsOf = (kind: CreditNotice) => `from transfers t
  where t.to_account_id = (select id from accounts where member_id = @member and wallet = '${kind.wallet}') and ${listed(kind, '@member')}`;

const payoutType = `case reason ${CREDIT_NOTICES.map((kind) => `when '${kind.reason}' then '${kind.type}'`).join(' ')} end`;
const payoutText = `case reason ${CREDIT_NOTICES.map((kind) => `when '${kind.reason}' then ${kind.text('amount', 'trans_id', 'buyer')}`).join(' ')} end`;

export interface Notice {
  type: string;
  message: string;
  transId: string;
  createdAt: number;
}

/**
 * How many rows each side of the merge reads for a page ending at row `end`: the next power of two,
 * so a page deep in the list makes no statement of its own (the LIMIT is written into the SQL,
 * core/prepared.ts). A page number near the largest safe integer asks for more rows than that: from
 * 2^52 on, more than any member has, each side reads every row.
 */
function rowsPerSide(end: number): number {
  let rows = 1;
  while (rows < end && rows < 2 ** 52) rows *= 2;
  return rows;
}

/**
 * A page of the member's notices: `limit` of them after the newest `offset`. Each side (the stored
 * notices, and each kind of credit) is read in order through its index up to offset + limit rows
 * (rowsPerSide); only those are merged.
 */
export function memberNotices(
  ctx: Pick<Services, 'sqlite'>,
  memberId: number,
  limit: number,
  offset = 0,
): Notice[] {
  if (limit <= 0) return [];
  return prepared(ctx.sqlite, noticesSql(rowsPerSide(offset + limit), limit)).all({
    member: memberId,
    offset,
  }) as Notice[];
}

/**
 * The SQL of a page of notices, by the rows each side reads and the page's size, built once: its
 * few kilobytes, built and hashed again for the statement cache, were a third of the latest four's
 * ~17 µs. Page sizes are ≤ 200 and the rows a side a power of two, so the strings stay few; a bound
 * (emptied when reached), as the statement cache's, keeps odd sizes from growing it.
 */
const noticesSqls = new Map<string, string>();
function noticesSql(rows: number, limit: number): string {
  const key = `${rows}/${limit}`;
  let sql = noticesSqls.get(key);
  if (sql !== undefined) return sql;
  const upto = limitSql(rows);
  // A payout's text is built for the rows of the page only: its arm carries the credit instead.
  const payouts = CREDIT_NOTICES.map(
    (kind) => `
       union all
       select * from (select null, null, t.amount, t.reason, t.counterparty_member_id, t.trans_id, t.created_at, 1, t.id
                      ${creditsOf(kind)} order by t.created_at desc, t.id desc ${upto})`,
  ).join('');
  sql = `select case when payout then ${payoutType} else type end as type,
            case when payout then ${payoutText} else message end as message,
            trans_id as transId, created_at as createdAt from (
       select * from (select type, message, null as amount, null as reason, null as buyer, trans_id, created_at, 0 as payout, id
                        from notifications where member_id = @member order by created_at desc, id desc ${upto})${payouts})
     order by created_at desc, payout desc, id desc ${limitSql(limit)} offset @offset`;
  if (noticesSqls.size >= 200) noticesSqls.clear();
  noticesSqls.set(key, sql);
  return sql;
}

const NOTICE_COUNT_SQL = `select (select count(*) from notifications where member_id = @member)${CREDIT_NOTICES.map((kind) => ` + (select count(*) ${creditsOf(kind)})`).join('')}`;

/** How many notices the member has (the list's page count). */
export function memberNoticeCount(ctx: Pick<Services, 'sqlite'>, memberId: number): number {
  return prepared(ctx.sqlite, NOTICE_COUNT_SQL).pluck().get({ member: memberId }) as number;
}

/** How many notices every member has in all (a seed's summary). */
export function noticeCount(ctx: Pick<Services, 'sqlite'>): number {
  return prepared(
    ctx.sqlite,
    `select (select count(*) from notifications)${CREDIT_NOTICES.map(
      (kind) => ` + (select count(*) from transfers t join accounts a on a.id = t.to_account_id
              where a.wallet = '${kind.wallet}' and a.member_id is not null and ${listed(kind, 'a.member_id')})`,
    ).join('')}`,
  )
    .pluck()
    .get() as number;
}
