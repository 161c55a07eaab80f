/**
 * Real mail against a real SMTP server on loopback (npm smtp-server), each message
 * parsed with mailparser: From is MAIL_FROM, the envelope sender its address (never `MAIL FROM:<>`),
 * the Message-ID on its domain, a text and an escaped HTML part, Reply-To on support mail, the
 * withdrawal address named 6+4, and a security notice after every change that needs one. With
 * SMTP_URL at a closed port, a failure is retried, logged, shown as failed in the QA mailbox and
 * answered as an error, never as sent.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { simpleParser, type AddressObject, type ParsedMail } from 'mailparser';
import { TOTP } from 'otpauth';
import { SMTPServer } from 'smtp-server';
import { getAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maskEmail, MSG, shortenAddress } from '@md/shared';
import { buildApp } from '../src/app.ts';
import { CONFIG_MESSAGES, ConfigError, startConfig } from '../src/config.ts';
import { manualClock } from '../src/core/clock.ts';
import { htmlOf, parseMailFrom } from '../src/core/mailer.ts';
import { MAIL_NOT_SENT } from '../src/core/otp.ts';
import { SUPPORT_ADDRESS, SUPPORT_NOT_SENT } from '../src/modules/support/handlers.ts';
import { createTestApp, migrationsBefore, type TestApp } from './helpers.ts';

const FROM = 'Member Dashboard <no-reply@mail.example.test>';
const FROM_ADDRESS = 'no-reply@mail.example.test';
const NEW_WALLET = getAddress('0x5290ab21dc3e8f4a6c1b7d9e0f2a3b4c5d6e9ee7');

interface Arrived {
  envelopeFrom: string;
  rcptTo: string[];
  mail: ParsedMail;
}

interface MailboxRow {
  to: string;
  subject: string;
  text: string;
  otp: string | null;
  delivery: string;
  attempts: number;
  lastError: string | null;
  deliveredAt: string | null;
  replyTo: string | null;
}

/** Subjects in order: deliveries run side by side, so arrival order is not the order of sending. */
const subjects = (mails: ParsedMail[]) => mails.map((m) => m.subject ?? '').sort();
const addresses = (field: AddressObject | AddressObject[] | undefined) =>
  (Array.isArray(field) ? field : field ? [field] : []).flatMap((a) => a.value.map((v) => v.address));

