/**
 * Tree lookups bounded by the caller. On trees thousands of levels deep: the
 * scope checks answer right (self, child, deep inside, outside, another root, unknown) against a
 * plain walk up the links; every check walks the same number of steps, whatever the target's
 * depth and whether the name exists; outside and unknown names get the same answer over HTTP;
 * the jump pointers agree wherever rows are written (placement, the scale seed, the start-up
 * backfill) and a database made by the previous main gets them on opening, keeping every row;
 * tree calls are limited per member, and one member's concurrent deep lookups leave others served.
 * Timings are in scripts/bench/tree-scope.ts, never asserted here.
 */
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { manualClock } from '../src/core/clock.ts';
import { DEMO_PASSWORD_HASH } from '../src/core/passwords.ts';
import { insertMember } from '../src/modules/auth/members.ts';
import { backfillBinaryStats } from '../src/modules/engine/stats.ts';
import { childJump, treePositions, walkStepBound } from '../src/modules/network/jumps.ts';
import { downlineCheck, PADDED_STEPS, type Tree } from '../src/modules/network/scope.ts';
import { seedScenario } from '../src/seed/index.ts';
import { createTestApp, migrationsBefore, type TestApp } from './helpers.ts';

interface Link {
  username: string;
  parent: string | null;
  side: '0' | '1' | null;
  sponsor: string | null;
}

/**
 * The test forest: `root` with a left leg `l0001`…`l3000` (depth = number), a branch `r0001`…
 * `r0500` below l2000's right, a branch `o0001`…`o3000` below l0500's right (outside l1000's
 * downline, o0500 at l1000's depth), and a second root `other` with a leg `x0001`…`x4000`. Each
 * member's sponsor is the member two above it on its chain (the branch's first two: the member it
 * hangs from), so the sponsor tree is deep too but not the binary tree: l1001 is in l1000's binary
 * downline, not in its sponsor downline; l1002 is both.
 */
function forest(): Link[] {
  const links: Link[] = [
    { username: 'root', parent: null, side: null, sponsor: null },
    { username: 'other', parent: null, side: null, sponsor: null },
  ];
  const chain = (prefix: string, count: number, from: string, firstSide: '0' | '1') => {
    const names = [from];
    for (let i = 1; i <= count; i++) {
      const username = `${prefix}${String(i).padStart(4, '0')}`;
      links.push({
        username,
        parent: names[i - 1]!,
        side: i === 1 ? firstSide : '0',
        sponsor: names[Math.max(0, i - 2)]!,
      });
      names.push(username);
    }
  };
  chain('l', 3000, 'root', '0');
  chain('r', 500, 'l2000', '1');
  chain('o', 3000, 'l0500', '1');
  chain('x', 4000, 'other', '0');
  return links;
}

/** Inserts the links the bulk way (as the scale seed or a script would: no binary_stats), then the start-up backfill. */
function insertForest(t: TestApp, links: Link[]) {
  const { sqlite } = t.services;
  const insert = sqlite.prepare(
    `insert into members (username, name, email, country, sponsor_id, parent_id, side, created_at, password_hash)
     values (@username, @username, @username || '@example.com', 'India',
       (select id from members where username = @sponsor), (select id from members where username = @parent), @side, 0, @hash)`,
  );
  sqlite.transaction(() => {
    for (const link of links) insert.run({ ...link, hash: DEMO_PASSWORD_HASH });
  })();
  backfillBinaryStats(t.services);
}

/** The plain answer: walk the links up from `member` to `root` (or past the top); the levels between, or null. */
function plainLevels(links: Map<string, Link>, tree: Tree, root: string, member: string): number | null {
  let levels = 0;
  for (
    let at: string | null = member;
    at !== null;
    at = tree === 'binary' ? links.get(at)!.parent : links.get(at)!.sponsor, levels++
  )
    if (at === root) return levels;
  return null;
}

