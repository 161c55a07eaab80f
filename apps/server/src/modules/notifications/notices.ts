/**
 * A member's notices, newest first: the stored ones (notify(), notifyMany()) and their daily ROI
 * payouts', read from the ledger.
 *
 * Rule: a daily ROI payout's notice is its credit to the member's ROI wallet (reason `roi`): type
 * ROI_Income, the credit's TransID and time, and the text 'You earned $X daily ROI for DATE.', the
 * business date being the one its TransID carries (ROI + yyyymmdd + M + member id). It is listed
 * unless notices_withheld names it (the member had payout notices off in the app when it was
 * paid). A daily run pays tens of thousands of members; a stored copy of each payout was half of
 * what it wrote, and each copy an index entry on its member's pages (docs/performance.md).
 * At the same time, a payout's notice comes before a stored one (the ROI run is the day's last).
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

/** The ROI credits that have a notice, not withheld (`member`: the SQL of the credit's member). */
const listedRoi = (member: string) =>
  `t.reason = 'roi' and not exists (select 1 from notices_withheld w where w.member_id = ${member} and w.trans_id = t.trans_id)`;
/** The member's ROI credits that have a notice, newest first (the ROI wallet's time index, backwards). */
const ROI_CREDITS = `from transfers t
  where t.to_account_id = (select id from accounts where member_id = @member and wallet = 'ROI') and ${listedRoi('@member')}`;

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
 * A page of the member's notices: `limit` of them after the newest `offset`. Each side is read in
 * order through its index up to offset + limit rows (rowsPerSide); only those are merged.
 */
export function memberNotices(
  ctx: Pick<Services, 'sqlite'>,
  memberId: number,
  limit: number,
  offset = 0,
): Notice[] {
  if (limit <= 0) return [];
  const upto = limitSql(rowsPerSide(offset + limit));
  // A payout's text is built for the rows of the page only: its arm carries the amount instead.
  return prepared(
    ctx.sqlite,
    `select case when payout then 'ROI_Income' else type end as type,
            case when payout then ${roiCreditNoticeTextSql('amount', 'trans_id')} else message end as message,
            trans_id as transId, created_at as createdAt from (
       select * from (select type, message, null as amount, trans_id, created_at, 0 as payout, id from notifications
                       where member_id = @member order by created_at desc, id desc ${upto})
       union all
       select * from (select null, null, t.amount, t.trans_id, t.created_at, 1, t.id
                      ${ROI_CREDITS} order by t.created_at desc, t.id desc ${upto}))
     order by created_at desc, payout desc, id desc ${limitSql(limit)} offset @offset`,
  ).all({ member: memberId, offset }) as Notice[];
}

/** How many notices the member has (the list's page count). */
export function memberNoticeCount(ctx: Pick<Services, 'sqlite'>, memberId: number): number {
  return prepared(
    ctx.sqlite,
    `select (select count(*) from notifications where member_id = @member) + (select count(*) ${ROI_CREDITS})`,
  )
    .pluck()
    .get({ member: memberId }) as number;
}

/** How many notices every member has in all (a seed's summary). */
export function noticeCount(ctx: Pick<Services, 'sqlite'>): number {
  return prepared(
    ctx.sqlite,
    `select (select count(*) from notifications)
          + (select count(*) from transfers t join accounts a on a.id = t.to_account_id
              where a.member_id is not null and ${listedRoi('a.member_id')})`,
  )
    .pluck()
    .get() as number;
}
