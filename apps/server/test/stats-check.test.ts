/**
 * The start-up check of binary_stats: backfillBinaryStats answers "does any
 * member lack its tree columns?" from index probes (the partial index binary_stats_incomplete and
 * the members above meta's STATS_COMPLETE_KEY mark), not a pass over every member; and every way
 * a member can arrive without complete columns is still found: registration under a member
 * without a row, a bulk insert (above the mark, or with an explicit id in a gap below it), a
 * purchase by a member without a row, a database from before migration 0005, a scenario reset.
 * After each, the table equals what the full pass computes from the links alone.
 */
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { manualClock } from '../src/core/clock.ts';
import { DEMO_PASSWORD_HASH } from '../src/core/passwords.ts';
import { insertMember } from '../src/modules/auth/members.ts';
import { recordPurchaseVolume } from '../src/modules/engine/income.ts';
import { backfillBinaryStats, markStatsComplete, STATS_COMPLETE_KEY } from '../src/modules/engine/stats.ts';
import { ADDRESSES_CHECKSUMMED_KEY } from '../src/modules/withdrawals/checksum-fix.ts';
import { resetDatabase, seedScenario } from '../src/seed/index.ts';
import { createTestApp, migrationsBefore, type TestApp } from './helpers.ts';

const TREE_COLUMNS =
  'select member_id, depth, team_size, binary_jump_id, sponsor_depth, sponsor_jump_id from binary_stats order by member_id';

const mark = (t: TestApp) =>
  (
    t.services.sqlite.prepare('select value from meta where key = ?').get(STATS_COMPLETE_KEY) as
      { value: string } | undefined
  )?.value;
const lastId = (t: TestApp) =>
  (t.services.sqlite.prepare('select max(id) as id from members').get() as { id: number }).id;

/** The check as it was before the index probes: every member joined to its row. */
const missingByFullPass = (sqlite: Database.Database) =>
  (
    sqlite
      .prepare(
        `select count(*) as n from members m left join binary_stats b on b.member_id = m.id
         where b.member_id is null or b.depth < 0 or b.binary_jump_id is null or b.sponsor_jump_id is null`,
      )
      .get() as { n: number }
  ).n;

/** The tree columns as the full pass computes them from the links alone (the mark withdrawn and one row's pointer removed force it). */
function recomputed(t: TestApp) {
  const { sqlite } = t.services;
  const saved = sqlite.prepare(TREE_COLUMNS).all();
  sqlite.prepare('delete from meta where key = ?').run(STATS_COMPLETE_KEY);
  sqlite
    .prepare(
      'update binary_stats set binary_jump_id = null where member_id = (select min(member_id) from binary_stats)',
    )
    .run();
  expect(backfillBinaryStats(t.services)).toBe(1);
  return { saved, recomputed: sqlite.prepare(TREE_COLUMNS).all() };
}

const bulkInsert = (
  t: TestApp,
  rows: {
    id?: number;
    username: string;
    sponsor: number | null;
    parent: number | null;
    side: '0' | '1' | null;
  }[],
) => {
  const insert = t.services.sqlite.prepare(
    `insert into members (id, username, name, email, country, sponsor_id, parent_id, side, created_at, password_hash)
     values (@id, @username, @username, @username || '@example.com', 'India', @sponsor, @parent, @side, 0, @hash)`,
  );
  t.services.sqlite.transaction(() => {
    for (const row of rows) insert.run({ id: null, ...row, hash: DEMO_PASSWORD_HASH });
  })();
};

const register = (t: TestApp, username: string, sponsorId: number | null, side: '0' | '1') =>
  insertMember(t.services, {
    username,
    name: username,
    email: `${username}@example.com`,
    country: 'India',
    passwordHash: DEMO_PASSWORD_HASH,
    sponsorId,
    side,
    createdAt: 0,
  });

