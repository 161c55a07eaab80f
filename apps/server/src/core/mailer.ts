/**
 * Mail goes to the development outbox (readable by QA and tests) and, when SMTP_URL is set,
 * through SMTP as well.
 */
import nodemailer from 'nodemailer';
import { mailOutbox, type Db } from '@md/db';
import type { Clock } from './clock.ts';

export interface Mail {
  to: string;
  toUsername?: string | null;
  subject: string;
  text: string;
  /** The OTP the mail carries, kept for the QA mailbox. */
  otp?: string | null;
  /** When it was asked for, if not now (a mail sent after its request's answer). */
  sentAt?: number;
}

export interface Mailer {
  send(mail: Mail): void;
}

export function createMailer(db: Db, clock: Clock, smtpUrl?: string): Mailer {
  const transport = smtpUrl ? nodemailer.createTransport(smtpUrl) : null;
  return {
    send(mail) {
      db.insert(mailOutbox)
        .values({
          toAddress: mail.to.toLowerCase(),
          toUsername: mail.toUsername ?? null,
          subject: mail.subject,
          text: mail.text,
          otp: mail.otp ?? null,
          sentAt: mail.sentAt ?? clock.now(),
        })
        .run();
      // Delivery is best effort and outside the request's transaction: the outbox is the record.
      transport?.sendMail({ to: mail.to, subject: mail.subject, text: mail.text }).catch(() => undefined);
    },
  };
}
