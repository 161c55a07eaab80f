/**
 * Web Push (extension `web_push`): a member's devices (push subscriptions) and the pushes queued
 * for them. A push is written to push_outbox in the same transaction as the notice it carries
 * (notify(), notifyMany(), the daily runs' staged payouts), one row per subscribed device of a
 * member whose `phone` choice for the event is on, and sent after the commit (sender.ts): a
 * rolled-back move pushes nothing, and no push service is called while a transaction is open.
 *
 * Pushed: payouts (incomes and rank rewards), P2P transfers received, deposits paid, withdrawals
 * approved or rejected. The payload is small and carries no secret: a title, the notice's text
 * and the path of the screen that shows it.
 */
import { createECDH } from 'node:crypto';
import { PUSH_DEVICES_MAX, type NotificationEvent } from '@md/shared';
import { badRequest } from '../../core/errors.ts';
import { limitSql, prepared } from '../../core/prepared.ts';
import type { Services } from '../../core/services.ts';
import { endpointRefusal, type EndpointPolicy } from './endpoints.ts';

export const PUSH_MESSAGES = {
  subscribed: 'Push notifications are on for this device',
  unsubscribed: 'Push notifications are off for this device',
  tooMany: `At most ${PUSH_DEVICES_MAX} devices can receive push notifications: turn them off on one first`,
  badKey: 'keys.p256dh is not a P-256 public key',
  notPushed: 'These notices are not sent to phones',
} as const;

/** The events whose notices may be pushed (the preferences' Phone_Offered). */
export const PUSHED_EVENTS: ReadonlySet<NotificationEvent> = new Set([
  'payouts',
  'transfers',
  'deposits',
  'withdrawals',
]);

export interface PushContent {
  title: string;
  /** A path of the web app: the screen the notification opens. */
  url: string;
}

/** What a pushed notice of each notification type says in its title, and where it leads. */
export const PUSH_OF_TYPE: Readonly<Record<string, PushContent>> = {
  ROI_Income: { title: 'ROI income received', url: '/dashboard/bonus' },
  Binary_Income: { title: 'Binary income received', url: '/dashboard/bonus' },
  Direct_Income: { title: 'Direct income received', url: '/dashboard/bonus' },
  Level_Income: { title: 'Level income received', url: '/dashboard/bonus' },
  Rank_Achieved: { title: 'New rank reached', url: '/dashboard/rankrewards' },
  P2P_Transfer: { title: 'P2P transfer received', url: '/dashboard/wallets' },
  Deposit: { title: 'Deposit received', url: '/dashboard/wallets' },
  Withdrawal: { title: 'Withdrawal update', url: '/dashboard/history' },
};

/** The endpoint rules of this server (endpoints.ts): loopback only with QA control on and pushLoopback. */
export const endpointPolicy = (ctx: Pick<Services, 'config'>): EndpointPolicy => ({
  loopback: ctx.config.qaControl && ctx.config.pushLoopback === true,
});

/* ───────────── VAPID keys: one pair per database (a world has its own), made on first need ───────────── */

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

/** This database's VAPID key pair, made and kept in `meta` the first time it is asked for (never in the repository). */
export function vapidKeys(ctx: Pick<Services, 'sqlite'>): VapidKeys {
  const read = () =>
    Object.fromEntries(
      (
        prepared(
          ctx.sqlite,
          "select key, value from meta where key in ('vapid_public_key', 'vapid_private_key')",
        ).all() as { key: string; value: string }[]
      ).map((row) => [row.key, row.value]),
    );
  let stored = read();
  if (!stored.vapid_public_key || !stored.vapid_private_key) {
    // As web-push's generateVAPIDKeys makes them (an uncompressed P-256 point, a 32-byte scalar), without loading it here.
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    const made = {
      publicKey: ecdh.getPublicKey().toString('base64url'),
      privateKey: Buffer.concat([Buffer.alloc(32), ecdh.getPrivateKey()])
        .subarray(-32)
        .toString('base64url'),
    };
    // Both or neither, and the first pair written wins (two connections on one file).
    ctx.sqlite
      .transaction(() => {
        const insert = prepared(ctx.sqlite, 'insert or ignore into meta (key, value) values (?, ?)');
        if (!read().vapid_public_key) {
          insert.run('vapid_public_key', made.publicKey);
          insert.run('vapid_private_key', made.privateKey);
        }
      })
      .immediate();
    stored = read();
  }
  return { publicKey: stored.vapid_public_key!, privateKey: stored.vapid_private_key! };
}

