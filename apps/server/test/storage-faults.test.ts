/**
 * Storage faults are loud and answered: a full database, a read-only file, a
 * WAL index made immutable (SIGBUS before) and a database file deleted while serving are each
 * logged, answered 503 with a plain message on REST and tRPC, change nothing, and /readyz says why;
 * a restart over a deleted file refuses instead of seeding a new database; an existing file is
 * never seeded. Each fault test serves its own copy of one seeded database file.
 */
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { markerPathOf, MissingDatabaseError } from '@md/db';
import { MSG } from '@md/shared';
import { buildApp } from '../src/app.ts';
import { ConfigError, startConfig } from '../src/config.ts';
import { afterAnswer, runAfterAnswerJobs } from '../src/core/after-answer.ts';
import { readiness, RUN_FAILURE_MS, runSignal } from '../src/core/health.ts';
import { STORAGE_MESSAGES, StorageError } from '../src/core/storage.ts';
import { dailyRunsOf } from '../src/modules/engine/jobs.ts';
import { handlers } from '../src/modules/index.ts';
import { ledgerCheck } from '../src/modules/ledger/ledger.ts';
import { createTestApp, expectLedgerSound, moneySnapshot, type TestApp } from './helpers.ts';
import { grant } from './money-fixtures.ts';

const root = resolve(import.meta.dirname, '../../..');
const dir = mkdtempSync(join(tmpdir(), 'storage-faults-'));
const template = join(dir, 'template.sqlite');
/** Undo steps of the faults (chattr -i above all: an immutable file outlives the test otherwise). */
const undo: (() => void)[] = [];
const opened: TestApp[] = [];

afterAll(async () => {
  for (const step of undo.splice(0)) step();
  for (const t of opened) await t.close().catch(() => undefined);
  rmSync(dir, { recursive: true, force: true });
});

beforeAll(async () => {
  // One seeded database (demo with ROI to swap), compacted: a copy of it has no free page.
  const t = await createTestApp({ seed: 'demo', databasePath: template });
  grant(t, 'demo', 'ROI', 5_000);
  t.services.sqlite.exec('vacuum');
  await t.close();
});

interface LogLine {
  level: number;
  status?: number;
  msg: string;
  reqId?: string;
  route?: string;
  procedure?: string;
  storage?: { code?: string; kind?: string; problem?: string };
  err?: { type: string; message: string; stack: string; code?: string };
}

/** A served copy of the template, its log lines captured, demo signed in. */
async function serveCopy(name: string) {
  const path = join(dir, `${name}.sqlite`);
  copyFileSync(template, path);
  const lines: LogLine[] = [];
  const t = await createTestApp({
    seed: 'demo',
    databasePath: path,
    logger: { level: 'info', stream: { write: (line) => void lines.push(JSON.parse(line) as LogLine) } },
  });
  opened.push(t);
  const token = await t.login('demo');
  // The sign-in's work after the answer is written now, not in the middle of a fault.
  runAfterAnswerJobs(t.services);
  return { t, path, lines, token };
}

const SWAP = { from_wallet: 'ROI', to_wallet: 'Deposit', amount: 1 };
const swap = (t: TestApp, token: string) =>
  t.post<{ Error?: string; Success?: string }>('/wallet/transfer_wallet', SWAP, { token });
const swapRpc = async (t: TestApp, token: string) => {
  const reply = await t.trpc('wallet.transfer_wallet', 'mutation', SWAP, token);
  const error = (reply.body as { error?: { message: string; data: { code: string } } }).error;
  return { status: reply.status, message: error?.message, code: error?.data.code };
};
const readyz = (t: TestApp) => t.get<{ status: string; ready: boolean; reasons: string[] }>('/readyz');

/** The error lines of one request: its id, its route, the error with its stack. */
function expectLogged(lines: LogLine[], route: string, pattern: RegExp) {
  const line = lines.find(
    (l) => l.level >= 50 && l.route === route && pattern.test(`${l.msg} ${l.storage?.code ?? ''}`),
  );
  expect(line, JSON.stringify(lines, null, 1)).toBeDefined();
  expect(line!.reqId).toMatch(/^[\da-f]{8}-[\da-f]{4}-[\da-f]{4}-[\da-f]{4}-[\da-f]{12}$/);
  expect(line!.err?.stack).toBeTruthy();
  return line!;
}