/** A loopback SMTP server that keeps every message it accepts; `reject` refuses recipients with 550. */
async function startSmtp() {
  const arrived: Arrived[] = [];
  const reject = new Set<string>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, callback) {
      callback(
        reject.has(address.address)
          ? Object.assign(new Error('No such mailbox'), { responseCode: 550 })
          : undefined,
      );
    },
    onData(stream, session, callback) {
      simpleParser(stream).then(
        (mail) => {
          arrived.push({
            envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            rcptTo: session.envelope.rcptTo.map((r) => r.address),
            mail,
          });
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    arrived,
    reject,
    url: `smtp://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describe('mail over SMTP', () => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let t: TestApp;
  beforeAll(async () => {
    smtp = await startSmtp();
    t = await createTestApp({ seed: 'demo', smtpUrl: smtp.url, mailFrom: FROM, mailRetryDelaysMs: [5, 5] });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  /** Messages that reached the SMTP server for `to` since `from` (after-answer jobs run, deliveries settled). */
  async function arrivedFor(to: string, from = 0): Promise<ParsedMail[]> {
    await t.get('/__qa/mailbox');
    await t.services.mailer.idle();
    return smtp.arrived
      .slice(from)
      .filter((a) => a.rcptTo.includes(to))
      .map((a) => a.mail);
  }
  const mailbox = async (to: string) =>
    (await t.get<MailboxRow[]>(`/__qa/mailbox?to=${encodeURIComponent(to)}`)).body;

  it('sends From MAIL_FROM with its address as envelope sender, a Message-ID on its domain, text and HTML parts', async () => {
    const token = await t.login('demo');
    const seen = smtp.arrived.length;
    expect((await t.post('/user/verify_otp', { page: 'Change Password' }, { token })).body).toEqual({
      Success: MSG.otpSent,
    });
    const [mail] = await arrivedFor('demo@example.com', seen);
    const arrived = smtp.arrived.at(-1)!;
    expect(arrived.envelopeFrom).toBe(FROM_ADDRESS);
    expect(mail!.from?.value).toEqual([{ name: 'Member Dashboard', address: FROM_ADDRESS }]);
    expect(mail!.messageId).toMatch(/^<[^@<>]+@mail\.example\.test>$/);
    expect(mail!.subject).toBe('Your password change code');
    const [row] = await mailbox('demo');
    expect(row).toMatchObject({
      delivery: 'sent',
      attempts: 1,
      lastError: null,
      otp: expect.stringMatching(/^\d{6}$/),
    });
    expect(row!.deliveredAt).not.toBeNull();
    expect(mail!.text).toContain(`Your password change code is ${row!.otp}.`);
    expect(mail!.html).toContain(`<p>Your password change code is ${row!.otp}.`);
  });

  it('mails support with Reply-To the member, HTML escaped; the confirmation to the registered address', async () => {
    const token = await t.login('demo');
    const seen = smtp.arrived.length;
    const body = {
      name: 'Demo Member',
      email: 'demo.reply@example.com',
      subject: 'Is <b>this</b> & "that" ok?',
      message: 'Line one <script>alert(1)</script>\n\nSecond paragraph',
    };
    const reply = await t.post<{ Ticket: string }>('/support/send_message', body, { token });
    expect(reply.status).toBe(200);
    const [toSupport] = await arrivedFor(SUPPORT_ADDRESS, seen);
    expect(addresses(toSupport!.replyTo)).toEqual(['demo.reply@example.com']);
    expect(toSupport!.text).toContain('Line one <script>alert(1)</script>');
    expect(toSupport!.html).toContain(
      'Line one &lt;script&gt;alert(1)&lt;/script&gt;</p>\n<p>Second paragraph</p>',
    );
    expect(toSupport!.html).not.toContain('<script>');
    const [confirmation] = await arrivedFor('demo@example.com', seen);
    expect(confirmation!.subject).toBe(`We received your message [${reply.body.Ticket}]`);
    expect(confirmation!.replyTo).toBeUndefined();
    expect(confirmation!.html).toContain('&quot;Is &lt;b&gt;this&lt;/b&gt; &amp; &quot;that&quot; ok?&quot;');
    expect((await mailbox(SUPPORT_ADDRESS))[0]).toMatchObject({
      replyTo: 'demo.reply@example.com',
      delivery: 'sent',
    });
  });

  it('a support message the SMTP server refuses is answered as not sent and not kept', async () => {
    const token = await t.login('demo');
    const before = t.count('support_messages');
    smtp.reject.add(SUPPORT_ADDRESS);
    try {
      const reply = await t.post(
        '/support/send_message',
        {
          name: 'Demo Member',
          email: 'demo@example.com',
          subject: 'Hello',
          message: 'Refused by the SMTP server',
        },
        { token },
      );
      expect(reply).toMatchObject({ status: 503, body: { Error: SUPPORT_NOT_SENT } });
    } finally {
      smtp.reject.delete(SUPPORT_ADDRESS);
    }
    expect(t.count('support_messages')).toBe(before);
    // A refusal of one recipient is not retried and does not stop other mail.
    expect((await mailbox(SUPPORT_ADDRESS))[0]).toMatchObject({
      delivery: 'failed',
      attempts: 1,
      lastError: expect.stringContaining('550'),
    });
    expect(t.services.mailer.unavailable()).toBeNull();
  });

  it('the wallet code mail names the address (6+4), and the change is notified', async () => {
    const token = await t.login('demo');
    const seen = smtp.arrived.length;
    expect(
      (await t.post('/wallet/update_wallet_address', { address: NEW_WALLET, network: 'BEP.20' }, { token }))
        .body,
    ).toEqual({ Success: MSG.otpSent });
    const [codeMail] = await arrivedFor('demo@example.com', seen);
    const short = shortenAddress(NEW_WALLET);
    expect(short).toBe(`0x5290...${NEW_WALLET.slice(-4)}`);
    expect(codeMail!.text).toContain(`It confirms ${short} as your BEP.20 withdrawal address.`);
    const otp = (await mailbox('demo'))[0]!.otp!;
    expect(
      (
        await t.post(
          '/wallet/wallet_address_verification',
          { address: NEW_WALLET, network: 'BEP.20', otp },
          { token },
        )
      ).status,
    ).toBe(200);
    const mails = await arrivedFor('demo@example.com', seen);
    expect(subjects(mails)).toEqual([
      'Security notice: your withdrawal address was changed',
      'Your wallet address confirmation code',
    ]);
    expect(mails.find((m) => m.subject!.startsWith('Security'))!.text).toContain(`changed to ${short}`);
  });

  it('notices a password change and a reset', async () => {
    let seen = smtp.arrived.length;
    const token = await t.login('gonzalo_001');
    await t.post('/user/verify_otp', { page: 'Change Password' }, { token });
    const otp = (await mailbox('gonzalo_001'))[0]!.otp!;
    const changed = await t.post(
      '/user/change_password',
      { oldpassword: 'Demo@1234', newpassword: 'Changed@123', conpassword: 'Changed@123', otp },
      { token },
    );
    expect(changed.status).toBe(200);
    expect(subjects(await arrivedFor('gonzalo_001@example.com', seen))).toEqual([
      'Security notice: your password was changed',
      'Your password change code',
    ]);

    seen = smtp.arrived.length;
    expect((await t.post('/user/reset_password_email', { username: 'claude_003' })).status).toBe(200);
    const code = (await mailbox('claude_003'))[0]!.otp!;
    expect(
      (
        await t.post('/user/reset_password', {
          username: 'claude_003',
          otp: code,
          newpassword: 'Fresh@1234',
          conpassword: 'Fresh@1234',
        })
      ).status,
    ).toBe(200);
    const mails = await arrivedFor('claude_003@example.com', seen);
    expect(subjects(mails)).toEqual(['Security notice: your password was reset', 'Your password reset code']);
    expect(mails.find((m) => m.subject!.startsWith('Security'))!.text).toMatch(
      /^Hello claude_003,\n\nThe password of your account was reset/,
    );
  });

  it('notices 2FA turned on and off', async () => {
    const seen = smtp.arrived.length;
    const token = await t.login('reed_002');
    const key = (await t.post<{ Success: { Key: string } }>('/user/enable_totp', {}, { token })).body.Success
      .Key;
    const code = (at: number) =>
      new TOTP({ secret: key, algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: at });
    expect(
      (await t.post('/user/change_totp_status', { status: true, totp: code(t.clock.now()) }, { token }))
        .status,
    ).toBe(200);
    t.clock.advance(30_000);
    expect(
      (await t.post('/user/change_totp_status', { status: false, totp: code(t.clock.now()) }, { token }))
        .status,
    ).toBe(200);
    expect(subjects(await arrivedFor('reed_002@example.com', seen))).toEqual([
      'Security notice: two-factor authentication was turned off',
      'Security notice: two-factor authentication was turned on',
    ]);
  });

  it('notices an email change at the old and the new address', async () => {
    const seen = smtp.arrived.length;
    const token = await t.login('van_005');
    expect(
      (await t.post('/user/change_email_request', { email: 'van.new@mail.test' }, { token })).body,
    ).toEqual({ Success: MSG.otpSent });
    const otp = (await mailbox('van.new@mail.test'))[0]!.otp!;
    expect((await t.post('/user/change_email', { email: 'van.new@mail.test', otp }, { token })).status).toBe(
      200,
    );
    const old = await arrivedFor('van_005@example.com', seen);
    expect(old.map((m) => m.subject)).toEqual(['Security notice: your email was changed']);
    expect(old[0]!.text).toContain(`changed to ${maskEmail('van.new@mail.test')}`);
    expect(old[0]!.text).not.toContain('van.new@mail.test');
    const added = await arrivedFor('van.new@mail.test', seen);
    expect(subjects(added)).toEqual(['Security notice: your email was changed', 'Your email change code']);
    expect(added.find((m) => m.subject!.startsWith('Security'))!.text).toContain('to this address');
  });
});

describe('mail with SMTP_URL at a closed port', () => {
  let t: TestApp;
  const lines: { level: number; msg: string; mail?: { id: number } }[] = [];
  beforeAll(async () => {
    const port = await closedPort();
    t = await createTestApp({
      seed: 'demo',
      smtpUrl: `smtp://127.0.0.1:${port}`,
      mailFrom: FROM,
      mailRetryDelaysMs: [5, 5],
      logger: {
        level: 'info',
        stream: { write: (line) => void lines.push(JSON.parse(line) as (typeof lines)[number]) },
      },
    });
  });
  afterAll(() => t.close());

  it('retries, logs, shows the mail as failed and answers an error, never "sent"', async () => {
    const token = await t.login('demo');
    const reply = await t.post('/user/verify_otp', { page: 'Change Password' }, { token });
    expect(reply).toMatchObject({ status: 503, body: { Error: MAIL_NOT_SENT } });
    const [row] = await t.get<MailboxRow[]>('/__qa/mailbox?to=demo').then((r) => r.body);
    expect(row).toMatchObject({
      subject: 'Your password change code',
      delivery: 'failed',
      attempts: 3,
      deliveredAt: null,
      lastError: expect.stringContaining('ECONNREFUSED'),
    });
    const about = lines.filter((line) => line.mail);
    expect(about.map((line) => line.level)).toEqual([40, 40, 50]);
    expect(about[2]!.msg).toMatch(/was not delivered after 3 attempts: .*ECONNREFUSED/);
  });

  it('while mail is failing, a reset and a support message are refused alike for known and unknown names', async () => {
    const known = await t.post('/user/reset_password_email', { username: 'claude_003' });
    const unknown = await t.post('/user/reset_password_email', { username: 'nobody_here' });
    expect(known).toMatchObject({ status: 503, body: { Error: MAIL_NOT_SENT } });
    expect(unknown).toEqual(known);
    const token = await t.login('demo');
    const before = [t.count('support_messages'), t.count('mail_outbox')];
    expect(
      await t.post(
        '/support/send_message',
        { name: 'Demo', email: 'demo@example.com', subject: 'Hi', message: 'Is the mail down?' },
        { token },
      ),
    ).toMatchObject({
      status: 503,
      body: { Error: SUPPORT_NOT_SENT },
    });
    expect([t.count('support_messages'), t.count('mail_outbox')]).toEqual(before);
  });
});

