/**
 * Client-named keys: a filter named after a member of Object.prototype ('constructor',
 * 'toString', …) was found by the tables' plain index look-up and answered 500 on all 14 table
 * endpoints. Now every such name is looked up among the table's own columns only: refused as an
 * unknown filter (400), or, where JSON parsing already drops it ('__proto__' over tRPC), ignored.
 * Either way nothing is written and Object.prototype is untouched.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contract, procedureNames, type ProcedureName } from '@md/shared';
import { createTestApp, moneySnapshot, type TestApp } from './helpers.ts';

const PROTO_KEYS = ['constructor', 'toString', 'valueOf', 'hasOwnProperty', '__proto__'] as const;
const TABLE_ENDPOINTS = procedureNames.filter(
  (name) => contract[name].input === contract['table.view_deposit_transaction'].input,
);

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp({ seed: 'demo' });
  token = await t.login('demo');
});
afterAll(() => t.close());

/** Rows written by this connection so far: equal before and after means nothing was written. */
const writes = () => (t.services.sqlite.prepare('select total_changes() as n').get() as { n: number }).n;

/** The JSON text of a table query whose filters hold `key` (JSON.stringify of an object cannot write '__proto__'). */
const bodyWith = (key: string, extra = '') =>
  `{"pageNo":1,"pageSize":10,"filters":{${extra}${JSON.stringify(key)}:["x"]}}`;

async function rest(name: ProcedureName, text: string) {
  const response = await t.fastify.inject({
    method: 'POST',
    url: contract[name].path,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    payload: text,
  });
  return { status: response.statusCode, body: response.json() as { Success?: unknown; Error?: string } };
}

/** A tRPC query: GET with the JSON text as `input`. */
async function trpc(name: ProcedureName, text: string) {
  const response = await t.fastify.inject({
    method: 'GET',
    url: `/trpc/${name}?input=${encodeURIComponent(text)}`,
    headers: { authorization: `Bearer ${token}` },
  });
  return {
    status: response.statusCode,
    body: response.json() as { result?: { data: unknown }; error?: { message: string } },
  };
}

describe('Object.prototype-named filters on the table endpoints', () => {
  it('covers all 14 table endpoints (7 lists, 7 page counts)', () => {
    expect(TABLE_ENDPOINTS).toHaveLength(14);
  });

  it.each(PROTO_KEYS.filter((key) => key !== '__proto__'))(
    "'%s' is an unknown filter: 400 on every table, REST and tRPC, and nothing changes",
    async (key) => {
      const before = { writes: writes(), money: moneySnapshot(t) };
      for (const name of TABLE_ENDPOINTS) {
        expect(await rest(name, bodyWith(key)), `REST ${name}`).toMatchObject({
          status: 400,
          body: { Error: `Unknown filter: ${key}` },
        });
        const viaTrpc = await trpc(name, bodyWith(key));
        expect(viaTrpc.status, `tRPC ${name}`).toBe(400);
        expect(viaTrpc.body.error?.message, `tRPC ${name}`).toBe(`Unknown filter: ${key}`);
      }
      expect({ writes: writes(), money: moneySnapshot(t) }).toEqual(before);
    },
  );

  it('refuses the name beside a real filter too', async () => {
    // 'status' is a real filter of the deposit table: the hostile name after it still fails the whole query.
    for (const key of ['constructor', 'toString', 'valueOf', 'hasOwnProperty']) {
      expect(await rest('table.view_deposit_transaction', bodyWith(key, '"status":["PAID"],'))).toMatchObject(
        {
          status: 400,
          body: { Error: `Unknown filter: ${key}` },
        },
      );
    }
  });

  it("'__proto__': refused as JSON over REST, ignored over tRPC (the same page as without filters), never 5xx", async () => {
    const before = { writes: writes(), money: moneySnapshot(t) };
    for (const name of TABLE_ENDPOINTS) {
      // Fastify's JSON parser refuses a '__proto__' key outright.
      const viaRest = await rest(name, bodyWith('__proto__'));
      expect(viaRest.status, `REST ${name}`).toBe(400);
      expect(typeof viaRest.body.Error, `REST ${name}`).toBe('string');
      // JSON.parse keeps it as an own key; the contract's record schema leaves it out.
      const viaTrpc = await trpc(name, bodyWith('__proto__'));
      const plain = await trpc(name, '{"pageNo":1,"pageSize":10}');
      expect(viaTrpc.status, `tRPC ${name}`).toBe(200);
      expect(viaTrpc.body.result, `tRPC ${name}`).toEqual(plain.body.result);
    }
    expect({ writes: writes(), money: moneySnapshot(t) }).toEqual(before);
  });

  it('leaves Object.prototype as it was', () => {
    expect(Object.getPrototypeOf({})).toBe(Object.prototype);
    expect({}.constructor).toBe(Object);
    expect((Object.prototype as Record<string, unknown>).x).toBeUndefined();
    expect(Object.prototype.hasOwnProperty.call({ a: 1 }, 'a')).toBe(true);
  });
});

describe('other names a client chooses', () => {
  it('Object.prototype names as procedures are unknown paths (404), not 500', async () => {
    for (const key of PROTO_KEYS) {
      const viaTrpc = await t.fastify.inject({
        method: 'GET',
        url: `/trpc/${key}?input=%7B%7D`,
        headers: { authorization: `Bearer ${token}` },
      });
      expect(viaTrpc.statusCode, key).toBe(404);
      const viaRest = await t.fastify.inject({
        method: 'POST',
        url: `/${key}`,
        headers: { 'content-type': 'application/json' },
        payload: '{}',
      });
      expect(viaRest.statusCode, key).toBe(404);
    }
  });

  it('Object.prototype names as body fields are unknown fields: refused by name, never read', async () => {
    for (const key of ['constructor', 'toString', 'valueOf', 'hasOwnProperty']) {
      const text = `{${JSON.stringify(key)}:"x","username":"demo","password":"Demo@1234"}`;
      const response = await t.fastify.inject({
        method: 'POST',
        url: '/user/login',
        headers: { 'content-type': 'application/json' },
        payload: text,
        remoteAddress: `10.11.0.${key.length}`,
      });
      expect(response.statusCode, key).toBe(400);
      expect(response.json(), key).toMatchObject({ Error: `Received unknown field '${key}'` });
    }
  });
});
