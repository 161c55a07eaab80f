/**
 * Sign-in sessions (extension `sessions`): a token names its session (`jti`), logout and "sign out"
 * end it at the server, an email or 2FA change ends the member's other sessions (the one that made
 * the change goes on), a password change or reset ends them all, and the member can list them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOTP } from 'otpauth';
import { MSG } from '@md/shared';
import { buildApp } from '../src/app.ts';
import { manualClock } from '../src/core/clock.ts';
import { LAST_SEEN_FLUSH_MS, LAST_SEEN_INTERVAL_MS } from '../src/core/tokens.ts';
import { moneyTransaction, transfer } from '../src/modules/ledger/ledger.ts';
import { deviceOf } from '../src/modules/sessions/handlers.ts';
import { createTestApp, tableColumns, tableContents, undoMigrationsAfter, type TestApp } from './helpers.ts';
import { fromTemplate } from './templates.ts';

let t: TestApp;
/** Generated demo members no other case here signs in as, one per case. */
let spare: string[] = [];
const nextMember = () => spare.shift()!;
beforeAll(async () => {
  t = await createTestApp({ seed: 'demo' });
  spare = (
    t.services.sqlite
      .prepare(
        "select username from members where username glob '*_[0-9][0-9][0-9]' and username not in ('gonzalo_001', 'claude_003', 'allene_029') order by id limit 20",
      )
      .all() as { username: string }[]
  ).map((row) => row.username);
});
afterAll(() => t.close());

interface Listed {
  ID: string;
  Device: string;
  Address: string | null;
  Created_On: string;
  Last_Seen: string;
  Current: boolean;
}
const profile = (token: string) => t.post('/user/view_profile', {}, { token });
const sessionsOf = async (token: string) =>
  (await t.post<{ Success: Listed[] }>('/user/view_sessions', {}, { token })).body.Success;
const expired = { status: 401, body: { Error: MSG.sessionExpired } };
/** A session's row as stored (what is written, not what waits to be). */
const rowOf = (token: string) =>
  t.services.sqlite
    .prepare('select last_seen_at as at, ip from sessions where id = ?')
    .get(t.fastify.jwt.decode<{ jti: string }>(token)!.jti) as { at: number; ip: string };
/** A swap of one micro-unit from the member's ROI wallet to its Deposit wallet. */
const swapOf = (memberId: number, at: number) => ({
  transId: `SESSIONS-SWAP-${at}`,
  from: { member: memberId, wallet: 'ROI' as const },
  to: { member: memberId, wallet: 'Deposit' as const },
  amount: 1,
  reason: 'swap' as const,
  memberId,
  at,
});
const CHROME_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1';

async function signIn(
  username: string,
  opts: { userAgent?: string; ip?: string; password?: string } = {},
): Promise<string> {
  const response = await t.fastify.inject({
    method: 'POST',
    url: '/user/login',
    headers: {
      'content-type': 'application/json',
      ...(opts.userAgent ? { 'user-agent': opts.userAgent } : {}),
    },
    payload: JSON.stringify({ username, password: opts.password ?? 'Demo@1234' }),
    remoteAddress: opts.ip ?? '10.9.0.1',
  });
  const body = response.json() as { JWT?: string; Error?: string };
  if (!body.JWT) throw new Error(`sign-in ${username}: ${response.statusCode} ${body.Error}`);
  return body.JWT;
}

describe('a token after logout', () => {
  it('is refused on REST and tRPC, cached reads included, while the member’s other sessions go on', async () => {
    const other = await signIn('gonzalo_001');
    const token = await signIn('gonzalo_001');
    expect((await profile(token)).status).toBe(200); // the profile answer is now in the read cache
    expect((await t.post('/user/logout', {}, { token })).body).toEqual({ Success: 'Signed out' });
    expect(await profile(token)).toMatchObject(expired);
    expect((await t.trpc('user.view_profile', 'query', {}, token)).status).toBe(401);
    // The token in the body field is refused the same way.
    expect((await t.post('/user/view_profile', { jwt: token })).status).toBe(401);
    expect((await t.post('/user/logout', {}, { token })).status).toBe(401);
    expect((await profile(other)).status).toBe(200);
  });
});

