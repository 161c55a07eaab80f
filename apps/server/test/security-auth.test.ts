/**
 * Authentication as OWASP ASVS level 2 asks: brute force limited per account and address
 * pair, per client and per account (a ceiling strangers cannot use to lock the owner out)
 * with exact counts, no account enumeration, the JWT rules, TOTP replay, OTP rules, and
 * rate limits an X-Forwarded-For header cannot reset. Single checks that live elsewhere:
 * expiry of a token (auth.test.ts), a forged signature (auth.test.ts), tokens from before a
 * password change or reset (password.test.ts), TOTP replay and window at sign-in (totp.test.ts),
 * an expired change-password OTP (password.test.ts), the 10 s reset throttle (password.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHmac } from 'node:crypto';
import { MSG, RESET_THROTTLE_MS } from '@md/shared';
import { FAILURE_LIMITS, KNOWN_ADDRESS_MS, WindowCounter } from '../src/core/attempts.ts';
import { OTP_MAX_WRONG_TRIES, OTP_MESSAGES, OTP_TTL_MS } from '../src/core/otp.ts';
import { throttleOnce } from '../src/core/throttle.ts';
import { TOKEN_TTL_SECONDS } from '../src/core/tokens.ts';
import { RATE_LIMITED_MESSAGE, RATE_RULES } from '../src/transport/rate-limit.ts';
import { HOUR, MINUTE, createTestApp, wrongCode, type Reply, type TestApp } from './helpers.ts';

const SECRET = 'security-auth-test-secret';
let t: TestApp;
let names: string[];
beforeAll(async () => {
  t = await createTestApp({ seed: 'demo', jwtSecret: SECRET });
  // Members of the demo team with no TOTP, in a fixed order; each test takes its own.
  names = (
    t.services.sqlite
      .prepare("select username from members where totp_enabled = 0 and username <> 'demo' order by id")
      .all() as { username: string }[]
  ).map((r) => r.username);
});
afterAll(() => t.close());

let taken = 0;
const freshMember = () => names[taken++]!;
let ipCounter = 0;
const freshIp = () => `172.16.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;

/** A POST whose client address is `ip` and which claims another one in X-Forwarded-For. */
async function post(
  url: string,
  body: unknown,
  opts: { ip: string; token?: string; forwardedFor?: string },
): Promise<Reply> {
  const response = await t.fastify.inject({
    method: 'POST',
    url,
    headers: {
      'content-type': 'application/json',
      'x-forwarded-for': opts.forwardedFor ?? `203.0.113.${Math.floor(Math.random() * 250)}`,
      ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
    },
    payload: JSON.stringify(body),
    remoteAddress: opts.ip,
  });
  return { status: response.statusCode, body: response.json() as Record<string, unknown> };
}

const login = (username: string, password: string, ip: string) =>
  post('/user/login', { username, password }, { ip });
const INVALID = { status: 400, body: { Error: 'Invalid username or password', Code: 'INVALID_CREDENTIALS' } };

