/**
 * Security notices (ASVS V2.2.3): a mail after each change to how an account is signed in
 * to or paid out from (password changed or reset, 2FA on or off, email changed, withdrawal address
 * changed), so a member whose account was taken over learns of it. Called inside the change's
 * transaction: the outbox row exists exactly when the change does, and delivery starts after it.
 */
import type { Mailer } from './mailer.ts';

export interface NoticeRecipient {
  email: string;
  username: string;
}

/** The time in a notice: UTC, to the minute. */
const when = (at: number) => `${new Date(at).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

export function mailSecurityNotice(
  ctx: { mailer: Mailer; clock: { now(): number } },
  to: NoticeRecipient,
  notice: { subject: string; change: string },
): void {
  ctx.mailer.send({
    to: to.email,
    toUsername: to.username,
    subject: `Security notice: ${notice.subject}`,
    text: [
      `Hello ${to.username},`,
      '',
      `${notice.change} (${when(ctx.clock.now())}).`,
      '',
      'If this was you, there is nothing to do. If it was not, reset your password at once and contact support.',
    ].join('\n'),
  });
}
