/**
 * /trpc answers as tRPC's own Fastify adapter does: the same corpus of requests goes to
 * the app's /trpc (the fast path, transport/trpc-http.ts) and to tRPC's adapter mounted on the same
 * app, router and database at /official, with the same content-type guard and a QA surface of its
 * own (header rules); status, headers and body must match byte for byte. The fast path's answers
 * carry a content-length, the adapter's are streamed (chunked): which path answered is asserted
 * too, so a change that sent everything to the adapter fails here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fastifyTRPCPlugin } from '@trpc/server/adapters/fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { InjectOptions, Response as InjectResponse } from 'light-my-request';
import { handlers } from '../src/modules/index.ts';
import { createQaSurface } from '../src/modules/qa/surface.ts';
import { DEMO_TRANSACTION_PASSWORD } from '../src/seed/demo-money.ts';
import { createAppRouter, guardTrpcContentType, type TrpcContext } from '../src/transport/trpc.ts';
import { API_ROUTE } from '../src/core/security-headers.ts';
import { createTestApp, type TestApp } from './helpers.ts';

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp({ seed: 'demo' });
  await t.fastify.register(async (scope) => {
    // The adapter's routes answer as API routes too (the security headers of an API answer).
    scope.addHook('onRoute', (route) => {
      route.config = { ...route.config, ...API_ROUTE.config };
    });
    guardTrpcContentType(scope);
    const qa = createQaSurface(scope, t.services);
    await scope.register(fastifyTRPCPlugin, {
      prefix: '/official',
      trpcOptions: {
        router: createAppRouter(t.services, handlers, qa.intercept),
        createContext: ({ req, res }: { req: FastifyRequest; res: FastifyReply }): TrpcContext => ({
          caller: { ip: req.ip, authorization: req.headers.authorization },
          exchange: { transport: 'trpc', request: req, reply: res },
        }),
      },
    });
  });
  token = await t.login('demo');
});
afterAll(() => t.close());

const q = (value: unknown) => encodeURIComponent(JSON.stringify(value));
const JSON_BODY = { 'content-type': 'application/json' };

interface Case {
  name: string;
  method?: InjectOptions['method'];
  /** After the prefix: procedure path(s) and query string. */
  url: string | ((token: string) => string);
  headers?: (token: string) => Record<string, string>;
  payload?: string;
  /** Whether the fast path answers it (else tRPC's adapter). */
  fast: boolean;
  /** Answered whole on both paths: a QA rule's replacement, or the content-type guard. */
  whole?: boolean;
  /** Past the 10 s throttles of the mail-sending mutations, before each side. */
  advance?: boolean;
}

const auth = (jwt: string) => ({ authorization: `Bearer ${jwt}` });
const table = { page_no: 1, pageSize: 10 };
const wrongLogin = { username: 'no_such_member', password: 'Wrong@1234' };