describe('sign-in brute force', () => {
  const { pair, client, account } = FAILURE_LIMITS.login;

  it(`per account and address: ${pair.failures} failures in 15 minutes, then 429 there even with the right password; the owner elsewhere is not locked out; the window ends it`, async () => {
    expect(pair).toMatchObject({ failures: 10, windowMs: 15 * MINUTE });
    const member = freshMember();
    const ip = freshIp();
    for (let i = 0; i < pair.failures; i++) expect(await login(member, 'Wrong@1234', ip)).toEqual(INVALID);
    const refused = { status: 429, body: { Error: pair.message, Code: 'RATE_LIMITED' } };
    expect(await login(member, 'Demo@1234', ip)).toEqual(refused);
    expect(await login(member.toUpperCase(), 'Demo@1234', ip)).toEqual(refused);
    // Ten wrong passwords from one address do not lock the owner out (a per-account limit alone would).
    expect((await login(member, 'Demo@1234', freshIp())).status).toBe(200);
    t.clock.advance(pair.windowMs - 1000);
    expect(await login(member, 'Demo@1234', ip)).toEqual(refused);
    t.clock.advance(1000);
    expect((await login(member, 'Demo@1234', ip)).status).toBe(200);
  });

  it('an unknown name is limited exactly like a real one (the 429 reveals nothing)', async () => {
    const ip = freshIp();
    for (let i = 0; i < pair.failures; i++)
      expect(await login('nobody_at_all', 'Wrong@1234', ip)).toEqual(INVALID);
    expect(await login('nobody_at_all', 'Wrong@1234', ip)).toMatchObject({
      status: 429,
      body: { Error: pair.message },
    });
  });

  it(`per account: ${account.failures} failures in 24 hours from any addresses, then only addresses that signed in to it in the last 30 days (or proved its mailbox) get in`, async () => {
    expect(account).toMatchObject({ failures: 100, windowMs: 24 * HOUR, exceptKnownAddresses: true });
    const member = freshMember();
    const home = freshIp();
    expect((await login(member, 'Demo@1234', home)).status).toBe(200);
    // Ten strangers' addresses, each within its own pair limit: together they reach the ceiling.
    for (let a = 0; a < account.failures / pair.failures; a++) {
      const ip = freshIp();
      for (let i = 0; i < pair.failures; i++)
        expect(await login(member, 'Wrong@1234', ip), `address ${a}, failure ${i + 1}`).toEqual(INVALID);
    }
    const refused = { status: 429, body: { Error: account.message, Code: 'RATE_LIMITED' } };
    expect(await login(member, 'Demo@1234', freshIp())).toEqual(refused);
    expect(await login(member, 'Wrong@1234', freshIp())).toEqual(refused);
    // The owner's address still signs in, and an unknown name is refused like a real one.
    expect((await login(member, 'Demo@1234', home)).status).toBe(200);
    // A reset code proves the mailbox: the address it was used from gets in.
    const elsewhere = freshIp();
    expect((await post('/user/reset_password_email', { username: member }, { ip: elsewhere })).status).toBe(
      200,
    );
    const code = await t.latestOtp(member);
    expect(
      (
        await post(
          '/user/reset_password',
          { username: member, otp: code, newpassword: 'Fresh@1234', conpassword: 'Fresh@1234' },
          { ip: elsewhere },
        )
      ).status,
    ).toBe(200);
    expect((await login(member, 'Fresh@1234', elsewhere)).status).toBe(200);
    expect(await login(member, 'Fresh@1234', freshIp())).toEqual(refused);
    t.clock.advance(account.windowMs);
    expect((await login(member, 'Fresh@1234', freshIp())).status).toBe(200);
  });

  it('a known address is forgotten after 30 days without a sign-in', async () => {
    expect(KNOWN_ADDRESS_MS).toBe(30 * 24 * HOUR);
    const member = freshMember();
    const home = freshIp();
    expect((await login(member, 'Demo@1234', home)).status).toBe(200);
    t.clock.advance(KNOWN_ADDRESS_MS);
    for (let a = 0; a < account.failures / pair.failures; a++) {
      const ip = freshIp();
      for (let i = 0; i < pair.failures; i++)
        expect((await login(member, 'Wrong@1234', ip)).status).toBe(400);
    }
    expect(await login(member, 'Demo@1234', home)).toMatchObject({
      status: 429,
      body: { Error: account.message },
    });
    t.clock.advance(account.windowMs);
  });

  it(`per client: ${client.failures} failures in 15 minutes across accounts, whatever X-Forwarded-For says; other addresses go on`, async () => {
    expect(client).toMatchObject({ failures: 30, windowMs: 15 * MINUTE });
    const ip = freshIp();
    for (let i = 0; i < client.failures; i++) {
      const reply = await post(
        '/user/login',
        { username: `sprayed_${i}`, password: 'Spring@2026' },
        { ip, forwardedFor: `198.51.100.${i}` },
      );
      expect(reply, `attempt ${i + 1}`).toEqual(INVALID);
    }
    const member = freshMember();
    const refused = { status: 429, body: { Error: client.message, Code: 'RATE_LIMITED' } };
    expect(
      await post(
        '/user/login',
        { username: member, password: 'Demo@1234' },
        { ip, forwardedFor: '198.51.100.250' },
      ),
    ).toEqual(refused);
    expect((await login(member, 'Demo@1234', freshIp())).status).toBe(200);
    t.clock.advance(client.windowMs);
    expect((await login(member, 'Demo@1234', ip)).status).toBe(200);
  });

  it('a wrong or missing TOTP counts as a failed sign-in', async () => {
    const ip = freshIp();
    for (let i = 0; i < pair.failures; i++) {
      const reply = await post(
        '/user/login',
        { username: 'demo2fa', password: 'Demo@1234', ...(i % 2 ? { totp: '000000' } : {}) },
        { ip },
      );
      expect(reply.status).toBe(400);
    }
    const code = (await t.get<{ code: string }>('/__qa/totp/demo2fa')).body.code;
    expect(
      await post('/user/login', { username: 'demo2fa', password: 'Demo@1234', totp: code }, { ip }),
    ).toMatchObject({ status: 429, body: { Error: pair.message } });
    expect(
      (
        await post(
          '/user/login',
          { username: 'demo2fa', password: 'Demo@1234', totp: code },
          { ip: freshIp() },
        )
      ).status,
    ).toBe(200);
    t.clock.advance(pair.windowMs);
  });

  it("the old password at a password change counts with the account's failed sign-ins (a stolen session cannot guess it)", async () => {
    const member = freshMember();
    const token = await t.login(member);
    const ip = freshIp();
    const change = () =>
      post(
        '/user/change_password',
        { oldpassword: 'Guess@1234', newpassword: 'Next@12345', conpassword: 'Next@12345', otp: '123456' },
        { ip, token },
      );
    for (let i = 0; i < pair.failures; i++)
      expect(await change()).toMatchObject({ status: 400, body: { Error: 'Old password is incorrect' } });
    const refused = { status: 429, body: { Error: pair.message, Code: 'RATE_LIMITED' } };
    // Past the request rate of change_password (10 a minute per address), inside the 15-minute window.
    t.clock.advance(MINUTE);
    expect(await change()).toEqual(refused);
    expect(await login(member, 'Demo@1234', ip)).toEqual(refused);
    t.clock.advance(pair.windowMs - MINUTE);
    expect((await login(member, 'Demo@1234', ip)).status).toBe(200);
  });

  it(`request rate: ${RATE_RULES['user.login']![0]!.points} sign-ins a minute per address and name, successful ones included; X-Forwarded-For does not reset it`, async () => {
    const member = freshMember();
    const ip = freshIp();
    for (let i = 0; i < RATE_RULES['user.login']![0]!.points; i++) {
      expect(
        (
          await post(
            '/user/login',
            { username: member, password: 'Demo@1234' },
            { ip, forwardedFor: `192.0.2.${i}` },
          )
        ).status,
      ).toBe(200);
    }
    expect(
      await post(
        '/user/login',
        { username: member, password: 'Demo@1234' },
        { ip, forwardedFor: '192.0.2.99' },
      ),
    ).toMatchObject({ status: 429, body: { Error: RATE_LIMITED_MESSAGE } });
    t.clock.advance(MINUTE);
    expect((await post('/user/login', { username: member, password: 'Demo@1234' }, { ip })).status).toBe(200);
  });

  it('one address cannot mail reset codes to every name it knows: 30 in 15 minutes across names', async () => {
    const rule = RATE_RULES['user.reset_password_email']![1]!;
    expect(rule).toMatchObject({ points: 30, windowMs: 15 * MINUTE, by: 'client' });
    const ip = freshIp();
    for (let i = 0; i < rule.points; i++)
      expect(
        (
          await post(
            '/user/reset_password_email',
            { username: `mailed_${i}` },
            { ip, forwardedFor: `198.51.100.${i}` },
          )
        ).status,
      ).toBe(200);
    expect(await post('/user/reset_password_email', { username: 'mailed_last' }, { ip })).toMatchObject({
      status: 429,
      body: { Error: RATE_LIMITED_MESSAGE },
    });
    expect(
      (await post('/user/reset_password_email', { username: 'mailed_last' }, { ip: freshIp() })).status,
    ).toBe(200);
    t.clock.advance(rule.windowMs);
    expect((await post('/user/reset_password_email', { username: 'mailed_later' }, { ip })).status).toBe(200);
    // A 60 KB name is refused by the contract's length limit before it is throttled; a long key
    // reaching the throttle anyway is throttled like any other, and stored as its hash.
    const long = `n${'x'.repeat(60_000)}`;
    const throttles = t.count('throttles');
    expect((await post('/user/reset_password_email', { username: long }, { ip: freshIp() })).status).toBe(
      400,
    );
    expect(t.count('throttles')).toBe(throttles);
    throttleOnce(t.services, `reset_password_email|${long}`, RESET_THROTTLE_MS, MSG.resetThrottle);
    expect(() =>
      throttleOnce(t.services, `reset_password_email|${long}`, RESET_THROTTLE_MS, MSG.resetThrottle),
    ).toThrow(MSG.resetThrottle);
    expect(
      (t.services.sqlite.prepare('select max(length(key)) as n from throttles').get() as { n: number }).n,
    ).toBeLessThan(200);
  });

  it('the lookups that say whether a name exists are limited per address across names', async () => {
    const ip = freshIp();
    const rule = RATE_RULES['user.check_username_available']![0]!;
    expect(rule).toMatchObject({ points: 120, by: 'client' });
    for (let i = 0; i < rule.points; i++)
      expect((await post('/user/check_username_available', { username: `probe_${i}` }, { ip })).status).toBe(
        200,
      );
    expect(await post('/user/check_username_available', { username: 'probe_last' }, { ip })).toMatchObject({
      status: 429,
      body: { Error: RATE_LIMITED_MESSAGE },
    });
    expect(
      (await post('/user/check_username_available', { username: 'probe_last' }, { ip: freshIp() })).status,
    ).toBe(200);
  });
});

