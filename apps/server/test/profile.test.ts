import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG, profileSchema } from '@md/shared';
import { PROFILE_MESSAGES } from '../src/modules/profile/handlers.ts';
import { DEMO_WALLET_ADDRESS } from '../src/seed/demo-money.ts';
import { createTestApp, wrongCode, type TestApp } from './helpers.ts';

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp({ seed: 'demo' });
  token = await t.login('demo');
});
afterAll(() => t.close());

describe('view_profile', () => {
  it('answers every profile field for the caller only', async () => {
    const reply = await t.post<{ Success: unknown[] }>('/user/view_profile', {}, { token });
    expect(reply.status).toBe(200);
    const profile = profileSchema.parse(reply.body.Success[0]);
    expect(profile).toMatchObject({
      Username: 'demo',
      Name: 'Demo Member',
      Email: 'demo@example.com',
      Sponsor: null,
      Country: 'United Kingdom',
      // The seed gives demo Gold then Silver (both ACTIVE), a transaction password and an address.
      Subscription: true,
      package: 'Silver',
      Transaction_Password: true,
      TOTP_Enabled: false,
      Wallet_Details: { Wallet_Address: DEMO_WALLET_ADDRESS, Network: 'BEP.20' },
    });
    const other = await t.post<{ Success: { Username: string; Sponsor: string }[] }>(
      '/user/view_profile',
      {},
      {
        token: await t.login(
          'demo2fa',
          'Demo@1234',
          (await t.get<{ code: string }>('/__qa/totp/demo2fa')).body.code,
        ),
      },
    );
    expect(other.body.Success[0]).toMatchObject({ Username: 'demo2fa', Sponsor: 'demo', Side: '1' });
  });
});

describe('email change', () => {
  it('mails the OTP to the new address and changes the email with it', async () => {
    const member = await t.login('van_005');
    expect(
      (await t.post('/user/change_email_request', { email: 'Van.New@Mail.test' }, { token: member })).body,
    ).toEqual({ Success: MSG.otpSent });
    const mail = (await t.mailbox('van.new@mail.test'))[0]!;
    expect(mail.otp).toMatch(/^\d{6}$/);
    // Bound to the address it was sent to.
    expect(
      (await t.post('/user/change_email', { email: 'other@mail.test', otp: mail.otp }, { token: member }))
        .body,
    ).toMatchObject({ Error: 'Invalid OTP' });
    expect(
      (
        await t.post(
          '/user/change_email',
          { email: 'van.new@mail.test', otp: wrongCode(mail.otp!) },
          { token: member },
        )
      ).body,
    ).toMatchObject({ Error: 'Invalid OTP' });
    expect(
      await t.post('/user/change_email', { email: 'van.new@mail.test', otp: mail.otp }, { token: member }),
    ).toEqual({ status: 200, body: { Success: 'Email changed successfully' } });
    const profile = await t.post<{ Success: { Email: string }[] }>(
      '/user/view_profile',
      {},
      { token: member },
    );
    expect(profile.body.Success[0]!.Email).toBe('van.new@mail.test');
    expect(
      (await t.post('/user/change_email', { email: 'van.new@mail.test', otp: mail.otp }, { token: member }))
        .body,
    ).toMatchObject({ Error: 'Invalid OTP' });
  });

  it('validates with the spec messages', async () => {
    // A member without a subscription: the email form is open to it.
    const free = t.services.sqlite
      .prepare(
        "select username, email from members m where totp_enabled = 0 and not exists (select 1 from subscriptions s where s.member_id = m.id) and username <> 'van_005' order by id limit 1",
      )
      .get() as { username: string; email: string };
    const member = await t.login(free.username);
    expect((await t.post('/user/change_email_request', { email: '' }, { token: member })).body).toMatchObject(
      {
        Error: MSG.enterCurrentEmail,
      },
    );
    expect(
      (await t.post('/user/change_email_request', { email: 'nope' }, { token: member })).body,
    ).toMatchObject({
      Error: MSG.emailInvalid,
    });
    expect(
      (await t.post('/user/change_email_request', { email: free.email }, { token: member })).body,
    ).toMatchObject({ Error: 'This is already your email' });
    expect(
      (await t.post('/user/change_email', { email: 'a@b.test', otp: '' }, { token: member })).body,
    ).toMatchObject({ Error: MSG.otpRequired });
  });

  it('is refused while the member holds an ACTIVE subscription', async () => {
    expect(
      await t.post('/user/change_email_request', { email: 'demo.new@mail.test' }, { token }),
    ).toMatchObject({
      status: 403,
      body: { Error: PROFILE_MESSAGES.emailBlocked },
    });
    expect(
      await t.post('/user/change_email', { email: 'demo.new@mail.test', otp: '123456' }, { token }),
    ).toMatchObject({ status: 403, body: { Error: PROFILE_MESSAGES.emailBlocked } });
    expect(await t.mailbox('demo.new@mail.test')).toEqual([]);
  });
});