/** Makes `files` unwritable the way this machine allows: chattr +i as root (when the file system has it), else chmod. */
function makeUnwritable(files: string[]): 'chattr' | 'chmod' | null {
  if (process.getuid?.() === 0) {
    try {
      execFileSync('chattr', ['+i', ...files], { stdio: 'ignore' });
      const undoStep = () => execFileSync('chattr', ['-i', ...files], { stdio: 'ignore' });
      undo.push(undoStep);
      return 'chattr';
    } catch {
      return null; // root with no chattr here: permissions would not stop a write
    }
  }
  for (const file of files) chmodSync(file, 0o444);
  undo.push(() => files.forEach((file) => chmodSync(file, 0o644)));
  return 'chmod';
}
const restore = () => undo.pop()?.();

describe('a full database (PRAGMA max_page_count)', () => {
  it('answers 503 with the message on REST and tRPC, logs SQLITE_FULL with the request, changes nothing, and /readyz says why', async () => {
    const { t, lines, token } = await serveCopy('full');
    const sqlite = t.services.sqlite;
    expect(sqlite.pragma('freelist_count', { simple: true })).toBe(0);
    sqlite.pragma(`max_page_count = ${sqlite.pragma('page_count', { simple: true }) as number}`);
    // The pages' own free space fills first: swap until a write needs a new page (a few dozen).
    let before = moneySnapshot(t);
    let answer = await swap(t, token);
    for (let i = 0; i < 500 && answer.status === 200; i++) {
      before = moneySnapshot(t);
      answer = await swap(t, token);
    }
    expect(answer).toMatchObject({ status: 503, body: { Error: STORAGE_MESSAGES.cannotSave } });
    expect(moneySnapshot(t)).toBe(before);
    const line = expectLogged(lines, '/wallet/transfer_wallet', /SQLITE_FULL/);
    expect(line.err).toMatchObject({ type: 'SqliteError', code: 'SQLITE_FULL' });

    expect(await swapRpc(t, token)).toEqual({
      status: 503,
      message: STORAGE_MESSAGES.cannotSave,
      code: 'SERVICE_UNAVAILABLE',
    });
    expect(moneySnapshot(t)).toBe(before);
    expect(
      lines.some(
        (l) => l.level >= 50 && l.procedure === 'wallet.transfer_wallet' && l.storage?.code === 'SQLITE_FULL',
      ),
    ).toBe(true);

    const ready = await readyz(t);
    expect(ready.status).toBe(503);
    expect(ready.body.reasons).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^database: cannot write: .*full \(SQLITE_FULL\)/),
        expect.stringMatching(/^lastFault: a write failed/),
      ]),
    );
    expect((await t.get('/healthz')).status).toBe(200);

    // Room again: the same swap goes through, and the ledger is whole.
    sqlite.pragma('max_page_count = 1073741823');
    expect((await swap(t, token)).status).toBe(200);
    await expectLedgerSound(t);
  });
});

