/**
 * Group commit (core/group-commit.ts): the request connection commits without an fsync, and no
 * answer leaves before what was committed ahead of it is synced to disk by one shared sync of the
 * `-wal`, run off the event loop. A SIGKILL in a burst of writes is durability.test.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '@md/db';
import { datasyncFile } from '../src/core/group-commit.ts';
import { STORAGE_MESSAGES } from '../src/core/storage.ts';
import { createTestApp, expectLedgerSound, type TestApp } from './helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'group-commit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let file = 0;
let open: TestApp | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

/** A `-wal` sync the test holds: while held, each call waits until released (or is failed). */
function heldSync() {
  const waiting: { release: () => void; fail: (error: Error) => void }[] = [];
  let held = false;
  let calls = 0;
  const sync = (path: string): Promise<void> => {
    calls++;
    if (!held) return datasyncFile(path);
    return new Promise((resolve, reject) =>
      waiting.push({ release: () => resolve(datasyncFile(path)), fail: reject }),
    );
  };
  return {
    sync,
    get calls() {
      return calls;
    },
    get waiting() {
      return waiting.length;
    },
    hold() {
      held = true;
    },
    releaseAll() {
      held = false;
      for (const each of waiting.splice(0)) each.release();
    },
    failNext(code: string) {
      const each = waiting.shift();
      if (!each) throw new Error('no sync is waiting');
      each.fail(Object.assign(new Error(`${code}: sync failed`), { code }));
    },
  };
}

async function demoApp(sync?: ReturnType<typeof heldSync>) {
  open = await createTestApp({
    databasePath: join(dir, `app-${++file}.sqlite`),
    seed: 'demo',
    ...(sync ? { walSync: sync.sync } : {}),
  });
  return open;
}

/** Settles within `ms`? (a held answer must not arrive while its sync is held). */
const settlesWithin = (promise: Promise<unknown>, ms: number) =>
  Promise.race([promise.then(() => true), new Promise((resolve) => setTimeout(() => resolve(false), ms))]);

const swap = (t: TestApp, token: string, amount = 1) =>
  t.post('/wallet/transfer_wallet', { from_wallet: 'Direct', to_wallet: 'Deposit', amount }, { token });

describe('group commit', () => {
  it('commits without an fsync on the request connection; a bare connection keeps FULL', async () => {
    const t = await demoApp();
    // 1 = NORMAL: the answer waits for the shared sync instead of COMMIT.
    expect(t.services.sqlite.pragma('synchronous', { simple: true })).toBe(1);
    const bare = openDatabase(join(dir, 'bare.sqlite'));
    expect(bare.sqlite.pragma('synchronous', { simple: true })).toBe(2);
    bare.sqlite.close();
  });

  it("holds a write's answer, and a read after it, until the sync; a read with nothing to sync is not held", async () => {
    const state = heldSync();
    const t = await demoApp(state);
    const token = await t.login('demo');
    const before = state.calls;
    // Nothing written since the sign-in's answer: a read goes straight out.
    state.hold();
    expect((await t.post('/user/view_profile', {}, { token })).status).toBe(200);
    expect(state.calls).toBe(before);

    const write = swap(t, token);
    expect(await settlesWithin(write, 300)).toBe(false);
    expect(state.waiting).toBe(1);
    // Committed, so visible on this connection, but not on disk: a read sees it only with the sync.
    const read = t.post('/wallet/view_all_wallets_details', {}, { token });
    expect(await settlesWithin(read, 100)).toBe(false);
    state.releaseAll();
    expect((await write).status).toBe(200);
    expect((await read).status).toBe(200);
    expect(state.calls - before).toBe(1);
  });

  it('a burst of concurrent writes shares a few syncs, and every one is answered and sound', async () => {
    const state = heldSync();
    const t = await demoApp(state);
    const token = await t.login('demo');
    const before = state.calls;
    const transfersBefore = t.count('transfers');
    const answers = await Promise.all(Array.from({ length: 40 }, () => swap(t, token)));
    expect(answers.map((a) => a.status)).toEqual(Array(40).fill(200));
    expect(t.count('transfers')).toBe(transfersBefore + 40);
    // One sync for the writes before the first answer, one for those committed while it ran.
    const syncs = state.calls - before;
    expect(syncs).toBeGreaterThanOrEqual(1);
    expect(syncs).toBeLessThanOrEqual(4);
    await expectLedgerSound(t);
  });

  it('a sync that fails answers the storage 503; the next write is answered once its sync succeeds', async () => {
    const state = heldSync();
    const t = await demoApp(state);
    const token = await t.login('demo');
    state.hold();
    const write = swap(t, token);
    await expect.poll(() => state.waiting).toBe(1);
    state.failNext('EIO');
    const failed = await write;
    expect(failed).toMatchObject({ status: 503, body: { Error: STORAGE_MESSAGES.cannotSave } });
    state.releaseAll();
    // Unsynced commits are synced by the next answer's sync.
    expect((await swap(t, token)).status).toBe(200);
    expect(state.waiting).toBe(0);
  });
});
