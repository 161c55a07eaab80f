import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { TOTP } from 'otpauth';
import {
  createJournal,
  isSecretField,
  JOURNAL_CAPACITY,
  keptBody,
  keptHeaders,
  REDACTED,
  redact,
} from '../src/modules/qa/journal.ts';
import { createTestApp, type TestApp } from './helpers.ts';

interface Entry {
  id: number;
  time: string;
  requestId: string;
  method: string;
  url: string;
  path: string;
  procedure: string;
  transport: 'rest' | 'trpc';
  status: number | null;
  durationMs: number | null;
  member: string | null;
  requestHeaders: Record<string, unknown>;
  requestBody: Record<string, unknown> | null;
  responseBody: unknown;
  fault: { id: string; effect: string; delayMs: number } | null;
  pending: boolean;
}

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seed: 'demo', config: { rateLimits: false } });
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.fastify.inject({ method: 'DELETE', url: '/__qa/journal' });
});

const journal = async (query = '') => (await t.get<Entry[]>(`/__qa/journal${query}`)).body;

describe('journal entries', () => {
  it('records each call with method, path, procedure, transport, status, duration, time, member and bodies, newest first', async () => {
    const token = await t.login('demo');
    await t.post('/rank/current_rank', {}, { token });
    await t.trpc('wallet.view_all_wallets_details', 'query', {}, token);
    await t.post('/user/check_username_available', {});
    const [bad, rpc, rest, login] = await journal();
    expect(login).toMatchObject({
      method: 'POST',
      url: '/user/login',
      path: '/user/login',
      procedure: 'user.login',
      transport: 'rest',
      status: 200,
      member: 'demo',
      fault: null,
      pending: false,
    });
    expect(rest).toMatchObject({
      method: 'POST',
      url: '/rank/current_rank',
      procedure: 'rank.current_rank',
      transport: 'rest',
      status: 200,
      member: 'demo',
      requestBody: {},
    });
    expect(rest!.responseBody).toMatchObject({ Success: { Rank: expect.any(String) } });
    expect(rpc).toMatchObject({
      method: 'GET',
      url: '/trpc/wallet.view_all_wallets_details',
      path: '/wallet/view_all_wallets_details',
      procedure: 'wallet.view_all_wallets_details',
      transport: 'trpc',
      status: 200,
      member: 'demo',
    });
    expect(rpc!.responseBody).toMatchObject({ Success: expect.any(Object) });
    expect(bad).toMatchObject({
      procedure: 'user.check_username_available',
      status: 400,
      member: null,
      responseBody: { Error: expect.any(String) },
    });
    for (const entry of [bad, rpc, rest, login]) {
      expect(entry!.durationMs).toBeGreaterThanOrEqual(0);
      expect(entry!.time).toBe(new Date(t.clock.now()).toISOString());
    }
    expect(login!.id).toBeLessThan(rest!.id);
  });

  it('records each call of a tRPC batch separately under one request id, and refusals before the handler', async () => {
    const token = await t.login('demo');
    await t.fastify.inject({ method: 'DELETE', url: '/__qa/journal' });
    await t.fastify.inject({
      method: 'GET',
      url: `/trpc/rank.current_rank,rank.view_all_ranks?batch=1&input=${encodeURIComponent(JSON.stringify({ 0: {}, 1: {} }))}`,
      headers: { authorization: `Bearer ${token}` },
    });
    const [second, first] = await journal();
    expect([first!.procedure, second!.procedure].sort()).toEqual([
      'rank.current_rank',
      'rank.view_all_ranks',
    ]);
    expect(first!.requestId).toBe(second!.requestId);
    expect(first!.url).toBe('/trpc/rank.current_rank,rank.view_all_ranks');

    // Unreadable JSON never reaches the handler; the journal still shows the 400.
    await t.post('/user/login', undefined, { raw: '{"username":' });
    expect((await journal('?limit=1'))[0]).toMatchObject({
      procedure: 'user.login',
      transport: 'rest',
      status: 400,
      responseBody: { Error: 'The request body is not valid JSON' },
    });
  });

  it("names a call's member by the token its own check authenticated, looking up none of its own", async () => {
    const token = await t.login('demo');
    await t.fastify.inject({ method: 'DELETE', url: '/__qa/journal' });
    const verify = vi.spyOn(t.services.tokens, 'verify');
    try {
      await t.post('/user/view_profile', { jwt: token }, { token });
      await t.trpc('wallet.view_all_wallets_details', 'query', {}, token);
      // No fault rule could apply, so nothing needed the member before the call ran.
      expect(verify).not.toHaveBeenCalled();
    } finally {
      verify.mockRestore();
    }
    const [rpc, rest] = await journal();
    expect(rest).toMatchObject({
      procedure: 'user.view_profile',
      member: 'demo',
      requestBody: { jwt: REDACTED },
    });
    expect(rpc).toMatchObject({ procedure: 'wallet.view_all_wallets_details', member: 'demo' });

    // A refused token names nobody; a sign-in names the member its body does.
    await t.post('/user/view_profile', {}, { token: 'not-a-token' });
    expect((await journal('?limit=1'))[0]).toMatchObject({ status: 401, member: null });
    await t.login('demo');
    expect((await journal('?limit=1'))[0]).toMatchObject({ procedure: 'user.login', member: 'demo' });
  });

  it('records the fault rule that shaped an answer, and a call still waiting as pending', async () => {
    const rule = (await t.post<{ id: string }>('/__qa/faults', { path: '/user/view_country', status: 503 }))
      .body;
    await t.post('/user/view_country', {});
    expect((await journal())[0]).toMatchObject({
      status: 503,
      responseBody: { Error: 'Service Unavailable' },
      fault: { id: rule.id, effect: 'error', delayMs: 0 },
    });
    await t.fastify.inject({ method: 'DELETE', url: '/__qa/faults' });

    await t.post('/__qa/faults', { path: '/user/view_country', delayMs: 200 });
    const slow = t.post('/user/view_country', {});
    await expect
      .poll(async () => (await journal('?limit=1'))[0])
      .toMatchObject({ procedure: 'user.view_country', pending: true, status: null });
    await slow;
    expect((await journal('?limit=1'))[0]).toMatchObject({
      pending: false,
      status: 200,
      fault: { effect: 'pass', delayMs: 200 },
    });
    await t.fastify.inject({ method: 'DELETE', url: '/__qa/faults' });
  });
});

