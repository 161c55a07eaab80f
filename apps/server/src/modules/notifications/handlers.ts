/** The caller's notifications, newest first, paged (spec §7; page size 20 by default): notices.ts. */
import { NOTIFICATIONS_PAGE_SIZE } from '@md/shared';
import { isoTime } from '../../core/iso-time.ts';
import type { Handlers } from '../../transport/handlers.ts';
import { devicesOf, PUSH_MESSAGES, subscribePush, unsubscribePush, vapidKeys } from '../push/push.ts';
import { memberNoticeCount, memberNotices } from './notices.ts';
import { PREFERENCE_MESSAGES, preferencesOf, setPreference } from './preferences.ts';

export const notificationHandlers: Handlers = {
  'notification.view_notification': (ctx, input) => {
    const pageNo = input.page_no ?? input.pageNo ?? 1;
    const pageSize = input.page_size ?? input.pageSize ?? NOTIFICATIONS_PAGE_SIZE;
    return {
      Success: memberNotices(ctx, ctx.member.id, pageSize, (pageNo - 1) * pageSize).map((notice) => ({
        Message: notice.message,
        DateTime: isoTime(notice.createdAt),
        TransID: notice.transId,
        Type: notice.type,
      })),
    };
  },
  'notification.total_view_notification': (ctx) => ({ Success: memberNoticeCount(ctx, ctx.member.id) }),

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
