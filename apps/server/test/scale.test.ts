/**
 * The `scale` scenario: deterministic, registration's placement rule, consistent depths and team
 * sizes; about half the members with an ACTIVE package paid by a deposit, written as payDeposit
 * and buyPackage write them (level income aside), a balanced ledger, and a daily run that pays
 * ROI, binary income and rank rewards. Most tests take it without history (every run owed, as the
 * daily-run benchmarks do); the scenario's default, as QA gets it, has its last days' runs played.
 */
import { describe, expect, it } from 'vitest';
import { DEMO_PASSWORD_HASH } from '../src/core/passwords.ts';
import { insertMember } from '../src/modules/auth/members.ts';
import { openDeposit, payDeposit } from '../src/modules/deposits/deposits.ts';
import { buyPackage } from '../src/modules/packages/packages.ts';
import { seedScenario } from '../src/seed/index.ts';
import { SCALE_HISTORY_DAYS } from '../src/seed/scale.ts';
import { createTestApp, expectLedgerSound, type TestApp } from './helpers.ts';

const MEMBERS = 3_000;
/** Members of the scenario replayed purchase by purchase through the money modules. */
const REPLAYED = 400;

async function scaled() {
  const t = await createTestApp({ seed: 'empty' });
  const summary = seedScenario(t.services, 'scale', { members: MEMBERS, historyDays: 0 });
  return { t, summary };
}