describe('MAIL_FROM', () => {
  it('is required with SMTP_URL in production, checked when set, defaulted in development', () => {
    // The stand-in on, with its wallet check, so only the mail variables decide.
    const production = {
      NODE_ENV: 'production',
      STANDIN: 'on',
      WALLET_CHECK_STANDIN: 'on',
      SMTP_URL: 'smtp://mail.example.com:587',
    };
    expect(() => startConfig(production)).toThrow(new ConfigError(CONFIG_MESSAGES.mailFromRequired));
    expect(() => startConfig({ ...production, MAIL_FROM: 'not an address' })).toThrow(
      new ConfigError(CONFIG_MESSAGES.mailFrom('not an address')),
    );
    expect(startConfig({ ...production, MAIL_FROM: FROM }).build.mailFrom).toBe(FROM);
    expect(startConfig({ ...production, SMTP_URL: undefined }).build.mailFrom).toBeUndefined();
    expect(startConfig({ SMTP_URL: 'smtp://127.0.0.1:2525' }).build.mailFrom).toBeUndefined();
    expect(parseMailFrom('no-reply@example.com')).toEqual({
      name: '',
      address: 'no-reply@example.com',
      domain: 'example.com',
    });
    expect(parseMailFrom('A <a@b.example>, C <c@d.example>')).toBeNull();
    expect(parseMailFrom('Name <a@b.example>\r\nBcc: x@y.example')).toBeNull();
  });

  it('the HTML part escapes markup and keeps paragraphs', () => {
    expect(htmlOf('Hi <b>x</b> & "y"\nnext\n\nnew')).toContain(
      '<p>Hi &lt;b&gt;x&lt;/b&gt; &amp; &quot;y&quot;<br>\nnext</p>\n<p>new</p>',
    );
  });
});