describe('sign-ins in the same second', () => {
  it('get different tokens (a jti each), both valid, listed as two sessions', async () => {
    const before = t.clock.now();
    const username = nextMember();
    const a = await signIn(username);
    const b = await signIn(username);
    expect(t.clock.now()).toBe(before); // the manual clock did not move: same iat and exp
    expect(a).not.toBe(b);
    const claims = [a, b].map((token) => t.fastify.jwt.decode<{ jti: string; iat: number }>(token)!);
    expect(claims[0]!.iat).toBe(claims[1]!.iat);
    expect(claims[0]!.jti).not.toBe(claims[1]!.jti);
    expect((await profile(a)).status).toBe(200);
    expect((await profile(b)).status).toBe(200);
    expect((await sessionsOf(a)).map((s) => s.ID).sort()).toEqual(claims.map((c) => c.jti).sort());
  });

  it('a token without a jti (signed before sessions existed) is refused as expired', async () => {
    const member = t.services.sqlite
      .prepare("select id, username, token_version as tv from members where username = 'demo'")
      .get() as { id: number; username: string; tv: number };
    const iat = Math.floor(t.clock.now() / 1000);
    const legacy = t.fastify.jwt.sign({
      sub: String(member.id),
      username: member.username,
      tv: member.tv,
      iat,
      exp: iat + 3600,
    });
    expect(await profile(legacy)).toMatchObject(expired);
  });
});

describe('a security change ends the member’s other sessions', () => {
  const totpCode = (secret: string) =>
    new TOTP({ secret, algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: t.clock.now() });

  it('password change: every session ends, the one that changed it too (the client signs in again)', async () => {
    const other = await signIn('claude_003');
    const current = await signIn('claude_003');
    await t.post('/user/verify_otp', { page: 'Change Password' }, { token: current });
    const otp = await t.latestOtp('claude_003');
    const changed = await t.post(
      '/user/change_password',
      { oldpassword: 'Demo@1234', newpassword: 'Fresh@12345', conpassword: 'Fresh@12345', otp },
      { token: current },
    );
    expect(changed.status).toBe(200);
    expect(await profile(other)).toMatchObject(expired);
    expect(await profile(current)).toMatchObject(expired);
    expect((await profile(await signIn('claude_003', { password: 'Fresh@12345' }))).status).toBe(200);
  });

  it('password reset (no session): every session ends', async () => {
    const a = await signIn('allene_029');
    const b = await signIn('allene_029');
    await t.post('/user/reset_password_email', { username: 'allene_029' });
    const otp = await t.latestOtp('allene_029');
    expect(
      (
        await t.post('/user/reset_password', {
          username: 'allene_029',
          otp,
          newpassword: 'Fresh@12345',
          conpassword: 'Fresh@12345',
        })
      ).status,
    ).toBe(200);
    expect(await profile(a)).toMatchObject(expired);
    expect(await profile(b)).toMatchObject(expired);
  });

  it('email change: the other session is refused, the current goes on', async () => {
    // A member without an active package (the email change is blocked during one).
    const username = 'demo2fa';
    const member = t.services.sqlite
      .prepare('select totp_secret as secret from members where username = ?')
      .get(username) as { secret: string };
    const signInTotp = async () => {
      const reply = await t.post<{ JWT: string }>(
        '/user/login',
        { username, password: 'Demo@1234', totp: totpCode(member.secret) },
        { ip: '10.9.1.1' },
      );
      t.clock.advance(30_000); // each TOTP step signs in once
      return reply.body.JWT;
    };
    const other = await signInTotp();
    const current = await signInTotp();
    const requested = await t.post(
      '/user/change_email_request',
      { email: 'demo2fa.new@example.com' },
      { token: current },
    );
    if (requested.status === 403)
      return expect.unreachable('demo2fa holds an active package: pick another member');
    const otp = await t.latestOtp('demo2fa.new@example.com');
    expect(
      (await t.post('/user/change_email', { email: 'demo2fa.new@example.com', otp }, { token: current }))
        .status,
    ).toBe(200);
    expect(await profile(other)).toMatchObject(expired);
    expect((await profile(current)).status).toBe(200);
  });

  it('2FA on and 2FA off: each ends the other sessions, the current goes on', async () => {
    const username = nextMember();
    const first = await signIn(username);
    const current = await signIn(username);
    const key = (await t.post<{ Success: { Key: string } }>('/user/enable_totp', {}, { token: current })).body
      .Success.Key;
    expect(
      (await t.post('/user/change_totp_status', { status: true, totp: totpCode(key) }, { token: current }))
        .status,
    ).toBe(200);
    expect(await profile(first)).toMatchObject(expired);
    expect((await profile(current)).status).toBe(200);

    t.clock.advance(30_000);
    const second = (
      await t.post<{ JWT: string }>(
        '/user/login',
        { username, password: 'Demo@1234', totp: totpCode(key) },
        { ip: '10.9.2.1' },
      )
    ).body.JWT;
    expect((await profile(second)).status).toBe(200);
    t.clock.advance(30_000);
    expect(
      (await t.post('/user/change_totp_status', { status: false, totp: totpCode(key) }, { token: current }))
        .status,
    ).toBe(200);
    expect(await profile(second)).toMatchObject(expired);
    expect((await profile(current)).status).toBe(200);
  });
});

