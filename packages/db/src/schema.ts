/**
 * Drizzle schema (SQLite). Times are integer epoch milliseconds of the injectable clock;
 * money is integer micro-units (1 USDT = 1,000,000).
 */
import { sql } from 'drizzle-orm';
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

export const members = sqliteTable(
  'members',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    username: text('username').notNull(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    country: text('country').notNull(),
    /** Who referred this member (sponsor tree). Null only for the root. */
    sponsorId: integer('sponsor_id'),
    /** Binary parent and the side ('0' left, '1' right) of it this member sits on. */
    parentId: integer('parent_id'),
    side: text('side', { enum: ['0', '1'] }),
    createdAt: integer('created_at').notNull(),
    passwordHash: text('password_hash').notNull(),
    /** Bumped on password change: tokens carrying an older version are revoked. */
    tokenVersion: integer('token_version').notNull().default(0),
    totpSecret: text('totp_secret'),
    totpEnabled: integer('totp_enabled', { mode: 'boolean' }).notNull().default(false),
    /** Secret handed out by enable_totp, active only once change_totp_status confirms it. */
    totpPendingSecret: text('totp_pending_secret'),
    /** Last TOTP time step accepted: a code is never accepted twice. */
    totpLastStep: integer('totp_last_step'),
    transactionPasswordHash: text('transaction_password_hash'),
    walletAddress: text('wallet_address'),
  },
  (t) => [
    uniqueIndex('members_username').on(t.username),
    index('members_email').on(t.email),
    index('members_sponsor').on(t.sponsorId),
    uniqueIndex('members_parent_side').on(t.parentId, t.side),
    check('members_side', sql`${t.side} in ('0','1') or ${t.side} is null`),
  ],
);

export const otps = sqliteTable(
  'otps',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    /** Purpose the code is bound to (registration, reset_password, change_password, ...). */
    purpose: text('purpose').notNull(),
    /** The account the code is bound to: a username, or an email before the account exists. */
    subject: text('subject').notNull(),
    /** Extra binding (the new email, the wallet address, the transaction password hash). */
    payload: text('payload'),
    codeHash: text('code_hash').notNull(),
    createdAt: integer('created_at').notNull(),
    expiresAt: integer('expires_at').notNull(),
    attempts: integer('attempts').notNull().default(0),
    usedAt: integer('used_at'),
  },
  (t) => [index('otps_lookup').on(t.purpose, t.subject, t.createdAt)],
);

export const mailOutbox = sqliteTable(
  'mail_outbox',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    toAddress: text('to_address').notNull(),
    toUsername: text('to_username'),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    /** The OTP the message carries, for QA and tests. */
    otp: text('otp'),
    sentAt: integer('sent_at').notNull(),
    /**
     * Where the message stands (core/mailer.ts): 'outbox-only' when no SMTP is configured (and every
     * message from before delivery was tracked), 'pending' while SMTP attempts remain, then 'sent' or 'failed'.
     */
    delivery: text('delivery', { enum: ['outbox-only', 'pending', 'sent', 'failed'] })
      .notNull()
      .default('outbox-only'),
    /** SMTP attempts made so far. */
    attempts: integer('attempts').notNull().default(0),
    /** Why the last attempt failed (the SMTP server's answer or the connection error). */
    lastError: text('last_error'),
    /** When the SMTP server accepted the message. */
    deliveredAt: integer('delivered_at'),
    /** The Message-ID header (on the MAIL_FROM domain); null for messages from before it was kept. */
    messageId: text('message_id'),
    /** Reply-To header: the member, on mail to support. */
    replyTo: text('reply_to'),
  },
  (t) => [
    index('mail_to').on(t.toAddress, t.sentAt),
    index('mail_to_user').on(t.toUsername, t.sentAt),
    check('mail_outbox_delivery_check', sql`${t.delivery} in ('outbox-only','pending','sent','failed')`),
  ],
);

export const notifications = sqliteTable(
  'notifications',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    memberId: integer('member_id').notNull(),
    type: text('type').notNull(),
    message: text('message').notNull(),
    transId: text('trans_id').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [index('notifications_member_time').on(t.memberId, t.createdAt)],
);

