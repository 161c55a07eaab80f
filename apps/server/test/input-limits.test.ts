/**
 * Length limits over HTTP. A 50,001-character username and a 60,000-character name were
 * accepted at registration, and that member's own JWT then exceeded header limits. Every text
 * input now has an upper bound (packages/shared TEXT_MAX): one over it is a 400 with the limit's
 * message, refused before any lookup, hash or write; a value at the limit still works end to end;
 * the OpenAPI document states each bound as maxLength.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contract, MSG, procedureNames, TEXT_MAX } from '@md/shared';
import { createTestApp, moneySnapshot, type TestApp } from './helpers.ts';

let t: TestApp;
let demo: string;
beforeAll(async () => {
  t = await createTestApp({ seed: 'demo' });
  demo = await t.login('demo');
});
afterAll(() => t.close());

let ipCounter = 0;
/** A fresh address per call keeps the request-rate limits out of these tests. */
const ip = () => `10.12.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;
const post = (path: string, body: unknown, token?: string) =>
  t.post<{ Success?: unknown; JWT?: string; Error?: string }>(path, body, {
    ip: ip(),
    ...(token ? { token } : {}),
  });

/** Rows written by this connection so far, and the rows of the tables a refused call could touch. */
const state = () => ({
  writes: (t.services.sqlite.prepare('select total_changes() as n').get() as { n: number }).n,
  rows: ['members', 'mail_outbox', 'support_messages', 'notifications', 'throttles'].map((table) =>
    t.count(table),
  ),
  money: moneySnapshot(t),
});
/** Expects a 400 with `message` that changed nothing. */
async function expectRefused(path: string, body: unknown, message: string, token?: string) {
  const before = state();
  expect(await post(path, body, token), path).toMatchObject({ status: 400, body: { Error: message } });
  expect(state(), `${path} wrote something`).toEqual(before);
}

const register = {
  sponsor: 'demo',
  email: 'limits@example.com',
  password: 'Secret@123',
  conpassword: 'Secret@123',
  otp: '123456',
  side: '0',
  country: 'United Kingdom',
  project: 'Pro',
};

describe('registration', () => {
  it('refuses a 50,001-character username and a 60,000-character name, at the OTP request and at registration, writing nothing', async () => {
    const username = 'u'.repeat(50_001);
    await expectRefused(
      '/user/verify_otp',
      { page: 'Email Verification', username, email: 'limits@example.com', project: 'Pro' },
      MSG.usernameTooLong,
    );
    await expectRefused('/user/register', { ...register, username, name: 'Limits' }, MSG.usernameTooLong);
    await expectRefused(
      '/user/register',
      { ...register, username: 'limits', name: 'N'.repeat(60_000) },
      MSG.nameTooLong,
    );
    await expectRefused(
      '/user/register',
      { ...register, username: 'limits', name: 'Limits', email: `${'e'.repeat(250)}@example.com` },
      MSG.emailTooLong,
    );
    await expectRefused(
      '/user/register',
      { ...register, username: 'limits', name: 'Limits', country: 'C'.repeat(61) },
      MSG.countryTooLong,
    );
    const long = `Aa1!${'a'.repeat(TEXT_MAX.password)}`;
    await expectRefused(
      '/user/register',
      { ...register, username: 'limits', name: 'Limits', password: long, conpassword: long },
      MSG.passwordTooLong,
    );
    // The same over tRPC.
    const viaTrpc = await t.trpc('user.register', 'mutation', { ...register, username, name: 'Limits' });
    expect(viaTrpc.status).toBe(400);
    expect((viaTrpc.body as { error: { message: string } }).error.message).toBe(MSG.usernameTooLong);
  });

  it('registers a member whose username and name are exactly at the limit, who then signs in and uses the token', async () => {
    const username = 'a'.repeat(TEXT_MAX.username);
    const email = 'at.the.limit@example.com';
    const name = 'N'.repeat(TEXT_MAX.name);
    expect(
      (await post('/user/verify_otp', { page: 'Email Verification', username, email, project: 'Pro' }))
        .status,
    ).toBe(200);
    const otp = await t.latestOtp(email);
    const registered = await post('/user/register', { ...register, username, name, email, otp });
    expect(registered.status, registered.body.Error).toBe(200);
    const token = await t.login(username, 'Secret@123');
    const profile = await post('/user/view_profile', {}, token);
    expect(profile.body.Success).toEqual([expect.objectContaining({ Username: username, Name: name })]);
  });
});

describe('sign-in and the inputs that name a member', () => {
  it('refuses an over-long username at sign-in at once, and never counts it as a failed sign-in', async () => {
    const username = 'd'.repeat(TEXT_MAX.username + 1);
    // More than the per-account failure limit, from different addresses: every one is a 400, never a 429.
    for (let i = 0; i < 12; i++)
      await expectRefused('/user/login', { username, password: 'Demo@1234' }, MSG.usernameTooLong);
    await expectRefused(
      '/user/login',
      { username: 'demo', password: `Demo@1234${'x'.repeat(TEXT_MAX.password)}` },
      MSG.passwordTooLong,
    );
    const viaTrpc = await t.trpc('user.login', 'mutation', {
      username: 'x'.repeat(50_001),
      password: 'Demo@1234',
    });
    expect(viaTrpc.status).toBe(400);
    expect((viaTrpc.body as { error: { message: string } }).error.message).toBe(MSG.usernameTooLong);
  });

  it('refuses over-long names at the TOTP lookup, availability, reset, trees and the P2P recipient check', async () => {
    const username = 'x'.repeat(TEXT_MAX.username + 1);
    await expectRefused('/user/view_country', { username }, MSG.usernameTooLong);
    await expectRefused('/user/check_username_available', { username }, MSG.usernameTooLong);
    await expectRefused('/user/reset_password_email', { username }, MSG.usernameTooLong);
    await expectRefused(
      '/user/reset_password',
      { username, otp: '123456', newpassword: 'Fresh@1234', conpassword: 'Fresh@1234' },
      MSG.usernameTooLong,
    );
    // A 400 for the length, not the 404 of a name outside the downline.
    for (const path of [
      '/level/downline_exist',
      '/level/view_downline',
      '/binary/view_binary_downline',
      '/binary/view_binary_downline_details',
    ]) {
      await expectRefused(path, { username }, MSG.usernameTooLong, demo);
    }
  });

  it('refuses an over-long transaction password before it is checked, moving no money', async () => {
    const password = `Txn@123${'x'.repeat(TEXT_MAX.password)}`;
    await expectRefused(
      '/transfer_to_user',
      { username: 'gonzalo_001', amount: 1, password },
      MSG.passwordTooLong,
      demo,
    );
    await expectRefused('/withdraw/withdraw_request', { amount: 20, password }, MSG.passwordTooLong, demo);
  });
});

describe('other text inputs', () => {
  it('support: a message over 5,000 characters (or 60,000) is refused and nothing is stored or mailed', async () => {
    const valid = {
      name: 'Demo Member',
      email: 'demo.reply@example.com',
      subject: 'Upgrade question',
      message: 'How do I upgrade from Silver to Gold?',
    };
    await expectRefused(
      '/support/send_message',
      { ...valid, message: 'm'.repeat(TEXT_MAX.supportMessage + 1) },
      MSG.messageTooLong,
      demo,
    );
    await expectRefused(
      '/support/send_message',
      { ...valid, message: 'm'.repeat(60_000) },
      MSG.messageTooLong,
      demo,
    );
    await expectRefused(
      '/support/send_message',
      { ...valid, subject: 's'.repeat(TEXT_MAX.supportSubject + 1) },
      MSG.subjectTooLong,
      demo,
    );
  });

  it('email change, table search and filter names', async () => {
    await expectRefused(
      '/user/change_email_request',
      { email: `${'e'.repeat(250)}@example.com` },
      MSG.emailTooLong,
      demo,
    );
    await expectRefused(
      '/table/view_deposit_transaction',
      { search: ['s'.repeat(TEXT_MAX.search + 1)] },
      MSG.searchTooLong,
      demo,
    );
    await expectRefused(
      '/table/view_deposit_transaction',
      { filters: { ['f'.repeat(TEXT_MAX.filterName + 1)]: ['x'] } },
      'A filter name must be at most 50 characters',
      demo,
    );
    // At the limit a search is just a search.
    expect(
      (await post('/table/view_deposit_transaction', { search: ['s'.repeat(TEXT_MAX.search)] }, demo)).body,
    ).toEqual({ Success: [], Next_Cursor: null });
  });
});

describe('page numbers', () => {
  it('answers a page far past the end of every paged read empty, up to the largest safe page number, never a 500', async () => {
    const shapeOf = (name: (typeof procedureNames)[number]) =>
      (contract[name].input as unknown as { shape?: Record<string, unknown> }).shape ?? {};
    const paged = procedureNames.filter((name) => 'pageNo' in shapeOf(name) || 'per_page' in shapeOf(name));
    expect(paged.length).toBeGreaterThan(15);
    for (const name of paged) {
      const byPageNo = 'pageNo' in shapeOf(name);
      // The largest page size the read takes: a page ends past 2^53 rows with it.
      let size = 0;
      for (const candidate of [200, 100, 50]) {
        const body = byPageNo
          ? { pageNo: 1, pageSize: candidate }
          : { username: 'demo', page: 1, per_page: candidate };
        if ((await post(contract[name].path, body, demo)).status === 200) {
          size = candidate;
          break;
        }
      }
      expect(size, name).toBeGreaterThan(0);
      for (const page of [Number.MAX_SAFE_INTEGER, 2 ** 46 + 1, 1e11]) {
        const body = byPageNo ? { pageNo: page, pageSize: size } : { username: 'demo', page, per_page: size };
        const reply = await post(contract[name].path, body, demo);
        expect(reply.status, `${name} page ${page}: ${JSON.stringify(reply.body)}`).toBe(200);
        const rows = Array.isArray(reply.body.Success)
          ? reply.body.Success
          : (reply.body.Success as { Downline?: unknown[] } | undefined)?.Downline;
        if (rows) expect(rows, `${name} page ${page}`).toEqual([]);
      }
    }
  });
});

describe('the OpenAPI document', () => {
  type Schema = {
    $ref?: string;
    properties?: Record<string, Schema>;
    items?: Schema;
    propertyNames?: Schema;
    additionalProperties?: Schema;
    maxLength?: number;
  };
  it('states the limits as maxLength on the request bodies', async () => {
    const doc = (
      await t.get<{
        paths: Record<
          string,
          { post: { requestBody: { content: { 'application/json': { schema: Schema } } } } }
        >;
        components: { schemas: Record<string, Schema> };
      }>('/docs/openapi.json')
    ).body;
    const body = (path: string) => {
      const schema = doc.paths[path]!.post.requestBody.content['application/json'].schema;
      return schema.$ref ? doc.components.schemas[schema.$ref.split('/').pop()!]! : schema;
    };
    const maxOf = (path: string) =>
      Object.fromEntries(
        Object.entries(body(path).properties ?? {}).map(([key, schema]) => [key, schema.maxLength]),
      );
    expect(maxOf(contract['user.register'].path)).toMatchObject({
      username: 30,
      name: 100,
      sponsor: 30,
      email: 254,
      password: 128,
      conpassword: 128,
      country: 60,
    });
    expect(maxOf(contract['user.login'].path)).toMatchObject({ username: 30, password: 128 });
    expect(maxOf(contract['support.send_message'].path)).toMatchObject({
      name: 100,
      email: 254,
      subject: 200,
      message: 5000,
    });
    expect(maxOf(contract['wallet.update_wallet_address'].path)).toMatchObject({ address: 42 });
    const table = body(contract['table.view_deposit_transaction'].path).properties!;
    expect(table.search!.items!.maxLength).toBe(TEXT_MAX.search);
    expect(table.filters!.propertyNames!.maxLength).toBe(TEXT_MAX.filterName);
    expect(table.filters!.additionalProperties!.items!.maxLength).toBe(TEXT_MAX.filterValue);
  });
});
