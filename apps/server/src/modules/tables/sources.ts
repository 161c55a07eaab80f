/** The seven paged tables of spec §7 as sources for the table engine; field names are the provider's. */
import { microsToAmount, truncate2 } from '@md/shared';
import type { TableSource } from './engine.ts';

const iso = (ms: unknown) => new Date(Number(ms)).toISOString();
const isoOrNull = (ms: unknown) => (ms === null || ms === undefined ? null : iso(ms));
const amount = (micros: unknown) => microsToAmount(Number(micros));
const text = (value: unknown) => (value === null || value === undefined ? '' : String(value));
const side = (value: unknown): '0' | '1' => (String(value) === '0' ? '0' : '1');

const REASON_LABELS: Record<string, string> = {
  deposit: 'Deposit',
  package_purchase: 'Package Purchase',
  swap: 'Wallet Swap',
  p2p: 'P2P Transfer',
  withdrawal_request: 'Withdrawal Request',
  withdrawal_paid: 'Withdrawal Paid',
  withdrawal_refund: 'Withdrawal Refund',
  withdrawal_fee: 'Withdrawal Fee',
  roi: 'ROI',
  direct_income: 'Direct Income',
  level_income: 'Level Income',
  binary_income: 'Binary Income',
  rank_reward: 'Rank Reward',
  qa_credit: 'QA Credit',
};
const humanize = (code: string) => code.replaceAll('_', ' ').replace(/\b\w/g, (c) => c.toUpperCase());
export const reasonLabel = (reason: string) => REASON_LABELS[reason] ?? humanize(reason);
/**
 * The Type as the table shows it, in SQL (reasonLabel's twin), so a search for what the member
 * reads ("Binary Income") finds the rows, not only the internal code ("binary_income").
 */
const sqlText = (value: string) => `'${value.replaceAll("'", "''")}'`;
const reasonLabelSql = (column: string) =>
  `case ${column} ${Object.entries(REASON_LABELS)
    .map(([code, label]) => `when ${sqlText(code)} then ${sqlText(label)}`)
    .join(' ')} else replace(${column}, '_', ' ') end`;

export const depositSource: TableSource<{
  id: string;
  amount: string;
  date: string;
  status: string;
  transaction_id: string;
}> = {
  from: 'deposits d',
  where: 'd.member_id = @member',
  select: 'd.id, d.amount, d.created_at, d.status, d.trans_id',
  time: 'd.created_at',
  id: 'd.id',
  search: ['d.trans_id', 'd.status', 'd.address'],
  counter: 'deposits',
  filters: { status: 'd.status' },
  toRow: (r) => ({
    id: text(r.id),
    amount: truncate2(amount(r.amount)).toFixed(2),
    date: iso(r.created_at),
    status: text(r.status),
    transaction_id: text(r.trans_id),
  }),
};

export const subscriptionSource: TableSource<{
  DateTime: string;
  TransID: string;
  Name: string;
  Amount: number;
  ROI_Percentage: number;
  Max_Earnings: number;
  Total_Earnings: number;
  Wallet: string;
  Status: string;
  Reason: string | null;
  End_Date: string | null;
}> = {
  from: 'subscriptions s',
  where: 's.member_id = @member',
  select:
    's.id, s.created_at, s.trans_id, s.plan, s.amount, s.roi_basis_points, s.max_earnings, s.total_earnings, s.wallet, s.status, s.reason, s.end_date',
  time: 's.created_at',
  id: 's.id',
  search: ['s.trans_id', 's.plan', 's.status', 's.reason'],
  counter: 'subscriptions',
  filters: { Status: 's.status', Name: 's.plan' },
  toRow: (r) => ({
    DateTime: iso(r.created_at),
    TransID: text(r.trans_id),
    Name: text(r.plan),
    Amount: amount(r.amount),
    ROI_Percentage: Number(r.roi_basis_points) / 100,
    Max_Earnings: amount(r.max_earnings),
    Total_Earnings: amount(r.total_earnings),
    Wallet: text(r.wallet),
    Status: text(r.status),
    Reason: r.reason === null ? null : text(r.reason),
    End_Date: isoOrNull(r.end_date),
  }),
};

/**
 * Earning history: every transfer that touches one of the caller's wallets, or that belongs to
 * the caller's history (the system legs of an approved withdrawal). earning_entries (migration
 * 0008, kept by a trigger on transfers) lists them per member in page order, so a page reads its
 * rows from one key range and joins only those; what a row shows comes from the joined rows.
 */
