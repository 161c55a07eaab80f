/**
 * The read caches never answer stale: on the `demo` scenario, on a database
 * file (so the daily runs execute in the worker thread, on their own connection), every money and
 * identity mutation of the contract is made while every member's cached reads are filled; then
 * every cached read of every member (each paged table's first page and page count, the profile,
 * the wallets) is asked again through the cache and compared with the same read computed with no
 * cache at all (invoke with readCache off and a member read afresh, on the same database).
 * Other processes' commits are seen through data_version only every FOREIGN_CHECK_MS: here that
 * check is pushed out of reach, so the worker's commits must be seen through its signal alone.
 */
import { eq } from 'drizzle-orm';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { members } from '@md/db';
import { contract, MSG, procedureNames, type ProcedureName } from '@md/shared';
import { unauthorized } from '../src/core/errors.ts';
import { setForeignCheckMs } from '../src/core/read-cache.ts';
import type { Member, Services } from '../src/core/services.ts';
import { dailyRunsOf } from '../src/modules/engine/jobs.ts';
import { handlers } from '../src/modules/index.ts';
import { DEMO_TRANSACTION_PASSWORD } from '../src/seed/demo-money.ts';
import { invoke } from '../src/transport/invoke.ts';
import { createTestApp, type TestApp } from './helpers.ts';

const PAGE = { pageNo: 1, pageSize: 10 };
const tableInput = contract['table.view_deposit_transaction'].input;
/** Every read the caches keep: the paged tables and their page counts, the profile, the notices, the activity, the wallets. */
const CACHED_READS: readonly ProcedureName[] = [
  ...procedureNames.filter((name) => contract[name].input === tableInput),
  'user.view_profile',
  'notification.view_notification',
  'notification.total_view_notification',
  'activity.view_recent',
  'wallet.view_all_wallets_details',
];
const inputOf = (name: ProcedureName) => (contract[name].input === tableInput ? PAGE : {});

const dir = mkdtempSync(join(tmpdir(), 'md-read-cache-stale-'));
let t: TestApp;
let uncached: Services;
/** Each member's current token (signed directly: a sign-in per member would cost a password hash each). */
const tokens = new Map<number, string>();
let everyone: { id: number; username: string }[] = [];