const treeColumns = (t: TestApp) =>
  t.services.sqlite
    .prepare(
      'select member_id, depth, team_size, binary_jump_id, sponsor_depth, sponsor_jump_id from binary_stats order by member_id',
    )
    .all();

/** The table as backfillBinaryStats computes it from the links alone (one row's pointer removed forces the full pass). */
function recomputed(t: TestApp) {
  t.services.sqlite
    .prepare(
      'update binary_stats set binary_jump_id = null where member_id = (select max(member_id) from binary_stats)',
    )
    .run();
  expect(backfillBinaryStats(t.services)).toBeGreaterThan(0);
  return treeColumns(t);
}

describe('jump pointers', () => {
  it('reach any shallower depth within 3·⌈log2(depth + 1)⌉ steps (every pair to depth 2,048), so the padding covers 65,535 levels', () => {
    const MAX = 2048;
    // One chain: member d at depth d, ids d + 1.
    const depthOf = (id: number) => id - 1;
    const jump = [0, 1];
    for (let id = 2; id <= MAX + 1; id++) jump[id] = childJump(id - 1, depthOf, (m) => jump[m]!);
    for (let from = 1; from <= MAX + 1; from++) {
      for (let to = 1; to < from; to++) {
        let at = from;
        let steps = 0;
        while (depthOf(at) > depthOf(to)) {
          at = depthOf(jump[at]!) >= depthOf(to) ? jump[at]! : at - 1;
          steps++;
        }
        if (at !== to || steps > walkStepBound(depthOf(from)))
          expect({ from, to, at, steps }).toBe('within the bound');
      }
    }
    expect(PADDED_STEPS).toBe(walkStepBound(65_535));
  });

  it('give a member on a cycle of links no depth and no jump, and treat a link to no member as a root', () => {
    // 1 → 2 → 3 → 2 (a cycle), 4 below 3; 5 links to 9, which is no member; 6 below 5.
    const linkOf = Int32Array.from([0, 2, 3, 2, 3, 9, 5]);
    const isMember = Uint8Array.from([0, 1, 1, 1, 1, 1, 1]);
    const { depth, jump } = treePositions(linkOf, isMember);
    expect([...depth.slice(1)]).toEqual([-1, -1, -1, -1, 0, 1]);
    expect([...jump.slice(1)]).toEqual([0, 0, 0, 0, 5, 5]);
  });
});