const cases: Case[] = [
  // Queries, single and batched, as httpLink and httpBatchLink send them.
  { name: 'query', url: `user.view_profile?input=${q({})}`, headers: auth, fast: true },
  { name: 'query without input', url: 'user.view_profile', headers: auth, fast: true },
  {
    name: 'query with the token in the input',
    url: (jwt) => `user.view_profile?input=${q({ jwt })}`,
    fast: true,
  },
  { name: 'query, input null', url: `user.view_country?input=null`, fast: true },
  { name: 'query, input not an object', url: `user.view_country?input=${q([1])}`, fast: true },
  { name: 'query without a token: 401', url: `user.view_profile?input=${q({})}`, fast: true },
  {
    name: 'query with a bad token: 401',
    url: `user.view_profile?input=${q({})}`,
    headers: () => auth('nonsense'),
    fast: true,
  },
  {
    name: 'batch of three',
    url: `user.view_profile,user.view_country,table.view_deposit_transaction?batch=1&input=${q({ 0: {}, 1: {}, 2: table })}`,
    headers: auth,
    fast: true,
  },
  {
    name: 'batch, success and a 400: 207',
    url: `user.view_profile,user.check_username_available?batch=1&input=${q({ 0: {}, 1: {} })}`,
    headers: auth,
    fast: true,
  },
  {
    name: 'batch, all 401',
    url: `user.view_profile,notification.total_view_notification?batch=1&input=${q({ 0: {}, 1: {} })}`,
    fast: true,
  },
  { name: 'batch without input', url: 'user.view_country?batch=1', fast: true },
  {
    name: 'batch, input missing for one call',
    url: `user.view_country,table.view_deposit_transaction?batch=1&input=${q({ 1: table })}`,
    headers: auth,
    fast: true,
  },
  {
    name: 'a batch with a comma spelled %2C',
    url: `user.view_country%2Cuser.view_profile?batch=1&input=${q({ 0: {}, 1: {} })}`,
    headers: auth,
    fast: true,
  },
  // Query strings Fastify and URLSearchParams could read apart: a '%', a repeated key, '+' for a space.
  {
    name: 'input holding a percent sign',
    url: `user.check_username_available?input=${q({ username: '50%' })}`,
    fast: true,
  },
  {
    name: 'input given twice',
    url: `user.check_username_available?input=${q({ username: 'demo' })}&input=${q({})}`,
    fast: true,
  },
  {
    name: "input with '+' for a space",
    url: 'user.check_username_available?input={"username":"a+b"}',
    fast: true,
  },
  { name: 'batch given twice', url: `user.view_country?batch=1&batch=0&input=${q({ 0: {} })}`, fast: true },
  { name: 'an escape that does not decode', url: 'user.view_country?input=%7B%7D%ZZ', fast: false },
  // Mutations by POST, single and batched.
  {
    name: 'mutation refused',
    method: 'POST',
    url: 'user.login',
    headers: () => JSON_BODY,
    payload: JSON.stringify(wrongLogin),
    fast: true,
  },
  {
    name: 'mutation, invalid input',
    method: 'POST',
    url: 'user.login',
    headers: () => JSON_BODY,
    payload: '{}',
    fast: true,
  },
  {
    name: 'mutation, body not an object',
    method: 'POST',
    url: 'user.login',
    headers: () => JSON_BODY,
    payload: '"text"',
    fast: true,
  },
  {
    name: 'mutation that succeeds',
    method: 'POST',
    url: 'user.reset_transaction_password',
    headers: (jwt) => ({ ...JSON_BODY, ...auth(jwt) }),
    payload: JSON.stringify({ password: DEMO_TRANSACTION_PASSWORD }),
    fast: true,
    advance: true,
  },
  {
    name: 'batch of mutations, success and failure',
    method: 'POST',
    url: 'user.reset_transaction_password,user.login?batch=1',
    headers: (jwt) => ({ 'content-type': 'application/json; charset=utf-8', ...auth(jwt) }),
    payload: JSON.stringify({ 0: { password: DEMO_TRANSACTION_PASSWORD }, 1: wrongLogin }),
    fast: true,
    advance: true,
  },
  {
    name: 'mutation without a token: 401',
    method: 'POST',
    url: 'support.send_message',
    headers: () => JSON_BODY,
    payload: '{}',
    fast: true,
  },
  // QA rules in the X-QA-Fault header.
  {
    name: 'fault: an error',
    url: `rank.current_rank?input=${q({})}`,
    headers: (jwt) => ({ ...auth(jwt), 'x-qa-fault': '{"status":503,"error":"Boom"}' }),
    fast: true,
  },
  {
    name: 'fault: a body',
    url: `rank.current_rank?input=${q({})}`,
    headers: (jwt) => ({ ...auth(jwt), 'x-qa-fault': '{"body":{"Success":{"Rank":"Header"}}}' }),
    fast: true,
  },
  {
    name: 'fault: an error body',
    url: `rank.current_rank?input=${q({})}`,
    headers: (jwt) => ({ ...auth(jwt), 'x-qa-fault': '{"status":409,"body":{"Error":"Held"}}' }),
    fast: true,
  },
  {
    name: 'fault: a malformed batch',
    url: `rank.current_rank,user.view_country?batch=1&input=${q({ 0: {}, 1: {} })}`,
    headers: (jwt) => ({ ...auth(jwt), 'x-qa-fault': '{"malformed":true}' }),
    fast: true,
    whole: true,
  },
  {
    name: 'fault: an empty answer',
    url: `user.view_country?input=${q({})}`,
    headers: () => ({ 'x-qa-fault': '{"empty":true,"status":502}' }),
    fast: true,
    whole: true,
  },
  {
    name: 'fault: a bad header',
    url: `user.view_country?input=${q({})}`,
    headers: () => ({ 'x-qa-fault': '{"malformed":"yes"}' }),
    fast: true,
  },
  // What only the adapter answers: the protocol's own refusals.
  { name: 'unknown procedure: 404', url: `nope.nothing?input=${q({})}`, fast: false },
  {
    name: 'batch with an unknown procedure',
    url: `user.view_country,nope?batch=1&input=${q({ 0: {}, 1: {} })}`,
    fast: false,
  },
  {
    name: 'query by POST: 405',
    method: 'POST',
    url: 'user.view_country',
    headers: () => JSON_BODY,
    payload: '{}',
    fast: false,
  },
  { name: 'mutation by GET: 405', url: `user.login?input=${q(wrongLogin)}`, fast: false },
  {
    name: 'query and mutation in one batch',
    url: `user.view_country,user.login?batch=1&input=${q({ 0: {}, 1: wrongLogin })}`,
    fast: false,
  },
  { name: 'unreadable query input', url: 'user.view_country?input=%7Bnot', fast: false },
  {
    name: 'unreadable body',
    method: 'POST',
    url: 'user.login',
    headers: () => JSON_BODY,
    payload: '{"username":',
    fast: false,
  },
  {
    name: 'empty body',
    method: 'POST',
    url: 'user.login',
    headers: () => JSON_BODY,
    payload: '',
    fast: false,
  },
  { name: 'POST without a content type', method: 'POST', url: 'user.login', fast: false },
  { name: 'batch input not an object', url: `user.view_country?batch=1&input=${q([{}])}`, fast: false },
  { name: 'batch input null', url: 'user.view_country?batch=1&input=null', fast: false },
  { name: 'HEAD', method: 'HEAD', url: 'user.view_country', fast: false },
  {
    name: 'PUT',
    method: 'PUT',
    url: 'user.view_country',
    headers: () => JSON_BODY,
    payload: '{}',
    fast: false,
  },
  {
    name: 'a path escaped twice',
    url: `user.view_country%252Cuser.view_profile?batch=1&input=${q({ 0: {}, 1: {} })}`,
    fast: false,
  },
  {
    name: 'streaming batch (jsonl)',
    url: `user.view_country?batch=1&input=${q({ 0: {} })}`,
    headers: () => ({ 'trpc-accept': 'application/jsonl' }),
    fast: false,
  },
  {
    name: 'connection params',
    url: `user.view_country?input=${q({})}&connectionParams=${q({ a: 'b' })}`,
    fast: false,
  },
  // Over the body limit: Fastify's 413 on both (the scope keeps the adapter's text parser and the app's limit).
  {
    name: 'body too large: 413',
    method: 'POST',
    url: 'user.login',
    headers: () => JSON_BODY,
    payload: JSON.stringify({ username: 'x'.repeat(70_000) }),
    fast: true,
    whole: true,
  },
  // Refused before either path by the scope's guard (answered whole, as the fast path answers).
  {
    name: 'multipart: 415',
    method: 'POST',
    url: 'user.login',
    headers: () => ({ 'content-type': 'multipart/form-data; boundary=x' }),
    payload: '--x--\r\n',
    fast: true,
    whole: true,
  },
];

