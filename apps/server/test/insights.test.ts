/**
 * The dashboard's series and rank progress: the `daily_series` and `rank_progress`
 * extensions answer the sums of the history the tables serve, for the caller only, and follow a
 * new earning at once although their answers are kept.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERIES_DAYS_MAX } from '@md/shared';
import { creditFromSystem, moneyTransaction } from '../src/modules/ledger/ledger.ts';
import { RATE_RULES } from '../src/transport/rate-limit.ts';
import { createTestApp, memberIdOf, type TestApp } from './helpers.ts';

let t: TestApp;
let demo: string;
beforeAll(async () => {
  t = await createTestApp({ seed: 'demo' });
  demo = await t.login('demo');
});
afterAll(() => t.close());

const DAY_MS = 86_400_000;
type Range = { From: string; To: string };
type Earnings = Range & {
  Days: { Date: string; ROI: number; Direct: number; Level: number; Binary: number; Rank: number }[];
};
type Volumes = Range & { Days: { Date: string; Left: number; Right: number }[] };
type HistoryRow = { DateTime: string; Amount: number; Type: string; Wallet: string };
type VolumeRow = { DateTime: string; Side: '0' | '1'; Volume: number };

/** The earning history's label of each income type, and the field the series adds it to. */
const FIELD_OF_TYPE: Record<string, keyof Earnings['Days'][number]> = {
  ROI: 'ROI',
  'Direct Income': 'Direct',
  'Level Income': 'Level',
  'Binary Income': 'Binary',
  'Rank Reward': 'Rank',
};

/** Every row of a paged table within the dates, through the provider endpoints. */
async function allRows<R>(path: string, token: string, from: string, to: string): Promise<R[]> {
  const rows: R[] = [];
  for (let pageNo = 1; pageNo <= 200; pageNo++) {
    const page = await t.post<{ Success: R[] }>(
      path,
      { pageNo, pageSize: 100, start_date: from, end_date: to },
      { token },
    );
    expect(page.status).toBe(200);
    rows.push(...page.body.Success);
    if (page.body.Success.length < 100) return rows;
  }
  throw new Error(`${path}: more than 200 pages`);
}

const micros = (n: number) => Math.round(n * 1_000_000);