beforeAll(async () => {
  t = await createTestApp({
    seed: 'demo',
    databasePath: join(dir, 'stale.sqlite'),
    config: { rateLimits: false },
  });
  expect(t.services.config.readCache).not.toBe(false);
  setForeignCheckMs(t.services.sqlite, 1e12);
  // The same database, no read cache, and each call's member read afresh from its token's claims.
  uncached = {
    ...t.services,
    config: { ...t.services.config, readCache: false },
    tokens: {
      sign: (member) => t.services.tokens.sign(member),
      authenticate(token) {
        return { member: this.verify(token), sessionId: t.services.tokens.authenticate(token).sessionId };
      },
      verify(token) {
        // Whether the session is still on is the real service's answer (sessions are never cached).
        t.services.tokens.authenticate(token);
        const claims = t.fastify.jwt.decode<{ sub: string; username: string; tv: number; exp: number }>(
          token,
        );
        if (!claims) throw unauthorized(MSG.invalidAuthentication);
        if (claims.exp * 1000 <= t.clock.now()) throw unauthorized(MSG.sessionExpired);
        const member = t.services.db
          .select()
          .from(members)
          .where(eq(members.id, Number(claims.sub)))
          .get();
        if (!member || member.username !== claims.username) throw unauthorized(MSG.invalidAuthentication);
        if (member.tokenVersion !== claims.tv) throw unauthorized(MSG.sessionExpired);
        return member as Member;
      },
      flushLastSeen: () => t.services.tokens.flushLastSeen(),
    },
  };
  await resign();
}, 120_000);
afterAll(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Every member now in the database gets a valid token (after a reset, a password change…). */
async function resign() {
  everyone = t.services.sqlite.prepare('select id, username from members order by id').all() as {
    id: number;
    username: string;
  }[];
  tokens.clear();
  for (const row of everyone) {
    const member = t.services.db.select().from(members).where(eq(members.id, row.id)).get() as Member;
    tokens.set(row.id, t.services.tokens.sign(member));
  }
}

const idOf = (username: string) => everyone.find((m) => m.username === username)!.id;
const tokenOf = (username: string) => tokens.get(idOf(username))!;

/** One read as the client sees it: the answer, or the error's status and message. */
async function read(services: Services, name: ProcedureName, token: string): Promise<unknown> {
  try {
    return await invoke(services, handlers, name, inputOf(name), {
      ip: '127.0.0.1',
      authorization: `Bearer ${token}`,
    });
  } catch (error) {
    return { error: (error as Error).message, status: (error as { status?: number }).status };
  }
}

/** Fills the caches: every cached read of every member. */
async function readAll() {
  for (const { id } of everyone)
    for (const name of CACHED_READS) await read(t.services, name, tokens.get(id)!);
}

/** Every cached read of every member, through the cache and without it: any difference names the member, the read and the mutation. */
async function expectFresh(mutation: string) {
  const stale: string[] = [];
  for (const { id, username } of everyone) {
    const token = tokens.get(id)!;
    for (const name of CACHED_READS) {
      const cached = await read(t.services, name, token);
      const fresh = await read(uncached, name, token);
      if (JSON.stringify(cached) !== JSON.stringify(fresh))
        stale.push(
          `${mutation}: ${username} ${name}\n  cached ${JSON.stringify(cached).slice(0, 300)}\n  fresh  ${JSON.stringify(fresh).slice(0, 300)}`,
        );
    }
  }
  expect(stale, stale.slice(0, 5).join('\n')).toEqual([]);
}

/** A contract call over HTTP as `username`; it must succeed. */
async function call(username: string, name: ProcedureName, input: Record<string, unknown>) {
  const reply = await t.post(contract[name].path, input, { token: tokenOf(username) });
  expect(reply.body, `${name} as ${username}`).not.toHaveProperty('Error');
  expect(reply.status).toBe(200);
  return reply.body as { Success: unknown };
}
const qa = async (path: string, body: unknown = {}) => {
  const reply = await t.post(path, body);
  expect([200, 201], `${path}: ${JSON.stringify(reply.body)}`).toContain(reply.status);
  return reply.body;
};
const totpCode = (secret: string) =>
  new TOTP({ secret, algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: t.clock.now() });

/** The mutations, in order (later ones use what earlier ones did); each runs between a full read and the comparison. */
const mutations: { name: string; run: () => Promise<unknown> }[] = [
  {
    name: 'QA snapshot saved (restored at the end)',
    run: () => qa('/__qa/snapshots', { name: 'stale-start' }),
  },
  {
    name: 'deposit opened and paid via QA',
    run: async () => {
      const opened = (
        await call('gonzalo_001', 'deposit.make_payment', { amount_usdt: 300, currency: 'USDT.BEP20' })
      ).Success as { TransID: string };
      await qa(`/__qa/deposits/${opened.TransID}/pay`);
    },
  },
  {
    name: 'package purchase',
    run: () => call('gonzalo_001', 'subscription.buy_subscription_packages', { plan: 'starter' }),
  },
  {
    name: 'package purchase by demo',
    run: () => call('demo', 'subscription.buy_subscription_packages', { plan: 'starter' }),
  },
  {
    name: 'swap',
    run: () =>
      call('demo', 'wallet.transfer_wallet', { from_wallet: 'ROI', to_wallet: 'Deposit', amount: 1 }),
  },
  {
    name: 'p2p transfer',
    run: () =>
      call('demo', 'transfer_to_user', {
        username: 'gonzalo_001',
        amount: 2,
        password: DEMO_TRANSACTION_PASSWORD,
      }),
  },
  {
    name: 'withdrawal requested, then approved via QA',
    run: async () => {
      await call('demo', 'wallet.transfer_wallet', {
        from_wallet: 'ROI',
        to_wallet: 'Withdrawal',
        amount: 60,
      });
      await call('demo', 'withdraw.withdraw_request', { amount: 25, password: DEMO_TRANSACTION_PASSWORD });
      await expectFresh('withdrawal requested');
      const pending = (await t.get<{ id: number }[]>('/__qa/withdrawals?status=PENDING')).body;
      await qa(`/__qa/withdrawals/${pending[0]!.id}/approve`);
    },
  },
  {
    name: 'withdrawal requested, then rejected via QA',
    run: async () => {
      await call('demo', 'withdraw.withdraw_request', { amount: 20, password: DEMO_TRANSACTION_PASSWORD });
      await expectFresh('withdrawal requested');
      const pending = (await t.get<{ id: number }[]>('/__qa/withdrawals?status=PENDING')).body;
      await qa(`/__qa/withdrawals/${pending[0]!.id}/reject`);
    },
  },
  {
    name: 'a new member registered under a sponsor',
    run: async () => {
      const fresh = { username: 'stale01', email: 'stale01@example.com' };
      await t.post('/user/verify_otp', { page: 'Email Verification', ...fresh, project: 'Pro' });
      const countries = (await t.post<{ Success: string[] }>('/user/view_country', {})).body.Success;
      const reply = await t.post('/user/register', {
        ...fresh,
        name: 'Stale Check',
        sponsor: 'gonzalo_001',
        password: 'Fresh@12345',
        conpassword: 'Fresh@12345',
        otp: await t.latestOtp(fresh.email),
        side: '0',
        country: countries[0],
        project: 'Pro',
      });
      expect(reply.body).not.toHaveProperty('Error');
      await resign();
    },
  },
  {
    name: 'support message sent (shown in the activity)',
    run: () =>
      call('demo', 'support.send_message', {
        name: 'Demo Member',
        email: 'demo.stale@example.com',
        subject: 'Stale check',
        message: 'Is this message in my activity at once?',
      }),
  },
  {
    name: 'wallet address (profile) updated',
    run: () =>
      call('claude_003', 'wallet.update_wallet_address', {
        address: '0x52908400098527886E0F7030069857D2E4169EE7',
        network: 'BEP.20',
      }),
  },
  {
    name: 'transaction password set',
    run: () => call('claude_003', 'user.reset_transaction_password', { password: 'Txn@456' }),
  },
  {
    name: 'password changed',
    run: async () => {
      await call('claude_003', 'user.verify_otp', { page: 'Change Password' });
      await call('claude_003', 'user.change_password', {
        oldpassword: 'Demo@1234',
        newpassword: 'Fresh@12345',
        conpassword: 'Fresh@12345',
        otp: await t.latestOtp('claude_003'),
      });
    },
  },
  {
    name: 'email changed',
    run: async () => {
      await call('allene_029', 'user.change_email_request', { email: 'allene.stale@example.com' });
      await call('allene_029', 'user.change_email', {
        email: 'allene.stale@example.com',
        otp: await t.latestOtp('allene.stale@example.com'),
      });
    },
  },
  {
    name: 'TOTP enabled',
    run: async () => {
      const key = ((await call('allene_029', 'user.enable_totp', {})).Success as { Key: string }).Key;
      await call('allene_029', 'user.change_totp_status', { status: true, totp: totpCode(key) });
    },
  },
  // A day later every token has expired: new ones, so what is compared is each member's answers.
  {
    name: 'daily runs (QA clock, in the worker)',
    run: () => qa('/__qa/clock?wait=true', { advance: 'P1D' }).then(resign),
  },
  { name: 'QA snapshot restored', run: () => qa('/__qa/snapshots/stale-start/restore').then(resign) },
  { name: 'QA reset to demo', run: () => qa('/__qa/reset', { scenario: 'demo' }).then(resign) },
];

describe('the read caches after every money and identity mutation', () => {
  it('the daily runs execute in the worker (its commits reach the caches through its signal only)', () => {
    expect(dailyRunsOf(t.services)?.inWorker).toBe(true);
  });

  for (const mutation of mutations)
    it(
      mutation.name,
      async () => {
        await readAll();
        await mutation.run();
        await expectFresh(mutation.name);
        // A password change leaves the old token refused (compared above as it is): a new one for what follows.
        if (mutation.name === 'password changed') await resign();
      },
      120_000,
    );

  it('a burst of writes and reads interleaved, then every read compared', async () => {
    await readAll();
    const sponsors = ['demo', 'gonzalo_001', 'claude_003'];
    const work: Promise<unknown>[] = [];
    for (let i = 0; i < 30; i++) {
      const who = sponsors[i % sponsors.length]!;
      if (i % 3 === 0)
        work.push(
          t.post(
            '/wallet/transfer_wallet',
            { from_wallet: 'ROI', to_wallet: 'Deposit', amount: 0.5 },
            { token: tokenOf(who) },
          ),
        );
      if (i % 5 === 0)
        work.push(
          t.post(
            '/transfer_to_user',
            { username: 'gonzalo_001', amount: 0.25, password: DEMO_TRANSACTION_PASSWORD },
            { token: tokenOf('demo') },
          ),
        );
      if (i % 10 === 0)
        work.push(
          t.post('/subscription/buy_subscription_packages', { plan: 'starter' }, { token: tokenOf('demo') }),
        );
      // Reads of the members the writes touch (and one untouched), interleaved with the writes.
      for (const name of CACHED_READS)
        work.push(read(t.services, name, tokenOf(i % 2 ? 'gonzalo_001' : who)));
    }
    await Promise.all(work);
    await expectFresh('burst');
  }, 120_000);
});