describe('scope checks on trees thousands of levels deep', () => {
  let t: TestApp;
  const links = new Map(forest().map((link) => [link.username, link]));
  let idOf: (username: string) => number;
  let caller: string;
  beforeAll(async () => {
    t = await createTestApp({ seed: 'empty' });
    insertForest(t, [...links.values()]);
    const ids = new Map(
      (
        t.services.sqlite.prepare('select id, username from members').all() as {
          id: number;
          username: string;
        }[]
      ).map((r) => [r.username, r.id]),
    );
    idOf = (username) => ids.get(username)!;
    caller = await t.login('l1000');
  });
  afterAll(() => t.close());

  const check = (tree: Tree, root: string, member: string) =>
    downlineCheck(t.services, tree, idOf(root), { username: member });

  it('answers self, a child, deep inside, outside (another leg of an ancestor, shallower, same depth, another root) and unknown', () => {
    const cases: [string, boolean][] = [
      ['l1000', true],
      ['l1001', true],
      ['l3000', true],
      ['r0500', true],
      ['o0500', false],
      ['o3000', false],
      ['l0999', false],
      ['root', false],
      ['x4000', false],
      ['nobody_at_all', false],
    ];
    for (const [member, inside] of cases) {
      const levels = links.has(member) ? plainLevels(links, 'binary', 'l1000', member) : null;
      expect(check('binary', 'l1000', member), member).toEqual({
        memberId: idOf(member) ?? null,
        inside,
        levels,
        steps: PADDED_STEPS,
      });
    }
    // Names as a client sends them; by id the same.
    expect(check('binary', 'l1000', 'L3000')).toMatchObject({ inside: true, levels: 2000 });
    expect(downlineCheck(t.services, 'binary', idOf('l1000'), { id: idOf('o3000') })).toEqual(
      check('binary', 'l1000', 'o3000'),
    );
    expect(check('binary', 'l1000', 'r0500').levels).toBe(1500);
    expect(check('sponsor', 'l1000', 'l1002')).toMatchObject({ inside: true, levels: 1 });
    expect(check('sponsor', 'l1000', 'l1001').inside).toBe(false);
    expect(check('sponsor', 'l1000', 'r0500')).toMatchObject({ inside: true, levels: 500 + 250 });
  });

  it('agrees with a plain walk up the links for members everywhere, in both trees, always walking the same number of steps', () => {
    const names = [...links.keys()];
    const sample = names
      .filter((_, i) => i % 7 === 0)
      .concat(['l3000', 'o3000', 'x4000', 'r0500', 'nobody_at_all', 'nobody_else']);
    for (const root of ['root', 'l1000', 'o0500', 'l2999', 'x2000', 'r0250']) {
      for (const tree of ['binary', 'sponsor'] as const) {
        for (const member of sample) {
          const answer = check(tree, root, member);
          const levels = links.has(member) ? plainLevels(links, tree, root, member) : null;
          if (
            answer.levels !== levels ||
            answer.inside !== (levels !== null) ||
            answer.steps !== PADDED_STEPS
          ) {
            expect({ tree, root, member, answer }).toBe('the plain answer, in PADDED_STEPS steps');
          }
        }
      }
    }
  });

  const notInDownline = { status: 404, body: { Error: 'User not found in your downline' } };

  it('gives an outside member and an unknown name the same answer on every tree call', async () => {
    const ask = (path: string, username: string) => t.post(path, { username }, { token: caller });
    for (const path of ['/binary/view_binary_downline', '/binary/view_binary_downline_details']) {
      expect((await ask(path, 'l3000')).status, path).toBe(200);
      for (const outside of ['o3000', 'o0500', 'l0999', 'x4000', 'nobody_at_all'])
        expect(await ask(path, outside), `${path} ${outside}`).toMatchObject(notInDownline);
    }
    // The level chart opens members down to 4 sponsor levels: deeper ones are refused alike.
    expect((await ask('/level/view_downline', 'l1002')).status).toBe(200);
    for (const refused of ['l3000', 'l1001', 'o3000', 'nobody_at_all'])
      expect(await ask('/level/view_downline', refused), refused).toMatchObject(notInDownline);
    expect((await ask('/level/downline_exist', 'r0500')).body).toEqual({ Success: true });
    for (const outside of ['l1001', 'o3000', 'x4000', 'nobody_at_all', 'l1000'])
      expect(await ask('/level/downline_exist', outside), outside).toEqual({
        status: 200,
        body: { Success: false },
      });
  });

  it('serves another member while one member has 20 deep lookups in flight (real HTTP)', async () => {
    await t.fastify.listen({ host: '127.0.0.1', port: 0 });
    const origin = `http://127.0.0.1:${(t.fastify.server.address() as AddressInfo).port}`;
    const reader = await t.login('x0001');
    const call = async (path: string, token: string, body: object) => {
      const reply = await fetch(origin + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
      });
      return { status: reply.status, body: (await reply.json()) as unknown };
    };
    const lookups = Array.from({ length: 20 }, (_, i) =>
      call('/binary/view_binary_downline', caller, { username: i % 2 ? 'o3000' : 'l3000' }),
    );
    const reads = Array.from({ length: 10 }, () => call('/user/view_profile', reader, {}));
    const [looked, read] = await Promise.all([Promise.all(lookups), Promise.all(reads)]);
    expect(looked.map((r) => r.status)).toEqual(Array.from({ length: 20 }, (_, i) => (i % 2 ? 404 : 200)));
    expect(read.map((r) => r.status)).toEqual(Array(10).fill(200));
  });

  it('limits tree calls to 300 a minute per member: the 301st answers 429, another member is unaffected', async () => {
    const flooder = await t.login('x0002');
    const other = await t.login('x0003');
    for (let i = 1; i <= 300; i++) {
      const reply = await t.post('/binary/view_binary_downline', { username: 'x0002' }, { token: flooder });
      if (reply.status !== 200) expect({ call: i, reply }).toBe('answered');
    }
    const refused = await t.post('/binary/view_binary_downline', { username: 'x0002' }, { token: flooder });
    expect(refused).toMatchObject({
      status: 429,
      body: { Error: 'Too many requests. Please wait a minute and try again.' },
    });
    expect(
      (await t.post('/binary/view_binary_downline', { username: 'x0003' }, { token: other })).status,
    ).toBe(200);
  });
});