const ADDRESS = `0x${'ab'.repeat(20)}`;

describe('OTP brute force', () => {
  const { account, client } = FAILURE_LIMITS.code;
  const verify = (token: string, otp: string, ip = freshIp()) =>
    post('/wallet/wallet_address_verification', { address: ADDRESS, network: 'BEP.20', otp }, { ip, token });
  const emailOf = (username: string) =>
    (
      t.services.sqlite.prepare('select email from members where username = ?').get(username) as {
        email: string;
      }
    ).email;
  async function issue(username: string, token: string) {
    expect(
      (
        await post(
          '/wallet/update_wallet_address',
          { address: ADDRESS, network: 'BEP.20' },
          { ip: freshIp(), token },
        )
      ).status,
    ).toBe(200);
    return t.latestOtp(emailOf(username));
  }

  it(`per code: ${OTP_MAX_WRONG_TRIES} wrong tries kill it, the right code included afterwards`, async () => {
    const member = freshMember();
    const token = await t.login(member);
    const code = await issue(member, token);
    for (let i = 1; i < OTP_MAX_WRONG_TRIES; i++)
      expect(await verify(token, wrongCode(code))).toMatchObject({
        status: 400,
        body: { Error: OTP_MESSAGES.invalid },
      });
    expect(await verify(token, wrongCode(code))).toMatchObject({
      status: 400,
      body: { Error: OTP_MESSAGES.tooManyTries },
    });
    expect(await verify(token, code)).toMatchObject({
      status: 400,
      body: { Error: OTP_MESSAGES.tooManyTries },
    });
    t.clock.advance(HOUR);
  });

  it(`per account: ${account.failures} wrong codes an hour across fresh codes and addresses, then 429 even for the right code`, async () => {
    expect(account).toMatchObject({ failures: 10, windowMs: HOUR });
    const member = freshMember();
    const token = await t.login(member);
    let failures = 0;
    let code = '';
    while (failures < account.failures) {
      code = await issue(member, token);
      for (let i = 0; i < OTP_MAX_WRONG_TRIES && failures < account.failures; i++, failures++)
        expect((await verify(token, wrongCode(code))).status).toBe(400);
    }
    code = await issue(member, token);
    const refused = { status: 429, body: { Error: account.message, Code: 'RATE_LIMITED' } };
    expect(await verify(token, code)).toEqual(refused);
    // Every OTP endpoint shares the account's count: the 2FA switch too.
    expect(
      await post('/user/change_totp_status', { status: false, totp: '123456' }, { ip: freshIp(), token }),
    ).toEqual(refused);
    t.clock.advance(account.windowMs - OTP_TTL_MS);
    code = await issue(member, token);
    expect(await verify(token, code)).toEqual(refused);
    t.clock.advance(OTP_TTL_MS);
    code = await issue(member, token);
    expect(await verify(token, code)).toEqual({
      status: 200,
      body: { Success: 'Wallet address saved successfully' },
    });
  });

  it(`per client: ${client.failures} wrong codes in 15 minutes across accounts, then 429 for anyone's right code from that address`, async () => {
    expect(client).toMatchObject({ failures: 30, windowMs: 15 * MINUTE });
    const ip = freshIp();
    for (let i = 0; i < client.failures; i++) {
      // Unknown names, each tried once: only the address ties them together.
      const reply = await post(
        '/user/reset_password',
        { username: `ghost_${i}`, otp: '123456', newpassword: 'Fresh@1234', conpassword: 'Fresh@1234' },
        { ip, forwardedFor: `198.51.100.${i}` },
      );
      expect(reply, `attempt ${i + 1}`).toMatchObject({ status: 400, body: { Error: OTP_MESSAGES.invalid } });
    }
    const member = freshMember();
    const token = await t.login(member);
    const code = await issue(member, token);
    expect(await verify(token, code, ip)).toMatchObject({ status: 429, body: { Error: client.message } });
    t.clock.advance(client.windowMs - 1000);
    expect(await verify(token, code, ip)).toMatchObject({ status: 429, body: { Error: client.message } });
    t.clock.advance(1000);
    expect((await verify(token, await issue(member, token), ip)).status).toBe(200);
  });
});

