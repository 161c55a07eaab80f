/**
 * The two extensions of this stand-in (not provider endpoints): Contact Support and recent
 * activity. Advertised in /config.json; validated with the spec §5 support rules; scoped to the
 * token's member.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activitySchema, contract, MSG, type Activity } from '@md/shared';
import { recentTransfers } from '../src/modules/activity/handlers.ts';
import { SUPPORT_ADDRESS } from '../src/modules/support/handlers.ts';
import { createTestApp, memberIdOf, MINUTE, type TestApp } from './helpers.ts';

let t: TestApp;
let demo: string;
beforeAll(async () => {
  t = await createTestApp({ seed: 'demo' });
  demo = await t.login('demo');
});
afterAll(() => t.close());

const valid = {
  name: 'Demo Member',
  email: 'demo.reply@example.com',
  subject: 'Upgrade question',
  message: 'How do I upgrade from Silver to Gold?',
};
let ipCounter = 0;
/** A fresh address per call keeps the support rate limit out of the tests that are not about it. */
const send = (body: unknown, token: string | null = demo, ip = `10.9.0.${++ipCounter}`) =>
  t.post<{ Success?: string; Ticket?: string; Error?: string }>('/support/send_message', body, {
    ...(token ? { token } : {}),
    ip,
  });
const activity = (token: string, body: Record<string, unknown> = {}) =>
  t.post<{ Success: Activity[]; Error?: string }>('/activity/view_recent', body, { token });

describe('capabilities', () => {
  it('/config.json advertises the support and activity extensions', async () => {
    const config = await t.get<{ capabilities: string[] }>('/config.json');
    expect(config.body.capabilities).toEqual(expect.arrayContaining(['support', 'activity']));
    expect(contract['support.send_message'].extension).toBe('support');
    expect(contract['activity.view_recent'].extension).toBe('activity');
  });
});

describe('support.send_message', () => {
  it('needs a token: 401 Invalid Authentication, over REST and tRPC', async () => {
    expect(await send(valid, null)).toMatchObject({
      status: 401,
      body: { Error: MSG.invalidAuthentication },
    });
    expect((await t.trpc('support.send_message', 'mutation', valid)).status).toBe(401);
    expect(await t.post('/activity/view_recent', {})).toMatchObject({
      status: 401,
      body: { Error: MSG.invalidAuthentication },
    });
    expect((await t.trpc('activity.view_recent', 'query', {})).status).toBe(401);
  });

  it('refuses every invalid field with the spec §5 message, and stores and mails nothing', async () => {
    const before = [t.count('support_messages'), t.count('mail_outbox')];
    const cases: [Record<string, unknown>, string][] = [
      [{}, MSG.nameRequired],
      [{ ...valid, name: '   ' }, MSG.nameRequired],
      [{ ...valid, name: 5 }, MSG.nameRequired],
      [{ ...valid, email: undefined }, MSG.emailRequired],
      [{ ...valid, email: ' ' }, MSG.emailRequired],
      [{ ...valid, email: 'not-an-email' }, MSG.emailInvalid],
      [{ ...valid, email: 'a@b' }, MSG.emailInvalid],
      [{ ...valid, subject: '' }, MSG.subjectRequired],
      [{ ...valid, message: '' }, MSG.messageRequired],
      [{ ...valid, message: null }, MSG.messageRequired],
      [{ ...valid, message: '  too short  ' }, MSG.messageMin],
      [{ ...valid, message: 'x'.repeat(5001) }, 'Message must be at most 5000 characters'],
      [{ ...valid, subject: 's'.repeat(201) }, 'Subject must be at most 200 characters'],
    ];
    for (const [body, message] of cases)
      expect(await send(body), JSON.stringify(body).slice(0, 80)).toMatchObject({
        status: 400,
        body: { Error: message },
      });
    expect([t.count('support_messages'), t.count('mail_outbox')]).toEqual(before);
  });

  it('stores the message, mails it to the support address and a confirmation to the member', async () => {
    const reply = await send({
      ...valid,
      name: '  Demo Member ',
      subject: 'Upgrade\r\nBcc: someone@evil.test',
    });
    expect(reply.status).toBe(200);
    expect(reply.body.Success).toBe(MSG.messageSent);
    const ticket = reply.body.Ticket!;
    expect(ticket).toMatch(/^SP[0-9A-F]{10}$/);

    const row = t.services.sqlite
      .prepare('select * from support_messages where ticket = ?')
      .get(ticket) as Record<string, unknown>;
    expect(row).toMatchObject({
      member_id: memberIdOf(t, 'demo'),
      name: 'Demo Member',
      email: valid.email,
      message: valid.message,
      created_at: t.clock.now(),
    });

    const [toSupport] = await t.mailbox(SUPPORT_ADDRESS);
    expect(toSupport).toMatchObject({
      to: SUPPORT_ADDRESS,
      subject: `[${ticket}] Upgrade Bcc: someone@evil.test`,
      otp: null,
    });
    expect(toSupport!.text).toContain(valid.message);
    expect(toSupport!.text).toContain(`From: Demo Member <${valid.email}>`);
    expect(toSupport!.text).toContain('Member: demo (demo@example.com)');

    // The confirmation goes to the registered address (found by username too), never the typed one.
    const [confirmation] = await t.mailbox('demo');
    expect(confirmation).toMatchObject({
      to: 'demo@example.com',
      subject: `We received your message [${ticket}]`,
    });
    expect(confirmation!.text).toContain(`will reply to ${valid.email}`);
    expect(await t.mailbox(valid.email)).toEqual([]);
  });

  it('answers the same over tRPC', async () => {
    const reply = await t.trpc('support.send_message', 'mutation', valid, demo);
    expect(reply.status).toBe(200);
    expect((reply.body as { result: { data: { Success: string } } }).result.data.Success).toBe(
      MSG.messageSent,
    );
  });

  it('is rate limited per client address: 5 a minute', async () => {
    const ip = '10.9.9.9';
    for (let i = 0; i < 5; i++) expect((await send(valid, demo, ip)).status).toBe(200);
    expect(await send(valid, demo, ip)).toMatchObject({
      status: 429,
      body: { Error: 'Too many requests. Please wait a minute and try again.' },
    });
    t.clock.advance(MINUTE + 1);
    expect((await send(valid, demo, ip)).status).toBe(200);
  });
});