/* ───────────────────────────── Subscriptions ───────────────────────────── */

export const devicesOf = (ctx: Pick<Services, 'sqlite'>, memberId: number) =>
  (
    prepared(ctx.sqlite, 'select count(*) as n from push_subscriptions where member_id = ?').get(
      memberId,
    ) as {
      n: number;
    }
  ).n;

const isP256Point = (base64url: string) => {
  try {
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    ecdh.computeSecret(Buffer.from(base64url, 'base64url'));
    return true;
  } catch {
    return false;
  }
};

/**
 * Subscribes a device of the member: refuses (400, nothing written) an endpoint the policy does
 * not allow, a key that is no P-256 point, and an 11th device. An endpoint another member had
 * moves to this one (a browser has one subscription, and its member is whoever signed in last).
 * One immediate transaction: a burst of subscriptions never passes the cap.
 */
export function subscribePush(
  ctx: Pick<Services, 'sqlite' | 'clock' | 'config'>,
  memberId: number,
  subscription: { endpoint: string; keys: { p256dh: string; auth: string } },
): number {
  const refusal = endpointRefusal(subscription.endpoint, endpointPolicy(ctx));
  if (refusal) throw badRequest(refusal);
  const p256dh = subscription.keys.p256dh.replace(/=+$/, '');
  const auth = subscription.keys.auth.replace(/=+$/, '');
  if (!isP256Point(p256dh)) throw badRequest(PUSH_MESSAGES.badKey);
  return ctx.sqlite
    .transaction(() => {
      const existing = prepared(
        ctx.sqlite,
        'select id, member_id as memberId from push_subscriptions where endpoint = ?',
      ).get(subscription.endpoint) as { id: number; memberId: number } | undefined;
      if (existing?.memberId !== memberId && devicesOf(ctx, memberId) >= PUSH_DEVICES_MAX)
        throw badRequest(PUSH_MESSAGES.tooMany);
      if (existing) {
        // Pushes still owed to the device's previous member are not sent to the new one.
        if (existing.memberId !== memberId)
          dropSubscription(ctx, existing.id, 'The device subscribed for another member');
        else {
          prepared(ctx.sqlite, 'update push_subscriptions set p256dh = ?, auth = ? where id = ?').run(
            p256dh,
            auth,
            existing.id,
          );
          return devicesOf(ctx, memberId);
        }
      }
      prepared(
        ctx.sqlite,
        'insert into push_subscriptions (member_id, endpoint, p256dh, auth, created_at) values (?, ?, ?, ?, ?)',
      ).run(memberId, subscription.endpoint, p256dh, auth, ctx.clock.now());
      return devicesOf(ctx, memberId);
    })
    .immediate();
}

/** Removes the member's subscription of `endpoint` (another member's stays); answers the devices left. */
export function unsubscribePush(ctx: Pick<Services, 'sqlite'>, memberId: number, endpoint: string): number {
  return ctx.sqlite
    .transaction(() => {
      const row = prepared(
        ctx.sqlite,
        'select id from push_subscriptions where endpoint = ? and member_id = ?',
      ).get(endpoint, memberId) as { id: number } | undefined;
      if (row) dropSubscription(ctx, row.id, 'The member turned push off on the device');
      return devicesOf(ctx, memberId);
    })
    .immediate();
}

/** Deletes a subscription; its pushes not yet sent are marked 'gone' with why. */
export function dropSubscription(ctx: Pick<Services, 'sqlite'>, subscriptionId: number, why: string): void {
  prepared(ctx.sqlite, 'delete from push_subscriptions where id = ?').run(subscriptionId);
  prepared(
    ctx.sqlite,
    "update push_outbox set delivery = 'gone', last_error = ? where subscription_id = ? and delivery = 'pending'",
  ).run(why, subscriptionId);
}

/* ───────────────────────────── The queue ───────────────────────────── */

/** Whether any device of this database is subscribed: the daily runs skip every push statement when none is. */
export const anySubscription = (ctx: Pick<Services, 'sqlite'>) =>
  prepared(ctx.sqlite, 'select 1 from push_subscriptions limit 1').get() !== undefined;

