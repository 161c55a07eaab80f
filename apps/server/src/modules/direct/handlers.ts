/** The members the caller sponsored directly, emails masked. */
import { asc, eq } from 'drizzle-orm';
import { members } from '@md/db';
import { maskEmail } from '@md/shared';
import { isoTime } from '../../core/iso-time.ts';
import type { Handlers } from '../../transport/handlers.ts';
import { hasActiveSubscription } from '../profile/subscriptions.ts';

export const directHandlers: Handlers = {
  'direct.view_direct_team_details': (ctx) => {
    const directs = ctx.db
      .select()
      .from(members)
      .where(eq(members.sponsorId, ctx.member.id))
      .orderBy(asc(members.createdAt), asc(members.id))
      .all();
    return {
      Success: directs.map((m) => ({
        Username: m.username,
        Name: m.name,
        Email: maskEmail(m.email),
        Side: m.side ?? '0',
        Country: m.country,
        Created_On: isoTime(m.createdAt),
        Status: hasActiveSubscription(ctx, m.id),
      })),
    };
  },
};