describe('journal redaction', () => {
  it('never shows a password, OTP, TOTP code or secret, transaction password, token or Authorization header', async () => {
    const secrets: string[] = ['Demo@1234'];
    // Sign-in (password, totp) and its answer (JWT).
    const token = await t.login('demo');
    secrets.push(token);
    // Password change: old/new/confirm passwords, the OTP, the jwt body field.
    const claude = await t.login('claude_003');
    secrets.push(claude);
    await t.post('/user/verify_otp', { page: 'Change Password', jwt: claude });
    const otp = await t.latestOtp('claude_003');
    secrets.push(otp);
    await t.post('/user/change_password', {
      jwt: claude,
      oldpassword: 'Demo@1234',
      newpassword: 'Fresh@98765',
      conpassword: 'Fresh@98765',
      otp,
    });
    secrets.push('Fresh@98765');
    secrets.push(await t.login('claude_003', 'Fresh@98765'));
    const fresh = token;
    // Transaction password (P2P) and the token field of total_view_notification.
    await t.post(
      '/transfer_to_user',
      { username: 'gonzalo_001', amount: 1, password: 'Txn@123' },
      { token: fresh },
    );
    secrets.push('Txn@123');
    await t.post('/notification/total_view_notification', { token: fresh });
    // TOTP set-up: the key and URI in the answer, the code in the request.
    const other = await t.login('allene_029');
    secrets.push(other);
    const setup = (
      await t.post<{ Success: { Key: string; URI: string } }>('/user/enable_totp', {}, { token: other })
    ).body.Success;
    secrets.push(setup.Key, setup.URI);
    const code = new TOTP({ secret: setup.Key, algorithm: 'SHA1', digits: 6, period: 30 }).generate({
      timestamp: t.clock.now(),
    });
    secrets.push(code);
    await t.post('/user/change_totp_status', { status: true, totp: code }, { token: other });
    await t.post('/user/login', { username: 'allene_029', password: 'Demo@1234', totp: code });
    // Nested, oddly cased secrets over tRPC, where the input also travels in the URL.
    await t.trpc('rank.current_rank', 'query', {
      jwt: fresh,
      extra: {
        Deeper: [
          { Password: 'Nested#Pass1', newPassword: 'Nested#Pass2', OTP: '918273', Secret: 's3cr3t-value' },
        ],
      },
    });
    secrets.push('Nested#Pass1', 'Nested#Pass2', '918273', 's3cr3t-value');

    const entries = await journal('?limit=500');
    expect(entries.length).toBeGreaterThanOrEqual(10);
    const text = JSON.stringify(entries);
    for (const secret of secrets) expect(text, `journal leaks ${secret.slice(0, 12)}…`).not.toContain(secret);

    const byProcedure = (name: string) => entries.find((e) => e.procedure === name)!;
    expect(byProcedure('user.change_password').requestBody).toEqual({
      jwt: REDACTED,
      oldpassword: REDACTED,
      newpassword: REDACTED,
      conpassword: REDACTED,
      otp: REDACTED,
    });
    expect(byProcedure('transfer_to_user')).toMatchObject({
      requestBody: { username: 'gonzalo_001', amount: 1, password: REDACTED },
      requestHeaders: { authorization: REDACTED },
    });
    expect(byProcedure('notification.total_view_notification').requestBody).toEqual({ token: REDACTED });
    expect(byProcedure('user.enable_totp').responseBody).toEqual({
      Success: { Key: REDACTED, URI: REDACTED },
    });
    expect(byProcedure('user.change_totp_status').requestBody).toEqual({ status: true, totp: REDACTED });
    expect(entries.find((e) => e.procedure === 'user.login' && e.status === 200)!.responseBody).toMatchObject(
      { JWT: REDACTED, Success: expect.any(String) },
    );
    expect(byProcedure('rank.current_rank')).toMatchObject({
      url: '/trpc/rank.current_rank',
      requestBody: {
        jwt: REDACTED,
        extra: { Deeper: [{ Password: REDACTED, newPassword: REDACTED, OTP: REDACTED, Secret: REDACTED }] },
      },
    });
  }, 30_000);

  it('redacts by field name at any depth and by value (JWTs, bearer headers, otpauth URIs), keeps the rest', () => {
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl';
    expect(
      redact({
        username: 'demo',
        amount: 5,
        OTP_Sent: true,
        conPassword: 'a',
        transaction_password: 'b',
        access_token: 'c',
        Authorization: 'Bearer abc',
        list: [{ nested: { totp: '123456' } }, jwt],
        note: `otpauth://totp/x?secret=ABC`,
        empty: { password: '' },
      }),
    ).toEqual({
      username: 'demo',
      amount: 5,
      OTP_Sent: true,
      conPassword: REDACTED,
      transaction_password: REDACTED,
      access_token: REDACTED,
      Authorization: REDACTED,
      list: [{ nested: { totp: REDACTED } }, REDACTED],
      note: REDACTED,
      empty: { password: '' },
    });
    for (const name of [
      'password',
      'ConPassword',
      'NEWPASSWORD',
      'oldpassword',
      'otp',
      'totp',
      'jwt',
      'JWT',
      'token',
      'authorization',
      'secret',
    ])
      expect(isSecretField(name), name).toBe(true);
    for (const name of ['username', 'email', 'OTP_Sent', 'amount', 'page'])
      expect(isSecretField(name), name).toBe(false);
    // Long lists and strings are cut so the buffer stays small.
    const long = redact({ rows: Array.from({ length: 150 }, (_, i) => i), text: 'x'.repeat(5000) }) as {
      rows: unknown[];
      text: string;
    };
    expect(long.rows).toHaveLength(101);
    expect(long.rows.at(-1)).toBe('… 50 more items');
    expect(long.text.length).toBeLessThan(2100);
  });
});

