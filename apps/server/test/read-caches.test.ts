/**
 * The read caches of the hot endpoints answer what the database holds: the wallets answer and
 * the answers of the pure reads (tables, profile) are recomputed after a write by this connection
 * or a commit by another, nothing read inside a transaction that was rolled back is kept, and
 * the wallets follow the month.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { manualClock } from '../src/core/clock.ts';
import { DEMO_PASSWORD_HASH } from '../src/core/passwords.ts';
import {
  createReadCache,
  dropAllReadCaches,
  setForeignCheckMs,
  watchCommitCounter,
} from '../src/core/read-cache.ts';
import { DEPOSIT_WINDOW_MS, openDeposit } from '../src/modules/deposits/deposits.ts';
import { moneyTransaction, transfer, walletFigures } from '../src/modules/ledger/ledger.ts';
import { notify } from '../src/modules/notifications/notify.ts';
import { createTestApp, type TestApp } from './helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'md-read-caches-'));
const apps: TestApp[] = [];
afterAll(async () => {
  for (const app of apps) await app.close();
  rmSync(dir, { recursive: true, force: true });
});

async function appWithMember(databasePath = ':memory:') {
  // Mid-month, so a month later is the next month whatever the day.
  const t = await createTestApp({
    seed: 'empty',
    databasePath,
    clock: manualClock(Date.UTC(2026, 9, 15, 12)),
  });
  apps.push(t);
  const id = Number(
    t.services.sqlite
      .prepare(
        `insert into members (username, name, email, country, created_at, password_hash) values ('cache_me', 'Cache Me', 'c@example.com', 'India', 0, ?) returning id`,
      )
      .pluck()
      .get(DEMO_PASSWORD_HASH),
  );
  return { t, id, token: await t.login('cache_me') };
}

const credit = (t: TestApp, id: number, micros: number) =>
  moneyTransaction(t.services, () =>
    transfer(t.services, [
      {
        transId: `T${Math.random()}`,
        from: { system: 'payouts' },
        to: { member: id, wallet: 'ROI' },
        amount: micros,
        reason: 'roi',
        memberId: id,
      },
    ]),
  );

type Wallets = {
  Success: Record<string, { Available: number; Total: number; This_Month: number; Last_Month: number }>;
};
const roi = async (t: TestApp, token: string) =>
  (await t.post<Wallets>('/wallet/view_all_wallets_details', {}, { token })).body.Success.ROI!;

describe('wallets answer cache', () => {
  it('is recomputed after a write by this connection', async () => {
    const { t, id, token } = await appWithMember();
    credit(t, id, 5_000_000);
    expect(await roi(t, token)).toMatchObject({ Available: 5, Total: 5, This_Month: 5, Last_Month: 0 });
    expect(await roi(t, token)).toMatchObject({ Available: 5 });
    credit(t, id, 1_000_000);
    expect(await roi(t, token)).toMatchObject({ Available: 6, Total: 6, This_Month: 6, Last_Month: 0 });
  });

  it('never keeps an answer read inside a transaction that was rolled back', async () => {
    const { t, id } = await appWithMember();
    credit(t, id, 5_000_000);
    const cache = createReadCache<number>(10);
    const read = () =>
      cache.get(t.services.sqlite, id, 'roi', () => walletFigures(t.services, id).ROI.balance);
    expect(read()).toBe(5_000_000);
    expect(() =>
      t.services.sqlite.transaction(() => {
        transfer(t.services, [
          {
            transId: 'ROLLED',
            from: { system: 'payouts' },
            to: { member: id, wallet: 'ROI' },
            amount: 7_000_000,
            reason: 'roi',
            memberId: id,
          },
        ]);
        expect(read()).toBe(12_000_000);
        throw new Error('roll back');
      })(),
    ).toThrow('roll back');
    expect(read()).toBe(5_000_000);
  });

  it("is recomputed after another connection's commit", async () => {
    const { t, id, token } = await appWithMember(join(dir, 'shared.sqlite'));
    // Another process's commits are seen through data_version, read at most every
    // FOREIGN_CHECK_MS; here on every get, so the test needs no waiting.
    setForeignCheckMs(t.services.sqlite, 0);
    credit(t, id, 5_000_000);
    expect((await roi(t, token)).Available).toBe(5);
    const other = new Database(join(dir, 'shared.sqlite'));
    other
      .prepare("update accounts set balance = balance + 10000 where member_id = ? and wallet = 'ROI'")
      .run(id);
    other.close();
    expect((await roi(t, token)).Available).toBe(5.01);
  });

  it("a visit expires the caller's overdue deposits (looked for before the update)", async () => {
    const { t, id, token } = await appWithMember();
    expect(await roi(t, token)).toMatchObject({ Available: 0 });
    const mine = openDeposit(t.services, id, 10_000_000, 'USDT.BEP20');
    const status = () =>
      t.services.sqlite.prepare('select status from deposits where id = ?').pluck().get(mine.id);
    await roi(t, token);
    expect(status()).toBe('PENDING');
    t.clock.advance(DEPOSIT_WINDOW_MS + 1000);
    await roi(t, token);
    expect(status()).toBe('EXPIRED');
  });

  it('follows the month', async () => {
    const { t, id, token } = await appWithMember();
    credit(t, id, 5_000_000);
    expect(await roi(t, token)).toMatchObject({ This_Month: 5, Last_Month: 0 });
    t.clock.advance(31 * 86_400_000);
    // A month later the token has expired too: sign in again.
    expect(await roi(t, await t.login('cache_me'))).toMatchObject({ Total: 5, This_Month: 0, Last_Month: 5 });
  });
});

describe('answers of the pure reads', () => {
  it('a table page and the profile change with the next write, on REST and tRPC alike', async () => {
    const { t, id, token } = await appWithMember();
    const page = () =>
      t.post<{ Success: { TransID: string }[] }>(
        '/level/level_earning_transaction',
        { pageNo: 1, pageSize: 10 },
        { token },
      );
    const insert = t.services.sqlite.prepare(
      `insert into level_incomes (trans_id, member_id, from_member_id, subscription_trans_id, level, percentage, subs_amount, expected_amount, received_amount, created_at)
       values (?, ?, ?, 'S', 1, 100, 1, 1, 1, ?)`,
    );
    insert.run('LV-A', id, id, 1);
    expect((await page()).body.Success.map((r) => r.TransID)).toEqual(['LV-A']);
    expect((await page()).body.Success.map((r) => r.TransID)).toEqual(['LV-A']);
    insert.run('LV-B', id, id, 2);
    expect((await page()).body.Success.map((r) => r.TransID)).toEqual(['LV-B', 'LV-A']);
    const viaTrpc = await t.trpc(
      'level.level_earning_transaction',
      'query',
      { pageNo: 1, pageSize: 10 },
      token,
    );
    expect(
      (viaTrpc.body as { result: { data: { Success: { TransID: string }[] } } }).result.data.Success.map(
        (r) => r.TransID,
      ),
    ).toEqual(['LV-B', 'LV-A']);

    const profile = async () =>
      (await t.post<{ Success: [{ Name: string }] }>('/user/view_profile', {}, { token })).body.Success[0]
        .Name;
    expect(await profile()).toBe('Cache Me');
    t.services.sqlite.prepare("update members set name = 'Renamed' where id = ?").run(id);
    expect(await profile()).toBe('Renamed');
  });

  it('the notices and their count change with a notice alone, and with a daily ROI payout (its credit)', async () => {
    const { t, id, token } = await appWithMember();
    const notices = async () => ({
      listed: (
        await t.post<{ Success: { Type: string; Message: string }[] }>(
          '/notification/view_notification',
          {},
          { token },
        )
      ).body.Success.map((n) => n.Type),
      total: (await t.post<{ Success: number }>('/notification/total_view_notification', { token })).body
        .Success,
    });
    expect(await notices()).toEqual({ listed: [], total: 0 });
    expect(await notices()).toEqual({ listed: [], total: 0 });
    // A notice with no other write for the member (as the seeds and declared states write them).
    notify(t.services, id, 'Welcome', 'Welcome, Cache Me!');
    expect(await notices()).toEqual({ listed: ['Welcome'], total: 1 });
    // An ROI payout's notice is its credit.
    t.clock.set(t.clock.now() + 1000);
    moneyTransaction(t.services, () =>
      transfer(t.services, [
        {
          transId: `ROI20261015M${id}`,
          from: { system: 'payouts' },
          to: { member: id, wallet: 'ROI' },
          amount: 15_000_000,
          reason: 'roi',
          memberId: id,
        },
      ]),
    );
    expect(await notices()).toEqual({ listed: ['ROI_Income', 'Welcome'], total: 2 });
  });

  it('keys answers by member and input, not by token', async () => {
    const { t, id } = await appWithMember();
    const db = t.services.sqlite;
    db.prepare(
      `insert into members (username, name, email, country, created_at, password_hash) values ('cache_other', 'O', 'o@example.com', 'India', 0, ?)`,
    ).run(DEMO_PASSWORD_HASH);
    const insert = db.prepare(
      `insert into level_incomes (trans_id, member_id, from_member_id, subscription_trans_id, level, percentage, subs_amount, expected_amount, received_amount, created_at)
       values (?, ?, ?, 'S', 1, 100, 1, 1, 1, ?)`,
    );
    for (let i = 0; i < 3; i++) insert.run(`LV-${i}`, id, id, i);
    const [first, second, other] = [
      await t.login('cache_me'),
      await t.login('cache_me'),
      await t.login('cache_other'),
    ];
    const list = async (token: string, pageSize: number) =>
      (
        await t.post<{ Success: unknown[] }>(
          '/level/level_earning_transaction',
          { jwt: token, pageNo: 1, pageSize },
          {},
        )
      ).body.Success.length;
    expect(await list(first, 10)).toBe(3);
    expect(await list(second, 10)).toBe(3);
    expect(await list(second, 2)).toBe(2);
    expect(await list(first, 1)).toBe(1);
    // Another member asking the same page gets its own (empty) one.
    expect(await list(other, 10)).toBe(0);
  });
});

/** A cache of `size` answers whose computations are counted, per member. */
const counted = (size = 100) => {
  const computed: number[] = [];
  const cache = createReadCache<number>(size);
  return {
    computed,
    cache,
    get: (t: TestApp, member: number) =>
      cache.get(t.services.sqlite, member, 'k', () => (computed.push(member), member)),
  };
};

