/**
 * The document's examples come from the demo world (modules/docs/example-session.ts, recorded by
 * the build): one for every request and success answer, each accepted by its schema; replayed as
 * written on a fresh demo world with example codes on, every request answers 2xx; Prism's mock
 * plays them back. Example codes themselves: one world's, single use, nothing outside QA control.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contract, procedureNames } from '@md/shared';
import { manualClock } from '../src/core/clock.ts';
import { EXAMPLE_CODE, exampleCodesOn, setExampleCodes } from '../src/core/example-codes.ts';
import type { OpenApiDocument } from '../src/modules/docs/openapi.ts';
import { QA_ROUTES } from '../src/modules/docs/qa-table.ts';
import { recordExampleSession } from '../src/openapi-examples.ts';
import { createTestApp, type TestApp } from './helpers.ts';
import { startPrism } from './prism.ts';

type Operation = OpenApiDocument['paths'][string]['post'] & {};

let t: TestApp;
let doc: OpenApiDocument;

beforeAll(async () => {
  t = await createTestApp({ seed: 'demo', config: { qaControl: true, rateLimits: false } });
  doc = (await t.get<OpenApiDocument>('/docs/openapi.json')).body;
});
afterAll(() => t.close());

const post = (name: (typeof procedureNames)[number]) => doc.paths[contract[name].path]!.post as Operation;
const examplesOf = (op: Operation) => {
  const body = op.requestBody?.content['application/json'];
  const ok = (op.responses['200'] as { content?: Record<string, { example?: unknown }> }).content;
  return { request: body?.example, response: ok?.['application/json']?.example };
};

const putExampleCodes = async (target: TestApp, body: unknown) => {
  const answer = await target.fastify.inject({
    method: 'PUT',
    url: '/__qa/example-codes',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
  return { status: answer.statusCode, body: answer.json() as Record<string, unknown> };
};

describe('the examples of the served document', () => {
  it('has a request and a success example for every procedure, each accepted by its schema', () => {
    for (const name of procedureNames) {
      const { request, response } = examplesOf(post(name));
      expect(request, name).toBeDefined();
      expect(response, name).toBeDefined();
      const input = contract[name].input.safeParse(request);
      expect(input.success, `${name} request: ${input.error?.message}`).toBe(true);
      const output = contract[name].output.safeParse(response);
      expect(output.success, `${name} answer: ${output.error?.message}`).toBe(true);
    }
    // From the demo world, not typed: the member's own sign-in and wallets, ids it has.
    expect(examplesOf(post('user.login')).request).toEqual({ username: 'demo', password: 'Demo@1234' });
    const wallets = examplesOf(post('wallet.view_all_wallets_details')).response as {
      Success: Record<string, { User: string }>;
    };
    expect(wallets.Success.Deposit?.User).toBe('demo');
    expect(examplesOf(post('withdraw.view_withdrawal_timeline')).request).toEqual({
      trans_id: expect.stringMatching(/^WD\d{8}$/),
    });
    expect(post('user.change_email_request')['x-example-as']).toBe('allene_029');
    expect(post('wallet.view_statement')['x-example-as']).toBe('demo');
    // A code's confirmation names the call that mails the code, as the session made it.
    expect(post('user.change_password')['x-example-after']).toEqual({
      path: '/user/verify_otp',
      request: { page: 'Change Password' },
    });
    expect(post('user.register')['x-example-after']).toMatchObject({
      path: '/user/verify_otp',
      request: { page: 'Email Verification', username: 'newmember01' },
    });
  });

  it('has the recorded call of every QA route: its path parameters, body and answer, each accepted by its schema', () => {
    for (const route of QA_ROUTES) {
      const label = `${route.method} ${route.path}`;
      const op = doc.paths[route.path.replace(/:(\w+)/g, '{$1}')]![
        route.method.toLowerCase() as 'get' | 'post' | 'put' | 'delete'
      ] as Operation;
      for (const param of op.parameters ?? [])
        if ('in' in param && param.in === 'path')
          expect(param.example, `${label} ${param.name}`).toBeTypeOf('string');
      if (route.body) {
        const example = op.requestBody?.content['application/json']?.example;
        expect(example, label).toBeDefined();
        expect(route.body.safeParse(example).success, label).toBe(true);
      }
      if (route.status === 303 || route.worldFile === 'answer') continue;
      const ok = op.responses[String(route.status ?? 200)] as {
        content: Record<string, { example?: unknown }>;
      };
      const example = ok.content['application/json']?.example;
      expect(example, label).toBeDefined();
      const parsed = route.response.safeParse(example);
      expect(parsed.success, `${label}: ${parsed.error?.message}`).toBe(true);
    }
  });

  it(
    'replays as written on a fresh demo world with example codes on: every request answers 2xx',
    { timeout: 120_000 },
    async () => {
      const start = Date.UTC(2026, 10, 2, 9, 0, 0);
      const recorded = await recordExampleSession({ clock: manualClock(start) });
      // The replay sends each recorded request (the captcha and the session to end are read afresh)
      // and throws on any answer that is not a success.
      const replayed = await recordExampleSession({ clock: manualClock(start), replay: recorded.calls });
      expect(replayed.calls.map((c) => c.status)).toEqual(recorded.calls.map(() => 200));
      const carried = new Set(['captcha', 'session']);
      const without = (request: unknown) =>
        Object.fromEntries(Object.entries(request as object).filter(([key]) => !carried.has(key)));
      expect(replayed.calls.map((c) => without(c.request))).toEqual(
        recorded.calls.map((c) => without(c.request)),
      );
      // The session calls every procedure.
      expect(new Set(recorded.calls.map((c) => c.name))).toEqual(new Set(procedureNames));
    },
  );

  it(
    'plays back in Prism mock: each documented request gets its documented answer',
    { timeout: 120_000 },
    async () => {
      const prism = await startPrism('mock', doc);
      try {
        for (const name of procedureNames) {
          const op = post(name);
          const { request, response } = examplesOf(op);
          const answer = await fetch(`${prism.url}${contract[name].path}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: 'Bearer example' },
            body: JSON.stringify(request),
          });
          expect(answer.status, `${name}: ${prism.output().slice(-500)}`).toBe(200);
          expect(await answer.json(), name).toEqual(response);
        }
      } finally {
        prism.stop();
      }
    },
  );
});

describe('example codes', () => {
  it('are off until QA turns them on in a world; a bad body is refused and changes nothing', async () => {
    expect((await t.get('/__qa/example-codes')).body).toEqual({ on: false, code: EXAMPLE_CODE });
    for (const body of [{ on: 'yes' }, { on: true, extra: 1 }, []]) {
      expect((await putExampleCodes(t, body)).status).toBe(400);
    }
    expect((await t.get('/__qa/example-codes')).body).toEqual({ on: false, code: EXAMPLE_CODE });
  });

  it('mail the example code and let the authenticator step take it, once', async () => {
    expect((await putExampleCodes(t, { on: true })).body).toEqual({ on: true, code: EXAMPLE_CODE });
    try {
      expect((await t.post('/user/reset_password_email', { username: 'demo' })).status).toBe(200);
      expect(await t.latestOtp('demo')).toBe(EXAMPLE_CODE);
      // A burst of sign-ins with the example code for a TOTP member: one step, one sign-in.
      const logins = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          t.post(
            '/user/login',
            { username: 'demo2fa', password: 'Demo@1234', totp: EXAMPLE_CODE },
            { ip: `10.9.0.${i + 1}` },
          ),
        ),
      );
      expect(logins.filter((r) => r.status === 200 && r.body.JWT).length).toBe(1);
    } finally {
      await putExampleCodes(t, { on: false });
    }
    // Off again: the example code is just a wrong code.
    t.clock.advance(60_000);
    const refused = await t.post('/user/login', {
      username: 'demo2fa',
      password: 'Demo@1234',
      totp: EXAMPLE_CODE,
    });
    expect(refused.body.JWT).toBeUndefined();
  });

  it('count only while QA control is on, even when the database says on', async () => {
    const off = await createTestApp({ seed: 'empty', config: { qaControl: false } });
    try {
      setExampleCodes(off.services, true);
      expect(exampleCodesOn(off.services)).toBe(false);
      expect((await off.fastify.inject({ method: 'GET', url: '/__qa/example-codes' })).statusCode).toBe(404);
    } finally {
      await off.close();
    }
  });
});