describe('journal redaction is lazy', () => {
  it("records the call's own objects without copying or changing them, and redacts every listing", () => {
    const ring = createJournal(4);
    // A shared, frozen answer (the read cache's answers are shared by every caller).
    const answer = Object.freeze({
      Success: Object.freeze({
        Key: 'JBSWY3DPEHPK3PXP',
        URI: 'otpauth://totp/x?secret=JBSWY3DPEHPK3PXP',
        Name: 'Demo',
      }),
    });
    const body = { username: 'demo', password: 'Demo@1234', nested: [{ otp: '123456' }] };
    const headers = { authorization: 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln', host: 'localhost' };
    const record = ring.add({
      at: Date.UTC(2026, 10, 2, 9, 0, 0),
      requestId: 'req-1',
      method: 'GET',
      url: '/trpc/user.enable_totp?input=%7B%22jwt%22%3A%22eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln%22%7D',
      path: '/user/enable_totp',
      procedure: 'user.enable_totp',
      transport: 'trpc',
      source: 'mock',
      providerMs: null,
      status: 200,
      durationMs: 1,
      member: 'demo',
      requestHeaders: headers,
      requestBody: body,
      responseBody: answer,
      fault: null,
      pending: false,
    });
    // References, not copies: what the call answered is what the journal holds.
    expect(record.responseBody).toBe(answer);
    expect(record.requestBody).toBe(body);

    for (let listing = 0; listing < 2; listing++) {
      const [entry] = ring.list({ limit: 10 });
      expect(entry).toMatchObject({
        time: '2026-11-02T09:00:00.000Z',
        url: '/trpc/user.enable_totp',
        requestHeaders: { authorization: REDACTED, host: 'localhost' },
        requestBody: { username: 'demo', password: REDACTED, nested: [{ otp: REDACTED }] },
        responseBody: { Success: { Key: REDACTED, URI: REDACTED, Name: 'Demo' } },
      });
      expect(entry).not.toHaveProperty('at');
      const text = JSON.stringify(entry);
      for (const secret of ['Demo@1234', '123456', 'JBSWY3DPEHPK3PXP', 'eyJhbGci'])
        expect(text, secret).not.toContain(secret);
    }
    // Redacting a listing never touches the recorded objects.
    expect(answer.Success.Key).toBe('JBSWY3DPEHPK3PXP');
    expect(body.password).toBe('Demo@1234');
    expect(headers.authorization).toMatch(/^Bearer /);
  });

  it("keeps a request's headers with its secret ones blanked, as the listing shows them", () => {
    const headers = JSON.parse(
      '{"authorization": "Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln", "cookie": "qa_world=w1", "host": "localhost", "x-forwarded-for": ["a", "b"], "__proto__": "x", "x-empty": ""}',
    );
    const before = JSON.stringify(headers);
    const kept = keptHeaders(headers);
    expect(kept).toEqual({
      authorization: REDACTED,
      cookie: REDACTED,
      host: 'localhost',
      'x-forwarded-for': ['a', 'b'],
      ['__proto__']: 'x',
      'x-empty': '',
    });
    expect(Object.getPrototypeOf(kept)).toBe(Object.prototype);
    expect(redact(kept)).toEqual(redact(headers));
    expect(JSON.stringify(headers)).toBe(before);
    // Headers without a secret are kept as they are: nothing to hide, nothing to copy.
    const plain = { host: 'localhost', 'content-type': 'application/json', 'x-empty': '', authorization: '' };
    expect(keptHeaders(plain)).toBe(plain);
    // A body of its token alone is one shared copy, listed as the body was.
    const one = keptBody({ jwt: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln' });
    expect(keptBody({ jwt: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIyIn0.c2ln' })).toBe(one);
    expect(one).toEqual({ jwt: REDACTED });
  });

  it('keeps a body without its top-level secrets only when that lists the same, and never changes it', () => {
    const bodies: unknown[] = [
      { jwt: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln', pageNo: 1, pageSize: 10 },
      { username: 'demo', password: 'Demo@1234', otp: '', token: null, nested: [{ otp: '123456' }] },
      JSON.parse('{"__proto__": {"jwt": "x"}, "newPassword": "Secret@1", "note": "Bearer abc"}'),
      { password: REDACTED, page: 2 },
      [{ jwt: 'eyJx.y.z' }],
      'text',
      null,
    ];
    for (const body of bodies) {
      const before = JSON.stringify(body);
      const kept = keptBody(body);
      expect(redact(kept)).toEqual(redact(body));
      expect(JSON.stringify(body)).toBe(before);
      // A copy only when a secret's value would otherwise be held.
      const copied = kept !== body;
      expect(copied, before).toBe(
        before.includes('Demo@1234') || before.includes('eyJhbG') || before.includes('Secret@1'),
      );
      if (copied) expect(Object.getPrototypeOf(kept)).toBe(Object.prototype);
    }
  });

  it('serves a cached read its own unredacted answer while the journal lists it redacted', async () => {
    const token = await t.login('demo');
    type Profile = { Success: [Record<string, unknown>] };
    const first = await t.post<Profile>('/user/view_profile', {}, { token });
    // The profile's Transaction_Password flag sits under a secret field name: the journal redacts it.
    expect(first.body.Success[0].Transaction_Password).toBe(true);
    await journal('?limit=500');
    // The next hit (the read cache's same answer object) still answers the flag itself.
    const again = await t.post<Profile>('/user/view_profile', { jwt: token }, { token });
    expect(again.body).toEqual(first.body);
    const [entry] = await journal('?path=/user/view_profile&limit=1');
    expect(entry!.requestBody).toEqual({ jwt: REDACTED });
    expect(entry!.requestHeaders.authorization).toBe(REDACTED);
    expect(entry!.responseBody).toEqual({
      Success: [{ ...first.body.Success[0], Transaction_Password: REDACTED }],
    });
    expect(
      (await t.post<Profile>('/user/view_profile', {}, { token })).body.Success[0].Transaction_Password,
    ).toBe(true);
    expect(JSON.stringify(await journal('?limit=500'))).not.toContain(token);
  });
});

it('lists a page sent as its stored rows’ text as the answer it sent, over REST and tRPC', async () => {
  const token = await t.login('demo');
  const rest = await t.post<{ Success: unknown[] }>(
    '/table/view_deposit_transaction',
    { pageNo: 1, pageSize: 10 },
    { token },
  );
  expect(rest.body.Success.length).toBeGreaterThan(0);
  const rpc = await t.trpc('level.level_earning_transaction', 'query', { pageNo: 1, pageSize: 10 }, token);
  const [rpcEntry, restEntry] = await journal('?limit=2');
  expect(restEntry!.procedure).toBe('table.view_deposit_transaction');
  expect(restEntry!.responseBody).toEqual(rest.body);
  expect(rpcEntry!.procedure).toBe('level.level_earning_transaction');
  expect({ result: { data: rpcEntry!.responseBody } }).toEqual(rpc.body);
});

describe('journal filters and bounds', () => {
  it('filters by path (provider path or procedure name) and member, limits (default 100), and clears', async () => {
    const demo = await t.login('demo');
    const gonzalo = await t.login('gonzalo_001');
    for (let i = 0; i < 3; i++) await t.post('/rank/current_rank', {}, { token: demo });
    await t.post('/rank/current_rank', {}, { token: gonzalo });
    await t.post('/rank/view_all_ranks', {}, { token: demo });

    const byPath = await journal('?path=/rank/current_rank');
    expect(byPath.map((e) => e.procedure)).toEqual(Array(4).fill('rank.current_rank'));
    expect(await journal('?path=rank.current_rank')).toEqual(byPath);
    expect((await journal('?path=/rank/current_rank&member=GONZALO_001')).map((e) => e.member)).toEqual([
      'gonzalo_001',
    ]);
    const two = await journal('?limit=2');
    expect(two.map((e) => e.procedure)).toEqual(['rank.view_all_ranks', 'rank.current_rank']);
    expect(two[0]!.id).toBeGreaterThan(two[1]!.id);

    for (const query of ['?path=/nope', '?limit=0', '?limit=abc', '?limit=501', '?limit=1.5']) {
      const reply = await t.get<{ Error: string }>(`/__qa/journal${query}`);
      expect(reply.status, query).toBe(400);
      expect(typeof reply.body.Error).toBe('string');
    }
    expect((await t.fastify.inject({ method: 'DELETE', url: '/__qa/journal' })).json()).toEqual({
      deleted: 7,
    });
    expect(await journal()).toEqual([]);
  });

  it('keeps the latest entries in a bounded ring buffer; the list defaults to 100', async () => {
    for (let i = 0; i < JOURNAL_CAPACITY + 5; i++) await t.post('/user/view_country', {});
    expect(await journal()).toHaveLength(100);
    const all = await journal('?limit=500');
    expect(all).toHaveLength(JOURNAL_CAPACITY);
    expect(all[0]!.id - all.at(-1)!.id).toBe(JOURNAL_CAPACITY - 1);

    const ring = createJournal(3);
    const add = (n: number) =>
      ring.add({ id: 0, at: 0, url: '/user/login', procedure: 'user.login', member: String(n) } as never);
    for (const n of [1, 2, 3, 4, 5]) add(n);
    expect(ring.list({ limit: 10 }).map((e) => e.member)).toEqual(['5', '4', '3']);
    expect(ring.clear()).toBe(3);
    add(6);
    expect(ring.list({ limit: 10 }).map((e) => e.member)).toEqual(['6']);
  }, 30_000);

  it('keeps more calls in flight than it has slots, each completing its own record', () => {
    const ring = createJournal(3);
    const inFlight = [1, 2, 3, 4, 5].map((n) => Object.assign(ring.start(), { member: String(n) }));
    expect(new Set(inFlight).size).toBe(5);
    // Completed in reverse: each into its own record, whether the ring still lists it or not.
    for (const record of [...inFlight].reverse()) Object.assign(record, { status: 200, pending: false });
    expect(ring.list({ limit: 10 }).map((e) => [e.id, e.member, e.status, e.pending])).toEqual([
      [5, '5', 200, false],
      [4, '4', 200, false],
      [3, '3', 200, false],
    ]);
  });

  it('journals each of 100 calls arriving at once exactly once, completed', async () => {
    const token = await t.login('demo');
    await t.fastify.inject({ method: 'DELETE', url: '/__qa/journal' });
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        i % 2 === 0
          ? t.post('/user/view_profile', {}, { token })
          : t.trpc('wallet.view_all_wallets_details', 'query', {}, token),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(100).fill(200));
    const entries = await journal('?limit=500');
    expect(entries).toHaveLength(100);
    expect(new Set(entries.map((e) => e.id)).size).toBe(100);
    expect(new Set(entries.map((e) => e.requestId)).size).toBe(100);
    expect(entries.filter((e) => e.procedure === 'user.view_profile')).toHaveLength(50);
    for (const entry of entries)
      expect(entry).toMatchObject({ pending: false, status: 200, member: 'demo', fault: null });
  });

  it('writes a new call into its oldest slot emptied, and leaves a slot still pending to its own call', () => {
    const ring = createJournal(2);
    const hung = ring.start();
    hung.member = 'hung';
    const done = ring.add({
      member: 'done',
      status: 502,
      durationMs: 3,
      source: 'provider',
      providerMs: 2,
      fault: { id: 'f1', effect: 'drop', delayMs: 0 },
      outcome: 'dropped',
      pending: false,
    } as never);
    // The pending record's slot goes to a new record; the call completes its own record later.
    const third = ring.start();
    expect(third).not.toBe(hung);
    third.member = 'third';
    Object.assign(hung, { status: 200, pending: false });
    expect(ring.list({ limit: 10 }).map((e) => [e.member, e.status])).toEqual([
      ['third', null],
      ['done', 502],
    ]);
    // A completed slot is used again, with nothing of its last call left in it.
    const fourth = ring.start();
    expect(fourth).toBe(done);
    expect(ring.list({ limit: 1 })[0]).toEqual(
      expect.objectContaining({
        member: null,
        status: null,
        durationMs: null,
        source: null,
        providerMs: null,
        fault: null,
        pending: true,
        responseBody: null,
      }),
    );
    expect(ring.list({ limit: 1 })[0]).not.toHaveProperty('outcome');
    expect(ring.list({ limit: 10 }).map((e) => e.id)).toEqual([4, 3]);
  });
});