describe('a database file that cannot be written', () => {
  it('refuses writes with 503 and the message, logged, nothing changed, /readyz says why; writes resume once it can be written', async () => {
    const { t, path, lines, token } = await serveCopy('read-only');
    const before = moneySnapshot(t);
    // Only the database file: its -wal still takes commits, so SQLite alone would accept them and never
    // write them back (a checkpoint fails in silence). Root without chattr: a read-only connection instead.
    const how = makeUnwritable([path]);
    if (!how) t.services.sqlite.pragma('query_only = ON');
    const answer = await swap(t, token);
    expect(answer).toMatchObject({ status: 503, body: { Error: STORAGE_MESSAGES.cannotSave } });
    expect(await swapRpc(t, token)).toEqual({
      status: 503,
      message: STORAGE_MESSAGES.cannotSave,
      code: 'SERVICE_UNAVAILABLE',
    });
    expectLogged(
      lines,
      '/wallet/transfer_wallet',
      how ? /read-only\.sqlite cannot be written \((EPERM|EACCES)\)/ : /SQLITE_READONLY/,
    );
    if (how)
      expect(
        lines.some((l) => l.level >= 50 && /^STORAGE FAULT: read-only\.sqlite cannot be written/.test(l.msg)),
      ).toBe(true);
    // Reads go on.
    expect((await t.post('/user/view_profile', {}, { token })).status).toBe(200);
    const ready = await readyz(t);
    expect(ready.status).toBe(503);
    expect(ready.body.reasons).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          how ? /^file: read-only\.sqlite cannot be written/ : /^database: cannot write: .*read-only/,
        ),
      ]),
    );

    if (how) restore();
    else t.services.sqlite.pragma('query_only = OFF');
    expect(moneySnapshot(t)).toBe(before);
    expect((await swap(t, token)).status).toBe(200);
    if (how) expect(lines.some((l) => l.level === 40 && /^Storage writable again/.test(l.msg))).toBe(true);
    await expectLedgerSound(t);
  });
});

describe('a write lock held longer than a request waits (SQLITE_BUSY)', () => {
  it('answers 503 "busy" on REST and tRPC, logs the code, changes nothing, and leaves /readyz ready', async () => {
    const { t, path, lines, token } = await serveCopy('busy');
    const before = moneySnapshot(t);
    t.services.sqlite.pragma('busy_timeout = 20');
    // Another writer (a QA reset, a run's chunk, another process) holds the lock.
    const other = new Database(path);
    other.exec('begin immediate');
    try {
      expect(await swap(t, token)).toMatchObject({ status: 503, body: { Error: STORAGE_MESSAGES.busy } });
      expect(await swapRpc(t, token)).toEqual({
        status: 503,
        message: STORAGE_MESSAGES.busy,
        code: 'SERVICE_UNAVAILABLE',
      });
      expectLogged(lines, '/wallet/transfer_wallet', /SQLITE_BUSY/);
    } finally {
      other.exec('rollback');
      other.close();
    }
    expect(moneySnapshot(t)).toBe(before);
    expect((await readyz(t)).body.ready).toBe(true);
    expect((await swap(t, token)).status).toBe(200);
    await expectLedgerSound(t);
  });
});

describe('database files made immutable (chattr +i, the WAL index included)', () => {
  it('refuses every call that would touch them with 503 instead of dying of SIGBUS, and serves again once they are writable', async () => {
    const { t, path, lines, token } = await serveCopy('immutable');
    const before = moneySnapshot(t);
    const files = [path, `${path}-wal`, `${path}-shm`];
    expect(files.every((file) => existsSync(file))).toBe(true);
    // As root with chattr: the real fault. Otherwise chmod, which leaves the WAL index's map writable: writes refused, reads served.
    const how = makeUnwritable(files) ?? 'chattr';
    expect(await swap(t, token)).toMatchObject({ status: 503, body: { Error: STORAGE_MESSAGES.cannotSave } });
    expect(
      lines.some(
        (l) => l.level >= 50 && /^STORAGE FAULT: immutable\.sqlite(-shm)? cannot be written/.test(l.msg),
      ),
    ).toBe(true);
    const profile = await t.post('/user/view_profile', {}, { token });
    const query = await t.trpc('user.view_profile', 'query', {}, token);
    const qa = await t.get('/__qa/ledger/check');
    if (how === 'chattr') {
      // Reading would write to the WAL index (a reader's mark): refused too.
      expect(profile).toMatchObject({ status: 503, body: { Error: STORAGE_MESSAGES.cannotRead } });
      expect(query.status).toBe(503);
      expect(qa.status).toBe(503);
      const ready = await readyz(t);
      expect(ready.status).toBe(503);
      expect(ready.body.reasons).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^file: immutable\.sqlite(-shm|-wal)? cannot be written/),
          'database: not probed: the database files cannot be written',
        ]),
      );
    } else {
      expect(profile.status).toBe(200);
      expect(query.status).toBe(200);
    }
    expect((await t.get('/healthz')).status).toBe(200);

    restore();
    expect(moneySnapshot(t)).toBe(before);
    expect((await swap(t, token)).status).toBe(200);
    expect((await readyz(t)).status).toBe(200);
    await expectLedgerSound(t);
  });
});

