import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contract, MSG, procedureNameOf, procedureNames } from '@md/shared';
import { handlers } from '../src/modules/index.ts';
import { createTestApp, type TestApp } from './helpers.ts';

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp({ seed: 'demo' });
  token = await t.login('demo');
});
afterAll(() => t.close());

describe('handler table', () => {
  it('every contract endpoint has a handler', () => {
    expect(procedureNames.filter((name) => !handlers[name])).toEqual([]);
  });

  it('an endpoint without a handler answers 501 with the message, over REST and tRPC', async () => {
    // The guard stays for contract additions that land before their handler.
    const table = handlers as Record<string, unknown>;
    const saved = table['rank.current_rank'];
    delete table['rank.current_rank'];
    try {
      expect(await t.post(contract['rank.current_rank'].path, {}, { token })).toMatchObject({
        status: 501,
        body: { Error: MSG.notImplemented },
      });
      expect((await t.trpc('rank.current_rank', 'query', {}, token)).status).toBe(501);
    } finally {
      table['rank.current_rank'] = saved;
    }
    expect((await t.post(contract['rank.current_rank'].path, {}, { token })).status).toBe(200);
  });
});

describe('REST and tRPC give the same answers', () => {
  const cases: { name: keyof typeof contract; input: Record<string, unknown>; auth?: boolean }[] = [
    { name: 'user.view_profile', input: {}, auth: true },
    { name: 'user.view_country', input: {} },
    { name: 'user.view_country', input: { username: 'demo2fa' } },
    { name: 'user.check_username_available', input: { username: 'demo' } },
    { name: 'notification.view_notification', input: { page_no: 2 }, auth: true },
    { name: 'notification.total_view_notification', input: {}, auth: true },
    { name: 'user_analytics.view_user_analytics', input: {}, auth: true },
    { name: 'direct.view_direct_team_details', input: {}, auth: true },
    // Errors: validation, refusal, auth, not implemented.
    { name: 'user.check_username_available', input: {} },
    { name: 'user.login', input: { username: 'demo', password: 'Wrong@1234' } },
    { name: 'user.view_profile', input: {} },
    { name: 'user.reset_password_email', input: { username: 'no_such_member' } },
    { name: 'wallet.view_all_wallets_details', input: {}, auth: true },
  ];

  for (const c of cases) {
    it(`${c.name} ${JSON.stringify(c.input)}`, async () => {
      const entry = contract[c.name];
      expect(procedureNameOf(entry.path)).toBe(c.name);
      const rest = await t.post(entry.path, c.input, c.auth ? { token } : {});
      // Past the 10 s reset throttle, so the second transport sees the same state.
      t.clock.advance(11_000);
      const rpc = await t.trpc(c.name, entry.kind, c.input, c.auth ? token : undefined);
      expect(rpc.status).toBe(rest.status);
      if (rest.status === 200)
        expect((rpc.body as { result: { data: unknown } }).result.data).toEqual(rest.body);
      else
        expect((rpc.body as { error: { message: string } }).error.message).toBe(
          (rest.body as { Error: string }).Error,
        );
    });
  }
});

describe('bad bodies are 400 with a clear Error and write nothing', () => {
  const tables = ['members', 'otps', 'mail_outbox', 'notifications', 'throttles'];
  const snapshot = () => tables.map((table) => t.count(table));

  it('non-object JSON, invalid JSON, wrong types, missing fields, huge strings', async () => {
    const before = snapshot();
    const cases: [string, { raw?: string; body?: unknown }, string | RegExp][] = [
      ['/user/login', { raw: '[1,2]' }, 'The request body must be a JSON object'],
      ['/user/login', { raw: '"text"' }, 'The request body must be a JSON object'],
      ['/user/login', { raw: '42' }, 'The request body must be a JSON object'],
      ['/user/login', { raw: '{"username":' }, 'The request body is not valid JSON'],
      ['/user/login', { body: { username: 5, password: 'x' } }, MSG.usernameRequired],
      ['/user/register', { body: {} }, MSG.usernameRequired],
      ['/user/register', { body: { username: 'x'.repeat(100_000) } }, 'Request body is too large'],
      [
        '/user/verify_otp',
        { body: { page: 'Email Verification', username: 'okname', email: 'bad' } },
        MSG.emailInvalid,
      ],
      ['/user/verify_otp', { body: { page: 'Email Verification', email: 'a@b.test' } }, MSG.usernameRequired],
      ['/user/change_totp_status', { body: { status: true } }, /./],
      ['/notification/view_notification', { body: { page_no: 'one' } }, /./],
      [
        '/user/reset_password',
        { body: { username: 'demo', otp: 123456, newpassword: 'Fresh@1234', conpassword: 'Fresh@1234' } },
        MSG.otpRequired,
      ],
    ];
    for (const [path, input, message] of cases) {
      const reply = await t.post<{ Error: string }>(path, input.body, {
        token,
        ...(input.raw ? { raw: input.raw } : {}),
      });
      expect([400, 413], `${path} ${input.raw ?? JSON.stringify(input.body).slice(0, 60)}`).toContain(
        reply.status,
      );
      expect(typeof reply.body.Error).toBe('string');
      expect(reply.body.Error).toMatch(message);
    }
    // A body within the size limit with a huge field value is refused by the field's limit, without a write.
    const long = await t.post<{ Error: string }>('/user/check_username_available', {
      username: 'y'.repeat(50_000),
    });
    expect(long).toMatchObject({ status: 400, body: { Error: MSG.usernameTooLong } });
    expect(snapshot()).toEqual(before);
  });

  it('a body that is not JSON is 415 on /trpc as on REST (the tRPC adapter answered a multipart POST with a 500)', async () => {
    const payload = '--x\r\nContent-Disposition: form-data; name="username"\r\n\r\ndemo\r\n--x--\r\n';
    for (const url of ['/trpc/user.login', '/user/login']) {
      const response = await t.fastify.inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'multipart/form-data; boundary=x' },
        payload,
      });
      expect(response.statusCode, url).toBe(415);
      expect(response.json(), url).toMatchObject({ Error: 'Send the body as application/json' });
    }
  });

  it('no input ever produces a 500 (a sweep over every implemented endpoint with odd bodies)', async () => {
    const odd: unknown[] = [
      null,
      {},
      { username: null },
      { otp: {}, email: [] },
      { page: 'Change Password', otp: '1' },
      { status: 'x', totp: 1 },
      { page_no: -1 },
      { jwt: 5 },
    ];
    for (const name of procedureNames.filter((n) => handlers[n])) {
      for (const body of odd) {
        const reply = await t.post(contract[name].path, body, { token, ip: '10.7.7.7' });
        expect(reply.status, `${name} ${JSON.stringify(body)}`).toBeLessThan(500);
        expect(reply.body, name).toSatisfy(
          (b: Record<string, unknown>) => 'Success' in b || typeof b.Error === 'string',
        );
      }
    }
  });
});