describe('logout racing requests', () => {
  it('every call sent after the logout answered is refused; none fails otherwise', async () => {
    const token = await signIn(nextMember());
    const inFlight: Promise<{ status: number }>[] = [];
    const reads = [
      '/user/view_profile',
      '/wallet/view_all_wallets_details',
      '/table/view_deposit_transaction',
    ];
    for (let i = 0; i < 30; i++) inFlight.push(t.post(reads[i % reads.length]!, {}, { token }));
    const logout = t.post('/user/logout', {}, { token });
    for (let i = 0; i < 30; i++) inFlight.push(t.post(reads[i % reads.length]!, {}, { token }));
    expect((await logout).status).toBe(200);
    const during = await Promise.all(inFlight);
    for (const reply of during) expect([200, 401]).toContain(reply.status);
    const after = await Promise.all(
      Array.from({ length: 30 }, (_, i) => t.post(reads[i % reads.length]!, {}, { token })),
    );
    expect(after.map((reply) => reply.status)).toEqual(after.map(() => 401));
  });

  it('concurrent "sign out all others" and logouts leave exactly the caller’s session', async () => {
    const username = nextMember();
    const tokens = await Promise.all(
      Array.from({ length: 8 }, (_, i) => signIn(username, { ip: `10.9.3.${i}` })),
    );
    const [keeper, ...rest] = tokens as [string, ...string[]];
    const answers = await Promise.all([
      t.post('/user/end_other_sessions', {}, { token: keeper }),
      ...rest.map((token) => t.post('/user/logout', {}, { token })),
    ]);
    for (const reply of answers) expect([200, 401]).toContain(reply.status);
    for (const token of rest) expect(await profile(token)).toMatchObject(expired);
    expect((await sessionsOf(keeper)).map((s) => s.Current)).toEqual([true]);
  });
});