describe('a database file deleted while serving', () => {
  let path: string;

  it('is noticed, logged loudly, and every write is refused (REST, tRPC, QA, SQLite itself); reads go on; /readyz fails', async () => {
    const served = await serveCopy('deleted');
    const { t, lines, token } = served;
    path = served.path;
    const before = moneySnapshot(t);
    unlinkSync(path);
    expect(await swap(t, token)).toMatchObject({ status: 503, body: { Error: STORAGE_MESSAGES.cannotSave } });
    expect(await swapRpc(t, token)).toEqual({
      status: 503,
      message: STORAGE_MESSAGES.cannotSave,
      code: 'SERVICE_UNAVAILABLE',
    });
    const loud = lines.find(
      (l) =>
        l.level >= 50 &&
        l.msg.startsWith('STORAGE FAULT: deleted.sqlite was deleted while the server had it open'),
    );
    expect(loud, JSON.stringify(lines)).toBeDefined();
    expect(loud!.msg).toContain('until the server restarts');
    expectLogged(lines, '/wallet/transfer_wallet', /^Refused \(503\): deleted\.sqlite was deleted/);
    // QA refuses; the daily runs' worker (its own connection) is not sent work; this connection's writes fail in SQLite.
    expect((await t.post('/__qa/clock?wait=true', { advance: 'P1D' })).status).toBe(503);
    const runs = dailyRunsOf(t.services);
    expect(runs?.inWorker).toBe(true);
    await expect(runs!.runDue(t.clock.now(), t.clock.now() + 86_400_000)).rejects.toThrow(StorageError);
    expect(() =>
      t.services.sqlite.prepare("insert into meta (key, value) values ('after-delete', 'x')").run(),
    ).toThrow(/readonly/);
    expect((await t.post('/user/view_profile', {}, { token })).status).toBe(200);
    const ready = await readyz(t);
    expect(ready.status).toBe(503);
    expect(ready.body.reasons).toContain(
      'file: deleted.sqlite was deleted while the server had it open: what is written now would be lost',
    );
    expect(moneySnapshot(t)).toBe(before);
    // Read in place: the QA check settles deposits first, a write, refused like the others.
    expect(ledgerCheck(t.services)).toMatchObject({
      balanced: true,
      negativeWallets: [],
      mismatchedWallets: [],
    });
    await t.close();
    expect(existsSync(path)).toBe(false);
  });

  it('is not replaced by a new database at restart: buildApp and main.ts refuse, say why, and create nothing', async () => {
    expect(existsSync(markerPathOf(path))).toBe(true);
    await expect(buildApp({ databasePath: path, seed: 'demo' })).rejects.toThrow(MissingDatabaseError);
    await expect(buildApp({ databasePath: path, seed: 'demo' })).rejects.toThrow(
      /deleted\.sqlite is missing, but deleted\.sqlite\.created .*will not create a new, empty database/,
    );
    expect(existsSync(path)).toBe(false);

    const { code, output } = await runMain({ DATABASE_PATH: path, PORT: '0' });
    expect(code, output).toBe(1);
    expect(output).toContain('will not create a new, empty database in its place');
    expect(output).not.toContain('Member dashboard on');
    expect(existsSync(path)).toBe(false);
  });

  it('a -wal left without its database is refused too; a new database once the traces are removed on purpose', async () => {
    // The connection closed without checkpointing (writes were refused): the lost file's WAL is still there.
    expect(existsSync(`${path}-wal`)).toBe(true);
    unlinkSync(markerPathOf(path));
    if (existsSync(`${path}-shm`)) unlinkSync(`${path}-shm`);
    await expect(buildApp({ databasePath: path, seed: 'empty' })).rejects.toThrow(
      /is missing, but deleted\.sqlite-wal beside it/,
    );
    unlinkSync(`${path}-wal`);
    const app = await buildApp({ databasePath: path, seed: 'empty' });
    expect({ created: app.created, seeded: app.seeded }).toEqual({ created: true, seeded: null });
    await app.fastify.close();
  });
});

