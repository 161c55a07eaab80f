/**
 * Worlds travel: a world exported as one file (GET /__qa/worlds/:id/export) and imported on another
 * server (POST /__qa/worlds/import) is the same world — balances, sign-in, clock, mailbox, fault
 * rules — and passes the ledger check; a file kept as a snapshot (PUT /__qa/snapshots/:name) makes
 * worlds like any other. Anything else is refused with a message saying what, and makes nothing.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR } from '@md/db';
import { createRouting } from '../src/modules/gateway/routing.ts';
import { createFaultStore } from '../src/modules/qa/faults.ts';
import {
  applySettings,
  settingsOf,
  WORLD_FILE_MESSAGES,
  WORLD_FILE_VERSION,
  worldSettings,
} from '../src/modules/worlds/world-file.ts';
import { createTestApp, undoMigrationsAfter, worldCaller, type TestApp } from './helpers.ts';

interface World {
  id: string;
  from: string;
  clientMode?: string;
  notCarried?: string[];
}

type Caller = ReturnType<typeof worldCaller>;

async function exportOf(t: TestApp, id: string): Promise<Buffer> {
  const response = await t.fastify.inject({ method: 'GET', url: `/__qa/worlds/${id}/export` });
  expect(response.statusCode, response.body.slice(0, 200)).toBe(200);
  expect(response.headers['content-type']).toBe('application/vnd.sqlite3');
  expect(response.headers['content-disposition']).toBe(`attachment; filename="${id}.world.sqlite"`);
  return response.rawPayload;
}

async function importInto(
  t: TestApp,
  file: Buffer | string,
  query = '',
  contentType = 'application/octet-stream',
) {
  const response = await t.fastify.inject({
    method: 'POST',
    url: `/__qa/worlds/import${query}`,
    headers: { 'content-type': contentType },
    payload: file,
    remoteAddress: '10.9.0.1',
  });
  return { status: response.statusCode, body: response.json() as World & { Error?: string } };
}

/** The file with its database changed by `edit` (a hand-edited or tampered export). */
function edited(file: Buffer, edit: (db: Database.Database) => void): Buffer {
  const db = new Database(file);
  try {
    edit(db);
    return db.serialize();
  } finally {
    db.close();
  }
}

const walletsOf = async (c: Caller, world: string) => {
  const token = await c.login(world);
  const reply = await c.call<{ Success: unknown }>('POST', '/wallet/view_all_wallets_details', {
    world,
    token,
    body: {},
  });
  expect(reply.status).toBe(200);
  return reply.body.Success;
};
const clockOf = async (c: Caller, world: string) =>
  (await c.call<{ now: string }>('GET', '/__qa/clock', { world })).body.now;
const worldIds = async (c: Caller) =>
  (await c.call<{ worlds: World[] }>('GET', '/__qa/worlds')).body.worlds.map((w) => w.id).sort();