describe('jump pointers wherever binary_stats rows are written', () => {
  it('placement sets the same pointers, depths and team sizes as the backfill computes', async () => {
    const t = await createTestApp({ seed: 'empty' });
    insertForest(t, forest());
    const idOf = (username: string) =>
      (t.services.sqlite.prepare('select id from members where username = ?').get(username) as { id: number })
        .id;
    const join = (username: string, sponsor: string | null, side: '0' | '1') =>
      insertMember(t.services, {
        username,
        name: username,
        email: `${username}@example.com`,
        country: 'India',
        passwordHash: DEMO_PASSWORD_HASH,
        sponsorId: sponsor === null ? null : idOf(sponsor),
        side,
        createdAt: 0,
      });
    join('deep_left', 'l3000', '0');
    join('deep_right', 'o3000', '1');
    join('under_root', 'root', '1');
    join('under_new', 'deep_left', '0');
    join('new_root', null, '0');
    const placed = treeColumns(t);
    expect(recomputed(t)).toEqual(placed);
    expect(downlineCheck(t.services, 'binary', idOf('l1000'), { username: 'under_new' })).toMatchObject({
      inside: true,
      levels: 2002,
    });
    await t.close();
  });

  it('the scale seed writes the pointers the backfill computes', async () => {
    const t = await createTestApp({ seed: 'empty' });
    seedScenario(t.services, 'scale', { members: 5_000, historyDays: 0 });
    const seeded = treeColumns(t);
    expect(seeded.every((row) => (row as { binary_jump_id: number | null }).binary_jump_id !== null)).toBe(
      true,
    );
    expect(recomputed(t)).toEqual(seeded);
    await t.close();
  });
});

