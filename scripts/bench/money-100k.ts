/**
 * Money on a big database: the time of a package purchase and of each paged table's first page
 * (list and total) with 100,000 members, every one of whom has a paid deposit and half of whom
 * bought a package; the measured member has 1,000 rows in every table.
 *   node --import tsx scripts/bench/money-100k.ts [--members 100000] [--runs 30]
 * Figures are medians over the runs, measured through HTTP (fastify.inject) as a client sees them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contract, procedureNames } from '@md/shared';
import { buildApp } from '../../apps/server/src/app.ts';
import { DEMO_PASSWORD, DEMO_PASSWORD_HASH } from '../../apps/server/src/core/passwords.ts';
import { openDeposit, payDeposit } from '../../apps/server/src/modules/deposits/deposits.ts';
import { buyPackage } from '../../apps/server/src/modules/packages/packages.ts';
import { addEngineRows, addMoneyRows } from './fixtures.ts';
import { median, numberArg } from './cli.ts';

const MEMBERS = numberArg('members', 100_000);
const RUNS = numberArg('runs', 30);
const HEAVY_ROWS = 1_000;

const dir = mkdtempSync(join(tmpdir(), 'md-bench-money-'));
const app = await buildApp({
  databasePath: join(dir, 'bench.sqlite'),
  seed: 'empty',
  config: { rateLimits: false, validateOutput: false },
});
const { services, fastify } = app;
const db = services.sqlite;

// ---- data ----
let started = performance.now();
let seed = 42;
const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
const now = services.clock.now();
const insertMember = db.prepare(
  `insert into members (id, username, name, email, country, sponsor_id, parent_id, side, created_at, password_hash)
   values (?, ?, ?, ?, 'India', ?, ?, ?, ?, ?)`,
);
db.transaction(() => {
  for (let i = 1; i <= MEMBERS; i++) {
    const username = i === 1 ? 'root' : `m${String(i).padStart(6, '0')}`;
    const sponsor = i === 1 ? null : 1 + Math.floor(random() * (i - 1));
    // Heap layout for the binary tree: a valid, balanced placement is enough here.
    const parent = i === 1 ? null : Math.floor(i / 2);
    const side = i === 1 ? null : i % 2 === 0 ? '0' : '1';
    insertMember.run(
      i,
      username,
      username,
      `${username}@example.com`,
      sponsor,
      parent,
      side,
      now - (MEMBERS - i) * 60_000,
      DEMO_PASSWORD_HASH,
    );
  }
})();
const membersMs = performance.now() - started;

started = performance.now();
const day = 86_400_000;
db.transaction(() => {
  for (let i = 1; i <= MEMBERS; i++) {
    const at = now - 30 * day + Math.floor(random() * 29 * day);
    const deposit = openDeposit(services, i, 2_000_000_000, 'USDT.BEP20', at);
    payDeposit(services, deposit.transId, undefined, at + 60_000);
    if (i % 2 === 0) buyPackage(services, i, 'Starter', at + 120_000);
  }
  // The measured member: HEAVY_ROWS rows in every table; everyone else two of each engine row.
  addMoneyRows(services, 1, HEAVY_ROWS, now);
  for (let i = 1; i <= MEMBERS; i++) addEngineRows(services, i, i === 1 ? HEAVY_ROWS : 2, MEMBERS, now);
})();
const moneyMs = performance.now() - started;
const counts = db
  .prepare(
    'select (select count(*) from transfers) as transfers, (select count(*) from subscriptions) as subscriptions, (select count(*) from deposits) as deposits',
  )
  .get();
console.log(
  `data: ${MEMBERS} members in ${Math.round(membersMs)} ms; money and engine rows in ${Math.round(moneyMs)} ms; ${JSON.stringify(counts)}`,
);

// ---- measurements ----
const login = async (username: string) => {
  const reply = await fastify.inject({
    method: 'POST',
    url: '/user/login',
    payload: { username, password: DEMO_PASSWORD },
  });
  return reply.json().JWT as string;
};
const post = (url: string, token: string, payload: unknown) =>
  fastify.inject({
    method: 'POST',
    url,
    headers: { authorization: `Bearer ${token}` },
    payload: payload as object,
  });

async function timed(run: () => Promise<{ statusCode: number }>) {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    const reply = await run();
    times.push(performance.now() - t0);
    if (reply.statusCode !== 200) throw new Error(`answered ${reply.statusCode}`);
  }
  return median(times);
}

const purchaseTimes: number[] = [];
for (let i = 0; i < RUNS; i++) {
  const username = `m${String(MEMBERS - 2 * i).padStart(6, '0')}`;
  const token = await login(username);
  const t0 = performance.now();
  const reply = await post('/subscription/buy_subscription_packages', token, { plan: 'Starter' });
  purchaseTimes.push(performance.now() - t0);
  if (reply.statusCode !== 200) throw new Error(`purchase answered ${reply.statusCode}: ${reply.body}`);
}
console.log(
  `purchase (HTTP, one member of ${MEMBERS}): median ${median(purchaseTimes).toFixed(2)} ms over ${RUNS} runs`,
);

const rootToken = await login('root');
const tableNames = procedureNames.filter(
  (name) => contract[name].input === contract['table.view_deposit_transaction'].input,
);
for (const name of tableNames) {
  const ms = await timed(() => post(contract[name].path, rootToken, { pageNo: 1, pageSize: 10 }));
  console.log(`${contract[name].path.padEnd(58)} first page: median ${ms.toFixed(2)} ms`);
}

await fastify.close();
rmSync(dir, { recursive: true, force: true });
