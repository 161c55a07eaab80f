/**
 * The member's business at a glance: the team in numbers (`team_summary`), the next binary run
 * (`binary_next_run`), rank history (`rank_history`) and notification preferences
 * (`notification_preferences`). Figures agree with the tables and the engine's own records; each
 * answers for the token's member whoever the body names; preferences are honoured by the mailer
 * and the notifications, and security notices always go.
 */
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEAM_DIRECTS_LISTED, nextUkBinaryRun, ukWeekAndMonthStart } from '@md/shared';
import { buildApp } from '../src/app.ts';
import { manualClock } from '../src/core/clock.ts';
import { dueRuns, scheduledAt } from '../src/modules/engine/schedule.ts';
import { memberNotices } from '../src/modules/notifications/notices.ts';
import { PREFERENCE_MESSAGES } from '../src/modules/notifications/preferences.ts';
import { nextBinaryRun } from '../src/modules/team/handlers.ts';
import { RATE_RULES } from '../src/transport/rate-limit.ts';
import { createTestApp, memberIdOf, migrationsBefore, type TestApp } from './helpers.ts';

let t: TestApp;
let demo: string;
beforeAll(async () => {
  t = await createTestApp({ seed: 'demo' });
  demo = await t.login('demo');
});
afterAll(() => t.close());

const GLANCE = [
  '/team/view_team_summary',
  '/binary/view_next_run',
  '/rank/view_rank_history',
  '/notification/view_preferences',
] as const;
const DAY_MS = 86_400_000;
type Leg = {
  Members: number;
  Active: number;
  Inactive: number;
  New_This_Week: number;
  New_This_Month: number;
};
type Summary = {
  Week_From: string;
  Month_From: string;
  Left: Leg;
  Right: Leg;
  Directs: {
    Count: number;
    Rows: { Username: string; Joined: string; Side: string; Package: string | null; Status: string }[];
  };
};
type Preference = { Event: string; In_App: boolean; Email: boolean; Email_Offered: boolean; Locked: boolean };

describe('advertised and bounded', () => {
  it('lists the four capabilities and rate-limits each call per member', async () => {
    const config = await t.get<{ capabilities: string[] }>('/config.json');
    expect(config.body.capabilities).toEqual(
      expect.arrayContaining(['team_summary', 'binary_next_run', 'rank_history', 'notification_preferences']),
    );
    for (const name of [
      'team.view_team_summary',
      'binary.view_next_run',
      'rank.view_rank_history',
      'notification.view_preferences',
    ] as const)
      expect(RATE_RULES[name], name).toEqual(RATE_RULES['level.view_downline']);
    expect(RATE_RULES['notification.update_preferences']?.[0]?.by).toBe('member');
  });

  it('answers 401 without a token and changes nothing', async () => {
    for (const path of [...GLANCE, '/notification/update_preferences'])
      expect((await t.post(path, { event: 'team', in_app: false })).status, path).toBe(401);
    expect(t.count('notification_preferences')).toBe(0);
  });
});

describe('scoping: always the token’s member', () => {
  it('refuses a body that names a member (outside, the sponsor above, unknown): the token decides', async () => {
    const refused = { status: 400, body: { Error: "Received unknown field 'username'" } };
    for (const path of GLANCE) {
      const own = await t.post(path, {}, { token: demo });
      expect(own.status, path).toBe(200);
      for (const username of ['gonzalo_001', 'claude_003', 'nobody_at_all_42'])
        expect(await t.post(path, { username }, { token: demo }), `${path} naming ${username}`).toMatchObject(
          refused,
        );
    }
    const gonzalo = await t.login('gonzalo_001');
    for (const username of ['demo', 'jeff_006', 'nobody_at_all_42'])
      expect(await t.post('/team/view_team_summary', { username }, { token: gonzalo })).toMatchObject(
        refused,
      );
    // And gonzalo's own figures are not demo's.
    expect(
      (await t.post<{ Success: Summary }>('/team/view_team_summary', {}, { token: gonzalo })).body.Success
        .Directs,
    ).not.toEqual(
      (await t.post<{ Success: Summary }>('/team/view_team_summary', {}, { token: demo })).body.Success
        .Directs,
    );
  });
});

