/** Notifications are written by the events of every module through notify() (notifyMany() for the daily runs' batches). */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { notifications } from '@md/db';
import { perDatabase } from '../../core/prepared.ts';
import type { Services } from '../../core/services.ts';
import { rowWriter } from '../ledger/sql.ts';

export type NotificationType = 'Welcome' | 'New_Registration' | 'Security_Alert' | 'Profile_Update' | (string & {});

/** A TransID for events that have no transaction of their own. */
export const newTransId = (prefix = 'NT') => `${prefix}${randomBytes(6).toString('hex').toUpperCase()}`;

/** Prepared once per database: every money request writes one or two. */
const insertNotification = perDatabase((db) =>
  db
    .insert(notifications)
    .values({ memberId: sql.placeholder('memberId'), type: sql.placeholder('type'), message: sql.placeholder('message'), transId: sql.placeholder('transId'), createdAt: sql.placeholder('createdAt') })
    .prepare(),
);

export function notify(
  ctx: Pick<Services, 'db' | 'clock'>,
  memberId: number,
  type: NotificationType,
  message: string,
  transId: string = newTransId(),
  /** Defaults to now; the seed back-dates. */
  at: number = ctx.clock.now(),
): void {
  insertNotification(ctx.db).run({ memberId, type, message, transId, createdAt: at });
}

export interface NotificationRow {
  memberId: number;
  type: NotificationType;
  message: string;
  transId: string;
  createdAt: number;
}

/** Several notifications in this order, as notify() would write them one by one (the daily runs write one per payout). */
export function notifyMany(ctx: Pick<Services, 'sqlite'>, rows: readonly NotificationRow[]): void {
  const writer = rowWriter(ctx.sqlite, 'notifications', ['member_id', 'type', 'message', 'trans_id', 'created_at']);
  for (const n of rows) writer.push([n.memberId, n.type, n.message, n.transId, n.createdAt]);
  writer.end();
}