describe('the QA clock on a database that refuses writes', () => {
  it('answers 503 and does not move: the offset is saved before it is used', async () => {
    const app = await buildApp({ seed: 'empty' });
    const now = () =>
      app.fastify
        .inject({ method: 'GET', url: '/__qa/clock' })
        .then((r) => (r.json() as { now: string }).now);
    const before = Date.parse(await now());
    app.services.sqlite.pragma('query_only = ON');
    const advance = await app.fastify.inject({
      method: 'POST',
      url: '/__qa/clock?wait=true',
      payload: { advance: 'P3D' },
    });
    expect({ status: advance.statusCode, body: advance.json() as unknown }).toMatchObject({
      status: 503,
      body: { Error: STORAGE_MESSAGES.cannotSave },
    });
    // Real time runs on; three days would show.
    expect(Date.parse(await now()) - before).toBeLessThan(86_400_000);
    await app.fastify.close();
  });
});

describe('seeding', () => {
  it('never seeds a file that existed (a copy of a database, an empty file), seeds only a file this start created, and DATABASE_CREATE=off creates none', async () => {
    const copy = join(dir, 'existing.sqlite');
    copyFileSync(template, copy);
    const existing = await buildApp({ databasePath: copy });
    expect({ created: existing.created, seeded: existing.seeded }).toEqual({ created: false, seeded: null });
    await existing.fastify.close();

    const emptyFile = join(dir, 'zero-bytes.sqlite');
    execFileSync('touch', [emptyFile]);
    const zero = await buildApp({ databasePath: emptyFile });
    expect(zero.seeded).toBeNull();
    expect(zero.services.sqlite.prepare('select count(*) as n from members').get()).toEqual({ n: 0 });
    await zero.fastify.close();

    await expect(
      buildApp({ databasePath: join(dir, 'never.sqlite'), createDatabase: false }),
    ).rejects.toThrow(MissingDatabaseError);
    expect(existsSync(join(dir, 'never.sqlite'))).toBe(false);

    // SEED=none (production's default): a new file gets the schema and nothing else.
    const unseeded = await buildApp({ databasePath: join(dir, 'unseeded.sqlite'), seed: 'none' });
    expect({ created: unseeded.created, seeded: unseeded.seeded }).toEqual({ created: true, seeded: null });
    expect(unseeded.services.sqlite.prepare('select count(*) as n from members').get()).toEqual({ n: 0 });
    await unseeded.fastify.close();
  });

  it('is configured by SEED: demo for development, none in production, a scenario or none; LOG_LEVEL must be a level', () => {
    expect(startConfig({}).build.seed).toBe('demo');
    expect(
      startConfig({ NODE_ENV: 'production', STANDIN: 'on', WALLET_CHECK_STANDIN: 'on' }).build.seed,
    ).toBe('none');
    expect(startConfig({ SEED: 'none' }).build.seed).toBe('none');
    expect(startConfig({ SEED: 'empty' }).build.seed).toBe('empty');
    expect(startConfig({}).build.createDatabase).toBe(true);
    expect(startConfig({ DATABASE_CREATE: 'off' }).build.createDatabase).toBe(false);
    expect(() => startConfig({ SEED: 'prod' })).toThrow(ConfigError);
    expect(startConfig({}).build.logger).toEqual({ level: 'info' });
    expect(startConfig({ LOG_LEVEL: 'debug' }).build.logger).toEqual({ level: 'debug' });
    expect(startConfig({ LOG: '0' }).build.logger).toEqual({ level: 'silent' });
    expect(() => startConfig({ LOG_LEVEL: 'verbose' })).toThrow(ConfigError);
  });
});

