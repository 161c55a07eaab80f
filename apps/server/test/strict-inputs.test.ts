/**
 * A body field a call does not take is a 400 naming it, over both transports, and the call does
 * nothing: a typo such as `pagesize` no longer passes silently with the default page size. The
 * OpenAPI document says so with `additionalProperties: false` on every request body.
 */
import { contract, procedureNames } from '@md/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenApiDocument } from '../src/modules/docs/openapi.ts';
import { createTestApp, expectLedgerSound, moneySnapshot, type TestApp } from './helpers.ts';

let t: TestApp;
let demo: string;

beforeAll(async () => {
  t = await createTestApp({ seed: 'demo' });
  demo = await t.login('demo');
});
afterAll(() => t.close());

describe('unknown body fields', () => {
  it("are named: 'pagesize' on a table is refused, where it used to give the default page", async () => {
    const path = contract['earning.view_all_earning_history'].path;
    expect(await t.post(path, { pageNo: 1, pagesize: 50 }, { token: demo })).toMatchObject({
      status: 400,
      body: { Error: "Received unknown field 'pagesize'" },
    });
    expect(
      await t.post(path, { pageNo: 1, pageSize: 50, pagesize: 50, page_no: 2 }, { token: demo }),
    ).toMatchObject({
      status: 400,
      body: { Error: "Received unknown fields 'pagesize', 'page_no'" },
    });
    const rpc = await t.trpc('earning.view_all_earning_history', 'query', { pagesize: 50 }, demo);
    expect(rpc.status).toBe(400);
    expect((rpc.body.error as { message?: string }).message).toBe("Received unknown field 'pagesize'");
    // The fields it does take still work, the body token included.
    const page = await t.post<{ Success: unknown[] }>(path, { pageNo: 1, pageSize: 50, jwt: demo });
    expect(page.status).toBe(200);
    expect(page.body.Success).toHaveLength(50);
  });

  it('refuse a money move whole: a burst of purchases with a stray field moves nothing', async () => {
    const before = moneySnapshot(t);
    const path = contract['subscription.buy_subscription_packages'].path;
    const replies = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        t.post(path, { plan: 'Silver', quantity: i + 1 }, { token: demo, ip: `10.77.0.${i + 1}` }),
      ),
    );
    for (const reply of replies)
      expect(reply).toMatchObject({ status: 400, body: { Error: "Received unknown field 'quantity'" } });
    expect(moneySnapshot(t)).toBe(before);
    await expectLedgerSound(t);
  });

  it('are refused before sign-in is tried: a login with an extra field signs nobody in', async () => {
    const sessions = t.count('sessions');
    expect(
      await t.post(contract['user.login'].path, { username: 'demo', password: 'Demo@1234', remember: true }),
    ).toMatchObject({ status: 400, body: { Error: "Received unknown field 'remember'" } });
    expect(t.count('sessions')).toBe(sessions);
  });

  it('are closed in the OpenAPI document: every request body has additionalProperties false', async () => {
    const document = (await t.get<OpenApiDocument>('/docs/openapi.json')).body;
    for (const name of procedureNames) {
      const schema =
        document.paths[contract[name].path]?.post?.requestBody?.content['application/json']?.schema;
      const ref =
        typeof schema?.$ref === 'string' ? schema.$ref.replace('#/components/schemas/', '') : undefined;
      expect(ref ? document.components.schemas[ref] : schema, name).toMatchObject({
        type: 'object',
        additionalProperties: false,
      });
    }
  });
});