describe('the sessions list', () => {
  it('shows device, address and last seen; last seen is written at most once a minute', async () => {
    const username = nextMember();
    const phone = await signIn(username, { userAgent: SAFARI_IPHONE, ip: '10.9.4.1' });
    const desk = await signIn(username, { userAgent: CHROME_WINDOWS, ip: '10.9.4.2' });
    const listed = await sessionsOf(desk);
    expect(listed.map((s) => [s.Device, s.Address, s.Current])).toEqual([
      ['Chrome 120 on Windows 10', '10.9.4.2', true],
      ['Safari 17 on iOS', '10.9.4.1', false],
    ]);
    const lastSeen = () => {
      // Written a moment later or with a money move (the next case): written now, as the list does.
      t.services.tokens.flushLastSeen();
      return rowOf(phone);
    };
    const signedInAt = lastSeen().at;
    t.clock.advance(LAST_SEEN_INTERVAL_MS / 2);
    await t.post('/user/view_profile', {}, { token: phone, ip: '10.9.4.9' });
    expect(lastSeen()).toEqual({ at: signedInAt, ip: '10.9.4.1' }); // no write inside the minute
    t.clock.advance(LAST_SEEN_INTERVAL_MS / 2);
    await t.post('/user/view_profile', {}, { token: phone, ip: '10.9.4.9' });
    expect(lastSeen()).toEqual({ at: t.clock.now(), ip: '10.9.4.9' });
  });

  it('last seen costs no commit of its own: written with the next money move, or a moment later with the others waiting', async () => {
    const [a, b] = [await signIn(nextMember()), await signIn(nextMember())];
    const signedInAt = t.clock.now();
    t.clock.advance(LAST_SEEN_INTERVAL_MS);
    for (const token of [a, b]) expect((await profile(token)).status).toBe(200);
    // Not written by the calls themselves.
    expect([rowOf(a).at, rowOf(b).at]).toEqual([signedInAt, signedInAt]);
    // A money move of anyone's carries every waiting time in its own transaction.
    const { id: mover } = t.services.sqlite
      .prepare("select id from members where username = 'demo'")
      .get() as { id: number };
    moneyTransaction(t.services, () => transfer(t.services, [swapOf(mover, t.clock.now())]));
    expect([rowOf(a).at, rowOf(b).at]).toEqual([t.clock.now(), t.clock.now()]);
    // Without one, a moment later, both in one transaction.
    t.clock.advance(LAST_SEEN_INTERVAL_MS);
    for (const token of [a, b]) expect((await profile(token)).status).toBe(200);
    expect(rowOf(a).at).toBe(t.clock.now() - LAST_SEEN_INTERVAL_MS);
    await new Promise((resolve) => setTimeout(resolve, LAST_SEEN_FLUSH_MS + 100));
    expect([rowOf(a).at, rowOf(b).at]).toEqual([t.clock.now(), t.clock.now()]);
  });

  it('never shows a session last seen before it was signed in', async () => {
    const username = nextMember();
    // Signed in half a minute into a minute: the minute it was last seen in began before it.
    t.clock.set(Math.floor(t.clock.now() / 60_000) * 60_000 + 60_000 + 30_500);
    const token = await signIn(username);
    const [fresh] = await sessionsOf(token);
    expect(Date.parse(fresh!.Last_Seen)).toBeGreaterThanOrEqual(Date.parse(fresh!.Created_On));
    expect(fresh!.Last_Seen).toBe(fresh!.Created_On);
    // A clock moved back (QA) writes a last-seen time before the sign-in: still not shown before it.
    const signedInAt = t.clock.now();
    t.clock.set(signedInAt - 5 * LAST_SEEN_INTERVAL_MS);
    try {
      const [back] = await sessionsOf(token);
      expect(Date.parse(back!.Last_Seen)).toBeGreaterThanOrEqual(Date.parse(back!.Created_On));
    } finally {
      t.clock.set(signedInAt + LAST_SEEN_INTERVAL_MS);
    }
    // Later calls show the minute it was last seen in.
    const [later] = await sessionsOf(token);
    expect(later!.Last_Seen).toBe(new Date(Math.floor(t.clock.now() / 60_000) * 60_000).toISOString());
  });

  it('"sign out this one" ends that session only; another member’s session or an ended one is 400 and changes nothing', async () => {
    const username = nextMember();
    const mine = await signIn(username);
    const old = await signIn(username);
    const stranger = await signIn('gonzalo_001');
    const oldId = (await sessionsOf(mine)).find((s) => !s.Current)!.ID;
    const strangerId = (await sessionsOf(stranger)).find((s) => s.Current)!.ID;
    expect((await t.post('/user/end_session', { session: strangerId }, { token: mine })).body).toMatchObject({
      Error: 'Session not found',
    });
    expect((await profile(stranger)).status).toBe(200);
    expect((await t.post('/user/end_session', { session: oldId }, { token: mine })).body).toEqual({
      Success: 'Session signed out',
    });
    expect(await profile(old)).toMatchObject(expired);
    expect((await t.post('/user/end_session', { session: oldId }, { token: mine })).body).toMatchObject({
      Error: 'Session not found',
    });
    expect((await t.post('/user/end_session', { session: 'x'.repeat(65) }, { token: mine })).status).toBe(
      400,
    );
    expect((await profile(mine)).status).toBe(200);
  });

  it('"sign out all others" says how many', async () => {
    const username = nextMember();
    await signIn(username);
    await signIn(username);
    const current = await signIn(username);
    expect((await t.post('/user/end_other_sessions', {}, { token: current })).body).toEqual({
      Success: 'Signed out of 2 other sessions',
      Ended: 2,
    });
    expect((await t.post('/user/end_other_sessions', {}, { token: current })).body).toEqual({
      Success: 'Signed out of 0 other sessions',
      Ended: 0,
    });
  });

  it('is advertised as the capability sessions', async () => {
    expect((await t.get<{ capabilities: string[] }>('/config.json')).body.capabilities).toContain('sessions');
  });

  it('reads a device from common User-Agents, and says so when it cannot', () => {
    expect(deviceOf(CHROME_WINDOWS)).toBe('Chrome 120 on Windows 10');
    expect(deviceOf(null)).toBe('Unknown device');
    expect(deviceOf('curl/8.4.0')).not.toBe('');
  });
});