describe('logging', () => {
  async function logged(level: 'info' | 'debug') {
    const lines: LogLine[] = [];
    const t = await createTestApp({
      seed: 'empty',
      logger: { level, stream: { write: (line) => void lines.push(JSON.parse(line) as LogLine) } },
    });
    opened.push(t);
    return { t, lines };
  }

  it('logs a job after an answer that failed through the app logger, with its error, and runs the jobs after it', async () => {
    const { t, lines } = await logged('info');
    let ranAfter = false;
    afterAnswer(t.services, () => {
      throw new Error('mail table gone');
    });
    afterAnswer(t.services, () => void (ranAfter = true));
    runAfterAnswerJobs(t.services);
    expect(ranAfter).toBe(true);
    const line = lines.find((l) => l.level === 50 && /^A job after an answer failed/.test(l.msg));
    expect(line?.err?.message).toBe('mail table gone');
    expect(line?.err?.stack).toBeTruthy();
  });

  it('writes no line per request at info, one at debug', async () => {
    const info = await logged('info');
    await info.t.get('/healthz');
    await info.t.post('/user/view_profile', {});
    expect(info.lines).toEqual([]);
    const debug = await logged('debug');
    await debug.t.get('/healthz?probe=1');
    expect(debug.lines.filter((l) => l.msg === 'request')).toMatchObject([
      expect.objectContaining({
        level: 20,
        url: '/healthz',
        status: 200,
        reqId: expect.stringMatching(/^[\da-f]{8}-/),
      }),
    ]);
  });

  it('logs every 5xx with its cause: an unexpected error (REST and tRPC) with its stack, route and request id; a QA fault rule', async () => {
    const { t, lines } = await logged('info');
    const table = handlers as Record<string, unknown>;
    const saved = table['user.view_country'];
    table['user.view_country'] = () => {
      throw new TypeError('boom in the handler');
    };
    try {
      expect(await t.post('/user/view_country', {})).toMatchObject({
        status: 500,
        body: { Error: MSG.unexpectedError },
      });
      expect((await t.trpc('user.view_country', 'query', {})).status).toBe(500);
    } finally {
      table['user.view_country'] = saved;
    }
    const rest = lines.find((l) => l.route === '/user/view_country');
    expect(rest).toMatchObject({
      level: 50,
      msg: 'Unexpected error, answered 500',
      reqId: expect.stringMatching(/^[\da-f]{8}-/),
      err: { type: 'TypeError', message: 'boom in the handler' },
    });
    expect(rest!.err!.stack).toContain('storage-faults.test.ts');
    expect(lines.find((l) => l.procedure === 'user.view_country')).toMatchObject({
      level: 50,
      route: '/trpc/:path',
      err: { message: 'boom in the handler' },
    });

    expect(
      (await t.post('/__qa/faults', { path: '/user/view_country', status: 500, error: 'Injected' })).status,
    ).toBe(201);
    lines.length = 0;
    expect((await t.post('/user/view_country', {})).status).toBe(500);
    expect(lines).toEqual([
      expect.objectContaining({
        level: 40,
        msg: 'Answered 500: Injected',
        route: '/user/view_country',
        reqId: expect.stringMatching(/^[\da-f]{8}-/),
      }),
    ]);
    // An answer no error explains (a broken body from a QA rule): the closing hook still says which.
    await t.fastify.inject({ method: 'DELETE', url: '/__qa/faults' });
    expect(
      (await t.post('/__qa/faults', { path: '/user/view_country', status: 502, malformed: true })).status,
    ).toBe(201);
    lines.length = 0;
    expect(
      (await t.fastify.inject({ method: 'POST', url: '/user/view_country', payload: {} })).statusCode,
    ).toBe(502);
    expect(lines).toEqual([
      expect.objectContaining({
        level: 40,
        status: 502,
        route: '/user/view_country',
        msg: expect.stringMatching(/^Answered 502 without an error/),
      }),
    ]);
  });
});

describe('a read-only mount without a jwt-secret file', () => {
  it('main.ts refuses to start with a line naming JWT_SECRET and no stack trace, and writes nothing', async () => {
    const mount = join(dir, 'read-only-mount');
    mkdirSync(mount);
    const path = join(mount, 'app.sqlite');
    copyFileSync(template, path);
    // The directory takes no new file (the secret would be written beside the database).
    const how = makeUnwritable([mount]);
    if (how === 'chmod') chmodSync(mount, 0o555);
    expect(how, 'this machine can make a directory unwritable').not.toBeNull();
    const { code, output } = await runMain({ DATABASE_PATH: path, PORT: '0', JWT_SECRET: '' });
    restore();
    expect(code, output).toBe(1);
    expect(output).toMatch(
      /Cannot keep the session key: .*jwt-secret cannot be written \((EROFS|EPERM|EACCES)\)\. Set JWT_SECRET/,
    );
    expect(output).not.toMatch(/^\s+at /m);
    expect(output).not.toContain('Member dashboard on');
    expect(existsSync(join(mount, 'jwt-secret'))).toBe(false);
  });
});