describe('the start-up check of binary_stats', () => {
  it('reads index entries only: the partial index for rows to compute, the members past the mark by their key', async () => {
    const t = await createTestApp({ seed: 'demo' });
    const plan = (sql: string) =>
      (t.services.sqlite.prepare(`explain query plan ${sql}`).all() as { detail: string }[])
        .map((r) => r.detail)
        .join(' | ');
    expect(
      plan(
        'select count(*) as n from binary_stats where depth < 0 or binary_jump_id is null or sponsor_jump_id is null',
      ),
    ).toMatch(/^SCAN binary_stats USING (COVERING )?INDEX binary_stats_incomplete$/);
    expect(plan('select coalesce(max(id), 0) as id from members')).toMatch(/^SEARCH members/);
    expect(
      plan(
        'select count(*) as n from members m where m.id > 5 and not exists (select 1 from binary_stats b where b.member_id = m.id)',
      ),
    ).toMatch(
      /SEARCH m USING INTEGER PRIMARY KEY \(rowid>\?\).*SEARCH b USING INTEGER PRIMARY KEY \(rowid=\?\)/,
    );
    // A new database is marked complete up to its last member by the seed, so a start finds nothing to do.
    expect(mark(t)).toBe(String(lastId(t)));
    expect(backfillBinaryStats(t.services)).toBe(0);
    // A member below the mark whose row goes missing by hand is not looked for: the check does not
    // walk the members it has already seen (what keeps it O(1) at 1,000,000 members).
    const victim = t.services.sqlite
      .prepare("select id from members where username = 'allene_029'")
      .get() as { id: number };
    t.services.sqlite.prepare('delete from binary_stats where member_id = ?').run(victim.id);
    expect(backfillBinaryStats(t.services)).toBe(0);
    expect(missingByFullPass(t.services.sqlite)).toBe(1);
    await t.close();
  });

  it('finds members of every insert path, fills them as the full pass would, and moves the mark to the last member', async () => {
    const t = await createTestApp({ seed: 'empty' });
    const { sqlite } = t.services;
    const root = register(t, 'root', null, '0');
    expect(backfillBinaryStats(t.services)).toBe(0);
    expect(mark(t)).toBe(String(root.id));

    // Registration under a complete tree: a complete row, nothing to fill; the mark follows.
    const a = register(t, 'reg_a', root.id, '0');
    register(t, 'reg_b', a.id, '1');
    expect(backfillBinaryStats(t.services)).toBe(0);
    expect(mark(t)).toBe(String(lastId(t)));

    // A bulk insert without rows: ids above the mark.
    bulkInsert(t, [
      { username: 'bulk_1', sponsor: root.id, parent: root.id, side: '1' },
      { username: 'bulk_2', sponsor: root.id, parent: lastId(t) + 1, side: '1' },
    ]);
    expect(missingByFullPass(sqlite)).toBe(2);
    expect(backfillBinaryStats(t.services)).toBe(2);
    expect(missingByFullPass(sqlite)).toBe(0);
    expect(mark(t)).toBe(String(lastId(t)));

    // Registration under a bulk-inserted parent that has no row yet: placement writes depth -1.
    bulkInsert(t, [{ username: 'bulk_3', sponsor: a.id, parent: a.id, side: '0' }]);
    const bulk3 = lastId(t);
    register(t, 'reg_under_bulk', bulk3, '0');
    expect(missingByFullPass(sqlite)).toBe(2);
    expect(backfillBinaryStats(t.services)).toBe(2);
    expect(missingByFullPass(sqlite)).toBe(0);

    // A bulk insert with an explicit id in a gap below the mark: the trigger withdraws the mark.
    sqlite.prepare('delete from members where id = ?').run(bulk3 - 1); // frees an id (bulk_2 had no children)
    sqlite.prepare('delete from binary_stats where member_id = ?').run(bulk3 - 1);
    expect(backfillBinaryStats(t.services)).toBe(0);
    expect(mark(t)).toBe(String(lastId(t)));
    bulkInsert(t, [{ id: bulk3 - 1, username: 'gap', sponsor: root.id, parent: bulk3 - 2, side: '1' }]);
    expect(mark(t)).toBeUndefined();
    expect(backfillBinaryStats(t.services)).toBe(1);
    expect(missingByFullPass(sqlite)).toBe(0);
    expect(mark(t)).toBe(String(lastId(t)));

    // A purchase by a member without a row inserts one with depth -1; found whatever the mark says.
    bulkInsert(t, [{ username: 'buyer', sponsor: root.id, parent: bulk3 - 1, side: '1' }]);
    const buyer = lastId(t);
    sqlite.transaction(() => {
      markStatsComplete(t.services, buyer); // a wrong mark: only the row's own state can tell
      recordPurchaseVolume(t.services, {
        memberId: buyer,
        buyerUsername: 'buyer',
        transId: 'PK1',
        amount: 1,
        binaryVolume: 5,
        rankVolume: 5,
        at: 0,
      });
    })();
    expect(backfillBinaryStats(t.services)).toBe(1);
    expect(missingByFullPass(sqlite)).toBe(0);
    expect(
      sqlite.prepare('select own_binary_pending as v from binary_stats where member_id = ?').get(buyer),
    ).toEqual({ v: 5 });

    // What the check left is what the full pass computes from the links.
    const { saved, recomputed: again } = recomputed(t);
    expect(again).toEqual(saved);
    await t.close();
  });

  it('a scenario reset leaves the mark at its last member, and the full pass agrees there is nothing missing', async () => {
    const t = await createTestApp({ seed: 'demo' });
    for (const scenario of ['scale', 'demo', 'empty'] as const) {
      if (scenario === 'scale') {
        resetDatabase(t.services, 'empty');
        seedScenario(t.services, 'scale', { members: 2_000, historyDays: 0 }); // the QA reset's default is 100,000
      } else resetDatabase(t.services, scenario);
      expect(mark(t), scenario).toBe(String(lastId(t) ?? 0));
      expect(missingByFullPass(t.services.sqlite), scenario).toBe(0);
      expect(backfillBinaryStats(t.services), scenario).toBe(0);
    }
    await t.close();
  });
});