describe('earning.view_daily_earnings', () => {
  it('is advertised as daily_series (with rank_progress) and rate-limited per member like the tree reads', async () => {
    const config = await t.get<{ capabilities: string[] }>('/config.json');
    expect(config.body.capabilities).toEqual(expect.arrayContaining(['daily_series', 'rank_progress']));
    for (const name of [
      'earning.view_daily_earnings',
      'binary.view_daily_volume',
      'rank.view_rank_progress',
    ] as const)
      expect(RATE_RULES[name], name).toEqual(RATE_RULES['level.view_downline']);
  });

  it('answers, per UTC day and income type, the sums of the income rows of the earning history over the last 90 days', async () => {
    const reply = await t.post<{ Success: Earnings }>(
      '/earning/view_daily_earnings',
      { days: SERIES_DAYS_MAX },
      { token: demo },
    );
    expect(reply.status).toBe(200);
    const { From, To, Days } = reply.body.Success;
    const today = new Date(t.clock.now()).toISOString().slice(0, 10);
    expect(To).toBe(today);
    expect(From).toBe(
      new Date(Date.parse(today) - (SERIES_DAYS_MAX - 1) * DAY_MS).toISOString().slice(0, 10),
    );

    const expected = new Map<string, Record<string, number>>();
    for (const row of await allRows<HistoryRow>('/earning/view_all_earning_history', demo, From, To)) {
      const field = FIELD_OF_TYPE[row.Type];
      if (!field) continue;
      const day = row.DateTime.slice(0, 10);
      const sums = expected.get(day) ?? { ROI: 0, Direct: 0, Level: 0, Binary: 0, Rank: 0 };
      sums[field]! += micros(row.Amount);
      expected.set(day, sums);
    }
    // The demo member has income of several types on several days: a series worth drawing.
    expect(expected.size).toBeGreaterThan(3);
    const types = new Set(
      [...expected.values()].flatMap((sums) => Object.keys(sums).filter((k) => sums[k]! > 0)),
    );
    expect(types.size).toBeGreaterThanOrEqual(3);

    const answered = new Map(
      Days.map(({ Date: day, ...sums }) => [
        day,
        Object.fromEntries(Object.entries(sums).map(([k, v]) => [k, micros(v)])),
      ]),
    );
    expect(answered).toEqual(expected);
    // In day order, each day once.
    expect(Days.map((d) => d.Date)).toEqual([...Days.map((d) => d.Date)].sort());
  });

  it('keeps to the range asked: 30 days are the last 30 of the 90', async () => {
    const ninety = (
      await t.post<{ Success: Earnings }>('/earning/view_daily_earnings', { days: 90 }, { token: demo })
    ).body.Success;
    const thirty = (
      await t.post<{ Success: Earnings }>('/earning/view_daily_earnings', { days: 30 }, { token: demo })
    ).body.Success;
    expect(thirty.To).toBe(ninety.To);
    expect(thirty.Days).toEqual(ninety.Days.filter((d) => d.Date >= thirty.From));
  });

  it("answers the caller's own income only: another member sees theirs", async () => {
    const other = t.services.sqlite
      .prepare(
        "select m.username from members m where m.username <> 'demo' and not m.totp_enabled and exists (select 1 from transfers t join accounts a on a.id = t.to_account_id where a.member_id = m.id and t.reason = 'roi') limit 1",
      )
      .get() as { username: string };
    const token = await t.login(other.username);
    const mine = (
      await t.post<{ Success: Earnings }>('/earning/view_daily_earnings', { days: 90 }, { token: demo })
    ).body.Success.Days;
    const theirs = (
      await t.post<{ Success: Earnings }>('/earning/view_daily_earnings', { days: 90 }, { token })
    ).body.Success;
    const rows = await allRows<HistoryRow>(
      '/earning/view_all_earning_history',
      token,
      theirs.From,
      theirs.To,
    );
    const theirRoi = rows.filter((r) => r.Type === 'ROI').reduce((sum, r) => sum + micros(r.Amount), 0);
    expect(theirs.Days.reduce((sum, d) => sum + micros(d.ROI), 0)).toBe(theirRoi);
    expect(theirs.Days).not.toEqual(mine);
    // The body names no member: there is no way to ask for someone else's.
    const withName = await t.post(
      '/earning/view_daily_earnings',
      { days: 90, username: other.username },
      { token: demo },
    );
    expect(withName.status).toBe(400);
    expect(withName.body).toMatchObject({ Error: "Received unknown field 'username'" });
    expect((await t.post('/earning/view_daily_earnings', { days: 90 })).status).toBe(401);
  });

  it('follows a new earning at once, although the answer is kept', async () => {
    const ask = async () =>
      (await t.post<{ Success: Earnings }>('/earning/view_daily_earnings', { days: 30 }, { token: demo }))
        .body.Success;
    const before = await ask();
    expect(await ask()).toEqual(before);
    const today = before.To;
    const roiToday = (answer: Earnings) => answer.Days.find((d) => d.Date === today)?.ROI ?? 0;
    const demoId = memberIdOf(t, 'demo');
    moneyTransaction(t.services, () =>
      creditFromSystem(t.services, 'payouts', [
        {
          transId: 'ROITEST1',
          memberId: demoId,
          wallet: 'ROI',
          amount: 1_250_000,
          reason: 'roi',
          at: t.clock.now(),
        },
      ]),
    );
    const after = await ask();
    expect(micros(roiToday(after)) - micros(roiToday(before))).toBe(1_250_000);
    // Over tRPC the same answer.
    const rpc = await t.trpc('earning.view_daily_earnings', 'query', { days: 30 }, demo);
    expect((rpc.body as { result: { data: unknown } }).result.data).toEqual({ Success: after });
  });

  it('refuses a bad range with a 400 naming the field, and writes nothing', async () => {
    const transfers = t.count('transfers');
    for (const [days, message] of [
      [0, 'days must be at least 1'],
      [91, 'days must be at most 90'],
      [1.5, 'days must be a whole number'],
      ['30', 'days must be a number'],
      [undefined, 'days must be a number'],
    ] as const) {
      const reply = await t.post('/earning/view_daily_earnings', days === undefined ? {} : { days }, {
        token: demo,
      });
      expect(reply.status, String(days)).toBe(400);
      expect(reply.body).toMatchObject({ Error: message });
      expect(
        (await t.post('/binary/view_daily_volume', days === undefined ? {} : { days }, { token: demo }))
          .status,
      ).toBe(400);
    }
    expect(t.count('transfers')).toBe(transfers);
  });
});