/**
 * The ROI payouts that have no notice in a member's list. A daily ROI payout's notice is read from
 * its ledger credit (modules/notifications/notices.ts) instead of being stored beside it: it says
 * what the credit says. So a payout is listed unless a row here withholds it: the member had payout
 * notices off in the app when it was paid, or a stored notice (kept from before) stands for it.
 * WITHOUT ROWID in the migration (the key is the row).
 */
export const noticesWithheld = sqliteTable(
  'notices_withheld',
  {
    memberId: integer('member_id').notNull(),
    transId: text('trans_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.memberId, t.transId] })],
);

/** Throttles of once-per-interval actions (the 10 s password-reset rule). */
/**
 * Sign-in sessions: one row per token signed (its `jti`), so a token can be revoked before it
 * expires (logout, "sign out this one", a security change) and the member can list where they are
 * signed in. Rows past `expires_at` are pruned at the member's next sign-in.
 */
export const sessions = sqliteTable(
  'sessions',
  {
    /** The token's `jti`: random, unique per sign-in. */
    id: text('id').primaryKey(),
    memberId: integer('member_id').notNull(),
    createdAt: integer('created_at').notNull(),
    expiresAt: integer('expires_at').notNull(),
    /** Last authenticated call, written at most once a minute per session. */
    lastSeenAt: integer('last_seen_at').notNull(),
    /** The User-Agent header of the sign-in (bounded), and the address of the last call seen. */
    userAgent: text('user_agent'),
    ip: text('ip'),
    revokedAt: integer('revoked_at'),
  },
  (t) => [index('sessions_member').on(t.memberId)],
);

export const throttles = sqliteTable('throttles', {
  key: text('key').primaryKey(),
  lastAt: integer('last_at').notNull(),
});

/** Single row: the clock's offset from real time, set and advanced by QA. */
export const clockState = sqliteTable('clock_state', {
  id: integer('id').primaryKey(),
  offsetMs: integer('offset_ms').notNull().default(0),
});

/** Key/value facts about the database: the scenario it was seeded with, when. */
export const meta = sqliteTable('meta', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});

/* ───────────────────────────── Money ───────────────────────────── */

/** The 8 wallets every member has. */
export const MEMBER_WALLETS = [
  'Deposit',
  'Direct',
  'Binary',
  'Level',
  'P2P',
  'Withdrawal',
  'ROI',
  'Rank',
] as const;
export type MemberWallet = (typeof MEMBER_WALLETS)[number];

/** System accounts: the other side of every member movement; their balances may be negative. */
export const SYSTEM_ACCOUNTS = [
  'deposits_clearing',
  'payouts',
  'fees',
  'pending_withdrawals',
  'withdrawals_paid',
  'package_sales',
  // Funds the opening balances of a declared QA world state (reason qa_credit).
  'qa_funding',
] as const;
export type SystemAccount = (typeof SYSTEM_ACCOUNTS)[number];

/** Reason code of a transfer. The last five are written by the income engine (modules/engine). */
export const TRANSFER_REASONS = [
  'deposit',
  'package_purchase',
  'swap',
  'p2p',
  'withdrawal_request',
  'withdrawal_paid',
  'withdrawal_refund',
  'withdrawal_fee',
  'roi',
  'direct_income',
  'level_income',
  'binary_income',
  'rank_reward',
  // An opening balance a declared QA world state gives a member (never on a live provider).
  'qa_credit',
] as const;
export type TransferReason = (typeof TRANSFER_REASONS)[number];

/**
 * Double-entry ledger accounts: a member wallet (member_id + wallet name) or a system account
 * (member_id null, wallet = the system code). The balance is kept in the same transaction as
 * the transfers that change it; the CHECK makes a negative member wallet impossible even if
 * code forgets to check.
 */
export const accounts = sqliteTable(
  'accounts',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    memberId: integer('member_id'),
    wallet: text('wallet').notNull(),
    kind: text('kind', { enum: ['member', 'system'] }).notNull(),
    balance: integer('balance').notNull().default(0),
    /**
     * Running totals (TigerBeetle's account model): the sum of the transfers out of and into this
     * account, kept with the balance in the same statement (balance = credits − debits). The
     * wallet's lifetime credits (Total) read from here instead of summing its history.
     */
    debitsPosted: integer('debits_posted').notNull().default(0),
    creditsPosted: integer('credits_posted').notNull().default(0),
  },
  (t) => [
    uniqueIndex('accounts_member_wallet').on(t.memberId, t.wallet),
    // SQLite treats NULLs as distinct in unique indexes: system accounts need their own.
    uniqueIndex('accounts_system_wallet')
      .on(t.wallet)
      .where(sql`${t.memberId} is null`),
    check('accounts_kind', sql`${t.kind} in ('member','system')`),
    check('accounts_member_not_negative', sql`${t.kind} = 'system' or ${t.balance} >= 0`),
    check(
      'accounts_owner',
      sql`(${t.kind} = 'member' and ${t.memberId} is not null) or (${t.kind} = 'system' and ${t.memberId} is null)`,
    ),
  ],
);