describe('a world exported from one server and imported on another', () => {
  let a: TestApp;
  let b: TestApp;
  let ca: Caller;
  let cb: Caller;
  let source: World;
  let file: Buffer;
  let imported: World;
  // The exporting server on files (its worlds in WAL mode, as a server runs), the importing one in memory.
  const dir = mkdtempSync(join(tmpdir(), 'md-world-files-'));
  beforeAll(async () => {
    [a, b] = await Promise.all([
      createTestApp({ seed: 'demo', databasePath: join(dir, 'a.sqlite') }),
      createTestApp({ seed: 'empty' }),
    ]);
    [ca, cb] = [worldCaller(a.fastify), worldCaller(b.fastify)];
    source = await ca.create({ from: 'demo', clientMode: 'provider', name: 'Bug 1234: payday' });
    // The world lives a little: a swap, three days of runs, a fault rule with uses left.
    const token = await ca.login(source.id);
    const swap = await ca.call('POST', '/wallet/transfer_wallet', {
      world: source.id,
      token,
      body: { from_wallet: 'ROI', to_wallet: 'Deposit', amount: 1 },
    });
    expect(swap.status).toBe(200);
    expect(
      (await ca.call('POST', '/__qa/clock?wait=true', { world: source.id, body: { advance: 'P3D' } })).status,
    ).toBe(200);
    const fault = await ca.call('POST', '/__qa/faults', {
      world: source.id,
      body: { path: '/user/view_profile', status: 503, times: 4 },
    });
    expect(fault.status).toBe(201);
    file = await exportOf(a, source.id);
    const answer = await importInto(b, file);
    expect(answer.status, answer.body.Error).toBe(201);
    imported = answer.body;
  });
  afterAll(async () => {
    await Promise.all([a.close(), b.close()]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers a new world of the importing server, named as the exported one, saying where it came from, in its mode', () => {
    expect(imported.id).toMatch(/^w-[A-Za-z0-9_-]{22}$/);
    expect(imported.id).not.toBe(source.id);
    expect(imported).toMatchObject({ name: 'Bug 1234: payday' });
    expect(imported.from).toBe('import (demo)');
    expect(imported.clientMode).toBe('provider');
    expect(imported.notCarried).toEqual([]);
  });

  it('has the same balances, the same clock and the same mailbox, and its members sign in', async () => {
    expect(await walletsOf(cb, imported.id)).toEqual(await walletsOf(ca, source.id));
    // A world's clock is the machine's plus its stored offset: the two read within moments.
    const apart = Date.parse(await clockOf(cb, imported.id)) - Date.parse(await clockOf(ca, source.id));
    expect(Math.abs(apart)).toBeLessThan(60_000);
    const mails = async (c: Caller, world: string) =>
      (await c.call<unknown[]>('GET', '/__qa/mailbox?to=demo', { world })).body.length;
    expect(await mails(cb, imported.id)).toBe(await mails(ca, source.id));
  });

  it('passes the ledger check', async () => {
    const check = await cb.call<{
      balanced: boolean;
      negativeWallets: unknown[];
      mismatchedWallets: unknown[];
    }>('GET', '/__qa/ledger/check', { world: imported.id });
    expect(check.body).toMatchObject({ balanced: true, negativeWallets: [], mismatchedWallets: [] });
  });

  it('keeps the fault rules, with the uses they had left', async () => {
    const rules = await cb.call<{ path: string; status: number; remaining: number }[]>(
      'GET',
      '/__qa/faults',
      {
        world: imported.id,
      },
    );
    expect(rules.body).toEqual([
      expect.objectContaining({ path: '/user/view_profile', status: 503, remaining: 4 }),
    ]);
    const token = await cb.login(imported.id);
    const profile = await cb.call('POST', '/user/view_profile', { world: imported.id, token, body: {} });
    expect(profile.status).toBe(503);
  });

  it('refuses a token of the world it came from: the importing server signs its own', async () => {
    const theirs = await ca.login(source.id);
    const reply = await cb.call('POST', '/wallet/view_all_wallets_details', {
      world: imported.id,
      token: theirs,
      body: {},
    });
    expect(reply.status).toBe(401);
  });

  it('takes the mode and time to live from the query over the file', async () => {
    const answer = await importInto(b, file, '?clientMode=mock&ttlMinutes=30&name=Replay');
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ clientMode: 'mock', ttlMinutes: 30, name: 'Replay' });
  });

  it('exports the default world as `default`, and a file can be kept as a snapshot that makes worlds', async () => {
    const whole = await exportOf(a, 'default');
    const put = await b.fastify.inject({
      method: 'PUT',
      url: '/__qa/snapshots/from-a',
      headers: { 'content-type': 'application/octet-stream' },
      payload: whole,
    });
    expect(put.statusCode, put.body).toBe(201);
    expect(put.json()).toMatchObject({ name: 'from-a' });
    const fromSnapshot = await cb.create({ from: 'snapshot:from-a' });
    const asWorld = await importInto(b, whole);
    expect(asWorld.status).toBe(201);
    expect(asWorld.body.from).toBe('import (default)');
    expect(await walletsOf(cb, fromSnapshot.id)).toEqual(await walletsOf(cb, asWorld.body.id));
  });

  it("brings a file of the previous main's schema to this server's, every row kept", async () => {
    const older = edited(file, (db) => undoMigrationsAfter(db, '0014_transfers_member_time_dropped'));
    const answer = await importInto(b, older);
    expect(answer.status, answer.body.Error).toBe(201);
    expect(await walletsOf(cb, answer.body.id)).toEqual(await walletsOf(ca, source.id));
  });

  it('answers 404 for a world that is not there', async () => {
    const reply = await ca.call('GET', '/__qa/worlds/w-AAAAAAAAAAAAAAAAAAAAAA/export');
    expect(reply.status).toBe(404);
  });
});