describe('transaction password brute force', () => {
  it(`${FAILURE_LIMITS.transactionPassword.account.failures} wrong ones in 15 minutes per account, from any address, then 429 even for the right one`, async () => {
    const limit = FAILURE_LIMITS.transactionPassword.account;
    expect(limit).toMatchObject({ failures: 10, windowMs: 15 * MINUTE });
    const token = await t.login('demo');
    const send = (password: string) =>
      post('/transfer_to_user', { username: 'gonzalo_001', amount: 1, password }, { ip: freshIp(), token });
    for (let i = 0; i < limit.failures; i++)
      expect(await send('Wrong@123')).toMatchObject({
        status: 400,
        body: { Error: 'Invalid transaction password' },
      });
    const refused = { status: 429, body: { Error: limit.message, Code: 'RATE_LIMITED' } };
    expect(await send('Txn@123')).toEqual(refused);
    // The withdrawal asks the same password: the same count.
    expect(
      await post('/withdraw/withdraw_request', { amount: 20, password: 'Txn@123' }, { ip: freshIp(), token }),
    ).toEqual(refused);
    t.clock.advance(limit.windowMs);
    expect(await send('Txn@123')).toEqual({ status: 200, body: { Success: MSG.transferSuccessful } });
  });
});

describe('OTP rules', () => {
  it('single use, bound to its purpose and subject, and expiring after 10 minutes', async () => {
    const member = freshMember();
    const token = await t.login(member);
    const email = (
      t.services.sqlite.prepare('select email from members where username = ?').get(member) as {
        email: string;
      }
    ).email;
    // Purpose: a password-reset code does not confirm a wallet address, nor the other way round.
    expect((await post('/user/reset_password_email', { username: member }, { ip: freshIp() })).status).toBe(
      200,
    );
    const resetCode = await t.latestOtp(email);
    expect(
      await post(
        '/wallet/wallet_address_verification',
        { address: ADDRESS, network: 'BEP.20', otp: resetCode },
        { ip: freshIp(), token },
      ),
    ).toMatchObject({ status: 400, body: { Error: OTP_MESSAGES.invalid } });
    // Subject: another member's code does not reset this member's password.
    const other = freshMember();
    t.clock.advance(11_000);
    expect((await post('/user/reset_password_email', { username: other }, { ip: freshIp() })).status).toBe(
      200,
    );
    const otherCode = (
      await t.mailbox(
        (
          t.services.sqlite.prepare('select email from members where username = ?').get(other) as {
            email: string;
          }
        ).email,
      )
    )[0]!.otp!;
    const reset = (username: string, otp: string) =>
      post(
        '/user/reset_password',
        { username, otp, newpassword: 'Fresh@1234', conpassword: 'Fresh@1234' },
        { ip: freshIp() },
      );
    if (otherCode !== resetCode)
      expect(await reset(member, otherCode)).toMatchObject({
        status: 400,
        body: { Error: OTP_MESSAGES.invalid },
      });
    t.clock.advance(11_000);
    // Single use: the right code works once.
    expect((await reset(member, resetCode)).status).toBe(200);
    t.clock.advance(11_000);
    expect(await reset(member, resetCode)).toMatchObject({
      status: 400,
      body: { Error: OTP_MESSAGES.invalid },
    });
    // Expiry: 10 minutes on the server clock.
    expect(
      (
        await post(
          '/wallet/update_wallet_address',
          { address: ADDRESS, network: 'BEP.20' },
          { ip: freshIp(), token: await t.login(member, 'Fresh@1234') },
        )
      ).status,
    ).toBe(200);
    const late = await t.latestOtp(email);
    t.clock.advance(OTP_TTL_MS);
    expect(
      await post(
        '/wallet/wallet_address_verification',
        { address: ADDRESS, network: 'BEP.20', otp: late },
        { ip: freshIp(), token: await t.login(member, 'Fresh@1234') },
      ),
    ).toMatchObject({
      status: 400,
      body: { Error: OTP_MESSAGES.expired },
    });
  });
});

