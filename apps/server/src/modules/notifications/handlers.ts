/** The caller's notifications, newest first, paged (spec §7; page size 20 by default). */
import { count, desc, eq } from 'drizzle-orm';
import { notifications } from '@md/db';
import { NOTIFICATIONS_PAGE_SIZE } from '@md/shared';
import type { Handlers } from '../../transport/handlers.ts';
import { devicesOf, PUSH_MESSAGES, subscribePush, unsubscribePush, vapidKeys } from '../push/push.ts';
import { PREFERENCE_MESSAGES, preferencesOf, setPreference } from './preferences.ts';

export const notificationHandlers: Handlers = {
  'notification.view_notification': (ctx, input) => {
    const pageNo = input.page_no ?? input.pageNo ?? 1;
    const pageSize = input.page_size ?? input.pageSize ?? NOTIFICATIONS_PAGE_SIZE;
    const rows = ctx.db
      .select()
      .from(notifications)
      .where(eq(notifications.memberId, ctx.member.id))
      .orderBy(desc(notifications.createdAt), desc(notifications.id))
      .limit(pageSize)
      .offset((pageNo - 1) * pageSize)
      .all();
    return {
      Success: rows.map((row) => ({
        Message: row.message,
        DateTime: new Date(row.createdAt).toISOString(),
        TransID: row.transId,
        Type: row.type,
      })),
    };
  },
  'notification.total_view_notification': (ctx) => {
    const row = ctx.db
      .select({ total: count() })
      .from(notifications)
      .where(eq(notifications.memberId, ctx.member.id))
      .get();
    return { Success: row?.total ?? 0 };
  },

  // Extension `notification_preferences`: always the token's member.
  'notification.view_preferences': (ctx) => ({ Success: preferencesOf(ctx, ctx.member.id) }),
  'notification.update_preferences': (ctx, input) => {
    setPreference(ctx, ctx.member.id, input.event, {
      inApp: input.in_app,
      email: input.email,
      phone: input.phone,
    });
    return { Success: PREFERENCE_MESSAGES.saved, Preferences: preferencesOf(ctx, ctx.member.id) };
  },

  // Extension `web_push`: the token's member's devices.
  'notification.view_push_key': (ctx) => ({
    Success: { Public_Key: vapidKeys(ctx).publicKey, Devices: devicesOf(ctx, ctx.member.id) },
  }),
  'notification.subscribe_push': (ctx, input) => ({
    Success: PUSH_MESSAGES.subscribed,
    Devices: subscribePush(ctx, ctx.member.id, input),
  }),
  'notification.unsubscribe_push': (ctx, input) => ({
    Success: PUSH_MESSAGES.unsubscribed,
    Devices: unsubscribePush(ctx, ctx.member.id, input.endpoint),
  }),
};
