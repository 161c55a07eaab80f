/** The seven paged tables of spec §7 as sources for the table engine; field names are the provider's. */
import { SYSTEM_ACCOUNTS } from '@md/db';
import { microsToAmount } from '@md/shared';
import { isoTime } from '../../core/iso-time.ts';
import {
  columns,
  ownColumns,
  type ShapedTableSource,
  type TableSource,
  type WrittenTableSource,
} from './engine.ts';

const iso = (ms: unknown) => isoTime(Number(ms));
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
const humanizeCode = (code: string) => code.replaceAll('_', ' ').replace(/\b\w/g, (c) => c.toUpperCase());
// A system account's name shows on every earning-history row it sends or receives: made once.
const SYSTEM_ACCOUNT_LABELS = new Map<string, string>(
  SYSTEM_ACCOUNTS.map((name) => [name, humanizeCode(name)]),
);
const humanize = (code: string) => SYSTEM_ACCOUNT_LABELS.get(code) ?? humanizeCode(code);
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

/** Deposits, whose rows carry their text (migration 0020): { id, amount, date, status, transaction_id }. */
export const depositSource: WrittenTableSource = {
  from: 'deposits d',
  where: 'd.member_id = @member',
  text: 'd.row_json',
  time: 'd.created_at',
  id: 'd.id',
  search: ['d.trans_id', 'd.status', 'd.address'],
  counter: 'deposits',
  filters: { status: 'd.status' },
};

const subscription = columns(
  ownColumns('s', [
    'created_at',
    'trans_id',
    'plan',
    'amount',
    'roi_basis_points',
    'max_earnings',
    'total_earnings',
    'wallet',
    'status',
    'reason',
    'end_date',
  ]),
);
const S = subscription.at;
export const subscriptionSource: ShapedTableSource<{
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
  columns: subscription,
  time: 's.created_at',
  id: 's.id',
  search: ['s.trans_id', 's.plan', 's.status', 's.reason'],
  counter: 'subscriptions',
  filters: { Status: 's.status', Name: 's.plan' },
  toRow: (r) => ({
    DateTime: iso(r[S.created_at]),
    TransID: text(r[S.trans_id]),
    Name: text(r[S.plan]),
    Amount: amount(r[S.amount]),
    ROI_Percentage: Number(r[S.roi_basis_points]) / 100,
    Max_Earnings: amount(r[S.max_earnings]),
    Total_Earnings: amount(r[S.total_earnings]),
    Wallet: text(r[S.wallet]),
    Status: text(r[S.status]),
    Reason: r[S.reason] === null ? null : text(r[S.reason]),
    End_Date: isoOrNull(r[S.end_date]),
  }),
};

const earning = columns({
  ...ownColumns('t', ['created_at', 'trans_id', 'amount', 'reason']),
  from_member: 'fa.member_id',
  to_member: 'ta.member_id',
  from_wallet: 'fa.wallet',
  to_wallet: 'ta.wallet',
  from_user: 'fm.username',
  to_user: 'tm.username',
  counterparty_id: 't.counterparty_member_id',
  counterparty: 'cp.username',
  withdrawal_status: 'w.status',
  me: '@member',
});
const E = earning.at;
/**
 * Earning history: every transfer that touches one of the caller's wallets, or that belongs to
 * the caller's history (the system legs of an approved withdrawal). earning_entries (migration
 * 0008, kept by a trigger on transfers) lists them per member in page order, so a page reads its
 * rows from one key range and joins only those; what a row shows comes from the joined rows.
 */