describe('a database made before migration 0007', () => {
  it('opens, migrates and keeps every outbox row, shown as outbox-only', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'md-mail-upgrade-'));
    try {
      const { folder } = migrationsBefore('0007_mail_delivery', dir);
      const path = join(dir, 'old.sqlite');
      const old = new Database(path);
      migrate(drizzle(old), { migrationsFolder: folder });
      const insert = old.prepare(
        'insert into mail_outbox (to_address, to_username, subject, text, otp, sent_at) values (?, ?, ?, ?, ?, ?)',
      );
      insert.run(
        'old@example.com',
        'old_member',
        'Your password reset code',
        'Your password reset code is 123456.',
        '123456',
        1_700_000_000_000,
      );
      insert.run('support@example.com', null, '[SP0000000001] Hello', 'Text', null, 1_700_000_001_000);
      old.close();

      const app = await buildApp({ databasePath: path, seed: 'demo', clock: manualClock() });
      try {
        const rows = app.services.sqlite
          .prepare(
            'select to_address, subject, otp, sent_at, delivery, attempts, last_error, message_id, reply_to from mail_outbox order by id',
          )
          .all();
        expect(rows).toEqual([
          {
            to_address: 'old@example.com',
            subject: 'Your password reset code',
            otp: '123456',
            sent_at: 1_700_000_000_000,
            delivery: 'outbox-only',
            attempts: 0,
            last_error: null,
            message_id: null,
            reply_to: null,
          },
          {
            to_address: 'support@example.com',
            subject: '[SP0000000001] Hello',
            otp: null,
            sent_at: 1_700_000_001_000,
            delivery: 'outbox-only',
            attempts: 0,
            last_error: null,
            message_id: null,
            reply_to: null,
          },
        ]);
        const shown = await app.fastify.inject({ method: 'GET', url: '/__qa/mailbox?to=old_member' });
        expect(shown.json()).toEqual([
          expect.objectContaining({
            to: 'old@example.com',
            otp: '123456',
            delivery: 'outbox-only',
            attempts: 0,
            lastError: null,
          }),
        ]);
      } finally {
        await app.fastify.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
