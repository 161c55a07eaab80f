import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHmac } from 'node:crypto';
import { MSG } from '@md/shared';
import { HOUR, createTestApp, type TestApp } from './helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seed: 'demo' });
});
afterAll(() => t.close());

describe('login', () => {
  it('signs in with the demo credentials (username case-insensitive)', async () => {
    const reply = await t.post<{ Success: string; JWT: string }>('/user/login', {
      username: 'DEMO',
      password: 'Demo@1234',
    });
    expect(reply.status).toBe(200);
    expect(reply.body.Success).toBe('Login successful!');
    expect(reply.body.JWT.split('.')).toHaveLength(3);
  });

  it('refuses a wrong password or unknown name with 400, never 401', async () => {
    for (const body of [
      { username: 'demo', password: 'Wrong@1234' },
      { username: 'nobody_here', password: 'Demo@1234' },
    ]) {
      const reply = await t.post('/user/login', body, { ip: '10.1.1.1' });
      expect(reply.status).toBe(400);
      expect(reply.body).toMatchObject({ Error: 'Invalid username or password' });
    }
  });

  it('validates its input with the spec messages', async () => {
    expect((await t.post('/user/login', { password: 'x' })).body).toMatchObject({
      Error: MSG.usernameRequired,
    });
    expect((await t.post('/user/login', { username: 'demo' })).body).toMatchObject({
      Error: MSG.passwordRequired,
    });
    expect(
      (await t.post('/user/login', { username: 'demo', password: 'Demo@1234', totp: 'abc' })).body,
    ).toMatchObject({ Error: MSG.totpRequired });
  });
  // Rate limits and brute-force limits with their exact counts: security-auth.test.ts.
});

describe('view_country and check_username_available', () => {
  it('lists countries without a username', async () => {
    const reply = await t.post<{ Success: string[] }>('/user/view_country', {});
    expect(reply.status).toBe(200);
    expect(reply.body.Success.length).toBeGreaterThan(150);
    expect(reply.body.Success).toContain('United Kingdom');
  });

  it('answers whether TOTP is on for a username, false for unknown names', async () => {
    expect((await t.post('/user/view_country', { username: 'demo2fa' })).body).toEqual({ Success: true });
    expect((await t.post('/user/view_country', { username: 'Demo' })).body).toEqual({ Success: false });
    expect((await t.post('/user/view_country', { username: 'no_such_member' })).body).toEqual({
      Success: false,
    });
  });

  it('tells free from taken names', async () => {
    expect((await t.post('/user/check_username_available', { username: 'free_name' })).body).toEqual({
      Status: true,
      Success: 'Username is available',
    });
    expect((await t.post('/user/check_username_available', { username: 'DEMO' })).body).toEqual({
      Status: false,
      Success: 'Username already exists',
    });
    expect((await t.post('/user/check_username_available', {})).body).toMatchObject({
      Error: MSG.usernameRequired,
    });
  });
});

describe('session tokens', () => {
  it('a missing token is 401 Invalid Authentication', async () => {
    const reply = await t.post('/user/view_profile', {});
    expect(reply).toMatchObject({ status: 401, body: { Error: 'Invalid Authentication' } });
  });

  it('a forged token (wrong signature) is 401 Invalid Authentication', async () => {
    const token = await t.login('demo');
    const [header, payload] = token.split('.');
    const forged = `${header}.${payload}.${createHmac('sha256', 'not-the-secret').update(`${header}.${payload}`).digest('base64url')}`;
    expect(await t.post('/user/view_profile', {}, { token: forged })).toMatchObject({
      status: 401,
      body: { Error: 'Invalid Authentication' },
    });
    expect(await t.post('/user/view_profile', {}, { token: 'garbage' })).toMatchObject({
      status: 401,
      body: { Error: 'Invalid Authentication' },
    });
  });

  it('the body jwt field works like the bearer header', async () => {
    const token = await t.login('demo');
    expect((await t.post('/user/view_profile', { jwt: token })).status).toBe(200);
  });

  it('an expired token is 401 Session Expired', async () => {
    const app = await createTestApp({ seed: 'demo' });
    const token = await app.login('demo');
    expect((await app.post('/user/view_profile', {}, { token })).status).toBe(200);
    app.clock.advance(24 * HOUR + 1000);
    expect(await app.post('/user/view_profile', {}, { token })).toMatchObject({
      status: 401,
      body: { Error: 'Session Expired' },
    });
    await app.close();
  });
});
