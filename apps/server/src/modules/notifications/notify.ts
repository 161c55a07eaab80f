/** Notifications are written by the events of every module through this one helper. */
import { randomBytes } from 'node:crypto';
import { notifications } from '@md/db';
import type { Services } from '../../core/services.ts';

export type NotificationType = 'Welcome' | 'New_Registration' | 'Security_Alert' | 'Profile_Update' | (string & {});

/** A TransID for events that have no transaction of their own. */
export const newTransId = (prefix = 'NT') => `${prefix}${randomBytes(6).toString('hex').toUpperCase()}`;

export function notify(
  ctx: Pick<Services, 'db' | 'clock'>,
  memberId: number,
  type: NotificationType,
  message: string,
  transId: string = newTransId(),
  /** Defaults to now; the seed back-dates. */
  at: number = ctx.clock.now(),
): void {
  ctx.db.insert(notifications).values({ memberId, type, message, transId, createdAt: at }).run();
}
