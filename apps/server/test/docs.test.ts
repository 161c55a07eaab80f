/** /docs: the OpenAPI 3.1 document generated from the contract, and its offline viewer. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validate } from '@readme/openapi-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { contract, MSG, procedureNames } from '@md/shared';
import { QA_ROUTES } from '../src/modules/docs/qa-table.ts';
import type { OpenApiDocument } from '../src/modules/docs/openapi.ts';
import { createSchemaConverter } from '../src/modules/docs/schemas.ts';
import { createTestApp, type TestApp } from './helpers.ts';
import { startConfig } from '../src/config.ts';

type Json = Record<string, unknown>;
type Doc = OpenApiDocument;

let qaOn: TestApp;
let qaOff: TestApp;
let doc: Doc;
let docWithoutQa: Doc;

beforeAll(async () => {
  qaOn = await createTestApp({ seed: 'empty', config: { qaControl: true } });
  qaOff = await createTestApp({ seed: 'empty', config: { qaControl: false } });
  doc = (await qaOn.get<Doc>('/docs/openapi.json')).body;
  docWithoutQa = (await qaOff.get<Doc>('/docs/openapi.json')).body;
});
afterAll(async () => {
  await qaOn.close();
  await qaOff.close();
});

/** A value's shape as schema properties (objects only), for comparing an answer with its documented schema. */
function schemaOfValue(value: unknown): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return {};
  return Object.fromEntries(
    Object.entries(value).map(([key, child]) => [key, { type: 'object', properties: schemaOfValue(child) }]),
  );
}

/** Every property name reachable from a schema, following component $refs. */
function propertyNames(schema: unknown, seen = new Set<unknown>()): Set<string> {
  const names = new Set<string>();
  const walk = (node: unknown) => {
    if (!node || typeof node !== 'object' || seen.has(node)) return;
    seen.add(node);
    if (Array.isArray(node)) return node.forEach(walk);
    const record = node as Json;
    if (typeof record.$ref === 'string')
      walk(doc.components.schemas[record.$ref.replace('#/components/schemas/', '')]);
    if (record.properties && typeof record.properties === 'object')
      for (const key of Object.keys(record.properties)) names.add(key);
    Object.values(record).forEach(walk);
  };
  walk(schema);
  return names;
}

/** 'METHOD /path' of every route in Fastify's printRoutes tree (HEAD left out: Fastify adds it to GETs). */
function registeredRoutes(tree: string): string[] {
  const stack: string[] = [];
  const routes: string[] = [];
  for (const line of tree.split('\n')) {
    const match = /^([│ ]*)[├└]── (\S+)(?: \(([^)]*)\))?$/.exec(line);
    if (!match) continue;
    const depth = (match[1] ?? '').length / 4;
    stack.length = depth;
    stack.push(match[2] ?? '');
    for (const method of (match[3] ?? '').split(', ').filter((m) => m && m !== 'HEAD'))
      routes.push(`${method} ${stack.join('')}`);
  }
  return routes;
}

const operation = (d: Doc, path: string, method: 'get' | 'post' | 'delete' = 'post') => {
  const op = d.paths[path]?.[method];
  if (!op) throw new Error(`no ${method} ${path}`);
  return op;
};
const requestSchema = (path: string) => operation(doc, path).requestBody?.content['application/json']?.schema;
const responseSchema = (path: string, method: 'get' | 'post' = 'post') => {
  const ok = operation(doc, path, method).responses['200'];
  return ok && 'content' in ok ? ok.content?.['application/json']?.schema : undefined;
};