describe('no account enumeration', () => {
  const same = (a: Reply, b: Reply) => expect(a).toEqual(b);

  it('sign-in, password reset and its confirmation answer a known and an unknown name alike', async () => {
    const member = freshMember();
    same(
      await login(member, 'Wrong@1234', freshIp()),
      await login('no_such_member', 'Wrong@1234', freshIp()),
    );
    same(
      await post('/user/reset_password_email', { username: member }, { ip: freshIp() }),
      await post('/user/reset_password_email', { username: 'no_such_member' }, { ip: freshIp() }),
    );
    t.clock.advance(11_000);
    const confirm = (username: string) =>
      post(
        '/user/reset_password',
        { username, otp: '000001', newpassword: 'Fresh@1234', conpassword: 'Fresh@1234' },
        { ip: freshIp() },
      );
    const known = await confirm(member);
    expect(known).toMatchObject({ status: 400, body: { Error: OTP_MESSAGES.invalid } });
    same(known, await confirm('no_such_member'));
  });

  it('the P2P recipient check and transfer answer an unknown name and a member outside the downline alike', async () => {
    // demo sits above every member: outside anyone's downline.
    const token = await t.login(freshMember());
    same(
      await post('/level/downline_exist', { username: 'demo' }, { ip: freshIp(), token }),
      await post('/level/downline_exist', { username: 'no_such_member' }, { ip: freshIp(), token }),
    );
    const send = (username: string) =>
      post('/transfer_to_user', { username, amount: 1, password: 'Txn@123' }, { ip: freshIp(), token });
    const outside = await send('demo');
    expect(outside).toMatchObject({ status: 400, body: { Error: MSG.recipientNotFoundOrInvalid } });
    same(outside, await send('no_such_member'));
  });
});

