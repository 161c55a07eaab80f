/**
 * The paged tables without the read cache: per table, the first page (with its JSON, as it is sent:
 * rows that carry their text are sent as stored) and the page count (plain, and with a search) as
 * the handlers compute them, in ms (median over --runs), for `demo`
 * with --rows rows in every table and for a member with --heavy rows of earning history and of the
 * daily runs' tables; the earning history's previous query (a 3-way UNION over transfers) is timed
 * beside it on the same data.
 *   node --import tsx scripts/bench/table-pages.ts [--members 100000 | --db FILE] [--rows 1000] [--heavy 200000] [--runs 30]
 * `--db FILE`: a copy of a database from `scripts/seed.ts --scenario scale` (a database of the
 * previous main migrates on the copy: the time it takes is printed); otherwise the `scale`
 * scenario is seeded with --members members. Prints the load average beside the figures.
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../../apps/server/src/app.ts';
import { serializeAnswer } from '../../apps/server/src/core/answer-json.ts';
import type { AuthedCtx } from '../../apps/server/src/core/services.ts';
import {
  creditFromSystem,
  moneyTransaction,
  type SystemCredit,
} from '../../apps/server/src/modules/ledger/ledger.ts';
import { tableHandlers } from '../../apps/server/src/modules/tables/handlers.ts';
import { earningSource } from '../../apps/server/src/modules/tables/sources.ts';
import { seedScenario } from '../../apps/server/src/seed/index.ts';
import { median, numberArg, stringArg } from './cli.ts';
import { addEngineRows, addMoneyRows } from './fixtures.ts';

const MEMBERS = numberArg('members', 100_000);
const ROWS = numberArg('rows', 1_000);
const HEAVY = numberArg('heavy', 200_000);
const RUNS = numberArg('runs', 30);
const source = stringArg('db');
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

const dir = mkdtempSync(join(tmpdir(), 'md-bench-tables-'));
try {
  const path = join(dir, 'tables.sqlite');
  if (source) copyFileSync(source, path);
  let t0 = performance.now();
  const { services } = await buildApp({
    databasePath: path,
    seed: 'empty',
    config: { rateLimits: false, validateOutput: false },
  });
  const db = services.sqlite;
  if (source)
    console.log(`opened ${source} (migrations included): ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  else {
    t0 = performance.now();
    seedScenario(services, 'scale', { members: MEMBERS, historyDays: 0 });
    console.log(`seeded ${MEMBERS} members: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
  const members = (db.prepare('select count(*) as n from members').get() as { n: number }).n;
  const idOf = (username: string) =>
    (db.prepare('select id from members where username = ?').get(username) as { id: number }).id;
  const demo = idOf('demo');
  // The heavy member: the last one (a leaf of the scale scenario).
  const heavy = (db.prepare('select max(id) as id from members').get() as { id: number }).id;

  t0 = performance.now();
  db.transaction(() => {
    addMoneyRows(services, demo, ROWS);
    addEngineRows(services, demo, ROWS, members);
  })();
  const at = services.clock.now();
  moneyTransaction(services, () => {
    const credits: SystemCredit[] = [];
    for (let k = 0; k < HEAVY; k++)
      credits.push({
        transId: `HV${k}`,
        memberId: heavy,
        wallet: 'ROI',
        amount: 1_000_000,
        reason: 'roi',
        at: at - (HEAVY - k) * 1_000,
      });
    creditFromSystem(services, 'payouts', credits);
    addEngineRows(services, heavy, HEAVY, members, at);
  });
  console.log(
    `rows added (demo ${ROWS} per table, member ${heavy} ${HEAVY} per table): ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  db.pragma('optimize');

  const time = (run: () => unknown) => {
    run(); // prepared once, as a running server has
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const start = performance.now();
      run();
      times.push(performance.now() - start);
    }
    return median(times);
  };
  const ctxOf = (id: number) => ({ ...services, member: { id } }) as unknown as AuthedCtx;
  const call = (name: string, id: number, query: object) => () =>
    (tableHandlers as Record<string, (ctx: AuthedCtx, input: object) => unknown>)[name]!(ctxOf(id), {
      pageNo: 1,
      pageSize: 10,
      ...query,
    });

  const TABLES: [string, string, string, string][] = [
    ['deposits', 'table.view_deposit_transaction', 'table.total_pagination_deposit_transaction', 'PAID'],
    [
      'subscriptions',
      'subscription.subscription_transaction',
      'subscription.total_pagination_subscription_transaction',
      'Starter',
    ],
    [
      'earning history',
      'earning.view_all_earning_history',
      'earning.total_pagination_earning_history',
      'roi',
    ],
    ['level earnings', 'level.level_earning_transaction', 'level.total_pagination_level_earning', 'PK1'],
    ['rank volumes', 'rank.view_rank_qualification', 'rank.total_pagination_rank_qualification', 'PK1'],
    ['binary volumes', 'binary.view_binary_transaction', 'binary.total_pagination_binary_transaction', 'PK1'],
    ['rank rewards', 'rank.view_rank_transaction', 'rank.total_pagination_rank_transaction', 'Rank 1'],
  ];
  // The earning history's query before migration 0008, on the same data.
  const previousFrom = `transfers t join accounts fa on fa.id = t.from_account_id join accounts ta on ta.id = t.to_account_id
    left join members fm on fm.id = fa.member_id left join members tm on tm.id = ta.member_id
    left join members cp on cp.id = t.counterparty_member_id left join withdrawals w on w.trans_id = t.trans_id`;
  const previousNewest = `t.id in (
      select id from (select id from transfers where from_account_id in (select id from accounts where member_id = @member) order by created_at desc, id desc limit 10)
      union select id from (select id from transfers where to_account_id in (select id from accounts where member_id = @member) order by created_at desc, id desc limit 10)
      union select id from (select id from transfers where member_id = @member order by created_at desc, id desc limit 10))`;
  const previousScope = `t.id in (select id from transfers where from_account_id in (select id from accounts where member_id = @member)
      union select id from transfers where to_account_id in (select id from accounts where member_id = @member) union select id from transfers where member_id = @member)`;
  const previousPage = db
    .prepare(
      `select ${earningSource.columns.select} from ${previousFrom} where ${previousNewest} order by t.created_at desc, t.id desc limit 10`,
    )
    .raw(true);
  const previousCount = db.prepare(`select count(*) from ${previousFrom} where ${previousScope}`);

  console.log(`\n${members} members; ms per call, median of ${RUNS} (load average ${load()})`);
  for (const [label, id, rows] of [
    ['demo', demo, ROWS],
    [`member ${heavy}`, heavy, HEAVY],
  ] as const) {
    console.log(`\n${label} (${rows} rows per table)`.padEnd(44) + 'first page   count   count (search)');
    for (const [table, page, count, search] of TABLES) {
      const firstPage = call(page, id, {});
      const first = time(() => serializeAnswer(firstPage()));
      const plain = time(call(count, id, {}));
      const searched = time(call(count, id, { search: [search] }));
      console.log(
        `  ${table.padEnd(40)} ${first.toFixed(3).padStart(8)} ${plain.toFixed(3).padStart(8)} ${searched.toFixed(3).padStart(10)}`,
      );
    }
    const before = [
      time(() =>
        JSON.stringify({
          Success: (previousPage.all({ member: id }) as unknown[][]).map((row) => earningSource.toRow(row)),
        }),
      ),
      time(() => previousCount.get({ member: id })),
    ];
    console.log(
      `  ${'earning history, previous query'.padEnd(40)} ${before[0]!.toFixed(3).padStart(8)} ${before[1]!.toFixed(3).padStart(8)}`,
    );
  }
  console.log(`\n(load average at the end ${load()})`);
  db.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