export const earningSource: ShapedTableSource<{
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
  columns: earning,
  time: 'e.created_at',
  id: 'e.transfer_id',
  search: ['t.trans_id', 't.reason', reasonLabelSql('t.reason'), 'cp.username', 'fa.wallet', 'ta.wallet'],
  counter: 'earning',
  filters: { Type: 't.reason', Wallet: 'ta.wallet' },
  toRow: (r) => {
    const me = Number(r[E.me]);
    const fromMember = r[E.from_member];
    const toMember = r[E.to_member];
    const fromWallet = r[E.from_wallet];
    const toWallet = r[E.to_wallet];
    const fromUser = r[E.from_user];
    const reason = r[E.reason];
    const label = (member: unknown, wallet: unknown, user: unknown) =>
      member === null
        ? humanize(text(wallet))
        : Number(member) === me
          ? text(wallet)
          : `${text(user)} ${text(wallet)}`;
    const mineTo = toMember !== null && Number(toMember) === me;
    const mineFrom = fromMember !== null && Number(fromMember) === me;
    const withdrawalStatus = r[E.withdrawal_status];
    const status =
      reason === 'withdrawal_request' && withdrawalStatus === 'PENDING'
        ? 'Pending'
        : reason === 'withdrawal_request' && withdrawalStatus === 'REJECTED'
          ? 'Rejected'
          : 'Success';
    return {
      DateTime: iso(r[E.created_at]),
      TransID: text(r[E.trans_id]),
      Amount: amount(r[E.amount]),
      Type: reasonLabel(text(reason)),
      // Who the money came from, or went to, seen from the caller's side.
      By:
        fromMember !== null && !mineFrom
          ? text(fromUser)
          : r[E.counterparty] && Number(r[E.counterparty_id]) !== me
            ? text(r[E.counterparty])
            : mineFrom
              ? text(fromUser)
              : 'System',
      Transfer: `${label(fromMember, fromWallet, fromUser)} → ${label(toMember, toWallet, r[E.to_user])}`,
      Wallet: mineTo ? text(toWallet) : mineFrom ? text(fromWallet) : '-',
      Status: status,
    };
  },
};

/**
 * Level earnings, whose rows carry their text (migration 0020): { DateTime, TransID,
 * Transaction_ID, Subs_Amount, From, Level, Percentage, Expected_Amount, Received_Amount }.
 */
export const levelEarningSource: WrittenTableSource = {
  from: 'level_incomes li left join members fm on fm.id = li.from_member_id',
  countFrom: 'level_incomes li',
  where: 'li.member_id = @member',
  text: 'li.row_json',
  time: 'li.created_at',
  id: 'li.id',
  search: ['li.trans_id', 'li.subscription_trans_id', 'fm.username'],
  counter: 'level_earning',
  filters: { Level: 'cast(li.level as text)' },
};

const volume = columns({
  ...ownColumns('v', [
    'created_at',
    'trans_id',
    'transaction_id',
    'side',
    'volume',
    'left_volume',
    'left_carry',
    'left_total',
    'right_volume',
    'right_carry',
    'right_total',
    'status',
  ]),
  from_user: 'fm.username',
});
const V = volume.at;
const volumeSource = (kind: 'binary' | 'rank') =>
  ({
    from: 'volume_entries v left join members fm on fm.id = v.from_member_id',
    countFrom: 'volume_entries v',
    where: `v.member_id = @member and v.kind = '${kind}'`,
    columns: volume,
    time: 'v.created_at',
    id: 'v.id',
    search: ['v.trans_id', 'v.transaction_id', 'fm.username', 'v.status'],
    filters: { Side: 'v.side', Status: 'v.status' },
    toRow: (r: readonly unknown[]) => ({
      DateTime: iso(r[V.created_at]),
      TransID: text(r[V.trans_id]),
      From_User: text(r[V.from_user]),
      Transaction_ID: text(r[V.transaction_id]),
      Side: side(r[V.side]),
      Volume: amount(r[V.volume]),
      Left_Volume: amount(r[V.left_volume]),
      Left_Carry: amount(r[V.left_carry]),
      Left_Total: amount(r[V.left_total]),
      Right_Volume: amount(r[V.right_volume]),
      Right_Carry: amount(r[V.right_carry]),
      Right_Total: amount(r[V.right_total]),
      Status: text(r[V.status]),
    }),
  }) satisfies TableSource<unknown>;
export const binaryVolumeSource = volumeSource('binary');
export const rankVolumeSource = volumeSource('rank');

/** Rank rewards, whose rows carry their text (migration 0020): { DateTime, Transaction_ID, Current_Rank, Reward, Status }. */
export const rankRewardSource: WrittenTableSource = {
  from: 'rank_rewards rr',
  where: 'rr.member_id = @member',
  text: 'rr.row_json',
  time: 'rr.created_at',
  id: 'rr.id',
  search: ['rr.trans_id', 'rr.rank'],
  counter: 'rank_rewards',
  filters: { Status: "case when rr.status then 'true' else 'false' end", Current_Rank: 'rr.rank' },
};