describe('activity.view_recent', () => {
  it("answers the member's newest activities first, at most 20 by default, in the contract's shape", async () => {
    const reply = await activity(demo);
    expect(reply.status).toBe(200);
    const items = reply.body.Success;
    expect(items).toHaveLength(20);
    for (const item of items) activitySchema.parse(item);
    const times = items.map((item) => Date.parse(item.DateTime));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    // The support messages sent above are the newest things demo did.
    expect(items[0]).toMatchObject({ Title: 'Support message sent', Type: 'Support_Message' });
    expect(items[0]!.Description).toContain(valid.email);
  });

  it('shows a swap from the ledger, and a movement with a notification only once', async () => {
    t.clock.advance(MINUTE);
    expect(
      (
        await t.post(
          '/wallet/transfer_wallet',
          { amount: 1, from_wallet: 'ROI', to_wallet: 'Withdrawal' },
          { token: demo },
        )
      ).status,
    ).toBe(200);
    const items = (await activity(demo, { limit: 5 })).body.Success;
    expect(items).toHaveLength(5);
    expect(items[0]).toMatchObject({
      Title: 'Wallet swap',
      Type: 'swap',
      Description: 'You moved $1.00 from your ROI wallet to your Withdrawal wallet.',
    });
    const all = (await activity(demo, { limit: 50 })).body.Success;
    const ids = all
      .filter((item) => item.Type !== 'Withdrawal')
      .map((item) => `${item.Type}|${item.TransID}`);
    expect(new Set(ids).size).toBe(ids.length);
    // Notified movements read as their notification (e.g. an income), not as a bare ledger line.
    const notifiedIds = new Set(
      all.filter((item) => /^[A-Z][a-z]+(_[A-Z][a-z]+)*$/.test(item.Type)).map((item) => item.TransID),
    );
    expect(all.filter((item) => /^[a-z_]+$/.test(item.Type) && notifiedIds.has(item.TransID))).toEqual([]);
  });

  it("reads the newest legs of every member's whole history, from each account's newest rows only", () => {
    // The same legs as gathering a member's whole history and sorting it, at every limit, for every
    // member: the busiest hold thousands of legs on one account and a few on the others.
    const whole = t.services.sqlite.prepare(
      `select t.id from transfers t where t.id in (
         select id from transfers where from_account_id in (select id from accounts where member_id = @member)
         union select id from transfers where to_account_id in (select id from accounts where member_id = @member))
       order by t.created_at desc, t.id desc limit @limit`,
    );
    const members = t.services.sqlite.prepare('select id from members').pluck().all() as number[];
    let compared = 0;
    for (const member of members)
      for (const limit of [1, 7, 60, 150]) {
        const expected = whole.pluck().all({ member, limit });
        expect(
          recentTransfers(t.services, member, limit).map((row) => row.id),
          `member ${member}`,
        ).toEqual(expected);
        compared += expected.length;
      }
    expect(compared).toBeGreaterThan(1000);
  });

  it("is scoped to the token's member", async () => {
    const other = await t.login('gonzalo_001');
    const memberId = memberIdOf(t, 'gonzalo_001');
    const items = (await activity(other, { limit: 50 })).body.Success;
    expect(items.length).toBeGreaterThan(0);
    const own = t.services.sqlite
      .prepare(
        `select trans_id as id from notifications where member_id = @m
         union select t.trans_id from transfers t join accounts a on a.id in (t.from_account_id, t.to_account_id) where a.member_id = @m
         union select ticket from support_messages where member_id = @m`,
      )
      .all({ m: memberId }) as { id: string }[];
    const ownIds = new Set(own.map((row) => row.id));
    for (const item of items) expect(ownIds.has(item.TransID!), `${item.Type} ${item.TransID}`).toBe(true);
    expect(items.some((item) => item.Type === 'Support_Message')).toBe(false);
  });

  it('validates limit and answers an empty list for a member with no activity', async () => {
    expect((await activity(demo, { limit: 0 })).body).toMatchObject({ Error: 'limit must be at least 1' });
    expect((await activity(demo, { limit: 51 })).body).toMatchObject({ Error: 'limit must be at most 50' });
    expect((await activity(demo, { limit: 'ten' })).body).toMatchObject({ Error: 'limit must be a number' });
    // A member whose wallets never moved, with its notifications removed, has nothing to show.
    const quiet = t.services.sqlite
      .prepare(
        `select m.id, m.username from members m where totp_enabled = 0 and not exists (
           select 1 from transfers t join accounts a on a.id in (t.from_account_id, t.to_account_id) where a.member_id = m.id)
         order by m.id limit 1`,
      )
      .get() as { id: number; username: string };
    t.services.sqlite.prepare('delete from notifications where member_id = ?').run(quiet.id);
    expect(await activity(await t.login(quiet.username))).toEqual({ status: 200, body: { Success: [] } });
  });
});