/** Members whose phone choice for the event is on (no stored row: on). `s` is push_subscriptions. */
const PHONE_ON = `not exists (select 1 from notification_preferences p where p.member_id = s.member_id and p.event = @event and p.phone = 0)`;

export interface QueuedPush extends Partial<PushContent> {
  memberId: number;
  event: NotificationEvent;
  /** The notice's text: the notification's body. */
  body: string;
  type: string;
  transId: string | null;
  at: number;
}

/** Queues a push of one notice to every device of the member (phone on); inside the notice's transaction. Answers the rows written. */
export function queuePush(ctx: Pick<Services, 'sqlite'>, push: QueuedPush): number {
  const content = PUSH_OF_TYPE[push.type];
  if (!PUSHED_EVENTS.has(push.event)) return 0;
  return prepared(
    ctx.sqlite,
    `insert into push_outbox (subscription_id, member_id, event, title, body, url, trans_id, created_at)
     select s.id, s.member_id, @event, @title, @body, @url, @transId, @at from push_subscriptions s
      where s.member_id = @member and ${PHONE_ON} order by s.id`,
  ).run({
    member: push.memberId,
    event: push.event,
    title: push.title ?? content?.title ?? 'Notice',
    body: push.body,
    url: push.url ?? content?.url ?? '/dashboard/notification',
    transId: push.transId,
    at: push.at,
  }).changes;
}

/**
 * The daily runs' staged payouts (engine/income.ts payStagedIncomes) as pushes: one per device of
 * each member paid (phone on), the text as its notification's. Caller holds the transaction.
 */
export function queueStagedPayoutPushes(
  ctx: Pick<Services, 'sqlite'>,
  type: string,
  message: string,
  params: Record<string, unknown>,
): void {
  if (!anySubscription(ctx)) return;
  const content = PUSH_OF_TYPE[type] ?? { title: 'Payout received', url: '/dashboard/bonus' };
  prepared(
    ctx.sqlite,
    `insert into push_outbox (subscription_id, member_id, event, title, body, url, trans_id, created_at)
     select s.id, c.member_id, @event, @title, ${message}, @url, c.trans_id, c.created_at
       from temp.staged_credits c join temp.engine_incomes i on i.member_id = c.member_id
       join push_subscriptions s on s.member_id = c.member_id
      where ${PHONE_ON}
      order by c.seq, s.id`,
  ).run({ ...params, event: 'payouts', title: content.title, url: content.url });
}

/* ───────────────────────────── QA ───────────────────────────── */

export interface PushView {
  to: string;
  event: string;
  title: string;
  body: string;
  url: string;
  transId: string | null;
  createdAt: string;
  delivery: 'pending' | 'sent' | 'failed' | 'gone';
  attempts: number;
  /** The push service's status of the last attempt. */
  status: number | null;
  lastError: string | null;
  sentAt: string | null;
  /** The push service the device is subscribed at (the origin only: the full endpoint is the device's address). */
  service: string | null;
}

/** GET /__qa/pushes: the pushes of one member (by username) or the latest of all, newest first. */
export function listPushes(ctx: Pick<Services, 'sqlite'>, username?: string): PushView[] {
  const rows = prepared(
    ctx.sqlite,
    `select m.username as "to", o.event, o.title, o.body, o.url, o.trans_id as transId, o.created_at as createdAt,
            o.delivery, o.attempts, o.status, o.last_error as lastError, o.sent_at as sentAt, s.endpoint
       from push_outbox o join members m on m.id = o.member_id left join push_subscriptions s on s.id = o.subscription_id
      where (@username is null or m.username = @username)
      order by o.created_at desc, o.id desc ${limitSql(username ? 500 : 50)}`,
  ).all({ username: username ?? null }) as (Omit<PushView, 'createdAt' | 'sentAt' | 'service'> & {
    createdAt: number;
    sentAt: number | null;
    endpoint: string | null;
  })[];
  return rows.map(({ endpoint, createdAt, sentAt, ...row }) => ({
    ...row,
    createdAt: new Date(createdAt).toISOString(),
    sentAt: sentAt === null ? null : new Date(sentAt).toISOString(),
    service: endpoint === null ? null : new URL(endpoint).origin,
  }));
}