describe('GET /docs/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document (with and without the QA section)', async () => {
    expect(doc.openapi).toBe('3.1.0');
    for (const d of [doc, docWithoutQa]) {
      // The validator dereferences in place: give it a copy.
      const result = await validate(structuredClone(d) as never);
      expect(result.valid, JSON.stringify('errors' in result ? result.errors : [], null, 1)).toBe(true);
    }
  });

  it('lists every contract endpoint as POST at its provider path, with its tRPC procedure and kind', () => {
    // Beside them, only the operators' two (documented below).
    const providerPaths = Object.keys(docWithoutQa.paths).filter(
      (path) => path !== '/healthz' && path !== '/readyz',
    );
    expect(providerPaths.sort()).toEqual(procedureNames.map((name) => contract[name].path).sort());
    for (const name of procedureNames) {
      const entry = contract[name];
      const op = operation(doc, entry.path);
      expect(Object.keys(doc.paths[entry.path] ?? {})).toEqual(['post']);
      expect(op['x-trpc-procedure']).toBe(name);
      expect(op['x-trpc-kind']).toBe(entry.kind);
      expect(op.operationId).toBe(name);
      expect(op.description).toContain(entry.summary);
      expect(op.requestBody?.content['application/json']?.schema).toBeTruthy();
      expect(responseSchema(entry.path)).toBeTruthy();
    }
  });

  it('puts /deposit/make_payment on the deposit host and everything else on the API host', () => {
    expect(doc.servers[0]?.description).toMatch(/API host/);
    const deposit = operation(doc, '/deposit/make_payment');
    expect(deposit.servers?.[0]?.description).toMatch(/Deposit host/);
    // Absolute once its variable is filled in (a relative `/` made clients call http:////deposit/…).
    for (const server of [...(deposit.servers ?? []), ...doc.servers.slice(1)]) {
      const url = server.url.replace(
        /\{(\w+)\}/g,
        (_, name: string) => server.variables?.[name]?.default ?? '',
      );
      expect(new URL(url).origin, server.url).toBe('http://localhost:3000');
    }
    expect(deposit['x-host']).toBe('deposit');
    const others = procedureNames.filter((name) => contract[name].host !== 'deposit');
    expect(others.length).toBe(procedureNames.length - 1);
    for (const name of others) expect(operation(doc, contract[name].path).servers).toBeUndefined();
  });

  it('defaults the host variables to the origin PORT and PUBLIC_URL give, so "Try it out" calls this server', async () => {
    const hostDefaults = (document: Doc) => {
      const deposit = operation(document, '/deposit/make_payment').servers?.[0];
      return [
        deposit?.variables?.depositBaseUrl?.default,
        document.servers[1]?.variables?.apiBaseUrl?.default,
      ];
    };
    for (const [env, origin] of [
      [{ PORT: '8123' }, 'http://localhost:8123'],
      [{ PORT: '8123', PUBLIC_URL: 'https://dash.example.com/' }, 'https://dash.example.com'],
    ] as const) {
      const app = await createTestApp({ seed: 'empty', config: startConfig(env).build.config });
      try {
        const served = (await app.get<Doc>('/docs/openapi.json')).body;
        expect(hostDefaults(served), JSON.stringify(env)).toEqual([origin, origin]);
        expect(served.info.description).not.toContain('localhost:3000');
      } finally {
        await app.close();
      }
    }
  });

  it('has the provider field names, misspellings included', () => {
    expect(propertyNames(responseSchema('/binary/view_binary_downline_details'))).toContain('Direct_Bouns');
    expect(propertyNames(responseSchema('/rank/view_all_ranks'))).toContain('Left_Volune');
    expect(propertyNames(responseSchema('/user/login'))).toEqual(new Set(['Success', 'JWT']));
    expect(propertyNames(requestSchema('/user/register'))).toEqual(
      new Set([
        'username',
        'name',
        'sponsor',
        'email',
        'password',
        'conpassword',
        'otp',
        'side',
        'country',
        'project',
      ]),
    );
    expect(propertyNames(requestSchema('/deposit/make_payment'))).toEqual(
      new Set(['jwt', 'amount_usdt', 'currency', 'gateway']),
    );
    expect(propertyNames(requestSchema('/notification/total_view_notification'))).toEqual(new Set(['token']));
  });

  it('reads request bodies on the input side and responses on the output side', () => {
    // pageNo has a default: optional in a request. Named schemas become components.
    expect(requestSchema('/table/view_deposit_transaction')).toEqual({
      $ref: '#/components/schemas/TableRequest',
    });
    const table = doc.components.schemas.TableRequest as Json;
    expect(table.required ?? []).not.toContain('pageNo');
    expect((table.properties as Json).pageNo).toMatchObject({ type: 'integer', default: 1, minimum: 1 });
    // Refinements JSON Schema cannot state are listed with their messages.
    const amount = ((requestSchema('/deposit/make_payment') as Json).properties as Json).amount_usdt as Json;
    expect(amount['x-checks']).toContain(MSG.depositMin);
    const register = requestSchema('/user/register') as Json;
    expect(register['x-checks']).toContain(MSG.passwordsDoNotMatch);
    expect((register.properties as Json).side).toMatchObject({ enum: ['0', '1'] });
    // Responses may carry more fields than the contract names (plain zod objects strip them);
    // a strict object (the QA clock body) still refuses them.
    expect(doc.components.schemas.Profile).not.toHaveProperty('additionalProperties');
    expect(operation(doc, '/__qa/clock').requestBody?.content['application/json']?.schema).toMatchObject({
      additionalProperties: false,
    });
  });

  it('states authentication: bearer JWT or the body token field, as alternatives', () => {
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
    });
    expect(doc.components.securitySchemes.bearerAuth?.description).toContain('`{}`');
    for (const name of procedureNames) {
      const entry = contract[name];
      const op = operation(doc, entry.path);
      expect(op['x-auth']).toBe(entry.auth);
      const tokenField = 'tokenField' in entry ? entry.tokenField : undefined;
      expect(op['x-token-field']).toBe(tokenField);
      // The body token has no security scheme in OpenAPI: it is the empty alternative `{}`, so a
      // validator lets a call carry the token in the body alone.
      const expected =
        entry.auth === 'none'
          ? []
          : entry.auth === 'optional'
            ? [{}, { bearerAuth: [] }]
            : tokenField
              ? [{ bearerAuth: [] }, {}]
              : [{ bearerAuth: [] }];
      expect(op.security, name).toEqual(expected);
      if (tokenField) expect(op.description, name).toContain(`\`${tokenField}\` in the body`);
      expect('401' in op.responses).toBe(entry.auth !== 'none');
    }
    expect(operation(doc, '/notification/total_view_notification')['x-token-field']).toBe('token');
  });

  it('answers errors as { Error } with the statuses that apply', () => {
    expect(doc.components.schemas.Error).toMatchObject({ required: ['Error'] });
    expect(String(doc.components.schemas.Error?.description)).toMatch(/`error` or `message`/);
    for (const name of procedureNames) {
      const responses = operation(doc, contract[name].path).responses;
      expect(responses['400']).toEqual({ $ref: '#/components/responses/BadRequest' });
      expect(responses['5XX']).toEqual({ $ref: '#/components/responses/ServerError' });
    }
    expect(operation(doc, '/user/login').responses).toHaveProperty('429');
    expect(operation(doc, '/binary/view_binary_downline_details').responses).toHaveProperty('404');
    expect(operation(doc, '/user/change_email_request').responses).toHaveProperty('403');
    for (const response of Object.values(doc.components.responses))
      expect(response.content['application/json']?.schema).toEqual({ $ref: '#/components/schemas/Error' });
  });

  it('describes the interpretations of DESIGN §3 at the top and per endpoint', () => {
    const top = doc.info.description;
    for (const phrase of [
      'Direct_Bouns',
      '`"0"` (left)',
      'Invalid Authentication',
      'Session Expired',
      '/user/verify_otp',
      'Status: true',
      '/level/downline_exist',
      'package list',
      'deposit host',
    ])
      expect(top).toContain(phrase);
    expect(operation(doc, '/user/view_country').description).toContain(contract['user.view_country'].summary);
  });

  it('documents /healthz and /readyz, in every role, with the fields they answer', async () => {
    for (const d of [doc, docWithoutQa]) {
      expect(Object.keys(operation(d, '/readyz', 'get').responses)).toEqual(['200', '503']);
      expect(operation(d, '/healthz', 'get').security).toEqual([]);
    }
    const documented = (path: string) =>
      propertyNames(
        (operation(doc, path, 'get').responses['200'] as { content: Record<string, { schema: unknown }> })
          .content['application/json']!.schema,
      );
    const served = (body: unknown) => propertyNames({ type: 'object', properties: schemaOfValue(body) });
    const healthz = await qaOff.fastify.inject({ method: 'GET', url: '/healthz' });
    const readyz = await qaOff.fastify.inject({ method: 'GET', url: '/readyz' });
    expect(served(healthz.json())).toEqual(documented('/healthz'));
    expect(served(readyz.json())).toEqual(documented('/readyz'));
  });

  it('has the QA section only while QA control is on', async () => {
    const qaPaths = (d: Doc) => Object.keys(d.paths).filter((p) => p.startsWith('/__qa'));
    expect(qaPaths(docWithoutQa)).toEqual([]);
    expect(docWithoutQa.tags.map((t) => t.name)).not.toContain('QA');
    expect(qaPaths(doc).length).toBeGreaterThan(10);
    expect(doc.tags.map((t) => t.name)).toContain('QA');
    expect(operation(doc, '/__qa/clock', 'post').tags).toEqual(['QA']);
    expect(operation(doc, '/__qa/totp/{username}', 'get').parameters?.[0]).toMatchObject({
      name: 'username',
      in: 'path',
      required: true,
    });
    expect(operation(doc, '/__qa/faults', 'delete')).toBeTruthy();
    expect(operation(doc, '/__qa/snapshots/{name}/restore')).toBeTruthy();
    expect(propertyNames(responseSchema('/__qa/ledger/check', 'get'))).toEqual(
      new Set([
        'balanced',
        'total',
        'negativeWallets',
        'mismatchedWallets',
        'accountId',
        'username',
        'wallet',
        'balance',
        'fromTransfers',
        'debitsPosted',
        'debitsFromTransfers',
        'creditsPosted',
        'creditsFromTransfers',
        'monthsMismatched',
      ]),
    );
    // Public either way.
    expect((await qaOff.fastify.inject({ method: 'GET', url: '/docs/openapi.json' })).statusCode).toBe(200);
  });

  it('documents exactly the QA routes the server has', async () => {
    await qaOn.fastify.ready();
    const documented = QA_ROUTES.map((route) => `${route.method} ${route.path}`).sort();
    expect(
      registeredRoutes(qaOn.fastify.printRoutes({ commonPrefix: false }))
        .filter((route) => route.includes(' /__qa'))
        .sort(),
    ).toEqual(documented);
    expect(operation(doc, '/__qa/faults').responses).toHaveProperty('201');
    expect(operation(doc, '/__qa/snapshots/{name}/restore').responses).toHaveProperty('409');
  });

  it('offers the X-QA-Fault header on contract calls only while QA control is on', () => {
    expect(operation(doc, '/user/view_profile').parameters).toEqual([
      { $ref: '#/components/parameters/QaFault' },
      { $ref: '#/components/parameters/QaWorld' },
    ]);
    // A plain string (so "Try it out" sends nothing unless asked) whose JSON shape is QaFaultRule.
    expect(doc.components.parameters.QaFault).toMatchObject({
      name: 'X-QA-Fault',
      in: 'header',
      required: false,
      schema: { type: 'string' },
    });
    expect(propertyNames(doc.components.schemas.QaFaultRule)).toEqual(
      new Set([
        'member',
        'status',
        'error',
        'body',
        'delayMs',
        'delay',
        'hang',
        'malformed',
        'empty',
        'drop',
        'probability',
        'min',
        'max',
      ]),
    );
    expect(operation(docWithoutQa, '/user/view_profile').parameters).toBeUndefined();
    // Without QA control only the money moves' Idempotency-Key remains.
    expect(Object.keys(docWithoutQa.components.parameters)).toEqual(['IdempotencyKey']);
    expect(docWithoutQa.components.schemas).not.toHaveProperty('QaFaultRule');
  });
});