describe('when full', () => {
  it('drops the least recently read members first, and a member filling it alone loses its oldest answers', async () => {
    const { t } = await appWithMember();
    const computed: string[] = [];
    const cache = createReadCache<string>(4);
    const get = (member: number, key: string) =>
      cache.get(t.services.sqlite, member, key, () => (computed.push(`${member}:${key}`), key));
    get(1, 'a');
    get(2, 'a');
    get(3, 'a');
    get(1, 'a'); // a hit: member 1 is now the most recently read
    get(4, 'a'); // four answers: full
    get(5, 'a'); // member 2 (least recently read) goes
    computed.length = 0;
    for (const member of [1, 3, 4, 5]) get(member, 'a');
    expect(computed).toEqual([]);
    get(2, 'a');
    expect(computed).toEqual(['2:a']);
    // One member's pages alone: it keeps the newest four.
    computed.length = 0;
    for (const key of ['p1', 'p2', 'p3', 'p4', 'p5']) get(9, key);
    for (const key of ['p2', 'p3', 'p4', 'p5']) get(9, key);
    expect(computed).toEqual(['9:p1', '9:p2', '9:p3', '9:p4', '9:p5']);
    get(9, 'p1');
    expect(computed.at(-1)).toBe('9:p1');
  });

  it('keeps a member read between every other member’s first read, and drops the others oldest first', async () => {
    const { t } = await appWithMember();
    const { computed, get: read } = counted(100);
    const get = (member: number) => read(t, member);
    // 300 members each read once, member 1 read again after each: a hit moves a member back only
    // once it is out of the newest half (a Map's delete and set of a last key costs O(size)).
    for (let member = 2; member <= 301; member++) {
      get(member);
      get(1);
    }
    // Member 1 computed once, after member 2; every other member once.
    expect(computed).toEqual([2, 1, ...Array.from({ length: 299 }, (_, i) => i + 3)]);
    computed.length = 0;
    get(1);
    // The newest 99 others are kept; every older one was dropped.
    for (let member = 301; member >= 203; member--) get(member);
    expect(computed).toEqual([]);
    get(202);
    expect(computed).toEqual([202]);
  });

  it('goes on evicting oldest first after everything was dropped, and after one member filled it alone', async () => {
    const { t } = await appWithMember();
    const { computed, cache, get: read } = counted(3);
    const get = (member: number) => read(t, member);
    const kept = (members: number[]) => {
      computed.length = 0;
      for (const member of members) get(member);
      return computed.length === 0;
    };
    for (const member of [1, 2, 3, 4]) get(member); // 1 goes
    expect(kept([2, 3, 4])).toBe(true);
    dropAllReadCaches(t.services.sqlite);
    for (const member of [5, 6, 7, 8]) get(member); // 5 goes, not a member from before the drop
    expect(kept([6, 7, 8])).toBe(true);
    get(9); // 6 goes
    expect(kept([7, 8, 9])).toBe(true);
    expect(kept([6])).toBe(false);
    // One member filling it alone walks eviction to the map's end; the next members' misses start over.
    dropAllReadCaches(t.services.sqlite);
    const pages = (key: string) => cache.get(t.services.sqlite, 20, key, () => 20);
    for (const key of ['p1', 'p2', 'p3', 'p4']) pages(key);
    for (const member of [21, 22, 23]) get(member); // member 20's pages go, oldest first
    expect(kept([21, 22, 23])).toBe(true);
    get(24); // 21 goes
    expect(kept([22, 23, 24])).toBe(true);
    expect(kept([21])).toBe(false);
  });
});