/** One leg of a money movement; never edited (a correction is a new transfer). */
export const transfers = sqliteTable(
  'transfers',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    /** The TransID the tables show; the legs of one operation share it. */
    transId: text('trans_id').notNull(),
    fromAccountId: integer('from_account_id').notNull(),
    toAccountId: integer('to_account_id').notNull(),
    amount: integer('amount').notNull(),
    reason: text('reason', { enum: TRANSFER_REASONS }).notNull(),
    /** The member whose history this leg belongs to. */
    memberId: integer('member_id'),
    /** The other member of a P2P transfer. */
    counterpartyMemberId: integer('counterparty_member_id'),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [
    index('transfers_from_time').on(t.fromAccountId, t.createdAt),
    index('transfers_to_time').on(t.toAccountId, t.createdAt),
    index('transfers_trans_id').on(t.transId),
    check('transfers_amount_positive', sql`${t.amount} > 0`),
    check('transfers_distinct_accounts', sql`${t.fromAccountId} <> ${t.toAccountId}`),
  ],
);

/**
 * Earning history's index: one row per (member, transfer) for every transfer in a
 * member's history (from or to one of the member's wallets, or the member's own leg), keyed in
 * the order the table pages it, so a page and its count read one key range instead of a 3-way
 * UNION over transfers. Written only by the triggers of migration 0008 (every write path, the
 * seeds and the engine's worker included); what a row shows is joined from transfers at read time.
 * The table is WITHOUT ROWID in the migration (the key is the row).
 */
export const earningEntries = sqliteTable(
  'earning_entries',
  {
    memberId: integer('member_id').notNull(),
    createdAt: integer('created_at').notNull(),
    transferId: integer('transfer_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.memberId, t.createdAt, t.transferId] })],
);

/**
 * Rows per member and paged table, kept by the triggers of migration 0008: a page
 * count without search, dates or filters reads one row instead of counting the member's rows.
 * `source` names the table as the table engine does (modules/tables/sources.ts). WITHOUT ROWID.
 */
export const tableRows = sqliteTable(
  'table_rows',
  {
    memberId: integer('member_id').notNull(),
    source: text('source').notNull(),
    total: integer('total').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.memberId, t.source] })],
);

/**
 * Credits posted to an account per UTC month (`month` = epoch ms of the month's first instant),
 * kept with the account's running totals: a wallet's This Month and Last Month are one row each.
 * WITHOUT ROWID in the migration (the key is the row).
 */
export const accountMonths = sqliteTable(
  'account_months',
  {
    accountId: integer('account_id').notNull(),
    month: integer('month').notNull(),
    credits: integer('credits').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.month] })],
);

export const DEPOSIT_STATUSES = ['PENDING', 'PAID', 'PARTIAL', 'EXPIRED'] as const;
export type DepositStatus = (typeof DEPOSIT_STATUSES)[number];

