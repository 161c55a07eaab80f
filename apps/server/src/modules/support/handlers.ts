/**
 * Contact Support, an extension of this stand-in (capability `support`, not a provider endpoint):
 * the message is stored, mailed to the support address and confirmed to the member by mail. It is
 * answered 'Message sent!' only once support has it (delivered, or in the outbox without SMTP).
 */
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { supportMessages } from '@md/db';
import { MSG } from '@md/shared';
import { AppError } from '../../core/errors.ts';
import { limitSql, prepared } from '../../core/prepared.ts';
import type { Services } from '../../core/services.ts';
import type { Handlers } from '../../transport/handlers.ts';

/** Where support mail goes; QA reads it at GET /__qa/mailbox?to=support@example.com. */
export const SUPPORT_ADDRESS = 'support@example.com';

/** The answer when the mail to support could not be delivered (SMTP down): the message is not kept. */
export const SUPPORT_NOT_SENT = 'We could not send your message. Please try again in a few minutes.';

/** Mail subjects are one line: a pasted newline must not reach a header. */
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

export interface StoredSupportMessage {
  ticket: string;
  subject: string;
  email: string;
  createdAt: number;
}

/** The member's latest support messages, newest first (the timeline reads them). */
export function recentSupportMessages(
  ctx: Pick<Services, 'sqlite'>,
  memberId: number,
  limit: number,
): StoredSupportMessage[] {
  return prepared<[number], StoredSupportMessage>(
    ctx.sqlite,
    `select ticket, subject, email, created_at as createdAt from support_messages
      where member_id = ? order by created_at desc, id desc ${limitSql(limit)}`,
  ).all(memberId);
}

export const supportHandlers: Handlers = {
  'support.send_message': async (ctx, input) => {
    const { member } = ctx;
    if (ctx.mailer.unavailable()) throw new AppError(503, SUPPORT_NOT_SENT);
    const at = ctx.clock.now();
    // Random rather than the row number: a ticket reveals nothing about how many others wrote.
    const ticket = `SP${randomBytes(5).toString('hex').toUpperCase()}`;
    const subject = oneLine(input.subject);
    // One transaction: the stored message and its mail to support exist together or not at all.
    const toSupport = ctx.sqlite.transaction(() => {
      ctx.db
        .insert(supportMessages)
        .values({
          ticket,
          memberId: member.id,
          name: input.name,
          email: input.email,
          subject: input.subject,
          message: input.message,
          createdAt: at,
        })
        .run();
      return ctx.mailer.send({
        to: SUPPORT_ADDRESS,
        // Support answers the member at the address they typed (what the confirmation promises).
        replyTo: input.email,
        subject: `[${ticket}] ${subject}`,
        text: [
          `From: ${input.name} <${input.email}>`,
          `Member: ${member.username} (${member.email})`,
          `Ticket: ${ticket}`,
          `Sent: ${new Date(at).toISOString()}`,
          '',
          input.message,
        ].join('\n'),
      });
    })();
    if ((await toSupport.delivery) === 'failed') {
      // Support never got it: not kept, not confirmed, and the member is told (the outbox row stays for QA).
      ctx.db.delete(supportMessages).where(eq(supportMessages.ticket, ticket)).run();
      throw new AppError(503, SUPPORT_NOT_SENT);
    }
    // The confirmation goes to the registered address, not the typed one: the form must not
    // let anyone mail arbitrary addresses through the server.
    ctx.mailer.send({
      to: member.email,
      toUsername: member.username,
      subject: `We received your message [${ticket}]`,
      text: [
        `Hello ${input.name},`,
        '',
        `Thank you for contacting support. We received your message "${subject}" and will reply to ${input.email}.`,
        'Support is available Monday to Friday, 9am to 5pm EST.',
        '',
        `Your reference: ${ticket}`,
      ].join('\n'),
    });
    return { Success: MSG.messageSent, Ticket: ticket };
  },
};
