import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../src/app.ts';
import { restoreInto } from '../src/modules/qa/snapshots.ts';
import { createTestApp, expectLedgerSound, moneySnapshot, type TestApp } from './helpers.ts';

interface Info {
  name: string;
  size: number;
  createdAt: string;
}

const del = (t: TestApp, url: string) => t.fastify.inject({ method: 'DELETE', url });

/** Moves money four ways: a purchase, a P2P transfer, a deposit paid through QA, a withdrawal approved. */
async function moveMoney(t: TestApp, token: string) {
  expect(
    (await t.post('/subscription/buy_subscription_packages', { plan: 'Starter' }, { token })).status,
  ).toBe(200);
  expect(
    (
      await t.post(
        '/transfer_to_user',
        { username: 'gonzalo_001', amount: 3, password: 'Txn@123' },
        { token },
      )
    ).status,
  ).toBe(200);
  const open = (
    await t.post<{ Success: { TransID: string } }>(
      '/deposit/make_payment',
      { amount_usdt: 40, currency: 'USDT.BEP20' },
      { token },
    )
  ).body.Success;
  expect((await t.post(`/__qa/deposits/${open.TransID}/pay`, {})).status).toBe(200);
  const pending = (await t.get<{ TransID: string; status: string }[]>('/__qa/withdrawals?status=PENDING'))
    .body[0]!;
  expect((await t.post(`/__qa/withdrawals/${pending.TransID}/approve`, {})).status).toBe(200);
}

describe('snapshots of an in-memory database', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp({ seed: 'demo' });
    token = await t.login('demo');
  }, 30_000);
  afterAll(() => t.close());

  it('save, change money, restore: every balance, row and status is back, the ledger is sound, and the server keeps serving', async () => {
    expect((await t.get('/__qa/snapshots')).body).toEqual([]);
    const saved = moneySnapshot(t);
    const members = t.count('members');
    const created = await t.post<Info>('/__qa/snapshots', { name: 'before-money' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'before-money', createdAt: expect.any(String) });
    expect(created.body.size).toBeGreaterThan(100_000);

    await moveMoney(t, token);
    await t.post('/user/verify_otp', {
      page: 'Email Verification',
      username: 'snapper',
      email: 'snapper@example.com',
    });
    expect(moneySnapshot(t)).not.toBe(saved);
    await expectLedgerSound(t);

    const connection = t.services.sqlite;
    const restored = await t.post<{ restored: Info }>('/__qa/snapshots/before-money/restore');
    expect(restored.status).toBe(200);
    expect(restored.body.restored.name).toBe('before-money');
    expect(moneySnapshot(t)).toBe(saved);
    expect(t.count('members')).toBe(members);
    expect(await t.mailbox('snapper@example.com')).toEqual([]);
    await expectLedgerSound(t);

    // Same connection, still open; cached statements and tokens keep working after the restore.
    expect(t.services.sqlite).toBe(connection);
    expect(connection.open).toBe(true);
    expect((await t.post('/rank/current_rank', {}, { token })).status).toBe(200);
    await moveMoney(t, token);
    await expectLedgerSound(t);
    expect(moneySnapshot(t)).not.toBe(saved);
    // A snapshot restores as often as asked.
    await t.post('/__qa/snapshots/before-money/restore');
    expect(moneySnapshot(t)).toBe(saved);
  }, 30_000);

  it('lists newest first, replaces a snapshot saved again under its name, deletes, and 404s unknown names', async () => {
    await t.post('/__qa/snapshots', { name: 'second_one' });
    const list = (await t.get<Info[]>('/__qa/snapshots')).body;
    expect(list.map((s) => s.name).sort()).toEqual(['before-money', 'second_one']);
    expect(Date.parse(list[0]!.createdAt)).toBeGreaterThanOrEqual(Date.parse(list[1]!.createdAt));

    // Saved again after a change: the new state replaces the old one.
    await t.post('/subscription/buy_subscription_packages', { plan: 'Starter' }, { token });
    const changed = moneySnapshot(t);
    expect((await t.post('/__qa/snapshots', { name: 'second_one' })).status).toBe(201);
    await t.post('/__qa/snapshots/before-money/restore');
    await t.post('/__qa/snapshots/second_one/restore');
    expect(moneySnapshot(t)).toBe(changed);
    expect((await t.get<Info[]>('/__qa/snapshots')).body).toHaveLength(2);

    expect((await del(t, '/__qa/snapshots/second_one')).json()).toEqual({ deleted: 'second_one' });
    expect((await t.get<Info[]>('/__qa/snapshots')).body.map((s) => s.name)).toEqual(['before-money']);
    const gone = await t.post<{ Error: string }>('/__qa/snapshots/second_one/restore');
    expect(gone).toMatchObject({ status: 404, body: { Error: "No snapshot named 'second_one'" } });
    expect((await del(t, '/__qa/snapshots/second_one')).statusCode).toBe(404);
    expect(moneySnapshot(t)).toBe(changed);
  });

  it('bad names and bodies are a 400 and change nothing', async () => {
    const before = moneySnapshot(t);
    for (const body of [
      {},
      { name: '' },
      { name: 'has space' },
      { name: 'a'.repeat(65) },
      { name: '../escape' },
      { name: 5 },
      { name: 'ok', extra: 1 },
    ]) {
      const reply = await t.post<{ Error: string }>('/__qa/snapshots', body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(typeof reply.body.Error).toBe('string');
    }
    expect((await t.post('/__qa/snapshots/bad.name/restore')).status).toBe(400);
    expect((await del(t, '/__qa/snapshots/bad.name')).statusCode).toBe(400);
    expect((await t.get<Info[]>('/__qa/snapshots')).body.map((s) => s.name)).toEqual(['before-money']);
    expect(moneySnapshot(t)).toBe(before);
  });

  it('reset to a scenario still works after restores, and a snapshot restores over a reset', async () => {
    expect((await t.post('/__qa/reset', { scenario: 'empty' })).body).toEqual({
      scenario: 'empty',
      members: 0,
    });
    expect(t.count('members')).toBe(0);
    await t.post('/__qa/snapshots/before-money/restore');
    expect(t.count('members')).toBe(122);
    await expectLedgerSound(t);
    await t.login('demo');
    expect((await t.post('/__qa/reset', { scenario: 'demo' })).body).toEqual({
      scenario: 'demo',
      members: 122,
    });
  }, 30_000);
});