/** A deposit window opened by make_payment. */
export const deposits = sqliteTable(
  'deposits',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    transId: text('trans_id').notNull(),
    memberId: integer('member_id').notNull(),
    amount: integer('amount').notNull(),
    currency: text('currency').notNull(),
    /** EIP-55 checksummed BEP20 address, unique per deposit. */
    address: text('address').notNull(),
    status: text('status', { enum: DEPOSIT_STATUSES }).notNull().default('PENDING'),
    /** What QA reported as received (a partial payment keeps the deposit uncredited). */
    paidAmount: integer('paid_amount').notNull().default(0),
    createdAt: integer('created_at').notNull(),
    expiresAt: integer('expires_at').notNull(),
    paidAt: integer('paid_at'),
    /** The row's JSON as its paged table answers it (migration 0020), kept by triggers from the columns above. */
    rowJson: text('row_json'),
  },
  (t) => [
    uniqueIndex('deposits_trans_id').on(t.transId),
    uniqueIndex('deposits_address').on(t.address),
    index('deposits_member_time').on(t.memberId, t.createdAt),
    index('deposits_status').on(t.status, t.expiresAt),
    // A member's open deposits (the wallets page settles those due): one key range, not the member's history.
    index('deposits_open')
      .on(t.memberId, t.expiresAt)
      .where(sql`${t.status} in ('PENDING','PARTIAL')`),
    check('deposits_amount_positive', sql`${t.amount} > 0`),
    check('deposits_status_check', sql`${t.status} in ('PENDING','PAID','PARTIAL','EXPIRED')`),
  ],
);

/** A package bought with the Deposit wallet. */
export const subscriptions = sqliteTable(
  'subscriptions',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    transId: text('trans_id').notNull(),
    memberId: integer('member_id').notNull(),
    plan: text('plan').notNull(),
    amount: integer('amount').notNull(),
    /** Daily ROI in basis points (150 = 1.50 %). */
    roiBasisPoints: integer('roi_basis_points').notNull(),
    /** 3 × amount. */
    maxEarnings: integer('max_earnings').notNull(),
    totalEarnings: integer('total_earnings').notNull().default(0),
    binaryVolume: integer('binary_volume').notNull(),
    rankVolume: integer('rank_volume').notNull(),
    wallet: text('wallet').notNull().default('Deposit'),
    status: text('status', { enum: ['ACTIVE', 'EXPIRED'] })
      .notNull()
      .default('ACTIVE'),
    reason: text('reason'),
    createdAt: integer('created_at').notNull(),
    endDate: integer('end_date'),
  },
  (t) => [
    uniqueIndex('subscriptions_trans_id').on(t.transId),
    index('subscriptions_member_time').on(t.memberId, t.createdAt),
    index('subscriptions_status_member').on(t.status, t.memberId),
    check('subscriptions_status_check', sql`${t.status} in ('ACTIVE','EXPIRED')`),
    check(
      'subscriptions_earnings_capped',
      sql`${t.totalEarnings} >= 0 and ${t.totalEarnings} <= ${t.maxEarnings}`,
    ),
  ],
);

/** A withdrawal request: the amount is reserved (Withdrawal → pending_withdrawals) at once. */
export const withdrawals = sqliteTable(
  'withdrawals',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    transId: text('trans_id').notNull(),
    memberId: integer('member_id').notNull(),
    amount: integer('amount').notNull(),
    fee: integer('fee').notNull(),
    netAmount: integer('net_amount').notNull(),
    address: text('address').notNull(),
    status: text('status', { enum: ['PENDING', 'APPROVED', 'REJECTED'] })
      .notNull()
      .default('PENDING'),
    createdAt: integer('created_at').notNull(),
    decidedAt: integer('decided_at'),
    /** The BEP20 transaction that paid an APPROVED withdrawal (migration 0012); null before it and for payouts approved before hashes were kept. */
    txHash: text('tx_hash'),
    /** Why a REJECTED withdrawal was rejected, as QA gave it or the default (migration 0016); null otherwise and for rejections made before it. */
    rejectReason: text('reject_reason'),
  },
  (t) => [
    uniqueIndex('withdrawals_trans_id').on(t.transId),
    index('withdrawals_member_time').on(t.memberId, t.createdAt),
    index('withdrawals_status').on(t.status, t.createdAt),
    check('withdrawals_status_check', sql`${t.status} in ('PENDING','APPROVED','REJECTED')`),
    check(
      'withdrawals_split',
      sql`${t.fee} >= 0 and ${t.netAmount} >= 0 and ${t.fee} + ${t.netAmount} = ${t.amount}`,
    ),
  ],
);

