/**
 * Notification preferences (extension `notification_preferences`): per event type, whether the
 * member gets the in-app notice and the email. notify()/notifyMany() consult them, so every event
 * of every module honours them in one place. Defaults: in-app on, email off (a member opts in to
 * mail). Security notices are always sent both ways and cannot be stored otherwise (the table's
 * CHECK refuses them); payouts are never mailed (a member is paid several times a day, from the
 * daily-run worker, which has no mailer).
 */
import { NOTIFICATION_EVENTS, type NotificationEvent, type OutputOf } from '@md/shared';
import type { Services } from '../../core/services.ts';
import { badRequest } from '../../core/errors.ts';
import { prepared } from '../../core/prepared.ts';
import { PUSH_MESSAGES, PUSHED_EVENTS } from '../push/push.ts';

/** The extension's words (kept out of the shared MSG: the sign-in bundle carries MSG whole). */
export const PREFERENCE_MESSAGES = {
  securityAlwaysOn: 'Security notices cannot be turned off',
  payoutsNotMailed: 'Payouts are not sent by email',
  saved: 'Notification preferences saved',
} as const;

type Preference = OutputOf<'notification.view_preferences'>['Success'][number];

/** The event type each notification type belongs to; a type not listed (Welcome) is always shown and never mailed. */
export const EVENT_OF_TYPE: Readonly<Record<string, NotificationEvent>> = {
  ROI_Income: 'payouts',
  Binary_Income: 'payouts',
  Direct_Income: 'payouts',
  Level_Income: 'payouts',
  Rank_Achieved: 'payouts',
  New_Registration: 'team',
  Deposit: 'deposits',
  Package_Purchase: 'packages',
  Withdrawal: 'withdrawals',
  P2P_Transfer: 'transfers',
  Security_Alert: 'security',
};

/** What a mail of each event says in its subject. */
export const EVENT_SUBJECT: Readonly<Record<NotificationEvent, string>> = {
  payouts: 'Payout',
  team: 'New member in your team',
  deposits: 'Deposit received',
  packages: 'Package purchase',
  withdrawals: 'Withdrawal update',
  transfers: 'P2P transfer',
  security: 'Security notice',
};

const LOCKED: ReadonlySet<NotificationEvent> = new Set(['security']);
const NOT_MAILED: ReadonlySet<NotificationEvent> = new Set(['payouts']);

export interface Choice {
  inApp: boolean;
  email: boolean;
  /** Pushed to the member's devices (extension `web_push`; only the events of PUSHED_EVENTS). */
  phone: boolean;
}

/** The member's choice for one event: the stored row, else the defaults; security is always both. */
export function choiceOf(ctx: Pick<Services, 'sqlite'>, memberId: number, event: NotificationEvent): Choice {
  if (LOCKED.has(event)) return { inApp: true, email: true, phone: false };
  const row = prepared(
    ctx.sqlite,
    'select in_app as inApp, email, phone from notification_preferences where member_id = ? and event = ?',
  ).get(memberId, event) as { inApp: number; email: number; phone: number } | undefined;
  return {
    inApp: row ? row.inApp === 1 : true,
    email: row ? row.email === 1 && !NOT_MAILED.has(event) : false,
    phone: PUSHED_EVENTS.has(event) && (row ? row.phone === 1 : true),
  };
}

/**
 * Members of the batch who turned the in-app notices of `events` off, as "member/event" keys
 * (notifyMany's filter). Looked up by key for the batch's members (a purchase's sponsors, a day's
 * promotions): a scan of every member's preferences cost each purchase more as members set theirs.
 */
export function mutedInApp(
  ctx: Pick<Services, 'sqlite'>,
  events: readonly NotificationEvent[],
  memberIds: readonly number[],
): Set<string> {
  const muted = new Set<string>();
  const members = JSON.stringify(memberIds);
  for (const event of events) {
    if (LOCKED.has(event)) continue;
    const rows = prepared(
      ctx.sqlite,
      'select member_id as memberId from notification_preferences where event = ? and in_app = 0 and member_id in (select value from json_each(?))',
    ).all(event, members) as { memberId: number }[];
    for (const row of rows) muted.add(`${row.memberId}/${event}`);
  }
  return muted;
}

export function preferencesOf(ctx: Pick<Services, 'sqlite'>, memberId: number): Preference[] {
  return NOTIFICATION_EVENTS.map((event) => {
    const choice = choiceOf(ctx, memberId, event);
    return {
      Event: event,
      In_App: choice.inApp,
      Email: choice.email,
      Email_Offered: !NOT_MAILED.has(event),
      Locked: LOCKED.has(event),
      Phone: choice.phone,
      Phone_Offered: PUSHED_EVENTS.has(event),
    };
  });
}

/** Stores one event's choice; refuses, changing nothing, to turn security notices off or to mail payouts. */
export function setPreference(
  ctx: Pick<Services, 'sqlite' | 'clock'>,
  memberId: number,
  event: NotificationEvent,
  change: { inApp?: boolean | undefined; email?: boolean | undefined; phone?: boolean | undefined },
): void {
  if (LOCKED.has(event)) {
    if (change.inApp === false || change.email === false)
      throw badRequest(PREFERENCE_MESSAGES.securityAlwaysOn);
    if (change.phone === true) throw badRequest(PUSH_MESSAGES.notPushed);
    return;
  }
  if (NOT_MAILED.has(event) && change.email === true) throw badRequest(PREFERENCE_MESSAGES.payoutsNotMailed);
  if (!PUSHED_EVENTS.has(event) && change.phone === true) throw badRequest(PUSH_MESSAGES.notPushed);
  const current = choiceOf(ctx, memberId, event);
  prepared(
    ctx.sqlite,
    `insert into notification_preferences (member_id, event, in_app, email, phone, updated_at) values (@member, @event, @inApp, @email, @phone, @at)
       on conflict (member_id, event) do update set in_app = excluded.in_app, email = excluded.email, phone = excluded.phone, updated_at = excluded.updated_at`,
  ).run({
    member: memberId,
    event,
    inApp: (change.inApp ?? current.inApp) ? 1 : 0,
    email: (change.email ?? current.email) ? 1 : 0,
    // Events never pushed keep the column's default (on), so a later PUSHED_EVENTS member starts on.
    phone: (PUSHED_EVENTS.has(event) ? (change.phone ?? current.phone) : true) ? 1 : 0,
    at: ctx.clock.now(),
  });
}