describe('team.view_team_summary', { timeout: 120_000 }, () => {
  it('counts each binary leg, its active members and newcomers as the tables hold them', async () => {
    const reply = await t.post<{ Success: Summary }>('/team/view_team_summary', {}, { token: demo });
    expect(reply.status).toBe(200);
    const summary = reply.body.Success;
    const db = t.services.sqlite;
    const all = db.prepare('select id, parent_id as parent, side, created_at as at from members').all() as {
      id: number;
      parent: number | null;
      side: string;
      at: number;
    }[];
    const active = new Set(
      (
        db.prepare("select member_id as id from subscriptions where status = 'ACTIVE'").all() as {
          id: number;
        }[]
      ).map((r) => r.id),
    );
    const children = new Map<number, typeof all>();
    for (const m of all)
      if (m.parent !== null) children.set(m.parent, [...(children.get(m.parent) ?? []), m]);
    const { week, month } = ukWeekAndMonthStart(t.clock.now());
    const leg = (side: string): Leg => {
      const found: typeof all = [];
      const stack = (children.get(memberIdOf(t, 'demo')) ?? []).filter((m) => m.side === side);
      while (stack.length) {
        const m = stack.pop()!;
        found.push(m);
        stack.push(...(children.get(m.id) ?? []));
      }
      const act = found.filter((m) => active.has(m.id)).length;
      return {
        Members: found.length,
        Active: act,
        Inactive: found.length - act,
        New_This_Week: found.filter((m) => m.at >= week).length,
        New_This_Month: found.filter((m) => m.at >= month).length,
      };
    };
    expect(summary.Left).toEqual(leg('0'));
    expect(summary.Right).toEqual(leg('1'));
    // Both legs have members, some active, some not: figures worth reading.
    expect(summary.Left.Members + summary.Right.Members).toBe(
      (
        db.prepare('select team_size from binary_stats where member_id = ?').get(memberIdOf(t, 'demo')) as {
          team_size: number;
        }
      ).team_size,
    );
    expect(summary.Left.Active).toBeGreaterThan(0);
    expect(summary.Left.Inactive + summary.Right.Inactive).toBeGreaterThan(0);
    // The week starts on a Monday at 00:00 UK time, the month on the 1st.
    expect(new Date(summary.Week_From).getUTCDay()).toBe(1);
    expect(summary.Month_From.slice(8, 10)).toBe('01');
  });

  it('lists the directs with the join date and status the spec’s direct team call gives, and their package', async () => {
    const summary = (await t.post<{ Success: Summary }>('/team/view_team_summary', {}, { token: demo })).body
      .Success;
    const directs = (
      await t.post<{ Success: { Username: string; Created_On: string; Side: string; Status: boolean }[] }>(
        '/direct/view_direct_team_details',
        {},
        { token: demo },
      )
    ).body.Success;
    expect(summary.Directs.Count).toBe(directs.length);
    expect(summary.Directs.Rows.length).toBe(Math.min(directs.length, TEAM_DIRECTS_LISTED));
    const newestFirst = [...directs].reverse();
    expect(summary.Directs.Rows.map((r) => [r.Username, r.Joined, r.Side, r.Status])).toEqual(
      newestFirst
        .slice(0, TEAM_DIRECTS_LISTED)
        .map((d) => [d.Username, d.Created_On, d.Side, d.Status ? 'ACTIVE' : 'INACTIVE']),
    );
    for (const row of summary.Directs.Rows) {
      const plans = t.services.sqlite
        .prepare(
          "select plan from subscriptions where member_id = ? order by status = 'ACTIVE' desc, created_at desc, id desc",
        )
        .all(memberIdOf(t, row.Username)) as { plan: string }[];
      expect(row.Package, row.Username).toBe(plans[0]?.plan ?? null);
    }
    expect(summary.Directs.Rows.some((r) => r.Package === null)).toBe(true);
    expect(summary.Directs.Rows.some((r) => r.Status === 'ACTIVE')).toBe(true);
  });

  it('counts a member who joins now as new this week and month on the leg it joined', async () => {
    const fresh = await createTestApp({ seed: 'demo' });
    try {
      const token = await fresh.login('demo');
      const before = (await fresh.post<{ Success: Summary }>('/team/view_team_summary', {}, { token })).body
        .Success;
      await fresh.post('/user/verify_otp', {
        page: 'Email Verification',
        username: 'glance_new',
        email: 'glance_new@example.com',
      });
      const otp = await fresh.latestOtp('glance_new@example.com');
      const reg = await fresh.post('/user/register', {
        username: 'glance_new',
        name: 'Glance New',
        sponsor: 'demo',
        email: 'glance_new@example.com',
        password: 'Fresh@12345',
        conpassword: 'Fresh@12345',
        otp,
        side: '1',
        country: 'India',
      });
      expect(reg.status).toBe(200);
      const after = (await fresh.post<{ Success: Summary }>('/team/view_team_summary', {}, { token })).body
        .Success;
      expect(after.Right).toEqual({
        ...before.Right,
        Members: before.Right.Members + 1,
        Inactive: before.Right.Inactive + 1,
        New_This_Week: before.Right.New_This_Week + 1,
        New_This_Month: before.Right.New_This_Month + 1,
      });
      expect(after.Left).toEqual(before.Left);
      expect(after.Directs.Count).toBe(before.Directs.Count + 1);
      expect(after.Directs.Rows[0]).toMatchObject({
        Username: 'glance_new',
        Package: null,
        Status: 'INACTIVE',
        Side: '1',
      });
    } finally {
      await fresh.close();
    }
  });
});