describe('a database made before migration 0005', () => {
  it('opens, migrates, keeps every row, and its first check looks at every member once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'md-stats-upgrade-'));
    try {
      const { folder: oldMigrations, all } = migrationsBefore('0005_stats_complete', dir);

      // The previous main's database: a small tree with complete rows, volumes, a meta row, and
      // one member low in the ids without a row (what the old full check would have found).
      const path = join(dir, 'old.sqlite');
      const old = new Database(path);
      migrate(drizzle(old), { migrationsFolder: oldMigrations });
      const insertMember = old.prepare(
        `insert into members (id, username, name, email, country, sponsor_id, parent_id, side, created_at, password_hash) values (?, ?, ?, ?, 'India', ?, ?, ?, 0, 'x')`,
      );
      const insertStats = old.prepare(
        'insert into binary_stats (member_id, depth, team_size, binary_jump_id, sponsor_depth, sponsor_jump_id, left_carry) values (?, ?, ?, ?, ?, ?, ?)',
      );
      old.transaction(() => {
        // 1 ← 2 ← 3 ← 4 down the left leg; 5 on 1's right, without a row.
        insertMember.run(1, 'root', 'root', 'root@example.com', null, null, null);
        for (let id = 2; id <= 4; id++)
          insertMember.run(id, `m${id}`, `m${id}`, `m${id}@example.com`, id - 1, id - 1, '0');
        insertMember.run(5, 'm5', 'm5', 'm5@example.com', 1, 1, '1');
        insertStats.run(1, 0, 3, 1, 0, 1, 7_000); // team size as it stood before m5 arrived in bulk
        insertStats.run(2, 1, 2, 1, 1, 1, 8_000);
        insertStats.run(3, 2, 1, 2, 2, 2, 9_000);
        insertStats.run(4, 3, 0, 1, 3, 1, 0);
        old.prepare("insert into meta (key, value) values ('scenario', 'demo')").run();
      })();
      const dump = (db: Database.Database) => ({
        members: db.prepare('select * from members order by id').all(),
        volumes: db.prepare('select member_id, left_carry from binary_stats order by member_id').all(),
        // Every row but the start-up checks' own marks.
        meta: db
          .prepare('select * from meta where key not in (?, ?) order by key')
          .all(STATS_COMPLETE_KEY, ADDRESSES_CHECKSUMMED_KEY),
      });
      const before = dump(old);
      expect(missingByFullPass(old)).toBe(1);
      old.close();

      const app = await buildApp({ databasePath: path, seed: 'demo', clock: manualClock() });
      try {
        const db = app.services.sqlite;
        expect(app.created).toBe(false);
        expect((db.prepare('select count(*) as n from __drizzle_migrations').get() as { n: number }).n).toBe(
          all,
        );
        expect(dump(db)).toEqual({
          ...before,
          volumes: [...before.volumes, { member_id: 5, left_carry: 0 }],
        });
        expect(missingByFullPass(db)).toBe(0);
        expect(db.prepare('select team_size from binary_stats where member_id = 1').get()).toEqual({
          team_size: 4,
        });
        expect(db.prepare('select value from meta where key = ?').get(STATS_COMPLETE_KEY)).toEqual({
          value: '5',
        });
        expect(
          db
            .prepare(
              "select name from sqlite_master where name in ('binary_stats_incomplete', 'members_stats_unchecked') order by name",
            )
            .all(),
        ).toEqual([{ name: 'binary_stats_incomplete' }, { name: 'members_stats_unchecked' }]);
      } finally {
        await app.fastify.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
