import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOTP } from 'otpauth';
import { MSG } from '@md/shared';
import { DEMO_TOTP_SECRET } from '../src/seed/demo.ts';
import { createTestApp, type TestApp } from './helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seed: 'demo' });
});
afterAll(() => t.close());

const STEP = 30_000;
const codeFor = (secret: string, at: number) =>
  new TOTP({ secret, algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: at });
const qaCode = async (username: string) =>
  (await t.get<{ code: string; expiresInSeconds: number }>(`/__qa/totp/${username}`)).body;

describe('TOTP sign-in', () => {
  it('demo2fa needs a code; the QA code and the fixed secret agree', async () => {
    expect((await t.post('/user/login', { username: 'demo2fa', password: 'Demo@1234' })).body).toMatchObject({
      Error: MSG.totpRequired,
    });
    const { code, expiresInSeconds } = await qaCode('demo2fa');
    expect(code).toBe(codeFor(DEMO_TOTP_SECRET, t.clock.now()));
    expect(expiresInSeconds).toBeGreaterThan(0);
    expect(
      (
        await t.post('/user/login', {
          username: 'demo2fa',
          password: 'Demo@1234',
          totp: '000000' === code ? '111111' : '000000',
        })
      ).body,
    ).toMatchObject({ Error: 'Invalid TOTP' });
    expect(
      (await t.post('/user/login', { username: 'demo2fa', password: 'Demo@1234', totp: code })).status,
    ).toBe(200);
  });

  it('refuses a code that was already used (replay), accepts the next step', async () => {
    t.clock.advance(STEP);
    const { code } = await qaCode('demo2fa');
    expect(
      (await t.post('/user/login', { username: 'demo2fa', password: 'Demo@1234', totp: code })).status,
    ).toBe(200);
    expect(
      (await t.post('/user/login', { username: 'demo2fa', password: 'Demo@1234', totp: code })).body,
    ).toMatchObject({ Error: 'Invalid TOTP' });
    t.clock.advance(STEP);
    expect(
      (
        await t.post('/user/login', {
          username: 'demo2fa',
          password: 'Demo@1234',
          totp: (await qaCode('demo2fa')).code,
        })
      ).status,
    ).toBe(200);
  });

  it('accepts a code one step old (window ±1) but not two', async () => {
    t.clock.advance(STEP);
    const previous = codeFor(DEMO_TOTP_SECRET, t.clock.now());
    t.clock.advance(STEP);
    expect(
      (await t.post('/user/login', { username: 'demo2fa', password: 'Demo@1234', totp: previous })).status,
    ).toBe(200);
    t.clock.advance(STEP);
    const old = codeFor(DEMO_TOTP_SECRET, t.clock.now() - 2 * STEP);
    if (
      old !== codeFor(DEMO_TOTP_SECRET, t.clock.now()) &&
      old !== codeFor(DEMO_TOTP_SECRET, t.clock.now() - STEP)
    )
      expect(
        (await t.post('/user/login', { username: 'demo2fa', password: 'Demo@1234', totp: old })).body,
      ).toMatchObject({ Error: 'Invalid TOTP' });
  });

  it("QA lists every 2FA member's code by the clock, and no one else", async () => {
    const listed = (await t.get<{ username: string; code: string }[]>('/__qa/totp')).body;
    expect(listed.map((m) => m.username)).toContain('demo2fa');
    expect(listed.map((m) => m.username)).not.toContain('demo');
    expect(listed.find((m) => m.username === 'demo2fa')!.code).toBe(codeFor(DEMO_TOTP_SECRET, t.clock.now()));
  });

  it('QA totp is 404 for members without TOTP', async () => {
    expect((await t.get('/__qa/totp/demo')).status).toBe(404);
    expect((await t.get('/__qa/totp/nobody')).status).toBe(404);
  });
});

describe('enable and disable TOTP', () => {
  it('enable_totp hands out a key and URI; change_totp_status true activates it with a code', async () => {
    const token = await t.login('demo');
    const started = await t.post<{ Success: { Key: string; URI: string } }>(
      '/user/enable_totp',
      {},
      { token },
    );
    expect(started.status).toBe(200);
    const { Key, URI } = started.body.Success;
    expect(Key).toMatch(/^[A-Z2-7]+=*$/);
    expect(URI).toMatch(/^otpauth:\/\/totp\/.*secret=/);
    expect(URI).toContain('demo');
    // Not active yet.
    expect((await t.post('/user/view_country', { username: 'demo' })).body).toEqual({ Success: false });
    const wrong = codeFor(Key, t.clock.now()) === '123456' ? '654321' : '123456';
    expect(
      (await t.post('/user/change_totp_status', { status: true, totp: wrong }, { token })).body,
    ).toMatchObject({ Error: MSG.invalidVerificationCode });
    expect(
      (await t.post('/user/change_totp_status', { status: true, totp: '12' }, { token })).body,
    ).toMatchObject({
      Error: MSG.invalidVerificationCode,
    });
    const code = codeFor(Key, t.clock.now());
    expect(
      (await t.post('/user/change_totp_status', { status: 'true', totp: code }, { token })).body,
    ).toEqual({ Success: MSG.twoFaEnabled });
    expect((await t.post('/user/view_country', { username: 'demo' })).body).toEqual({ Success: true });
    expect((await t.post('/user/enable_totp', {}, { token })).body).toMatchObject({
      Error: '2FA is already enabled',
    });
    // The activating code cannot sign in again (replay).
    expect(
      (await t.post('/user/login', { username: 'demo', password: 'Demo@1234', totp: code })).body,
    ).toMatchObject({ Error: 'Invalid TOTP' });
    expect((await t.post('/user/login', { username: 'demo', password: 'Demo@1234' })).body).toMatchObject({
      Error: MSG.totpRequired,
    });

    t.clock.advance(STEP);
    expect(
      (
        await t.post(
          '/user/change_totp_status',
          { status: false, totp: codeFor(Key, t.clock.now()) },
          { token },
        )
      ).body,
    ).toEqual({ Success: MSG.twoFaDisabled });
    expect((await t.post('/user/view_country', { username: 'demo' })).body).toEqual({ Success: false });
    expect(
      (await t.post('/user/change_totp_status', { status: false, totp: '123456' }, { token })).body,
    ).toMatchObject({ Error: '2FA is not enabled' });
    await t.login('demo');
  });

  it('change_totp_status true without enable_totp first is refused', async () => {
    const token = await t.login('reed_002');
    expect(
      (await t.post('/user/change_totp_status', { status: true, totp: '123456' }, { token })).body,
    ).toMatchObject({ Error: 'Start 2FA set-up first to get a key' });
    expect(
      (await t.post('/user/change_totp_status', { status: 'maybe', totp: '123456' }, { token })).body,
    ).toMatchObject({ Error: 'status must be true or false' });
  });
});
