/**
 * Recent account activity, an extension of this stand-in (capability `activity`, not a provider
 * endpoint): the signed-in member's notifications, ledger movements and support messages merged
 * newest first. A movement that has a notification with the same TransID is shown once, by the
 * notification, whose text says more.
 */
import { ACTIVITY_LIMIT, formatMoney, humanizeType, microsToAmount, type Activity } from '@md/shared';
import { isoTime } from '../../core/iso-time.ts';
import type { Services } from '../../core/services.ts';
import { limitSql, prepared } from '../../core/prepared.ts';
import type { Handlers } from '../../transport/handlers.ts';
import { memberNotices } from '../notifications/notices.ts';
import { recentSupportMessages } from '../support/handlers.ts';

/** Titles of the notification types the server writes; others read as their type. */
const NOTIFICATION_TITLES: Record<string, string> = {
  Welcome: 'Account created',
  New_Registration: 'New team member',
  Security_Alert: 'Security update',
  Profile_Update: 'Profile updated',
  Package_Purchase: 'Package purchased',
  Deposit: 'Deposit received',
  Withdrawal: 'Withdrawal',
  P2P_Transfer: 'P2P transfer',
  ROI_Income: 'ROI income',
  Direct_Income: 'Direct income',
  Level_Income: 'Level income',
  Binary_Income: 'Binary income',
  Rank_Achieved: 'Rank achieved',
};

interface TransferRow {
  id: number;
  trans_id: string;
  amount: number;
  reason: string;
  created_at: number;
  from_member: number | null;
  from_wallet: string;
  to_member: number | null;
  to_wallet: string;
  counterparty: string | null;
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

function transferActivity(row: TransferRow, memberId: number): Activity {
  const amount = formatMoney(microsToAmount(row.amount));
  const into = row.to_member === memberId;
  const from = row.from_member === memberId;
  const description =
    into && from
      ? `You moved ${amount} from your ${row.from_wallet} wallet to your ${row.to_wallet} wallet.`
      : into
        ? `${amount} credited to your ${row.to_wallet} wallet${row.counterparty ? ` from ${row.counterparty}` : ''}.`
        : `${amount} debited from your ${row.from_wallet} wallet${row.counterparty ? ` to ${row.counterparty}` : ''}.`;
  return {
    Title: row.reason === 'swap' ? 'Wallet swap' : capitalized(humanizeType(row.reason)),
    Description: description,
    DateTime: isoTime(row.created_at),
    Type: row.reason,
    TransID: row.trans_id,
  };
}

/**
 * The member's newest ledger legs. Each of the member's accounts is read through its own time
 * index, both ways, `limit` rows at most each, and only those are merged: the legs of a member's
 * whole history, gathered and sorted, cost ~1.5 ms a call at a few thousand.
 */
export function recentTransfers(
  ctx: Pick<Services, 'sqlite'>,
  memberId: number,
  limit: number,
): TransferRow[] {
  const accounts = prepared<[number], number>(ctx.sqlite, 'select id from accounts where member_id = ?')
    .pluck()
    .all(memberId);
  if (accounts.length === 0) return [];
  const newest = (column: string) =>
    `select * from (select id from transfers where ${column} = ? order by created_at desc, id desc ${limitSql(limit)})`;
  // `in` takes each id once, so the arms need no union's sort: a swap's leg is in two of them.
  const legs = accounts.map(() => `${newest('from_account_id')} union all ${newest('to_account_id')}`);
  return prepared<number[], TransferRow>(
    ctx.sqlite,
    `select t.id, t.trans_id, t.amount, t.reason, t.created_at, fa.member_id as from_member, fa.wallet as from_wallet,
         ta.member_id as to_member, ta.wallet as to_wallet, cp.username as counterparty
       from transfers t
         join accounts fa on fa.id = t.from_account_id
         join accounts ta on ta.id = t.to_account_id
         left join members cp on cp.id = t.counterparty_member_id
       where t.id in (${legs.join(' union all ')})
       order by t.created_at desc, t.id desc
       ${limitSql(limit)}`,
  ).all(...accounts.flatMap((account) => [account, account]));
}

export function recentActivity(ctx: Pick<Services, 'sqlite'>, memberId: number, limit: number): Activity[] {
  const notes = memberNotices(ctx, memberId, limit);
  const notified = new Set(notes.map((n) => n.transId));
  const items: { at: number; order: number; activity: Activity }[] = notes.map((n, i) => ({
    at: n.createdAt,
    order: i,
    activity: {
      Title: NOTIFICATION_TITLES[n.type] ?? capitalized(humanizeType(n.type)),
      Description: n.message,
      DateTime: isoTime(n.createdAt),
      Type: n.type,
      TransID: n.transId,
    },
  }));
  // The legs of one operation share a TransID: the newest leg stands for it.
  const seen = new Set<string>();
  for (const row of recentTransfers(ctx, memberId, limit * 3)) {
    if (notified.has(row.trans_id) || seen.has(row.trans_id)) continue;
    seen.add(row.trans_id);
    items.push({ at: row.created_at, order: items.length, activity: transferActivity(row, memberId) });
  }
  for (const m of recentSupportMessages(ctx, memberId, limit)) {
    items.push({
      at: m.createdAt,
      order: items.length,
      activity: {
        Title: 'Support message sent',
        Description: `"${m.subject}" (reference ${m.ticket}). We will reply to ${m.email}.`,
        DateTime: isoTime(m.createdAt),
        Type: 'Support_Message',
        TransID: m.ticket,
      },
    });
  }
  return items
    .sort((a, b) => b.at - a.at || a.order - b.order)
    .slice(0, limit)
    .map((item) => item.activity);
}

export const activityHandlers: Handlers = {
  'activity.view_recent': (ctx, input) => ({
    Success: recentActivity(ctx, ctx.member.id, input.limit ?? ACTIVITY_LIMIT),
  }),
};