describe('what a write drops', () => {
  it("only the answers of the members it touches: a transfer's two members, not a third", async () => {
    const { t, id } = await appWithMember();
    const insert = t.services.sqlite.prepare(
      `insert into members (username, name, email, country, created_at, password_hash) values (?, 'N', ?, 'India', 0, 'x') returning id`,
    );
    const other = Number(insert.pluck().get('cache_two', 'two@example.com'));
    const third = Number(insert.pluck().get('cache_three', 'three@example.com'));
    credit(t, id, 5_000_000);
    const { computed, get } = counted();
    for (const member of [id, other, third]) get(t, member);
    for (const member of [id, other, third]) get(t, member);
    expect(computed).toEqual([id, other, third]);
    moneyTransaction(t.services, () =>
      transfer(t.services, [
        {
          transId: 'P2P-1',
          from: { member: id, wallet: 'ROI' },
          to: { member: other, wallet: 'P2P' },
          amount: 1_000_000,
          reason: 'p2p',
          memberId: id,
        },
      ]),
    );
    for (const member of [id, other, third]) get(t, member);
    expect(computed).toEqual([id, other, third, id, other]);
  });

  it("everything on a new username, a deleted member (QA reset), the worker's signal or a restore", async () => {
    const { t, id } = await appWithMember();
    const { computed, get } = counted();
    const drops: [string, () => void][] = [
      [
        'username',
        () => t.services.sqlite.prepare("update members set username = 'cache_renamed' where id = ?").run(id),
      ],
      ['delete', () => t.services.sqlite.prepare("delete from members where username = 'cache_gone'").run()],
      ['worker', () => Atomics.add(cells, 0, 1)],
      ['restore', () => dropAllReadCaches(t.services.sqlite)],
    ];
    const cells = new Int32Array(new SharedArrayBuffer(4));
    watchCommitCounter(t.services.sqlite, cells, 0);
    t.services.sqlite
      .prepare(
        "insert into members (username, name, email, country, created_at, password_hash) values ('cache_gone', 'G', 'g@example.com', 'India', 0, 'x')",
      )
      .run();
    get(t, 999);
    for (const [, drop] of drops) {
      get(t, 999);
      drop();
      get(t, 999);
    }
    expect(computed.length).toBe(1 + drops.length);
    // A name change of another member (not the username) keeps member 999's answer.
    t.services.sqlite.prepare("update members set name = 'Other Name' where id = ?").run(id);
    get(t, 999);
    expect(computed.length).toBe(1 + drops.length);
  });

  it('a QA reset sets the triggers aside while it rewrites, drops every answer, and puts them back for the next write', async () => {
    const { t } = await appWithMember();
    const { computed, get } = counted();
    const triggers = () =>
      t.services.sqlite
        .prepare("select count(*) from temp.sqlite_master where type = 'trigger'")
        .pluck()
        .get();
    get(t, 1);
    const installed = triggers();
    expect(installed).toBeGreaterThan(20);
    expect(await t.post('/__qa/reset', { scenario: 'demo' })).toMatchObject({ status: 200 });
    expect(triggers()).toBe(installed);
    get(t, 1);
    expect(computed).toEqual([1, 1]);
    credit(t, 1, 1_000_000);
    get(t, 1);
    expect(computed).toEqual([1, 1, 1]);
  });
});