describe('session tokens (JWT)', () => {
  const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const claimsOf = (token: string) =>
    JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
  const sign = (header: object, claims: object, algorithm: 'sha256' | 'sha512', key = SECRET) => {
    const unsigned = `${b64(header)}.${b64(claims)}`;
    return `${unsigned}.${createHmac(algorithm, key).update(unsigned).digest('base64url')}`;
  };
  const profile = (token: string) => post('/user/view_profile', {}, { ip: freshIp(), token });
  const INVALID_AUTH = {
    status: 401,
    body: { Error: MSG.invalidAuthentication, Code: 'INVALID_AUTHENTICATION' },
  };

  it('only HS256 with the server key: alg none, HS512 with the right key, HS256 with another key and edited claims are refused', async () => {
    const token = await t.login('demo');
    const claims = claimsOf(token);
    expect((await profile(sign({ alg: 'HS256', typ: 'JWT' }, claims, 'sha256'))).status).toBe(200);
    expect(await profile(`${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.`)).toEqual(INVALID_AUTH);
    expect(await profile(`${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}`)).toEqual(INVALID_AUTH);
    expect(await profile(sign({ alg: 'HS512', typ: 'JWT' }, claims, 'sha512'))).toEqual(INVALID_AUTH);
    expect(await profile(sign({ alg: 'HS256', typ: 'JWT' }, claims, 'sha256', 'another-key'))).toEqual(
      INVALID_AUTH,
    );
    // Another member's id under demo's name, signed with the right key: the claims must agree.
    expect(await profile(sign({ alg: 'HS256', typ: 'JWT' }, { ...claims, sub: '2' }, 'sha256'))).toEqual(
      INVALID_AUTH,
    );
    // The signature of one token does not carry over to edited claims.
    const [header, , signature] = token.split('.');
    expect(await profile(`${header}.${b64({ ...claims, username: 'demo2fa' })}.${signature}`)).toEqual(
      INVALID_AUTH,
    );
  });

  it('expiry is read on the server clock: a token lives 24 hours, a far exp in the claims needs the key', async () => {
    expect(TOKEN_TTL_SECONDS).toBe(24 * 60 * 60);
    const token = await t.login('demo');
    const claims = claimsOf(token) as { iat: number; exp: number };
    expect(claims.exp - claims.iat).toBe(TOKEN_TTL_SECONDS);
    t.clock.advance(TOKEN_TTL_SECONDS * 1000 - 1000);
    expect((await profile(token)).status).toBe(200);
    t.clock.advance(1000);
    expect(await profile(token)).toMatchObject({ status: 401, body: { Error: MSG.sessionExpired } });
    expect(
      await profile(
        sign(
          { alg: 'HS256', typ: 'JWT' },
          { ...claims, exp: claims.exp + 10 * TOKEN_TTL_SECONDS },
          'sha256',
          'another-key',
        ),
      ),
    ).toEqual(INVALID_AUTH);
    // A token must carry an exp, even one signed with the right key.
    const { exp: _exp, ...withoutExp } = claims;
    expect(await profile(sign({ alg: 'HS256', typ: 'JWT' }, withoutExp, 'sha256'))).toEqual(INVALID_AUTH);
  });

  it('a TOTP code used to sign in cannot then switch 2FA off (replay across endpoints)', async () => {
    t.clock.advance(60_000);
    const code = (await t.get<{ code: string }>('/__qa/totp/demo2fa')).body.code;
    const token = await t.login('demo2fa', 'Demo@1234', code);
    expect(
      await post('/user/change_totp_status', { status: false, totp: code }, { ip: freshIp(), token }),
    ).toMatchObject({ status: 400, body: { Error: MSG.invalidVerificationCode } });
    expect((await post('/user/view_country', { username: 'demo2fa' }, { ip: freshIp() })).body).toEqual({
      Success: true,
    });
  });
});