export const earningSource: TableSource<{
  DateTime: string;
  TransID: string;
  Amount: number;
  Type: string;
  By: string;
  Transfer: string;
  Wallet: string;
  Status: string;
}> = {
  from: `earning_entries e
    join transfers t on t.id = e.transfer_id
    join accounts fa on fa.id = t.from_account_id
    join accounts ta on ta.id = t.to_account_id
    left join members fm on fm.id = fa.member_id
    left join members tm on tm.id = ta.member_id
    left join members cp on cp.id = t.counterparty_member_id
    left join withdrawals w on w.trans_id = t.trans_id`,
  where: 'e.member_id = @member',
  // Type and Wallet filter on the transfer and its destination; the dates on the entry itself.
  countFrom:
    'earning_entries e join transfers t on t.id = e.transfer_id join accounts ta on ta.id = t.to_account_id',
  select: `t.id, t.created_at, t.trans_id, t.amount, t.reason, fa.member_id as from_member, ta.member_id as to_member,
    fa.wallet as from_wallet, ta.wallet as to_wallet, fm.username as from_user, tm.username as to_user,
    t.counterparty_member_id as counterparty_id, cp.username as counterparty, w.status as withdrawal_status, @member as me`,
  time: 'e.created_at',
  id: 'e.transfer_id',
  search: ['t.trans_id', 't.reason', reasonLabelSql('t.reason'), 'cp.username', 'fa.wallet', 'ta.wallet'],
  counter: 'earning',
  filters: { Type: 't.reason', Wallet: 'ta.wallet' },
  toRow: (r) => {
    const me = Number(r.me);
    const label = (member: unknown, wallet: unknown, user: unknown) =>
      member === null
        ? humanize(text(wallet))
        : Number(member) === me
          ? text(wallet)
          : `${text(user)} ${text(wallet)}`;
    const mineTo = r.to_member !== null && Number(r.to_member) === me;
    const mineFrom = r.from_member !== null && Number(r.from_member) === me;
    const status =
      r.reason === 'withdrawal_request' && r.withdrawal_status === 'PENDING'
        ? 'Pending'
        : r.reason === 'withdrawal_request' && r.withdrawal_status === 'REJECTED'
          ? 'Rejected'
          : 'Success';
    return {
      DateTime: iso(r.created_at),
      TransID: text(r.trans_id),
      Amount: amount(r.amount),
      Type: reasonLabel(text(r.reason)),
      // Who the money came from, or went to, seen from the caller's side.
      By:
        r.from_member !== null && !mineFrom
          ? text(r.from_user)
          : r.counterparty && Number(r.counterparty_id) !== me
            ? text(r.counterparty)
            : mineFrom
              ? text(r.from_user)
              : 'System',
      Transfer: `${label(r.from_member, r.from_wallet, r.from_user)} → ${label(r.to_member, r.to_wallet, r.to_user)}`,
      Wallet: mineTo ? text(r.to_wallet) : mineFrom ? text(r.from_wallet) : '-',
      Status: status,
    };
  },
};

export const levelEarningSource: TableSource<{
  DateTime: string;
  TransID: string;
  Transaction_ID: string;
  Subs_Amount: number;
  From: string;
  Level: number;
  Percentage: number;
  Expected_Amount: number;
  Received_Amount: number;
}> = {
  from: 'level_incomes li left join members fm on fm.id = li.from_member_id',
  countFrom: 'level_incomes li',
  where: 'li.member_id = @member',
  select:
    'li.id, li.created_at, li.trans_id, li.subscription_trans_id, li.subs_amount, fm.username as from_user, li.level, li.percentage, li.expected_amount, li.received_amount',
  time: 'li.created_at',
  id: 'li.id',
  search: ['li.trans_id', 'li.subscription_trans_id', 'fm.username'],
  counter: 'level_earning',
  filters: { Level: 'cast(li.level as text)' },
  toRow: (r) => ({
    DateTime: iso(r.created_at),
    TransID: text(r.trans_id),
    Transaction_ID: text(r.subscription_trans_id),
    Subs_Amount: amount(r.subs_amount),
    From: text(r.from_user),
    Level: Number(r.level),
    Percentage: Number(r.percentage) / 100,
    Expected_Amount: amount(r.expected_amount),
    Received_Amount: amount(r.received_amount),
  }),
};

const volumeSource = (kind: 'binary' | 'rank') =>
  ({
    from: 'volume_entries v left join members fm on fm.id = v.from_member_id',
    countFrom: 'volume_entries v',
    where: `v.member_id = @member and v.kind = '${kind}'`,
    select: `v.id, v.created_at, v.trans_id, fm.username as from_user, v.transaction_id, v.side, v.volume,
      v.left_volume, v.left_carry, v.left_total, v.right_volume, v.right_carry, v.right_total, v.status`,
    time: 'v.created_at',
    id: 'v.id',
    search: ['v.trans_id', 'v.transaction_id', 'fm.username', 'v.status'],
    filters: { Side: 'v.side', Status: 'v.status' },
    toRow: (r: Record<string, unknown>) => ({
      DateTime: iso(r.created_at),
      TransID: text(r.trans_id),
      From_User: text(r.from_user),
      Transaction_ID: text(r.transaction_id),
      Side: side(r.side),
      Volume: amount(r.volume),
      Left_Volume: amount(r.left_volume),
      Left_Carry: amount(r.left_carry),
      Left_Total: amount(r.left_total),
      Right_Volume: amount(r.right_volume),
      Right_Carry: amount(r.right_carry),
      Right_Total: amount(r.right_total),
      Status: text(r.status),
    }),
  }) satisfies TableSource<unknown>;
export const binaryVolumeSource = volumeSource('binary');
export const rankVolumeSource = volumeSource('rank');

export const rankRewardSource: TableSource<{
  DateTime: string;
  Transaction_ID: string;
  Current_Rank: string;
  Reward: number;
  Status: boolean;
}> = {
  from: 'rank_rewards rr',
  where: 'rr.member_id = @member',
  select: 'rr.id, rr.created_at, rr.trans_id, rr.rank, rr.reward, rr.status',
  time: 'rr.created_at',
  id: 'rr.id',
  search: ['rr.trans_id', 'rr.rank'],
  counter: 'rank_rewards',
  filters: { Status: "case when rr.status then 'true' else 'false' end", Current_Rank: 'rr.rank' },
  toRow: (r) => ({
    DateTime: iso(r.created_at),
    Transaction_ID: text(r.trans_id),
    Current_Rank: text(r.rank),
    Reward: amount(r.reward),
    Status: Boolean(r.status),
  }),
};
