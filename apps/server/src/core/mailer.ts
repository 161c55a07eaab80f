/**
 * Mail goes to the outbox (mail_outbox: readable by QA and tests, and the record of every message)
 * and, when SMTP_URL is set, through SMTP as well: From is MAIL_FROM, the envelope sender
 * its address, the Message-ID on its domain, with a text and an HTML part. Delivery starts once the
 * caller's transaction is over (a rolled-back message is never sent), is retried with back-off, and
 * each outcome is written to the row ('pending' → 'sent' or 'failed') and a failure to the log.
 */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer, { type Transporter } from 'nodemailer';
import addressparser from 'nodemailer/lib/addressparser/index.js';
import { mailOutbox, type Db } from '@md/db';
import type { Clock } from './clock.ts';

export const DEFAULT_MAIL_FROM = 'Member Dashboard <no-reply@localhost>';
/**
 * Waits between attempts: three in all. With SMTP_TIMEOUTS, a host that never answers fails all
 * three within about 16 s, inside the web app's 20 s request deadline (an OTP answer waits for them).
 */
export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [1_000, 3_000];
/**
 * How long after a message finally failed the mailer reports mail as unavailable (unless one got
 * through since): answers that can only promise a mail (a password reset) refuse meanwhile.
 */
export const MAIL_DOWN_MS = 60_000;
/** Per attempt: an SMTP host that does not answer must not hold a member's request for minutes. */
const SMTP_TIMEOUTS = { connectionTimeout: 4_000, greetingTimeout: 4_000, socketTimeout: 10_000 };

export type Delivery = (typeof mailOutbox.$inferSelect)['delivery'];

export interface Mail {
  to: string;
  toUsername?: string | null;
  subject: string;
  /** Plain text; the HTML part is made from it (escaped, paragraphs kept). */
  text: string;
  /** Reply-To address (the member, on mail to support). */
  replyTo?: string | null;
  /** The OTP the mail carries, kept for the QA mailbox. */
  otp?: string | null;
  /** When it was asked for, if not now (a mail sent after its request's answer). */
  sentAt?: number;
}

export interface SentMail {
  /** The outbox row. */
  id: number;
  /** Settles when delivery is final: 'outbox-only' at once without SMTP, else 'sent' or 'failed' after the retries. */
  delivery: Promise<Delivery>;
}

export interface Mailer {
  /** Writes the outbox row (inside the caller's transaction, if any) and delivers it after that transaction. */
  send(mail: Mail): SentMail;
  /** Why mail cannot go out right now (the last message failed, none got through since), or null. */
  unavailable(): string | null;
  /** Settles when every delivery under way has (tests, shutdown). */
  idle(): Promise<void>;
  /** Stops retrying (the server is closing): what is still pending stays 'pending' until the next start. */
  close(): void;
}

export interface MailerOptions {
  db: Db;
  clock: Clock;
  smtpUrl?: string | undefined;
  /** MAIL_FROM; DEFAULT_MAIL_FROM when absent. */
  from?: string | undefined;
  retryDelaysMs?: readonly number[] | undefined;
  log?: Pick<FastifyBaseLogger, 'warn' | 'error' | 'debug'> | undefined;
}

export interface MailFrom {
  name: string;
  address: string;
  domain: string;
}

/** MAIL_FROM as a name and one address with a domain ('Name <user@domain>' or 'user@domain'), or null. */
export function parseMailFrom(value: string): MailFrom | null {
  if (/[\r\n]/.test(value)) return null;
  const parsed = addressparser(value.trim());
  const first = parsed.length === 1 ? parsed[0] : undefined;
  if (!first || 'group' in first || !first.address) return null;
  const match = /^[^\s@<>]+@([^\s@<>]+)$/.exec(first.address);
  if (!match?.[1]) return null;
  return { name: first.name, address: first.address, domain: match[1].toLowerCase() };
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);

/** The HTML part: the text escaped (a username may hold '<'), blank lines as paragraphs, line breaks kept. */
export function htmlOf(text: string): string {
  const paragraphs = text
    .split(/\n\s*\n/)
    .map((paragraph) => `<p>${escapeHtml(paragraph.trim()).replaceAll('\n', '<br>\n')}</p>`)
    .join('\n');
  return `<!doctype html>\n<html><body style="font-family: sans-serif; line-height: 1.5">\n${paragraphs}\n</body></html>\n`;
}

/**
 * A refusal of this message (5xx to its envelope or data: an unknown recipient, say) will not pass on
 * a retry and says nothing about the SMTP server; everything else (no connection, a timeout, a
 * refused login, a 4xx) is retried and means mail is not going out.
 */
const refusedMessage = (error: unknown) => {
  const e = error as { code?: string; responseCode?: number };
  return (e.code === 'EENVELOPE' || e.code === 'EMESSAGE') && (e.responseCode ?? 0) >= 500;
};

/** What an attempt's failure was, in one line (the SMTP answer, or the connection error). */
function describe(error: unknown): string {
  const e = error as { code?: string; responseCode?: number; response?: string; message?: string };
  const detail = e.response ?? e.message ?? String(error);
  return [e.code, e.responseCode, detail]
    .filter((part) => part !== undefined && part !== '')
    .join(' ')
    .replace(/\s+/g, ' ')
    .slice(0, 500);
}