/** Level income rows written by the income engine on each purchase (expected vs received). */
export const levelIncomes = sqliteTable(
  'level_incomes',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    transId: text('trans_id').notNull(),
    /** The earner. */
    memberId: integer('member_id').notNull(),
    fromMemberId: integer('from_member_id').notNull(),
    subscriptionTransId: text('subscription_trans_id').notNull(),
    level: integer('level').notNull(),
    /** Percentage in hundredths (1000 = 10.00 %). */
    percentage: integer('percentage').notNull(),
    subsAmount: integer('subs_amount').notNull(),
    expectedAmount: integer('expected_amount').notNull(),
    receivedAmount: integer('received_amount').notNull(),
    createdAt: integer('created_at').notNull(),
    /** The row's JSON as its paged table answers it (migration 0020), kept by triggers from the columns above. */
    rowJson: text('row_json'),
  },
  (t) => [
    index('level_incomes_member_time').on(t.memberId, t.createdAt),
    check('level_incomes_level', sql`${t.level} between 1 and 5`),
  ],
);

/** Binary and rank volume entries (written by the income engine). */
export const volumeEntries = sqliteTable(
  'volume_entries',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    kind: text('kind', { enum: ['binary', 'rank'] }).notNull(),
    transId: text('trans_id').notNull(),
    memberId: integer('member_id').notNull(),
    fromMemberId: integer('from_member_id'),
    /** The purchase's TransID. */
    transactionId: text('transaction_id'),
    side: text('side', { enum: ['0', '1'] }),
    volume: integer('volume').notNull().default(0),
    leftVolume: integer('left_volume').notNull().default(0),
    leftCarry: integer('left_carry').notNull().default(0),
    leftTotal: integer('left_total').notNull().default(0),
    rightVolume: integer('right_volume').notNull().default(0),
    rightCarry: integer('right_carry').notNull().default(0),
    rightTotal: integer('right_total').notNull().default(0),
    status: text('status').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [
    index('volume_entries_member_kind_time').on(t.memberId, t.kind, t.createdAt),
    check('volume_entries_kind', sql`${t.kind} in ('binary','rank')`),
  ],
);

/** One-time rank rewards (written by the income engine). */
export const rankRewards = sqliteTable(
  'rank_rewards',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    transId: text('trans_id').notNull(),
    memberId: integer('member_id').notNull(),
    rank: text('rank').notNull(),
    reward: integer('reward').notNull(),
    status: integer('status', { mode: 'boolean' }).notNull().default(false),
    createdAt: integer('created_at').notNull(),
    /** The row's JSON as its paged table answers it (migration 0020), kept by triggers from the columns above. */
    rowJson: text('row_json'),
  },
  (t) => [
    index('rank_rewards_member_time').on(t.memberId, t.createdAt),
    uniqueIndex('rank_rewards_member_rank').on(t.memberId, t.rank),
  ],
);

/* ───────────────────────────── Engine ───────────────────────────── */

/**
 * One scheduled run per (job, business date). Inserting the row claims the run (the UNIQUE
 * key stops a second server or a retry); `cursor` is the last member id whose payouts are
 * committed, so a run killed midway resumes after it and never pays twice.
 */