describe('binary.view_next_run', { timeout: 120_000 }, () => {
  it('answers the engine’s next binary run on the server clock and the carry binary_stats holds', async () => {
    const reply = await t.post<{
      Success: { Now: string; Next_Run: string; Left_Carry: number; Right_Carry: number };
    }>('/binary/view_next_run', {}, { token: demo });
    expect(reply.status).toBe(200);
    const now = t.clock.now();
    expect(reply.body.Success.Now).toBe(new Date(now).toISOString());
    expect(reply.body.Success.Next_Run).toBe(
      new Date(dueRuns(now, now + 2 * DAY_MS).find((r) => r.job === 'binary')!.at).toISOString(),
    );
    const stats = t.services.sqlite
      .prepare('select left_carry, right_carry from binary_stats where member_id = ?')
      .get(memberIdOf(t, 'demo')) as { left_carry: number; right_carry: number };
    expect([reply.body.Success.Left_Carry, reply.body.Success.Right_Carry]).toEqual([
      stats.left_carry / 1e6,
      stats.right_carry / 1e6,
    ]);
    expect(reply.body.Success.Left_Carry + reply.body.Success.Right_Carry).toBeGreaterThan(0);
  });

  it('is 11:00 UK time: 11:00 UTC in winter, 10:00 UTC in summer, the next day once past', () => {
    expect(new Date(nextBinaryRun(Date.UTC(2026, 0, 15, 9, 0))).toISOString()).toBe(
      '2026-01-15T11:00:00.000Z',
    );
    expect(new Date(nextBinaryRun(Date.UTC(2026, 0, 15, 11, 0))).toISOString()).toBe(
      '2026-01-16T11:00:00.000Z',
    );
    expect(new Date(nextBinaryRun(Date.UTC(2026, 6, 15, 9, 59))).toISOString()).toBe(
      '2026-07-15T10:00:00.000Z',
    );
    // The Sunday the clocks go forward (29 March 2026), and the one they go back (25 October 2026).
    expect(nextBinaryRun(Date.UTC(2026, 2, 29, 0, 30))).toBe(scheduledAt('binary', '2026-03-29'));
    expect(new Date(scheduledAt('binary', '2026-03-29')).toISOString()).toBe('2026-03-29T10:00:00.000Z');
    expect(new Date(nextBinaryRun(Date.UTC(2026, 9, 25, 10, 30))).toISOString()).toBe(
      '2026-10-25T11:00:00.000Z',
    );
  });

  it('the web app’s fallback (device clock, Intl only) names the same instant as the engine, hour by hour across both changes', () => {
    for (const start of [Date.UTC(2026, 2, 27), Date.UTC(2026, 9, 23), Date.UTC(2027, 2, 26)])
      for (let now = start; now < start + 4 * DAY_MS; now += 3_600_000 - 1)
        expect(nextUkBinaryRun(now), new Date(now).toISOString()).toBe(nextBinaryRun(now));
  });

  it('weeks start on Monday 00:00 UK time and months on the 1st, in summer and winter', () => {
    // Wednesday 15 July 2026, 12:00 UTC (BST): Monday 13 July 00:00 BST is 12 July 23:00 UTC.
    expect(ukWeekAndMonthStart(Date.UTC(2026, 6, 15, 12)).week).toBe(Date.UTC(2026, 6, 12, 23));
    expect(ukWeekAndMonthStart(Date.UTC(2026, 6, 15, 12)).month).toBe(Date.UTC(2026, 5, 30, 23));
    // Sunday 1 November 2026 (GMT): the week began Monday 26 October 00:00 GMT, the month at 00:00 GMT today.
    expect(ukWeekAndMonthStart(Date.UTC(2026, 10, 1, 12))).toEqual({
      week: Date.UTC(2026, 9, 26),
      month: Date.UTC(2026, 10, 1),
    });
    // Just before midnight UK on a Sunday in summer (22:59 UTC) is still that week.
    expect(ukWeekAndMonthStart(Date.UTC(2026, 6, 19, 22, 59)).week).toBe(Date.UTC(2026, 6, 12, 23));
    expect(ukWeekAndMonthStart(Date.UTC(2026, 6, 19, 23, 0)).week).toBe(Date.UTC(2026, 6, 19, 23));
  });

  it('follows the QA clock: advanced past 11:00 UK, the next run is the next day’s', async () => {
    const fresh = await createTestApp({ seed: 'demo' });
    try {
      const token = await fresh.login('demo');
      const first = (
        await fresh.post<{ Success: { Next_Run: string } }>('/binary/view_next_run', {}, { token })
      ).body.Success.Next_Run;
      fresh.clock.set(Date.parse(first) + 1);
      const second = (
        await fresh.post<{ Success: { Now: string; Next_Run: string } }>(
          '/binary/view_next_run',
          {},
          { token },
        )
      ).body.Success;
      expect(second.Now).toBe(new Date(Date.parse(first) + 1).toISOString());
      expect(Date.parse(second.Next_Run) - Date.parse(first)).toBe(DAY_MS);
    } finally {
      await fresh.close();
    }
  });
});