/** What a client sees: status, headers (without the framing and the date) and the body. */
function seen(response: InjectResponse) {
  const {
    date: _date,
    'content-length': _length,
    'transfer-encoding': _chunked,
    connection: _connection,
    // Each answer's own (core/answer-headers.ts): compared apart.
    'x-request-id': requestId,
    ...headers
  } = response.headers;
  expect(requestId).toMatch(/^[\w-]{36}$/);
  return { status: response.statusCode, headers, body: response.body };
}

async function send(prefix: string, c: Case, ip: string) {
  if (c.advance) t.clock.advance(11_000);
  return t.fastify.inject({
    method: c.method ?? 'GET',
    url: `${prefix}/${typeof c.url === 'string' ? c.url : c.url(token)}`,
    headers: c.headers?.(token),
    payload: c.payload,
    remoteAddress: ip,
  });
}

describe('the fast path answers as tRPC’s adapter', () => {
  cases.forEach((c, index) => {
    it(c.name, async () => {
      const official = await send('/official', c, `10.16.${index}.1`);
      const fast = await send('/trpc', c, `10.16.${index}.2`);
      expect(seen(fast)).toEqual(seen(official));
      if (c.name.includes('token in the input')) expect(fast.statusCode).toBe(200);
      // Which path answered: the fast path sends one string (content-length), the adapter a stream
      // (but for HEAD, an answer a QA rule replaced, and the guard's 415, Fastify's own answer).
      if (!c.whole)
        expect(official.headers['transfer-encoding'], 'the adapter streams').toBe(
          c.method === 'HEAD' ? undefined : 'chunked',
        );
      if (c.fast) expect(fast.headers['content-length'], 'answered by the fast path').toBeDefined();
      else
        expect(fast.headers['transfer-encoding'], 'answered by the adapter').toBe(
          c.method === 'HEAD' ? undefined : 'chunked',
        );
    });
  });

  it('the corpus covers what clients see: 200, 207, 400, 401, 404, 405, 413, 415, faults', async () => {
    const statuses = new Set<number>();
    for (const c of cases.filter((c) => !c.advance))
      statuses.add((await send('/trpc', c, '10.16.250.1')).statusCode);
    for (const status of [200, 204, 207, 400, 401, 404, 405, 413, 415, 502, 503])
      expect(statuses, String(status)).toContain(status);
  });
});

describe('the fast path journals its calls as the adapter did', () => {
  it('one entry per call of a batch, transport trpc, with the member', async () => {
    const before = (await t.get<unknown[]>('/__qa/journal')).body.length;
    const response = await t.fastify.inject({
      method: 'GET',
      url: `/trpc/user.view_profile,user.view_country?batch=1&input=${q({ 0: {}, 1: {} })}`,
      headers: auth(token),
    });
    expect(response.statusCode).toBe(200);
    const journal = (
      await t.get<{ procedure: string; transport: string; member: string | null; status: number }[]>(
        '/__qa/journal',
      )
    ).body;
    expect(journal.length - before).toBe(2);
    expect(
      journal
        .slice(0, 2)
        .map((e) => [e.procedure, e.transport, e.member, e.status])
        .sort(),
    ).toEqual([
      ['user.view_country', 'trpc', 'demo', 200],
      ['user.view_profile', 'trpc', 'demo', 200],
    ]);
  });
});