describe('the limit counters under hostile keys', () => {
  it('a 60 KB username is one key among others (stored as its hash), and the map stays bounded', () => {
    const counter = new WindowCounter();
    const long = 'x'.repeat(60_000);
    expect(counter.hit(long, 0, MINUTE)).toBe(1);
    expect(counter.hit(long, 1, MINUTE)).toBe(2);
    expect(counter.hit(`${long}y`, 2, MINUTE)).toBe(1);
    expect(counter.count(long, 3)).toBe(2);
    expect(counter.count(long, MINUTE)).toBe(0);
    // A flood of fresh keys inside one window: the oldest go first once the bound is reached.
    for (let i = 0; i <= WindowCounter.MAX_BUCKETS; i++) counter.hit(`flood-${i}`, 10, HOUR);
    expect(counter.size).toBeLessThanOrEqual(WindowCounter.MAX_BUCKETS);
    expect(counter.count('flood-0', 11)).toBe(0);
    expect(counter.count(`flood-${WindowCounter.MAX_BUCKETS}`, 11)).toBe(1);
  });

  it('a window never lasts longer because the clock went back: one that starts after now has lapsed', () => {
    const counter = new WindowCounter();
    const later = 10 * HOUR;
    for (let i = 0; i < 5; i++) counter.hit('k', later, MINUTE);
    expect(counter.count('k', later + 1)).toBe(5);
    // QA moved the clock back: the future window is no longer counted, and a new one starts now.
    expect(counter.count('k', 0)).toBe(0);
    expect(counter.hit('k', 0, MINUTE)).toBe(1);
    expect(counter.count('k', MINUTE - 1)).toBe(1);
  });

  it('a hit given back is no longer counted; one whose window was replaced leaves the new window alone', () => {
    const counter = new WindowCounter();
    const bucket = counter.take('k', 0, MINUTE);
    counter.hit('k', 1, MINUTE);
    WindowCounter.giveBack(bucket);
    expect(counter.count('k', 2)).toBe(1);
    const old = counter.take('j', 0, MINUTE);
    expect(counter.hit('j', MINUTE, MINUTE)).toBe(1);
    WindowCounter.giveBack(old);
    expect(counter.count('j', MINUTE)).toBe(1);
  });
});