describe('rank.view_rank_history', () => {
  it('lists each rank the rank runs reached, with its date and reward, as the rank rewards table and current rank say', async () => {
    const reply = await t.post<{
      Success: {
        Rank: string;
        Joined: string;
        History: { Rank: string; Reached_On: string; Reward: number; TransID: string }[];
      };
    }>('/rank/view_rank_history', {}, { token: demo });
    expect(reply.status).toBe(200);
    const { Rank, Joined, History } = reply.body.Success;
    const table = (
      await t.post<{
        Success: { DateTime: string; Transaction_ID: string; Current_Rank: string; Reward: number }[];
      }>('/rank/view_rank_transaction', { pageNo: 1, pageSize: 100 }, { token: demo })
    ).body.Success;
    expect(History.length).toBeGreaterThan(1);
    expect([...History].reverse().map((h) => [h.TransID, h.Rank, h.Reached_On, h.Reward])).toEqual(
      table.map((r) => [r.Transaction_ID, r.Current_Rank, r.DateTime, r.Reward]),
    );
    expect(Rank).toBe(
      (await t.post<{ Success: { Rank: string } }>('/rank/current_rank', {}, { token: demo })).body.Success
        .Rank,
    );
    expect(History.at(-1)!.Rank).toBe(Rank);
    const created = (
      t.services.sqlite.prepare("select created_at from members where username = 'demo'").get() as {
        created_at: number;
      }
    ).created_at;
    expect(Joined).toBe(new Date(created).toISOString());
    for (let i = 1; i < History.length; i++)
      expect(History[i]!.Reached_On >= History[i - 1]!.Reached_On).toBe(true);
  });
});