export const jobRuns = sqliteTable(
  'job_runs',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    job: text('job').notNull(),
    /** YYYY-MM-DD in Europe/London. */
    businessDate: text('business_date').notNull(),
    status: text('status', { enum: ['running', 'done'] })
      .notNull()
      .default('running'),
    /**
     * Where a running run is (modules/engine/jobs.ts): a binary run goes 'stage' (own volumes
     * moved to the staged columns) → 'fold' (the staged volumes folded up the tree, written in
     * chunks) → 'pay' (matching); ROI and ranks are 'pay' only. The cursor restarts at 0 with
     * each phase. Rows of databases older than migration 0006 (whose fold ran inside the claim) are 'pay'.
     */
    phase: text('phase', { enum: ['stage', 'fold', 'pay'] })
      .notNull()
      .default('pay'),
    cursor: integer('cursor').notNull().default(0),
    startedAt: integer('started_at').notNull(),
    finishedAt: integer('finished_at'),
    summary: text('summary'),
  },
  (t) => [
    uniqueIndex('job_runs_job_date').on(t.job, t.businessDate),
    index('job_runs_status').on(t.status),
    check('job_runs_status_check', sql`${t.status} in ('running','done')`),
    check('job_runs_phase_check', sql`${t.phase} in ('stage','fold','pay')`),
  ],
);

/**
 * Per-member binary figures, kept by placement (depth, team_size, both trees' jump pointers) and
 * the daily binary run (pending → carry/total). Volumes are micro-units. A purchase only adds to
 * the buyer's own `own_*_pending`; the daily run folds those up the tree in one pass (DESIGN
 * performance facts).
 */
export const binaryStats = sqliteTable(
  'binary_stats',
  {
    memberId: integer('member_id').primaryKey(),
    /** Levels below the binary root (root 0); -1 until the start-up backfill knows it. */
    depth: integer('depth').notNull(),
    /**
     * Skew-binary jump pointers (Myers 1983), so "is X below me?" costs O(log depth) row lookups
     * instead of X's whole chain (DESIGN §5 Scoping; modules/network/jumps.ts): an ancestor
     * further up the binary tree, fixed from the parent's row at placement. A root points to
     * itself; null until the start-up backfill computes it.
     */
    binaryJumpId: integer('binary_jump_id'),
    /** The same for the sponsor tree: levels below the sponsor root, and its jump pointer. */
    sponsorDepth: integer('sponsor_depth'),
    sponsorJumpId: integer('sponsor_jump_id'),
    /** Members in the binary subtree below, excluding the member itself. */
    teamSize: integer('team_size').notNull().default(0),
    /** Binary volume of the member's own purchases not yet folded by a daily run. */
    ownBinaryPending: integer('own_binary_pending').notNull().default(0),
    /** Rank volume of the member's own purchases not yet folded by a daily run. */
    ownRankPending: integer('own_rank_pending').notNull().default(0),
    /**
     * The own volumes a binary run took for its day (its 'stage' phase moves them out of
     * own_*_pending), kept unchanged until that run is done so its fold can be computed again
     * after a crash; staged_run is the job_runs id of that run (values of other runs are stale).
     */
    stagedBinary: integer('staged_binary').notNull().default(0),
    stagedRank: integer('staged_rank').notNull().default(0),
    stagedRun: integer('staged_run'),
    /** Volume of the current business day not yet matched (set during the run). */
    leftPending: integer('left_pending').notNull().default(0),
    rightPending: integer('right_pending').notNull().default(0),
    /** Carried forward after the last matching. */
    leftCarry: integer('left_carry').notNull().default(0),
    rightCarry: integer('right_carry').notNull().default(0),
    /** Lifetime binary volume per leg. */
    leftTotal: integer('left_total').notNull().default(0),
    rightTotal: integer('right_total').notNull().default(0),
    /** Lifetime rank volume per leg. */
    rankLeft: integer('rank_left').notNull().default(0),
    rankRight: integer('rank_right').notNull().default(0),
    rank: text('rank').notNull().default('Starter'),
    rankUpdatedAt: integer('rank_updated_at'),
  },
  (t) => [
    index('binary_stats_depth').on(t.depth),
    // Rows the start-up backfill still has to compute (modules/engine/stats.ts): nearly always
    // none, so asking "any?" is one probe of this index instead of a pass over every member.
    index('binary_stats_incomplete')
      .on(t.memberId)
      .where(sql`${t.depth} < 0 or ${t.binaryJumpId} is null or ${t.sponsorJumpId} is null`),
  ],
);

/* ──────────────────────── Support (extension of the stand-in) ──────────────────────── */