describe('a database of the previous main', () => {
  it('migrates keeping every row; its tokens (no jti) are refused as expired and a new sign-in works', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'md-sessions-'));
    try {
      const path = join(dir, 'old.sqlite');
      const clock = manualClock();
      const built = await buildApp(
        await fromTemplate({ databasePath: path, seed: 'demo', clock, jwtSecret: 'upgrade-secret' }),
      );
      const member = built.services.sqlite
        .prepare("select id, username, token_version as tv from members where username = 'demo'")
        .get() as { id: number; username: string; tv: number };
      const iat = Math.floor(clock.now() / 1000);
      const oldToken = built.fastify.jwt.sign({
        sub: String(member.id),
        username: member.username,
        tv: member.tv,
        iat,
        exp: iat + 3600,
      });
      await built.fastify.close();

      // What the previous main left: the same rows without the sessions table, the other later migrations' additions and their records.
      const old = new Database(path);
      undoMigrationsAfter(old, '0008_earning_entries');
      // Every table and column the previous main had, and their rows: the upgrade keeps them all (it
      // only adds; its notices compared as each member's list, test/helpers.ts).
      const columns = tableColumns(old);
      const before = tableContents(old, columns);
      old.close();

      const app = await buildApp({ databasePath: path, seed: 'demo', clock, jwtSecret: 'upgrade-secret' });
      try {
        expect(app.seeded).toBeNull();
        // The previous main's tables (the later migrations' new ones aside).
        const after = tableContents(app.services.sqlite, columns);
        expect(Object.fromEntries(Object.keys(before).map((table) => [table, after[table]]))).toEqual(before);
        const ask = (token: string) =>
          app.fastify.inject({
            method: 'POST',
            url: '/user/view_profile',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
            payload: '{}',
          });
        expect((await ask(oldToken)).json()).toMatchObject({ Error: MSG.sessionExpired });
        const login = await app.fastify.inject({
          method: 'POST',
          url: '/user/login',
          headers: { 'content-type': 'application/json' },
          payload: JSON.stringify({ username: 'demo', password: 'Demo@1234' }),
        });
        expect((await ask((login.json() as { JWT: string }).JWT)).statusCode).toBe(200);
      } finally {
        await app.fastify.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
