/** The signed-in member's profile and the email change (spec §3, §4; DESIGN §3). */
import { eq, sql } from 'drizzle-orm';
import { members } from '@md/db';
import { maskEmail, MSG } from '@md/shared';
import { badRequest, forbidden } from '../../core/errors.ts';
import { isoTime } from '../../core/iso-time.ts';
import { consumeOtp, mailOtp } from '../../core/otp.ts';
import { mailSecurityNotice } from '../../core/security-notice.ts';
import { perDatabase } from '../../core/prepared.ts';
import type { Handlers } from '../../transport/handlers.ts';
import { notify } from '../notifications/notify.ts';
import { currentPackageName, hasActiveSubscription } from './subscriptions.ts';
import { endOtherSessions } from '../sessions/handlers.ts';

export const PROFILE_MESSAGES = {
  emailBlocked: 'Email cannot be changed while you have an active subscription',
  sameEmail: 'This is already your email',
  emailChanged: 'Email changed successfully',
} as const;

const usernameById = perDatabase((db) =>
  db
    .select({ username: members.username })
    .from(members)
    .where(eq(members.id, sql.placeholder('id')))
    .prepare(),
);

export const profileHandlers: Handlers = {
  'user.view_profile': (ctx) => {
    const member = ctx.member;
    const sponsor =
      member.sponsorId === null ? undefined : usernameById(ctx.db).get({ id: member.sponsorId });
    // The latest ACTIVE package, whose existence is also the Subscription flag.
    const currentPackage = currentPackageName(ctx, member.id);
    return {
      Success: [
        {
          Username: member.username,
          Name: member.name,
          Email: member.email,
          // The root has no binary side; it is shown as left.
          Side: member.side ?? '0',
          Sponsor: sponsor?.username ?? null,
          Country: member.country,
          Created_On: isoTime(member.createdAt),
          Subscription: currentPackage !== null,
          package: currentPackage,
          Transaction_Password: member.transactionPasswordHash !== null,
          TOTP_Enabled: member.totpEnabled,
          Wallet_Details: { Wallet_Address: member.walletAddress, Network: 'BEP.20' },
        },
      ],
    };
  },

  'user.change_email_request': async (ctx, input) => {
    if (hasActiveSubscription(ctx, ctx.member.id)) throw forbidden(PROFILE_MESSAGES.emailBlocked);
    const email = input.email.toLowerCase();
    if (email === ctx.member.email) throw badRequest(PROFILE_MESSAGES.sameEmail);
    // Mailed to the address that is to become current, so the member proves they own it.
    await mailOtp(ctx, {
      purpose: 'change_email',
      subject: ctx.member.username,
      email,
      username: ctx.member.username,
      payload: email,
    });
    return { Success: MSG.otpSent };
  },

  'user.change_email': (ctx, input) => {
    if (hasActiveSubscription(ctx, ctx.member.id)) throw forbidden(PROFILE_MESSAGES.emailBlocked);
    const email = input.email.toLowerCase();
    consumeOtp(ctx, {
      purpose: 'change_email',
      subject: ctx.member.username,
      code: input.otp,
      payload: email,
    });
    const member = ctx.member;
    ctx.db.transaction(() => {
      ctx.db.update(members).set({ email }).where(eq(members.id, member.id)).run();
      // Whoever else holds a session must sign in again; the one that proved the new mailbox goes on.
      endOtherSessions(ctx);
      notify(ctx, member.id, 'Security_Alert', `Your email was changed to ${email}.`);
      // The old address learns of it too (a taken-over account's owner reads that one), the new one shown masked.
      mailSecurityNotice(ctx, member, {
        subject: 'your email was changed',
        change: `The email of your account was changed to ${maskEmail(email)}`,
      });
      mailSecurityNotice(
        ctx,
        { email, username: member.username },
        {
          subject: 'your email was changed',
          change: `The email of your account was changed from ${maskEmail(member.email)} to this address`,
        },
      );
    });
    return { Success: PROFILE_MESSAGES.emailChanged };
  },
};