describe('notifications', () => {
  it('pages newest first with defaults 1 and 20, in both parameter spellings', async () => {
    const total = await t.post<{ Success: number }>('/notification/total_view_notification', { token });
    const count = (sql: string) => t.services.sqlite.prepare(sql).pluck().get() as number;
    // Registrations of the team and the rest, stored; 13 weeks of daily ROI and the team's
    // purchases' direct and level income, read from their credits.
    const paid = (reason: string) =>
      count(
        `select count(*) from transfers t join accounts a on a.id = t.to_account_id where a.member_id = 1 and t.reason = '${reason}'`,
      );
    const roiPaid = paid('roi');
    const purchaseIncomePaid = paid('direct_income') + paid('level_income');
    expect(roiPaid).toBeGreaterThan(50);
    expect(purchaseIncomePaid).toBeGreaterThan(10);
    expect(count("select count(*) from notifications where type in ('Direct_Income', 'Level_Income')")).toBe(
      0,
    );
    const stored =
      count('select count(*) from notifications where member_id = 1') + roiPaid + purchaseIncomePaid;
    expect(stored).toBeGreaterThan(100);
    expect(total.body.Success).toBe(stored);
    const first = await t.post<{ Success: { DateTime: string; TransID: string; Type: string }[] }>(
      '/notification/view_notification',
      {},
      { token },
    );
    expect(first.body.Success).toHaveLength(20);
    const times = first.body.Success.map((n) => Date.parse(n.DateTime));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    const pages = Math.ceil(stored / 20);
    const last = await t.post<{ Success: unknown[] }>(
      '/notification/view_notification',
      { page_no: pages },
      { token },
    );
    expect(last.body.Success).toHaveLength(stored - (pages - 1) * 20);
    // Page after page, every notice once, newest first across the stored ones and the credits'.
    const everyPage = [];
    for (let page = 1; page <= pages; page++)
      everyPage.push(
        ...(
          await t.post<{ Success: { DateTime: string; TransID: string; Type: string }[] }>(
            '/notification/view_notification',
            { page_no: page },
            { token },
          )
        ).body.Success,
      );
    expect(new Set(everyPage.map((n) => JSON.stringify(n))).size).toBe(stored);
    const everyTime = everyPage.map((n) => Date.parse(n.DateTime));
    expect([...everyTime].sort((a, b) => b - a)).toEqual(everyTime);
    expect(everyPage.filter((n) => n.Type === 'ROI_Income')).toHaveLength(roiPaid);
    expect(everyPage.filter((n) => n.Type === 'Direct_Income' || n.Type === 'Level_Income')).toHaveLength(
      purchaseIncomePaid,
    );
    expect(
      (
        await t.post<{ Success: unknown[] }>(
          '/notification/view_notification',
          { page_no: pages + 1 },
          { token },
        )
      ).body.Success,
    ).toEqual([]);
    const camel = await t.post<{ Success: unknown[] }>(
      '/notification/view_notification',
      { pageNo: 2, pageSize: 4 },
      { token },
    );
    const snake = await t.post<{ Success: unknown[] }>(
      '/notification/view_notification',
      { page_no: 2, page_size: 4 },
      { token },
    );
    expect(camel.body).toEqual(snake.body);
    expect(camel.body.Success).toHaveLength(4);
    const types = new Set(first.body.Success.map((n) => n.Type));
    expect(types.size).toBeGreaterThan(1);
    expect((await t.post('/notification/view_notification', { page_no: 0 }, { token })).body).toMatchObject({
      Error: 'page_no must be at least 1',
    });
    expect(
      (await t.post('/notification/view_notification', { page_size: 500 }, { token })).body,
    ).toMatchObject({
      Error: 'page_size must be at most 200',
    });
  });

  it('every member has a Welcome notification', async () => {
    const missing = t.services.sqlite
      .prepare(
        "select count(*) as n from members m where not exists (select 1 from notifications n where n.member_id = m.id and n.type = 'Welcome')",
      )
      .get() as { n: number };
    expect(missing.n).toBe(0);
  });
});