/**
 * Contact Support messages sent through the `support` extension (not a provider endpoint).
 * Kept so QA and the member's timeline can see them; the outbox holds the mails.
 */
export const supportMessages = sqliteTable(
  'support_messages',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    /** The reference answered to the member and quoted in both mails. */
    ticket: text('ticket').notNull(),
    memberId: integer('member_id').notNull(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    subject: text('subject').notNull(),
    message: text('message').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('support_messages_ticket').on(t.ticket),
    index('support_messages_member_time').on(t.memberId, t.createdAt),
  ],
);

/* ──────────────────── Notification preferences (extension of the stand-in) ──────────────────── */

/**
 * A member's choice of in-app and email notices per event type (modules/notifications/preferences.ts).
 * A row exists once the member changes a default; security notices are never stored here (always on).
 */
export const notificationPreferences = sqliteTable(
  'notification_preferences',
  {
    memberId: integer('member_id').notNull(),
    event: text('event').notNull(),
    inApp: integer('in_app', { mode: 'boolean' }).notNull(),
    email: integer('email', { mode: 'boolean' }).notNull(),
    /** Web Push to the member's subscribed devices (extension `web_push`); on unless turned off. */
    phone: integer('phone', { mode: 'boolean' }).notNull().default(true),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.memberId, t.event] }),
    check('notification_preferences_event', sql`${t.event} <> 'security'`),
  ],
);

/* ──────────────────────── Web Push (extension of the stand-in) ──────────────────────── */

/**
 * A device (browser) of a member that receives Web Push (modules/push): the push service's
 * endpoint and the keys its messages are encrypted to (RFC 8291). An endpoint belongs to one
 * member at a time; a member has at most PUSH_DEVICES_MAX of them.
 */
export const pushSubscriptions = sqliteTable(
  'push_subscriptions',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    memberId: integer('member_id').notNull(),
    endpoint: text('endpoint').notNull(),
    /** The device's P-256 public key (65 bytes, base64url). */
    p256dh: text('p256dh').notNull(),
    /** The device's 16-byte authentication secret (base64url). */
    auth: text('auth').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('push_subscriptions_endpoint').on(t.endpoint),
    index('push_subscriptions_member').on(t.memberId),
  ],
);

/**
 * One push to one device, written in the transaction of the notice it carries and sent after it
 * commits (modules/push/sender.ts): 'pending' until the push service accepts it ('sent'), refuses
 * it for good or after the last retry ('failed'), or says the subscription is gone ('gone').
 */
export const pushOutbox = sqliteTable(
  'push_outbox',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    subscriptionId: integer('subscription_id').notNull(),
    memberId: integer('member_id').notNull(),
    event: text('event').notNull(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    /** The screen the notification opens (a path of the web app). */
    url: text('url').notNull(),
    transId: text('trans_id'),
    createdAt: integer('created_at').notNull(),
    delivery: text('delivery', { enum: ['pending', 'sent', 'failed', 'gone'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    /** The push service's status of the last attempt (201 accepted, 404/410 gone), null before one. */
    status: integer('status'),
    lastError: text('last_error'),
    sentAt: integer('sent_at'),
  },
  (t) => [
    index('push_outbox_pending')
      .on(t.id)
      .where(sql`${t.delivery} = 'pending'`),
    index('push_outbox_member_time').on(t.memberId, t.createdAt),
  ],
);

/* ──────────────────── Idempotency keys of money moves (extension of the stand-in) ──────────────────── */

/**
 * A money move's answer under the client's Idempotency-Key (core/idempotency.ts), written in the
 * move's own transaction: a retry with the key is answered from here and moves nothing. `fingerprint`
 * is the call's procedure and parameters; rows older than the retention go at a later keyed move.
 */
export const idempotencyKeys = sqliteTable(
  'idempotency_keys',
  {
    memberId: integer('member_id').notNull(),
    key: text('key').notNull(),
    procedure: text('procedure').notNull(),
    fingerprint: text('fingerprint').notNull(),
    status: integer('status').notNull(),
    /** The answer's body as sent (JSON). */
    body: text('body').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.memberId, t.key] }), index('idempotency_keys_created').on(t.createdAt)],
);