// Several cases seed a fresh demo database of their own: seconds each, more under load.
describe('notification preferences', { timeout: 120_000 }, () => {
  const prefsOf = async (token: string) =>
    (await t.post<{ Success: Preference[] }>('/notification/view_preferences', {}, { token })).body.Success;

  it('defaults to in-app on and email off; security is locked on; payouts are not mailed', async () => {
    const token = await t.login('jeff_006');
    const prefs = await prefsOf(token);
    expect(prefs.map((p) => p.Event)).toEqual([
      'payouts',
      'team',
      'deposits',
      'packages',
      'withdrawals',
      'transfers',
      'security',
    ]);
    for (const p of prefs) expect(p.In_App, p.Event).toBe(true);
    expect(prefs.filter((p) => p.Email).map((p) => p.Event)).toEqual(['security']);
    expect(prefs.filter((p) => p.Locked).map((p) => p.Event)).toEqual(['security']);
    expect(prefs.filter((p) => !p.Email_Offered).map((p) => p.Event)).toEqual(['payouts']);
  });

  it('refuses, changing nothing, to turn security notices off, to mail payouts, or an unknown event', async () => {
    const token = await t.login('jeff_006');
    const before = await prefsOf(token);
    for (const [body, error] of [
      [{ event: 'security', email: false }, PREFERENCE_MESSAGES.securityAlwaysOn],
      [{ event: 'security', in_app: false }, PREFERENCE_MESSAGES.securityAlwaysOn],
      [{ event: 'payouts', email: true }, PREFERENCE_MESSAGES.payoutsNotMailed],
      [{ event: 'birthdays', email: true }, 'Unknown event type'],
      [{ event: 'team', email: 'yes' }, 'email must be true or false'],
    ] as const) {
      const reply = await t.post('/notification/update_preferences', body, { token });
      expect(reply, JSON.stringify(body)).toMatchObject({ status: 400, body: { Error: error } });
    }
    expect(await prefsOf(token)).toEqual(before);
  });

  it('an email preference on mails the event; off, no such mail is sent', async () => {
    const app = await createTestApp({ seed: 'demo' });
    try {
      const demoToken = await app.login('demo');
      const token = await app.login('gonzalo_001');
      const emailOf = (username: string) =>
        (
          app.services.sqlite.prepare('select email from members where username = ?').get(username) as {
            email: string;
          }
        ).email;
      const sendP2p = () =>
        app.post(
          '/transfer_to_user',
          { username: 'gonzalo_001', amount: 1, password: 'Txn@123' },
          { token: demoToken },
        );
      const mailsTo = async (username: string) =>
        (await app.mailbox(emailOf(username))).filter((m) => m.subject === 'P2P transfer');

      // Off by default: a P2P transfer to gonzalo mails gonzalo nothing.
      expect((await sendP2p()).status).toBe(200);
      expect(await mailsTo('gonzalo_001')).toHaveLength(0);
      // gonzalo turns transfer emails on: the next one is mailed, with the notice's words.
      const on = await app.post<{ Preferences: Preference[] }>(
        '/notification/update_preferences',
        { event: 'transfers', email: true },
        { token },
      );
      expect(on.status).toBe(200);
      expect(on.body.Preferences.find((p) => p.Event === 'transfers')).toMatchObject({
        In_App: true,
        Email: true,
      });
      expect((await sendP2p()).status).toBe(200);
      const mailed = await mailsTo('gonzalo_001');
      expect(mailed).toHaveLength(1);
      expect(mailed[0]!.text).toContain('You received $1.00 from demo');
      // The sender did not opt in: no mail to demo.
      expect(await mailsTo('demo')).toHaveLength(0);
      // And off again: no more.
      expect(
        (await app.post('/notification/update_preferences', { event: 'transfers', email: false }, { token }))
          .status,
      ).toBe(200);
      expect((await sendP2p()).status).toBe(200);
      expect(await mailsTo('gonzalo_001')).toHaveLength(1);
    } finally {
      await app.close();
    }
  });

  it('an in-app preference off writes no such notification (requests and the daily runs alike)', async () => {
    const app = await createTestApp({ seed: 'demo' });
    try {
      const token = await app.login('demo');
      const demoId = memberIdOf(app, 'demo');
      // What each member's list shows (stored notices, and daily ROI read from its credits).
      const listed = (member: number, types: string[]) =>
        memberNotices(app.services, member, 1e9).filter((n) => types.includes(n.type)).length;
      const notes = (type: string) => listed(demoId, [type]);
      const othersPayouts = () =>
        (
          app.services.sqlite.prepare('select id from members where id <> ?').pluck().all(demoId) as number[]
        ).reduce((sum, member) => sum + listed(member, ['ROI_Income', 'Binary_Income']), 0);
      expect(
        (await app.post('/notification/update_preferences', { event: 'payouts', in_app: false }, { token }))
          .status,
      ).toBe(200);
      expect(
        (await app.post('/notification/update_preferences', { event: 'transfers', in_app: false }, { token }))
          .status,
      ).toBe(200);
      const before = {
        roi: notes('ROI_Income'),
        binary: notes('Binary_Income'),
        p2p: notes('P2P_Transfer'),
        others: othersPayouts(),
      };
      expect(
        (
          await app.post(
            '/transfer_to_user',
            { username: 'gonzalo_001', amount: 1, password: 'Txn@123' },
            { token },
          )
        ).status,
      ).toBe(200);
      // Two days of daily runs: others are told of their payouts, demo is not, though demo is paid.
      const paidBefore = (
        app.services.sqlite
          .prepare(
            "select count(*) as n from transfers t join accounts a on a.id = t.to_account_id where a.member_id = ? and t.reason in ('roi', 'binary_income')",
          )
          .get(demoId) as { n: number }
      ).n;
      const advanced = await app.post('/__qa/clock?wait=true', { advance: 'P2D' });
      expect(advanced.status).toBe(200);
      const paidAfter = (
        app.services.sqlite
          .prepare(
            "select count(*) as n from transfers t join accounts a on a.id = t.to_account_id where a.member_id = ? and t.reason in ('roi', 'binary_income')",
          )
          .get(demoId) as { n: number }
      ).n;
      expect(paidAfter).toBeGreaterThan(paidBefore);
      expect(othersPayouts()).toBeGreaterThan(before.others);
      expect({
        roi: notes('ROI_Income'),
        binary: notes('Binary_Income'),
        p2p: notes('P2P_Transfer'),
      }).toEqual({ roi: before.roi, binary: before.binary, p2p: before.p2p });
    } finally {
      await app.close();
    }
  });

  it('security notices are always sent, in-app and by email, whatever was tried', async () => {
    const app = await createTestApp({ seed: 'demo' });
    try {
      const token = await app.login('demo');
      for (const body of [
        { event: 'security', email: false },
        { event: 'security', in_app: false },
      ])
        expect((await app.post('/notification/update_preferences', body, { token })).status).toBe(400);
      // Every other event off, both ways.
      for (const event of ['payouts', 'team', 'deposits', 'packages', 'withdrawals', 'transfers'])
        expect(
          (
            await app.post(
              '/notification/update_preferences',
              { event, in_app: false, email: false },
              { token },
            )
          ).status,
        ).toBe(200);
      // A CHECK keeps a security row out of the table whatever writes it.
      expect(() =>
        app.services.sqlite
          .prepare(
            "insert into notification_preferences (member_id, event, in_app, email, updated_at) values (1, 'security', 0, 0, 0)",
          )
          .run(),
      ).toThrow(/CHECK/);
      const demoEmail = (
        app.services.sqlite.prepare("select email from members where username = 'demo'").get() as {
          email: string;
        }
      ).email;
      const before = (await app.mailbox(demoEmail)).filter((m) =>
        m.subject.startsWith('Security notice'),
      ).length;
      await app.post('/user/verify_otp', { page: 'Change Password' }, { token });
      const otp = await app.latestOtp('demo');
      expect(
        (
          await app.post(
            '/user/change_password',
            { oldpassword: 'Demo@1234', newpassword: 'Fresh@12345', conpassword: 'Fresh@12345', otp },
            { token },
          )
        ).status,
      ).toBe(200);
      expect(
        (await app.mailbox(demoEmail)).filter((m) => m.subject.startsWith('Security notice')).length,
      ).toBe(before + 1);
      const alerts = app.services.sqlite
        .prepare(
          "select message from notifications where member_id = ? and type = 'Security_Alert' order by id desc limit 1",
        )
        .get(memberIdOf(app, 'demo')) as { message: string };
      expect(alerts.message).toContain('password was changed');
    } finally {
      await app.close();
    }
  });
});