describe('snapshots of a database file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'md-qa-snapshots-'));
  const databasePath = join(dir, 'app.sqlite');
  const snapshotDir = `${databasePath}.snapshots`;
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('are files beside the database that survive a restart; restore puts the file database back', async () => {
    let t = await createTestApp({ seed: 'demo', databasePath });
    const token = await t.login('demo');
    const saved = moneySnapshot(t);
    expect((await t.post('/__qa/snapshots', { name: 'start' })).status).toBe(201);
    expect(existsSync(join(snapshotDir, 'start.sqlite'))).toBe(true);
    await moveMoney(t, token);
    await t.close();

    // A new process on the same file sees the snapshot and restores it.
    t = await createTestApp({ seed: 'demo', databasePath });
    expect((await t.get<Info[]>('/__qa/snapshots')).body.map((s) => s.name)).toEqual(['start']);
    expect(moneySnapshot(t)).not.toBe(saved);
    expect((await t.post('/__qa/snapshots/start/restore')).status).toBe(200);
    expect(moneySnapshot(t)).toBe(saved);
    await expectLedgerSound(t);
    expect((await del(t, '/__qa/snapshots/start')).statusCode).toBe(200);
    expect(existsSync(join(snapshotDir, 'start.sqlite'))).toBe(false);
    await t.close();
  }, 30_000);

  it('a snapshot of another schema or an unreadable file is refused with 409, and nothing changes', async () => {
    const t = await createTestApp({ seed: 'demo', databasePath });
    await t.post('/__qa/snapshots', { name: 'old-schema' });
    const file = join(snapshotDir, 'old-schema.sqlite');
    const other = new Database(file);
    other
      .prepare(
        'delete from __drizzle_migrations where created_at = (select max(created_at) from __drizzle_migrations)',
      )
      .run();
    other.close();
    writeFileSync(join(snapshotDir, 'garbage.sqlite'), 'this is not a database'.repeat(100));

    await t.post(
      '/subscription/buy_subscription_packages',
      { plan: 'Starter' },
      { token: await t.login('demo') },
    );
    const before = moneySnapshot(t);
    const refused = await t.post<{ Error: string }>('/__qa/snapshots/old-schema/restore');
    expect(refused.status).toBe(409);
    expect(refused.body.Error).toMatch(/another database schema/);
    const unreadable = await t.post<{ Error: string }>('/__qa/snapshots/garbage/restore');
    expect(unreadable.status).toBe(409);
    expect(unreadable.body.Error).toMatch(/cannot be read/);
    expect(moneySnapshot(t)).toBe(before);
    await expectLedgerSound(t);
    await t.close();
  }, 30_000);
});