describe('scale scenario', () => {
  it('places every member at the outer end of its sponsor’s chosen leg, with depths and team sizes that agree', async () => {
    const { t, summary } = await scaled();
    const db = t.services.sqlite;
    expect(summary.members).toBe(MEMBERS);
    expect((db.prepare('select count(*) as n from members').get() as { n: number }).n).toBe(MEMBERS);
    expect(summary.scale!.maxDepth).toBeGreaterThan(50); // spillover makes it deep

    // Each member lies on its sponsor's chain of same-side children (so it was at the outer end when placed).
    const sample = db
      .prepare('select id, sponsor_id, side from members where id > 1 and id % 37 = 0')
      .all() as { id: number; sponsor_id: number; side: string }[];
    const onChain = db.prepare(
      `with recursive leg(id) as (select @sponsor union all select m.id from members m join leg on m.parent_id = leg.id and m.side = @side)
       select 1 as found from leg where id = @member`,
    );
    for (const m of sample)
      expect(
        onChain.get({ sponsor: m.sponsor_id, side: m.side, member: m.id }),
        `member ${m.id}`,
      ).toBeDefined();

    const badDepths = db
      .prepare(
        'select count(*) as n from members m join binary_stats s on s.member_id = m.id join binary_stats p on p.member_id = m.parent_id where s.depth <> p.depth + 1',
      )
      .get() as { n: number };
    expect(badDepths.n).toBe(0);
    const root = db.prepare('select team_size from binary_stats where member_id = 1').get() as {
      team_size: number;
    };
    expect(root.team_size).toBe(MEMBERS - 1);
    // team_size = children's team sizes + number of children, everywhere.
    const badTeams = db
      .prepare(
        `select count(*) as n from binary_stats s where s.team_size <> coalesce((
           select sum(c.team_size + 1) from members m join binary_stats c on c.member_id = m.id where m.parent_id = s.member_id), 0)`,
      )
      .get() as { n: number };
    expect(badTeams.n).toBe(0);
    await t.close();
  });

  it('is the same every time, and its root can sign in', async () => {
    const first = await scaled();
    const second = await scaled();
    const shape = (s: typeof first) =>
      JSON.stringify(
        s.t.services.sqlite.prepare('select id, sponsor_id, parent_id, side from members order by id').all(),
      );
    expect(shape(first)).toBe(shape(second));
    const token = await first.t.login('demo');
    const tree = await first.t.post<{ Success: { CountUser: number } }>(
      '/binary/view_binary_downline',
      { username: 'demo' },
      { token },
    );
    expect(tree.body.Success.CountUser).toBe(MEMBERS - 1);
    await first.t.close();
    await second.t.close();
  });

  it('gives about half the members a package paid by a deposit, with its volume pending, and pays their sponsors level income', async () => {
    const { t, summary } = await scaled();
    const db = t.services.sqlite;
    const one = <T>(sql: string, ...params: unknown[]) => db.prepare(sql).get(...params) as T;
    const count = (sql: string, ...params: unknown[]) => one<{ n: number }>(sql, ...params).n;
    const buyers = count('select count(*) as n from subscriptions');
    expect(buyers).toBe(summary.scale!.packages);
    expect(buyers).toBeGreaterThan(MEMBERS * 0.45);
    expect(buyers).toBeLessThan(MEMBERS * 0.55);
    // Most still ACTIVE; the rest reached their 3x cap on their sponsees' level income.
    expect(count("select count(*) as n from subscriptions where status = 'ACTIVE'")).toBeGreaterThan(
      buyers * 0.9,
    );
    expect(
      count(
        "select count(*) as n from subscriptions where status = 'EXPIRED' and (total_earnings <> max_earnings or reason is null or end_date is null)",
      ),
    ).toBe(0);
    expect(count('select count(distinct member_id) as n from subscriptions')).toBe(buyers); // one package each
    expect(count('select count(distinct plan) as n from subscriptions')).toBe(
      t.services.plan.packages.length,
    );
    expect(one('select plan from subscriptions where member_id = 1')).toBeDefined(); // demo has one
    // Each buyer: its package's volume pending on itself, a PAID deposit of the price, its Deposit wallet at 0.
    expect(
      count(
        `select count(*) as n from subscriptions s join binary_stats b on b.member_id = s.member_id
          where b.own_binary_pending = s.binary_volume and b.own_rank_pending = s.rank_volume and s.max_earnings = 3 * s.amount and s.created_at < ?`,
        t.clock.now(),
      ),
    ).toBe(buyers);
    expect(count('select count(*) as n from binary_stats where own_binary_pending > 0')).toBe(buyers);
    expect(
      count(
        "select count(*) as n from deposits d join subscriptions s on s.member_id = d.member_id where d.status = 'PAID' and d.amount = s.amount and d.paid_at < s.created_at and d.paid_at < d.expires_at",
      ),
    ).toBe(buyers);
    expect(
      count(
        "select count(*) as n from accounts where kind = 'member' and wallet = 'Deposit' and balance = 0",
      ),
    ).toBe(buyers);
    expect(
      count("select count(*) as n from notifications where type in ('Deposit', 'Package_Purchase')"),
    ).toBe(2 * buyers);
    // Level income: a row for each of a purchase's sponsors (up to five); credits only to sponsors who had bought, within their cap.
    expect(count('select count(distinct subscription_trans_id) as n from level_incomes')).toBe(buyers - 1); // all but demo's
    expect(
      count(
        'select count(*) as n from level_incomes l where l.received_amount > 0 and not exists (select 1 from subscriptions s where s.member_id = l.member_id and s.created_at < l.created_at)',
      ),
    ).toBe(0);
    expect(
      count("select count(*) as n from transfers where reason in ('direct_income', 'level_income')"),
    ).toBe(count('select count(*) as n from level_incomes where received_amount > 0'));
    expect(
      count(
        "select count(*) as n from accounts where kind = 'member' and wallet in ('Direct', 'Level') and balance > 0",
      ),
    ).toBeGreaterThan(100);
    expect(
      count(
        'select count(*) as n from subscriptions s where s.total_earnings <> (select coalesce(sum(received_amount), 0) from level_incomes l where l.member_id = s.member_id)',
      ),
    ).toBe(0);
    await expectLedgerSound(t);
    await t.close();
  });

  it('writes every row that registering the same members and paying their deposits and purchases through the money modules writes', async () => {
    // The seed's decisions (who joins where and when, who buys what and when) replayed one by one
    // through insertMember, openDeposit, payDeposit and buyPackage in a database of their own.
    const seeded = await createTestApp({ seed: 'empty' });
    seedScenario(seeded.services, 'scale', { members: REPLAYED, historyDays: 0 });
    const replayed = await createTestApp({ seed: 'empty' });
    const db = seeded.services.sqlite;
    const members = db
      .prepare(
        'select id, username, name, email, country, sponsor_id, side, created_at from members order by id',
      )
      .all() as {
      id: number;
      username: string;
      name: string;
      email: string;
      country: string;
      sponsor_id: number | null;
      side: '0' | '1' | null;
      created_at: number;
    }[];
    const purchaseOf = db.prepare(
      'select d.amount, d.created_at as openedAt, d.paid_at as paidAt, s.plan, s.created_at as boughtAt from deposits d join subscriptions s on s.member_id = d.member_id where d.member_id = ?',
    );
    for (const m of members) {
      const member = insertMember(replayed.services, {
        username: m.username,
        name: m.name,
        email: m.email,
        country: m.country,
        passwordHash: DEMO_PASSWORD_HASH,
        sponsorId: m.sponsor_id,
        side: m.side ?? '0',
        createdAt: m.created_at,
      });
      expect(member.id).toBe(m.id);
      const purchase = purchaseOf.get(m.id) as
        { amount: number; openedAt: number; paidAt: number; plan: string; boughtAt: number } | undefined;
      if (!purchase) continue;
      const deposit = openDeposit(replayed.services, m.id, purchase.amount, 'USDT.BEP20', purchase.openedAt);
      payDeposit(replayed.services, deposit.id, undefined, purchase.paidAt);
      buyPackage(replayed.services, m.id, purchase.plan, purchase.boughtAt);
    }
    const tables = (t: TestApp) => {
      const all = (sql: string) => t.services.sqlite.prepare(sql).all();
      return {
        members: all('select * from members order by id'),
        binaryStats: all('select * from binary_stats order by member_id'),
        // Deposit addresses differ by design (the seed's are the deposit id in digits; see seed/scale.ts).
        deposits: all("select *, '' as address from deposits order by id"),
        accounts: all('select * from accounts order by id'),
        accountMonths: all('select * from account_months order by account_id, month'),
        transfers: all('select * from transfers order by id'),
        subscriptions: all('select * from subscriptions order by id'),
        levelIncomes: all('select * from level_incomes order by id'),
        notifications: all('select * from notifications order by id'),
      };
    };
    // The indexes the seed drops while it writes are all back, as the migrations made them; the page cache is as it was.
    const schemaOf = (t: TestApp) =>
      t.services.sqlite
        .prepare(
          "select type, name, tbl_name, sql from sqlite_master where type in ('index', 'trigger') order by name",
        )
        .all();
    expect(schemaOf(seeded)).toEqual(schemaOf(replayed));
    expect(db.pragma('cache_size', { simple: true })).toBe(
      replayed.services.sqlite.pragma('cache_size', { simple: true }),
    );
    const expected = tables(replayed);
    const actual = tables(seeded);
    for (const table of Object.keys(expected) as (keyof typeof expected)[])
      expect(actual[table], table).toEqual(expected[table]);
    // The replay exercised what the comparison is about: credits, and packages taken to their cap.
    expect(expected.levelIncomes.length).toBeGreaterThan(100);
    expect(
      expected.transfers.filter((row) => (row as { reason: string }).reason === 'direct_income').length,
    ).toBeGreaterThan(20);
    expect(expected.subscriptions.some((row) => (row as { status: string }).status === 'EXPIRED')).toBe(true);
    await replayed.close();
    await seeded.close();
  }, 60_000);

  it('pays ROI, binary income and rank rewards at its first daily run, and the ledger stays balanced', async () => {
    const { t, summary } = await scaled();
    // The test clock starts on a Monday at 09:00 UTC: a day later binary and ranks (11:00) and ROI (00:05) have run.
    const reply = await t.post<{ ran: { job: string; summary: string }[] }>('/__qa/clock?wait=true', {
      advance: 'P1D',
    });
    expect(reply.status).toBe(200);
    const ran = Object.fromEntries(reply.body.ran.map((r) => [r.job, r.summary]));
    expect(Object.keys(ran).sort()).toEqual(['binary', 'ranks', 'roi']);
    const db = t.services.sqlite;
    const paid = (reason: string) =>
      db
        .prepare(
          'select count(distinct member_id) as members, coalesce(sum(amount), 0) as total from transfers where reason = ?',
        )
        .get(reason) as { members: number; total: number };
    // ROI: every package still ACTIVE at 00:05 (all were bought before; binary income at 11:00 the day before took some to their cap).
    const roiAt = (
      db.prepare("select min(created_at) as at from transfers where reason = 'roi'").get() as { at: number }
    ).at;
    const activeAtRoi = (
      db
        .prepare('select count(*) as n from subscriptions where end_date is null or end_date >= ?')
        .get(roiAt) as { n: number }
    ).n;
    expect(paid('roi').members).toBe(activeAtRoi);
    expect(activeAtRoi).toBeGreaterThan(summary.scale!.packages * 0.9);
    // Binary: the year's volume folded up the tree, matched and paid to the buyers among the members with both legs.
    expect(paid('binary_income').members).toBeGreaterThan(50);
    expect(ran.binary).toMatch(/binary matching: \d+ members, [1-9]\d* payouts/);
    // Ranks: the root's legs carry every package but its own, far past Bronze; others follow.
    expect(paid('rank_reward').members).toBeGreaterThan(10);
    expect(db.prepare('select rank from binary_stats where member_id = 1').get()).not.toEqual({
      rank: 'Starter',
    });
    expect(db.prepare('select count(*) as n from binary_stats where own_binary_pending > 0').get()).toEqual({
      n: 0,
    });
    await expectLedgerSound(t);
    await t.close();
  });

  it('as QA gets it, has its last days played by the engine: volume on both legs, ranks above Starter, daily ROI', async () => {
    const t = await createTestApp({ seed: 'empty' });
    const summary = seedScenario(t.services, 'scale', { members: MEMBERS });
    const db = t.services.sqlite;
    const runs = Object.fromEntries(
      (
        db.prepare("select job, count(*) as n from job_runs where status = 'done' group by job").all() as {
          job: string;
          n: number;
        }[]
      ).map((r) => [r.job, r.n]),
    );
    // Binary and ranks every day; ROI on the weekdays among them (the test clock's days end on a Monday).
    expect(runs).toMatchObject({ binary: SCALE_HISTORY_DAYS, ranks: SCALE_HISTORY_DAYS });
    expect(runs.roi).toBeGreaterThanOrEqual(2);
    expect(summary.scale!.runs).toBe(runs.binary! + runs.ranks! + runs.roi!);
    // The year's volume folded up the tree: the root and many others carry volume on both legs, matched.
    const legs = db
      .prepare(
        "select count(*) as n from (select member_id from volume_entries where kind = 'binary' group by member_id having count(distinct side) = 2)",
      )
      .get() as { n: number };
    expect(legs.n).toBeGreaterThan(50);
    expect(db.prepare('select count(*) as n from binary_stats where own_binary_pending > 0').get()).toEqual({
      n: 0,
    });
    const ranked = db.prepare("select member_id, rank from binary_stats where rank != 'Starter'").all() as {
      member_id: number;
    }[];
    expect(ranked.map((r) => r.member_id)).toContain(1);
    expect(ranked.length).toBeGreaterThan(10);
    // ROI on each of those days, binary income and rank rewards paid.
    const days = db
      .prepare("select count(distinct created_at / 86400000) as n from transfers where reason = 'roi'")
      .get() as { n: number };
    expect(days.n).toBe(runs.roi);
    for (const reason of ['binary_income', 'rank_reward'])
      expect(db.prepare('select count(*) as n from transfers where reason = ?').get(reason)).not.toEqual({
        n: 0,
      });
    // The next day is owed from the clock on, as on a live server.
    const next = await t.post<{ ran: { job: string }[] }>('/__qa/clock?wait=true', { advance: 'P1D' });
    expect(next.body.ran.map((r) => r.job).sort()).toEqual(['binary', 'ranks', 'roi']);
    await expectLedgerSound(t);
    await t.close();
  });
});