describe('binary.view_daily_volume', () => {
  it('answers per UTC day the binary volume table’s Volume summed by side', async () => {
    const { From, To, Days } = (
      await t.post<{ Success: Volumes }>('/binary/view_daily_volume', { days: 90 }, { token: demo })
    ).body.Success;
    const expected = new Map<string, { Left: number; Right: number }>();
    for (const row of await allRows<VolumeRow>('/binary/view_binary_transaction', demo, From, To)) {
      const day = row.DateTime.slice(0, 10);
      const sums = expected.get(day) ?? { Left: 0, Right: 0 };
      if (row.Side === '0') sums.Left += micros(row.Volume);
      else sums.Right += micros(row.Volume);
      expected.set(day, sums);
    }
    expect(expected.size).toBeGreaterThan(0);
    expect(new Map(Days.map((d) => [d.Date, { Left: micros(d.Left), Right: micros(d.Right) }]))).toEqual(
      expected,
    );
  });

  it('each binary volume row carries what its columns mean: Side is the leg its Volume reached, as the leg columns say', async () => {
    const rows = await allRows<VolumeRow & { Left_Volume: number; Right_Volume: number }>(
      '/binary/view_binary_transaction',
      demo,
      '2000-01-01',
      '2100-01-01',
    );
    expect(rows.some((row) => row.Side === '0' && row.Volume > 0)).toBe(true);
    expect(rows.some((row) => row.Side === '1' && row.Volume > 0)).toBe(true);
    for (const row of rows) {
      expect(row.Volume).toBeGreaterThan(0);
      expect([row.Left_Volume, row.Right_Volume]).toEqual(
        row.Side === '0' ? [row.Volume, 0] : [0, row.Volume],
      );
    }
  });
});

describe('rank.view_rank_progress', () => {
  it('answers the rank, the lifetime rank volumes and the qualified leaders the rank run compares', async () => {
    const reply = await t.post<{
      Success: { Rank: string; Left_Volume: number; Right_Volume: number; Qualified_Leaders: number };
    }>('/rank/view_rank_progress', {}, { token: demo });
    expect(reply.status).toBe(200);
    const id = memberIdOf(t, 'demo');
    const stats = t.services.sqlite
      .prepare('select rank, rank_left, rank_right from binary_stats where member_id = ?')
      .get(id) as { rank: string; rank_left: number; rank_right: number };
    const leaders = (
      t.services.sqlite
        .prepare(
          `select count(*) as n from members d where d.sponsor_id = ?
             and (select count(distinct c.side) from members c where c.sponsor_id = d.id) = 2`,
        )
        .get(id) as { n: number }
    ).n;
    const current = (await t.post<{ Success: { Rank: string } }>('/rank/current_rank', {}, { token: demo }))
      .body.Success.Rank;
    expect(reply.body.Success).toEqual({
      Rank: current,
      Left_Volume: stats.rank_left / 1e6,
      Right_Volume: stats.rank_right / 1e6,
      Qualified_Leaders: leaders,
    });
    expect(current).toBe(stats.rank);
  });
});