describe('migration 0011', () => {
  it('a database of the previous main opens, migrates and keeps every row', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'md-prefs-upgrade-'));
    try {
      const { folder, all } = migrationsBefore('0011_notification_preferences', dir);
      const path = join(dir, 'old.sqlite');
      const old = new Database(path);
      migrate(drizzle(old), { migrationsFolder: folder });
      old
        .prepare(
          "insert into members (id, username, name, email, country, created_at, password_hash) values (1, 'root', 'Root', 'root@example.com', 'India', 0, 'x')",
        )
        .run();
      old
        .prepare(
          "insert into notifications (member_id, type, message, trans_id, created_at) values (1, 'Welcome', 'Hi', 'T1', 0)",
        )
        .run();
      const dump = (db: Database.Database) => ({
        members: db.prepare('select * from members').all(),
        notifications: db.prepare('select * from notifications').all(),
      });
      const before = dump(old);
      old.close();
      const app = await buildApp({ databasePath: path, seed: 'demo', clock: manualClock() });
      try {
        const db = app.services.sqlite;
        expect(app.created).toBe(false);
        expect((db.prepare('select count(*) as n from __drizzle_migrations').get() as { n: number }).n).toBe(
          all,
        );
        expect(dump(db)).toEqual(before);
        expect(db.prepare('select count(*) as n from notification_preferences').get()).toEqual({ n: 0 });
      } finally {
        await app.fastify.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