describe('restore and the persisted clock', () => {
  it('the clock takes the offset stored in the snapshot', async () => {
    // No clock given: the server's own clock, whose offset lives in the database.
    const { fastify } = await buildApp({ databasePath: ':memory:', seed: 'empty' });
    const now = async () =>
      Date.parse((await fastify.inject({ method: 'GET', url: '/__qa/clock' })).json<{ now: string }>().now);
    const post = (url: string, body: unknown) =>
      fastify.inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify(body),
      });
    try {
      const HOUR = 3_600_000;
      await post('/__qa/clock?wait=true', { advance: 'PT5H' });
      await post('/__qa/snapshots', { name: 'plus-five-hours' });
      await post('/__qa/clock?wait=true', { advance: 'P3D' });
      expect((await now()) - Date.now()).toBeGreaterThan(3 * 24 * HOUR);
      expect((await post('/__qa/snapshots/plus-five-hours/restore', {})).statusCode).toBe(200);
      const offset = (await now()) - Date.now();
      expect(offset).toBeGreaterThan(5 * HOUR - 60_000);
      expect(offset).toBeLessThan(5 * HOUR + 60_000);
      // Reset: back to real time.
      await post('/__qa/reset', { scenario: 'empty' });
      expect(Math.abs((await now()) - Date.now())).toBeLessThan(60_000);
    } finally {
      await fastify.close();
    }
  });
});

describe('restoreInto', () => {
  it('copies rows without firing triggers twice, keeps the triggers, and rolls back entirely on failure', () => {
    const dir = mkdtempSync(join(tmpdir(), 'md-qa-restore-'));
    try {
      const schema =
        'create table a (id integer primary key autoincrement, x integer not null); create table log (x integer); create trigger a_log after insert on a begin insert into log values (new.x); end;';
      const snapshot = new Database(join(dir, 'snap.sqlite'));
      snapshot.exec(schema);
      snapshot.exec('insert into a (x) values (1), (2)');
      snapshot.close();
      const main = new Database(':memory:');
      main.exec(schema);
      main.exec('insert into a (x) values (7), (8), (9)');

      restoreInto(main, join(dir, 'snap.sqlite'), 'snap');
      expect(main.prepare('select x from a order by id').pluck().all()).toEqual([1, 2]);
      expect(main.prepare('select x from log order by rowid').pluck().all()).toEqual([1, 2]);
      expect(main.prepare("select seq from sqlite_sequence where name = 'a'").pluck().get()).toBe(2);
      main.exec('insert into a (x) values (3)');
      expect(main.prepare('select x from log order by rowid').pluck().all()).toEqual([1, 2, 3]);
      expect(main.prepare('select id from a where x = 3').pluck().get()).toBe(3);

      // A snapshot missing a table fails midway: nothing of the copy stays.
      const broken = new Database(join(dir, 'broken.sqlite'));
      broken.exec(
        'create table a (id integer primary key autoincrement, x integer not null); insert into a (x) values (42);',
      );
      broken.close();
      expect(() => restoreInto(main, join(dir, 'broken.sqlite'), 'broken')).toThrow(
        /Snapshot 'broken' cannot be restored: no such table/,
      );
      expect(main.prepare('select x from a order by id').pluck().all()).toEqual([1, 2, 3]);
      expect(main.prepare("select count(*) from sqlite_master where type = 'trigger'").pluck().get()).toBe(1);
      expect(main.prepare('pragma database_list').all()).toHaveLength(1);
      main.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