export function createMailer(options: MailerOptions): Mailer {
  const { db, clock, log } = options;
  const from = parseMailFrom(options.from ?? DEFAULT_MAIL_FROM);
  if (!from) throw new Error(`MAIL_FROM is not an address: ${options.from}`);
  const retryDelays = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  const transport: Transporter | null = options.smtpUrl
    ? nodemailer.createTransport({ url: options.smtpUrl, ...SMTP_TIMEOUTS })
    : null;
  const inFlight = new Map<number, Promise<Delivery>>();
  const sleeping = new Set<() => void>();
  let closed = false;
  let lastFailure: { at: number; reason: string } | null = null;
  let lastSuccessAt = 0;

  // Messages a stopped server left pending were never confirmed: say so rather than 'pending' for ever.
  db.update(mailOutbox)
    .set({ delivery: 'failed', lastError: 'The server stopped before the message was delivered' })
    .where(eq(mailOutbox.delivery, 'pending'))
    .run();

  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        sleeping.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      timer.unref();
      sleeping.add(wake);
    });

  const record = (id: number, values: Partial<typeof mailOutbox.$inferInsert>) => {
    if (!closed) db.update(mailOutbox).set(values).where(eq(mailOutbox.id, id)).run();
  };

  async function deliver(id: number): Promise<Delivery> {
    // Read after the caller's transaction: a message whose transaction rolled back is not there.
    const row = db.select().from(mailOutbox).where(eq(mailOutbox.id, id)).get();
    if (!row || row.delivery !== 'pending' || !transport) return row?.delivery ?? 'failed';
    const message = {
      from: { name: from!.name, address: from!.address },
      to: row.toAddress,
      envelope: { from: from!.address, to: row.toAddress },
      subject: row.subject,
      text: row.text,
      html: htmlOf(row.text),
      ...(row.messageId ? { messageId: row.messageId } : {}),
      ...(row.replyTo ? { replyTo: row.replyTo } : {}),
    };
    const recipientDomain = row.toAddress.split('@').pop();
    for (let attempt = row.attempts + 1; !closed; attempt++) {
      try {
        await transport.sendMail(message);
        record(id, { delivery: 'sent', attempts: attempt, deliveredAt: clock.now() });
        lastSuccessAt = Date.now();
        log?.debug({ mail: { id, attempt } }, `Mail ${id} delivered`);
        return 'sent';
      } catch (error) {
        const reason = describe(error);
        const delay = refusedMessage(error) ? undefined : retryDelays[attempt - 1];
        record(id, {
          attempts: attempt,
          lastError: reason,
          ...(delay === undefined ? { delivery: 'failed' as const } : {}),
        });
        if (delay === undefined) {
          if (!refusedMessage(error)) lastFailure = { at: Date.now(), reason };
          log?.error(
            { mail: { id, attempts: attempt, to: recipientDomain, error: reason } },
            `Mail ${id} ("${row.subject}") was not delivered after ${attempt} attempts: ${reason}`,
          );
          return 'failed';
        }
        log?.warn(
          { mail: { id, attempt, to: recipientDomain, error: reason } },
          `Mail ${id} attempt ${attempt} failed (${reason}); retrying in ${delay} ms`,
        );
        await pause(delay);
      }
    }
    return 'pending';
  }

  return {
    send(mail) {
      const domain = from.domain;
      const row = db
        .insert(mailOutbox)
        .values({
          toAddress: mail.to.toLowerCase(),
          toUsername: mail.toUsername ?? null,
          subject: mail.subject,
          text: mail.text,
          otp: mail.otp ?? null,
          sentAt: mail.sentAt ?? clock.now(),
          delivery: transport ? 'pending' : 'outbox-only',
          messageId: `<${randomUUID()}@${domain}>`,
          replyTo: mail.replyTo ?? null,
        })
        .returning({ id: mailOutbox.id })
        .get();
      if (!transport) return { id: row.id, delivery: Promise.resolve('outbox-only') };
      // The same id twice: a rolled-back row's id was reused; the one delivery reads the row that stayed.
      let delivery = inFlight.get(row.id);
      if (!delivery) {
        delivery = new Promise<void>((resolve) => setImmediate(resolve))
          .then(() => deliver(row.id))
          .catch((error: unknown) => {
            log?.error(
              { mail: { id: row.id, error: describe(error) } },
              `Mail ${row.id} could not be delivered: ${describe(error)}`,
            );
            return 'failed' as const;
          })
          .finally(() => inFlight.delete(row.id));
        inFlight.set(row.id, delivery);
      }
      return { id: row.id, delivery };
    },
    unavailable() {
      if (!lastFailure || lastSuccessAt > lastFailure.at || Date.now() - lastFailure.at > MAIL_DOWN_MS)
        return null;
      return lastFailure.reason;
    },
    async idle() {
      while (inFlight.size > 0) await Promise.all([...inFlight.values()]);
    },
    close() {
      closed = true;
      for (const wake of [...sleeping]) wake();
      transport?.close();
    },
  };
}
