/**
 * Notifications are written by the events of every module through notify() (notifyMany() for the
 * daily runs' batches); both honour the member's preferences (preferences.ts): an in-app notice
 * turned off is not written, an email turned on is mailed beside it.
 */
import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { members, notifications } from '@md/db';
import { perDatabase } from '../../core/prepared.ts';
import type { Services } from '../../core/services.ts';
import { rowWriter } from '../ledger/sql.ts';
import { anySubscription, queuePush, type PushContent } from '../push/push.ts';
import { kickPushes } from '../push/kick.ts';
import { choiceOf, EVENT_OF_TYPE, EVENT_SUBJECT, mutedInApp } from './preferences.ts';

export type NotificationType =
  'Welcome' | 'New_Registration' | 'Security_Alert' | 'Profile_Update' | (string & {});

/** A TransID for events that have no transaction of their own. */
export const newTransId = (prefix = 'NT') => `${prefix}${randomBytes(6).toString('hex').toUpperCase()}`;

/** Prepared once per database: every money request writes one or two. */
const insertNotification = perDatabase((db) =>
  db
    .insert(notifications)
    .values({
      memberId: sql.placeholder('memberId'),
      type: sql.placeholder('type'),
      message: sql.placeholder('message'),
      transId: sql.placeholder('transId'),
      createdAt: sql.placeholder('createdAt'),
    })
    .prepare(),
);

export function notify(
  /** With a mailer (every request and the seed), an event the member has email on for is mailed too. */
  ctx: Pick<Services, 'db' | 'sqlite' | 'clock'> & Partial<Pick<Services, 'mailer'>>,
  memberId: number,
  type: NotificationType,
  message: string,
  transId: string = newTransId(),
  /** Defaults to now; the seed back-dates. */
  at: number = ctx.clock.now(),
  /**
   * Push it to the member's devices (Web Push, as the member's phone choice says): payouts always
   * are; the other events only where the caller says so (a transfer received, a deposit paid, a
   * withdrawal decided), with the title or screen it gives.
   */
  options: { push?: boolean | Partial<PushContent> } = {},
): void {
  const event = EVENT_OF_TYPE[type];
  const choice = event ? choiceOf(ctx, memberId, event) : { inApp: true, email: false };
  if (choice.inApp) insertNotification(ctx.db).run({ memberId, type, message, transId, createdAt: at });
  const push = options.push ?? event === 'payouts';
  if (
    push &&
    event &&
    queuePush(ctx, { memberId, event, type, body: message, transId, at, ...(push === true ? {} : push) }) > 0
  )
    kickPushes(ctx);
  // Security notices are mailed by core/security-notice.ts with the change they report, whatever the preferences.
  if (!choice.email || !event || event === 'security' || !ctx.mailer) return;
  const member = ctx.db
    .select({ email: members.email, username: members.username })
    .from(members)
    .where(eq(members.id, memberId))
    .get();
  if (!member) return;
  ctx.mailer.send({
    to: member.email,
    toUsername: member.username,
    subject: EVENT_SUBJECT[event],
    text: [
      `Hello ${member.username},`,
      '',
      message,
      '',
      'You can choose which notices you get by email under Settings, Notifications.',
    ].join('\n'),
    sentAt: at,
  });
}

export interface NotificationRow {
  memberId: number;
  type: NotificationType;
  message: string;
  transId: string;
  createdAt: number;
  /**
   * The list reads this notice from its credit (notices.ts, CREDIT_NOTICES): nothing is stored,
   * unless the member turned it off in-app, which withholds the credit's.
   */
  fromCredit?: boolean;
}

/** Several notifications in this order, as notify() would write them one by one (the daily runs write one per payout). */
export function notifyMany(ctx: Pick<Services, 'sqlite'>, rows: readonly NotificationRow[]): void {
  if (rows.length === 0) return;
  const events = [...new Set(rows.map((n) => EVENT_OF_TYPE[n.type]).filter((event) => event !== undefined))];
  // Those of the batch who turned its event off in-app, read once per batch.
  const muted = mutedInApp(ctx, events, [...new Set(rows.map((n) => n.memberId))]);
  const writer = rowWriter(ctx.sqlite, 'notifications', [
    'member_id',
    'type',
    'message',
    'trans_id',
    'created_at',
  ]);
  const withheld = rowWriter(ctx.sqlite, 'notices_withheld', ['member_id', 'trans_id']);
  for (const n of rows) {
    const event = EVENT_OF_TYPE[n.type];
    const off = event !== undefined && muted.size > 0 && muted.has(`${n.memberId}/${event}`);
    if (n.fromCredit) {
      if (off) withheld.push([n.memberId, n.transId]);
    } else if (!off) writer.push([n.memberId, n.type, n.message, n.transId, n.createdAt]);
  }
  writer.end();
  withheld.end();
  // Payouts are pushed to the devices of members who have any (none subscribed: one indexed probe).
  if (!anySubscription(ctx)) return;
  let queued = 0;
  for (const n of rows) {
    const event = EVENT_OF_TYPE[n.type];
    if (event === 'payouts')
      queued += queuePush(ctx, {
        memberId: n.memberId,
        event,
        type: n.type,
        body: n.message,
        transId: n.transId,
        at: n.createdAt,
      });
  }
  if (queued > 0) kickPushes(ctx);
}
