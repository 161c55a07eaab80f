/**
 * Drizzle schema (SQLite). Times are integer epoch milliseconds of the injectable clock;
 * money is integer micro-units (1 USDT = 1,000,000).
 */
import { sql } from 'drizzle-orm';
import { check, index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

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
  },
  (t) => [index('mail_to').on(t.toAddress, t.sentAt), index('mail_to_user').on(t.toUsername, t.sentAt)],
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

/** Throttles of once-per-interval actions (the 10 s password-reset rule). */
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