describe('a file that is not a world this server can take', () => {
  let a: TestApp;
  let b: TestApp;
  let cb: Caller;
  let file: Buffer;
  beforeAll(async () => {
    [a, b] = await Promise.all([
      createTestApp({ seed: 'demo' }),
      createTestApp({ seed: 'empty', worlds: { perClient: 2 } }),
    ]);
    cb = worldCaller(b.fastify);
    const source = await worldCaller(a.fastify).create({ from: 'demo' });
    file = await exportOf(a, source.id);
  });
  afterAll(() => Promise.all([a.close(), b.close()]));

  const refused = async (body: Buffer | string, message: string | RegExp, contentType?: string) => {
    const before = await worldIds(cb);
    const answer = await importInto(b, body, '', contentType);
    expect(answer.status).toBe(400);
    if (typeof message === 'string') expect(answer.body.Error).toBe(message);
    else expect(answer.body.Error).toMatch(message);
    expect(await worldIds(cb)).toEqual(before);
  };

  it('refuses bytes that are no SQLite database, and a database that is no world file', async () => {
    await refused(Buffer.from('x'.repeat(4096)), WORLD_FILE_MESSAGES.notAWorld);
    await refused(
      edited(file, (db) => db.exec('drop table world_file')),
      WORLD_FILE_MESSAGES.notAWorld,
    );
    await refused(file.subarray(0, 8192), /^The world file cannot be read: /);
  });

  it('refuses a body sent as something else, saying how to send it', async () => {
    await refused(JSON.stringify({ file: 'x' }), /^Send the world file as the body/, 'application/json');
  });

  it('refuses a newer format and a newer schema, naming which', async () => {
    const newer = edited(file, (db) => {
      const { value } = db.prepare("select value from world_file where key = 'header'").get() as {
        value: string;
      };
      db.prepare("update world_file set value = ? where key = 'header'").run(
        JSON.stringify({ ...JSON.parse(value), version: WORLD_FILE_VERSION + 1 }),
      );
    });
    await refused(newer, WORLD_FILE_MESSAGES.newerFormat(WORLD_FILE_VERSION + 1));
    const newerSchema = edited(file, (db) =>
      db
        .prepare('insert into __drizzle_migrations (hash, created_at) values (?, ?)')
        .run('f'.repeat(64), 9_999_999_999_999),
    );
    await refused(newerSchema, WORLD_FILE_MESSAGES.newerSchema('f'.repeat(12)));
  });

  it('refuses a file whose journal of migrations does not match its tables', async () => {
    // The journal without the newest migration that makes a table, and those after it: run again,
    // it finds its table made. (A migration that only rewrites rows cannot tell.)
    const entries = (
      JSON.parse(readFileSync(join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8')) as {
        entries: { tag: string; when: number }[];
      }
    ).entries;
    const maker = entries.findLast((entry) =>
      /CREATE TABLE/i.test(readFileSync(join(MIGRATIONS_DIR, `${entry.tag}.sql`), 'utf8')),
    )!;
    const lying = edited(file, (db) =>
      db.prepare('delete from __drizzle_migrations where created_at >= ?').run(maker.when),
    );
    await refused(
      lying,
      /^The world file's database, of an older schema, cannot be brought to this server's: /,
    );
  });

  it('refuses settings its own routes would refuse, naming the fault', async () => {
    const bad = edited(file, (db) => {
      const { value } = db.prepare("select value from world_file where key = 'header'").get() as {
        value: string;
      };
      const header = JSON.parse(value) as { settings: { faults: unknown[] } };
      header.settings.faults = [{ path: '/no/such/endpoint', status: 500 }];
      db.prepare("update world_file set value = ? where key = 'header'").run(JSON.stringify(header));
    });
    await refused(bad, /^The world file's settings are not valid: Unknown endpoint '\/no\/such\/endpoint'/);
  });

  it('refuses a file whose ledger was edited, and leaves no world behind', async () => {
    const tampered = edited(file, (db) =>
      db.exec('update accounts set balance = balance + 1000000 where id = (select min(id) from accounts)'),
    );
    await refused(tampered, /^The world file's ledger does not balance: /);
    // Refused before anything is made: no world was created and deleted for it.
    const events = (await cb.call<{ history: { event: string }[] }>('GET', '/__qa/worlds')).body.history;
    expect(events.filter((e) => e.event === 'deleted')).toEqual([]);
    // Nor kept as a snapshot.
    const put = await b.fastify.inject({
      method: 'PUT',
      url: '/__qa/snapshots/tampered',
      headers: { 'content-type': 'application/octet-stream' },
      payload: tampered,
    });
    expect(put.statusCode).toBe(400);
    expect((await cb.call<unknown[]>('GET', '/__qa/snapshots')).body).toEqual([]);
  });

  it("holds the client's world cap under a burst of imports", async () => {
    const answers = await Promise.all(Array.from({ length: 5 }, () => importInto(b, file)));
    expect(answers.filter((r) => r.status === 201)).toHaveLength(2);
    expect(answers.filter((r) => r.status === 429)).toHaveLength(3);
  });
});

describe('the settings a world file carries', () => {
  it('are the fault rules with their uses left and the routes off the default; recordings and a missing provider stay behind', () => {
    const faults = createFaultStore();
    faults.add({ path: 'user.view_profile', status: 502, times: 2, probability: 1 });
    const routing = createRouting('provider');
    routing.set('wallet.view_all_wallets_details', 'mock');
    routing.set('user.view_profile', 'recording:monday');
    const carried = settingsOf({ faults, routing });
    expect(carried.faults).toEqual([{ path: 'user.view_profile', status: 502, times: 2, probability: 1 }]);
    expect(carried.routing).toEqual([
      { path: 'user.view_profile', target: 'recording:monday' },
      { path: 'wallet.view_all_wallets_details', target: 'mock' },
    ]);

    const parsed = worldSettings.parse({ from: 'demo', ...carried });
    const elsewhere = { faults: createFaultStore(), routing: createRouting('provider'), hasProvider: true };
    expect(applySettings(elsewhere, parsed)).toEqual([
      'routing of user.view_profile to recording:monday: recordings do not travel',
    ]);
    expect(elsewhere.routing.targetOf('wallet.view_all_wallets_details')).toBe('mock');
    expect(elsewhere.routing.targetOf('user.view_profile')).toBe('provider');
    expect(elsewhere.faults.list()).toEqual([
      expect.objectContaining({ path: 'user.view_profile', remaining: 2 }),
    ]);

    const noProvider = { routing: createRouting('mock') };
    routing.set('user.view_profile', 'provider');
    const toProvider = worldSettings.parse({ from: 'demo', ...settingsOf({ routing }) });
    expect(
      applySettings(noProvider, {
        ...toProvider,
        routing: [{ path: 'user.view_profile', target: 'provider' }],
      }),
    ).toEqual(['routing of user.view_profile to the provider: this server has none (PROVIDER_URL)']);
    expect(noProvider.routing.targetOf('user.view_profile')).toBe('mock');
  });
});