describe('a database made by the previous main', () => {
  it('opens, migrates, keeps every row and gets the jump pointers of both trees', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'md-tree-upgrade-'));
    try {
      // The previous main's migrations: every one before 0004 (the jump pointers).
      const {
        folder: oldMigrations,
        before: cut,
        all: allMigrations,
      } = migrationsBefore('0004_tree_jumps', dir);

      // Its database: the forest with the binary_stats the previous main kept (depth, team size,
      // volumes), and a row elsewhere.
      const path = join(dir, 'old.sqlite');
      const old = new Database(path);
      migrate(drizzle(old), { migrationsFolder: oldMigrations });
      const links = forest();
      const insertMemberRow = old.prepare(
        `insert into members (username, name, email, country, sponsor_id, parent_id, side, created_at, password_hash)
         values (@username, @username, @username || '@example.com', 'India',
           (select id from members where username = @sponsor), (select id from members where username = @parent), @side, 0, 'x')`,
      );
      // Depths and team sizes as placement kept them (the links list parents first), and some volume.
      const depth = new Map<string, number>();
      const team = new Map<string, number>(links.map((link) => [link.username, 0]));
      for (const link of links)
        depth.set(link.username, link.parent === null ? 0 : depth.get(link.parent)! + 1);
      for (const link of [...links].reverse())
        if (link.parent !== null)
          team.set(link.parent, team.get(link.parent)! + team.get(link.username)! + 1);
      const insertStats = old.prepare(
        "insert into binary_stats (member_id, depth, team_size, left_carry, rank) values ((select id from members where username = ?), ?, ?, ?, 'Starter')",
      );
      old.transaction(() => {
        for (const link of links) insertMemberRow.run(link);
        for (const [i, link] of links.entries())
          insertStats.run(link.username, depth.get(link.username), team.get(link.username), i * 1000);
      })();
      old
        .prepare(
          "insert into otps (purpose, subject, code_hash, created_at, expires_at) values ('registration', 'a@example.com', 'h', 1, 2)",
        )
        .run();
      const dump = (db: Database.Database, sql: string) => db.prepare(sql).all();
      const OLD_STATS =
        'select member_id, depth, team_size, left_carry, rank from binary_stats order by member_id';
      const before = {
        members: dump(old, 'select * from members order by id'),
        stats: dump(old, OLD_STATS),
        otps: dump(old, 'select * from otps'),
      };
      old.close();

      const app = await buildApp({ databasePath: path, seed: 'demo', clock: manualClock() });
      try {
        const db = app.services.sqlite;
        expect(app.created).toBe(false);
        // Every migration from 0004 on is applied (later ones too).
        expect(dump(db, 'select count(*) as n from __drizzle_migrations')).toEqual([{ n: allMigrations }]);
        expect(allMigrations).toBeGreaterThan(cut);
        expect({
          members: dump(db, 'select * from members order by id'),
          stats: dump(db, OLD_STATS),
          otps: dump(db, 'select * from otps'),
        }).toEqual(before);

        // Each pointer leads to the member's ancestor at the depth the rule gives for its depth.
        const rows = dump(
          db,
          'select member_id as id, depth, binary_jump_id as binaryJump, sponsor_depth as sponsorDepth, sponsor_jump_id as sponsorJump from binary_stats',
        ) as {
          id: number;
          depth: number;
          binaryJump: number;
          sponsorDepth: number;
          sponsorJump: number;
        }[];
        const jumpDepth = [0];
        for (let d = 1; d <= 5000; d++) {
          const p = d - 1;
          jumpDepth[d] =
            p - jumpDepth[p]! === jumpDepth[p]! - jumpDepth[jumpDepth[p]!]! ? jumpDepth[jumpDepth[p]!]! : p;
        }
        const memberRows = dump(db, 'select id, parent_id as parent, sponsor_id as sponsor from members') as {
          id: number;
          parent: number | null;
          sponsor: number | null;
        }[];
        const up = {
          binary: new Map(memberRows.map((m) => [m.id, m.parent])),
          sponsor: new Map(memberRows.map((m) => [m.id, m.sponsor])),
        };
        const ancestorAt = (tree: Tree, id: number, depth: number, atDepth: number) => {
          let at = id;
          for (let d = depth; d > atDepth; d--) at = up[tree].get(at)!;
          return at;
        };
        const chainLength = (tree: Tree, id: number) => {
          let n = 0;
          for (let at = up[tree].get(id); at != null; at = up[tree].get(at)) n++;
          return n;
        };
        expect(rows).toHaveLength(links.length);
        for (const row of rows) {
          const sponsorDepth = chainLength('sponsor', row.id);
          const expected = {
            id: row.id,
            depth: row.depth,
            binaryJump: ancestorAt('binary', row.id, row.depth, jumpDepth[row.depth]!),
            sponsorDepth,
            sponsorJump: ancestorAt('sponsor', row.id, sponsorDepth, jumpDepth[sponsorDepth]!),
          };
          if (JSON.stringify(row) !== JSON.stringify(expected)) expect(row).toEqual(expected);
        }
      } finally {
        await app.fastify.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