describe('examples and descriptions', () => {
  it('gives every QA operation a description, every path parameter an example, every body an example it accepts', () => {
    for (const route of QA_ROUTES) {
      const op = operation(
        doc,
        route.path.replace(/:(\w+)/g, '{$1}'),
        route.method.toLowerCase() as 'get' | 'post' | 'delete',
      );
      const label = `${route.method} ${route.path}`;
      expect(op.description, label).toBeTruthy();
      expect(op.description, label).not.toBe(op.summary);
      const pathParams = (op.parameters ?? []).filter(
        (p): p is Extract<typeof p, { in: string }> => 'in' in p && p.in === 'path',
      );
      expect(pathParams.map((p) => p.name).sort(), label).toEqual(
        [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]).sort(),
      );
      for (const param of pathParams)
        expect(param.example, `${label} ${param.name}`).toEqual(expect.any(String));
      if (route.body) {
        const example = op.requestBody?.content['application/json']?.example;
        expect(route.body.safeParse(example).success, label).toBe(true);
      }
    }
    expect(operation(doc, '/__qa/totp/{username}', 'get').parameters?.[0]).toMatchObject({
      name: 'username',
      example: 'demo2fa',
    });
  });
});

describe('GET /docs', () => {
  it('answers the viewer page whose assets are all served from here', async () => {
    const page = await qaOn.fastify.inject({ method: 'GET', url: '/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    const assets = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] ?? '');
    expect(assets.some((a) => a.endsWith('swagger-ui-bundle.js'))).toBe(true);
    expect(assets.some((a) => a.endsWith('swagger-ui.css'))).toBe(true);
    for (const asset of assets) {
      expect(asset, 'no third-party host').toMatch(/^\/docs\//);
      const response = await qaOn.fastify.inject({ method: 'GET', url: asset });
      expect(response.statusCode, asset).toBe(200);
      expect(response.rawPayload.length, asset).toBeGreaterThan(0);
    }
    // The viewer loads ./json (swagger-initializer.js): the same document.
    const initializer = await qaOn.fastify.inject({
      method: 'GET',
      url: '/docs/static/swagger-initializer.js',
    });
    expect(initializer.body).toContain("resolveUrl('./json')");
    expect((await qaOn.get('/docs/json')).body).toEqual(doc);
    const yaml = await qaOn.fastify.inject({ method: 'GET', url: '/docs/yaml' });
    expect(yaml.body).toMatch(/^openapi: 3\.1\.0$/m);
  });

  it('is not swallowed by the web app’s SPA fallback', async () => {
    const webDist = mkdtempSync(join(tmpdir(), 'md-web-'));
    writeFileSync(join(webDist, 'index.html'), '<!doctype html><title>web app</title>');
    const t = await createTestApp({ seed: 'empty', webDist, config: { qaControl: false } });
    try {
      const docs = await t.fastify.inject({ method: 'GET', url: '/docs' });
      expect(docs.body).toContain('swagger-ui');
      const unknown = await t.fastify.inject({ method: 'GET', url: '/docs/nothing-here' });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toMatchObject({ Error: 'Not found' });
      // The web app still owns its own routes.
      expect((await t.fastify.inject({ method: 'GET', url: '/dashboard' })).body).toContain('web app');
    } finally {
      await t.close();
    }
  });
});

describe('zod → JSON Schema for the document', () => {
  it('gives types without a JSON Schema form an open schema with a note instead of failing', () => {
    const schemas = createSchemaConverter(new Map());
    const schema = z.object({
      when: z.date(),
      length: z.string().transform((v) => v.length),
      id: z.bigint(),
    });
    const output = schemas.convert(schema, 'output') as { properties: Record<string, Json> };
    expect(output.properties.length).toMatchObject({
      'x-unrepresentable': expect.stringMatching(/Transforms/),
    });
    expect(output.properties.when).toMatchObject({ 'x-unrepresentable': expect.stringMatching(/Date/) });
    // The input side of a transform is its input type.
    expect(
      (schemas.convert(schema, 'input') as { properties: Record<string, Json> }).properties.length,
    ).toEqual({ type: 'string' });
    expect(schemas.unrepresentable.length).toBeGreaterThan(0);
    expect(JSON.stringify(doc)).not.toContain('x-unrepresentable');
  });

  it('names recursive schemas once, across conversions', () => {
    const schemas = createSchemaConverter(new Map());
    type Tree = { value: number; children: Tree[] };
    const tree: z.ZodType<Tree> = z.lazy(() => z.object({ value: z.number(), children: z.array(tree) }));
    expect(schemas.convert(z.object({ a: z.json() }), 'input')).toMatchObject({
      properties: { a: { $ref: '#/components/schemas/JsonValue' } },
    });
    expect(schemas.convert(z.json(), 'output')).toEqual({ $ref: '#/components/schemas/JsonValue' });
    expect(schemas.convert(tree, 'output')).toEqual({ $ref: '#/components/schemas/Recursive1' });
    expect(Object.keys(schemas.components).sort()).toEqual(['JsonValue', 'Recursive1']);
    // Any JSON value, said without recursion (openapi-typescript's output of the recursive form fails tsc: TS2502).
    expect(JSON.stringify(schemas.components.JsonValue)).not.toContain('$ref');
    expect(JSON.stringify(schemas.components)).not.toContain('$defs');
  });
});