describe('analytics and direct team', () => {
  it('computes team figures honestly from the trees', async () => {
    const reply = await t.post<{ Success: Record<string, number | string> }>(
      '/user_analytics/view_user_analytics',
      {},
      { token },
    );
    const members = t.count('members');
    const directs = (
      t.services.sqlite.prepare('select count(*) as n from members where sponsor_id = 1').get() as {
        n: number;
      }
    ).n;
    // What the engine paid demo over the simulated days counts against the cap of its ACTIVE packages.
    const q = <T>(sql: string) => t.services.sqlite.prepare(sql).get(1) as T;
    const earned =
      q<{ n: number }>(
        "select sum(total_earnings) as n from subscriptions where member_id = ? and status = 'ACTIVE'",
      ).n / 1_000_000;
    const stats = q<{ rank: string; left: number; right: number }>(
      'select rank, left_total as left, right_total as right from binary_stats where member_id = ?',
    );
    expect(earned).toBeGreaterThan(0);
    expect(stats.left).toBeGreaterThan(0);
    expect(stats.rank).not.toBe('Starter');
    expect(reply.body.Success).toEqual({
      Current_Level: 5,
      Current_Rank: stats.rank,
      Binary_Left: stats.left / 1_000_000,
      Binary_Right: stats.right / 1_000_000,
      // Platinum (2,500) and Silver (500), both ACTIVE: caps 7,500 + 1,500, less what the engine paid.
      Active_Subscriptions: 2,
      Max_Earnings: 9000,
      Total_Earnings: earned,
      Remaining_Earnings: 9000 - earned,
      Direct_Referrals: directs,
      Team_Size: members - 1,
    });
    // A leaf member: no team.
    const leaf = t.services.sqlite
      .prepare(
        'select username from members m where not exists (select 1 from members c where c.sponsor_id = m.id) order by id desc limit 1',
      )
      .get() as { username: string };
    const leafReply = await t.post<{ Success: Record<string, number> }>(
      '/user_analytics/view_user_analytics',
      {},
      { token: await t.login(leaf.username) },
    );
    expect(leafReply.body.Success).toMatchObject({ Current_Level: 0, Direct_Referrals: 0, Team_Size: 0 });
  });

  it("lists the caller's directs with masked emails", async () => {
    const reply = await t.post<{
      Success: { Username: string; Email: string; Side: string; Status: boolean }[];
    }>('/direct/view_direct_team_details', {}, { token });
    const directs = t.services.sqlite
      .prepare('select username from members where sponsor_id = 1 order by created_at')
      .all() as { username: string }[];
    expect(reply.body.Success.map((d) => d.Username)).toEqual(directs.map((d) => d.username));
    expect(reply.body.Success[0]).toMatchObject({
      Username: 'demo2fa',
      Email: 'dem*2fa@example.com',
      Side: '1',
      Status: false,
    });
    expect(reply.body.Success.every((d) => d.Email.includes('*'))).toBe(true);
  });
});