describe('/healthz and /readyz', () => {
  it('answer without QA control and without secrets: alive, ready with each check, not ready with the reasons', async () => {
    const t = await createTestApp({
      seed: 'empty',
      databasePath: join(dir, 'health.sqlite'),
      jwtSecret: 'health-secret-value',
      config: { qaControl: false },
    });
    opened.push(t);
    expect(await t.get('/healthz')).toMatchObject({ status: 200, body: { status: 'alive' } });
    const ready = await t.get<Record<string, unknown>>('/readyz');
    expect(ready).toMatchObject({
      status: 200,
      body: {
        status: 'ready',
        ready: true,
        reasons: [],
        checks: {
          file: { ok: true },
          database: { ok: true, detail: 'writable' },
          disk: { ok: true },
          lastFault: { ok: true },
          runs: { ok: true },
        },
      },
    });
    const text = JSON.stringify(ready.body);
    expect(text).not.toContain(dir);
    expect(text).not.toContain('health-secret-value');
    // The probe kept nothing.
    expect(
      t.services.sqlite.prepare("select count(*) as n from meta where key = 'readyz probe'").get(),
    ).toEqual({ n: 0 });
  });

  it('fails on a run signal and on a run left running for over an hour', async () => {
    const t = await createTestApp({
      seed: 'empty',
      runsFailing: () => 'binary: SqliteError SQLITE_BUSY (see the log)',
    });
    opened.push(t);
    expect((await readyz(t)).body.reasons).toEqual([
      'runs: daily runs failing: binary: SqliteError SQLITE_BUSY (see the log)',
    ]);
    t.services.sqlite
      .prepare(
        "insert into job_runs (job, business_date, status, cursor, started_at) values ('stalled-test', '2000-01-03', 'running', 0, ?)",
      )
      .run(t.clock.now() - 2 * 60 * 60_000);
    expect(readiness(t.services).reasons).toEqual([
      expect.stringMatching(/^runs: last run: stalled-test for 2000-01-03, running since .* \(stalled\)$/),
    ]);
  });

  it('runSignal: failing after a failure, until a success or RUN_FAILURE_MS', () => {
    let now = 0;
    const signal = runSignal(() => now);
    expect(signal.failing()).toBeUndefined();
    signal.failed(Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR_WRITE' }));
    expect(signal.failing()).toBe('a disk I/O error (SQLITE_IOERR_WRITE)');
    signal.succeeded();
    expect(signal.failing()).toBeUndefined();
    signal.failed(new RangeError('secret detail'));
    expect(signal.failing()).toBe('RangeError (see the log)');
    now += RUN_FAILURE_MS;
    expect(signal.failing()).toBeUndefined();
  });
});

/** The server bundle (dist/main.js) with `env`: its exit code and output (it must exit by itself). */
function runMain(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const base = { ...process.env };
  for (const name of [
    'HOST',
    'QA_TOKEN',
    'QA_CONTROL',
    'NODE_ENV',
    'PORT',
    'DATABASE_PATH',
    'JWT_SECRET',
    'SEED',
    'LOG_LEVEL',
    'LOG',
    'STANDIN',
    'DATABASE_CREATE',
    'CORS_ORIGINS',
  ])
    delete base[name];
  const child = spawn(process.execPath, [inject('serverBundle')], {
    cwd: root,
    env: { ...base, NODE_ENV: 'development', JWT_SECRET: 'storage-test-secret', ...env },
  });
  let output = '';
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  return new Promise((done) => {
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('exit', (code) => {
      clearTimeout(timer);
      done({ code, output });
    });
  });
}
