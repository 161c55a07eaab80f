/**
 * The served OpenAPI document works with the tools third parties build on — a validator
 * (swagger-parser), a linter (Redocly CLI, recommended rules) and a client generator
 * (openapi-typescript, whose output must compile under `tsc --strict`).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import SwaggerParser from '@apidevtools/swagger-parser';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenApiDocument } from '../src/modules/docs/openapi.ts';
import { createTestApp, type TestApp } from './helpers.ts';

const run = promisify(execFile);
const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const bin = (name: string) => join(REPO, 'node_modules', '.bin', name);
// Slow tools on a busy machine: generous limits (no timing is asserted).
const TOOL_TIMEOUT = 120_000;

let t: TestApp;
let withQa: OpenApiDocument;
let withoutQa: OpenApiDocument;
let dir: string;

beforeAll(async () => {
  // The fullest document (QA section with its X-QA-Token scheme), and the production one.
  t = await createTestApp({ seed: 'demo', qaToken: 'qa-secret', config: { qaControl: true } });
  const bare = await createTestApp({ seed: 'empty', config: { qaControl: false } });
  withQa = (await t.get<OpenApiDocument>('/docs/openapi.json')).body;
  withoutQa = (await bare.get<OpenApiDocument>('/docs/openapi.json')).body;
  await bare.close();
  dir = mkdtempSync(join(tmpdir(), 'md-openapi-tools-'));
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

interface LintProblem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location: { pointer: string }[];
}

/** `redocly lint` with the recommended rules on the document, offline (no telemetry, no update check). */
async function redoclyLint(document: unknown, name: string) {
  const file = join(dir, `${name}.json`);
  const config = join(dir, 'redocly.yaml');
  writeFileSync(file, JSON.stringify(document));
  writeFileSync(config, 'extends:\n  - recommended\ntelemetry: off\n');
  const env = {
    ...process.env,
    REDOCLY_TELEMETRY: 'off',
    REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
    REDOCLY_SUPPRESS_NOTIFICATIONS: 'true',
    NO_COLOR: '1',
  };
  // Exit code 1 when there are errors: the JSON report on stdout says which.
  const { stdout } = await run(bin('redocly'), ['lint', '--format=json', `--config=${config}`, file], {
    env,
    cwd: dir,
    maxBuffer: 64 << 20,
  }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
  return JSON.parse(stdout) as { totals: { errors: number; warnings: number }; problems: LintProblem[] };
}

/** Every `$ref` cycle among the component schemas, as 'A → B → A'. */
function refCycles(schemas: Record<string, unknown>): string[] {
  const refsOf = (node: unknown, out = new Set<string>()): Set<string> => {
    if (Array.isArray(node)) node.forEach((item) => refsOf(item, out));
    else if (node && typeof node === 'object')
      for (const [key, value] of Object.entries(node)) {
        if (key === '$ref' && typeof value === 'string') out.add(value.replace('#/components/schemas/', ''));
        else refsOf(value, out);
      }
    return out;
  };
  const edges = new Map(Object.entries(schemas).map(([name, schema]) => [name, [...refsOf(schema)]]));
  const cycles: string[] = [];
  const walk = (name: string, path: string[]) => {
    if (path.includes(name)) return void cycles.push([...path.slice(path.indexOf(name)), name].join(' → '));
    if (path.length > edges.size) return;
    for (const next of edges.get(name) ?? []) walk(next, [...path, name]);
  };
  for (const name of edges.keys()) walk(name, []);
  return cycles;
}

describe('the served OpenAPI document in third-party tools', () => {
  it('validates with @apidevtools/swagger-parser, with and without the QA section', async () => {
    for (const document of [withQa, withoutQa]) {
      // The parser dereferences in place: give it a copy.
      const api = await SwaggerParser.validate(structuredClone(document) as never);
      expect(api.info.title).toBe('Member dashboard provider API');
    }
  });

  it(
    'lints with Redocly CLI (recommended rules): no errors, and only the known warnings',
    async () => {
      for (const [name, document] of [
        ['with-qa', withQa],
        ['without-qa', withoutQa],
      ] as const) {
        const report = await redoclyLint(document, name);
        const errors = report.problems
          .filter((p) => p.severity === 'error')
          .map((p) => `${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`);
        expect(errors, name).toEqual([]);
        expect(report.totals.errors).toBe(0);
        // What remains, on purpose: no `license` (the project publishes none), and the QaFaultRule
        // schema is named only from an extension of the X-QA-Fault header (a `content` form
        // would make Swagger UI send a fault with every call). Invalid examples, missing tag
        // descriptions or server problems would show here.
        // /healthz and /readyz have no client error to document (no input, no authentication).
        // A browser enters and leaves a QA world by a redirect that sets the cookie: no 2XX there.
        const known = [
          /^operation-2xx-response: .* at #\/paths\/~1__qa~1worlds~1(\{id\}~1enter|leave)\/get\/responses$/,
          /^info-license: /,
          /^no-unused-components: Component: "QaFaultRule" is never used/,
          /^operation-4xx-response: .* at #\/paths\/~1(healthz|readyz)\/get\/responses$/,
        ];
        const warnings = report.problems.map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`);
        expect(
          warnings.filter((warning) => !known.some((pattern) => pattern.test(warning))),
          name,
        ).toEqual([]);
      }
    },
    TOOL_TIMEOUT,
  );

  it('carries the shapes tools choke on in a form they take', () => {
    const text = JSON.stringify(withQa);
    // Tuples: no prefixItems / items: false (Prism, Postman/newman, Spectral).
    expect(text.includes('prefixItems'), 'prefixItems in the document').toBe(false);
    expect(text.includes('"items":false'), 'items: false in the document').toBe(false);
    const nodeDetails = withQa.components.schemas.NodeDetails as { properties: Record<string, unknown> };
    expect(nodeDetails.properties.Current_Binary).toMatchObject({
      type: 'array',
      items: { type: 'number' },
      minItems: 2,
      maxItems: 2,
    });
    // No recursive schema (Portman; openapi-typescript's output fails tsc with TS2502).
    expect(withQa.components.schemas).toHaveProperty('JsonValue');
    expect(refCycles(withQa.components.schemas)).toEqual([]);
    expect(refCycles(withoutQa.components.schemas)).toEqual([]);
  });

  it('lists the body token as the alternative to bearer, and the server takes a call that carries only it', async () => {
    const token = await t.login('demo');
    for (const [path, field] of [
      ['/user/view_profile', 'jwt'],
      ['/notification/total_view_notification', 'token'],
    ] as const) {
      const op = withQa.paths[path]?.post;
      expect(op?.security, path).toEqual([{ bearerAuth: [] }, {}]);
      expect(op?.['x-token-field'], path).toBe(field);
      // What a validator following the document lets through: no Authorization header, the token in the body.
      expect((await t.post(path, { [field]: token })).status, path).toBe(200);
      expect((await t.post(path, {})).status, path).toBe(401);
    }
  });

  it(
    'gives a client from openapi-typescript that compiles under tsc --strict',
    async () => {
      const types = astToString(await openapiTS(structuredClone(withQa) as never));
      writeFileSync(join(dir, 'api.d.ts'), types);
      // A tiny client: bodies and answers typed from the generated paths and components.
      writeFileSync(
        join(dir, 'client.ts'),
        `import type { components, paths } from './api';
type Body<P extends keyof paths> = paths[P] extends { post: { requestBody?: { content: { 'application/json': infer B } } } } ? B : never;
type Answer<P extends keyof paths> = paths[P] extends { post: { responses: { 200: { content: { 'application/json': infer A } } } } } ? A : never;
export const login: Body<'/user/login'> = { username: 'demo', password: 'Demo@1234' };
// @ts-expect-error the password is required
export const incomplete: Body<'/user/login'> = { username: 'demo' };
export const jwt = (answer: Answer<'/user/login'>): string => answer.JWT;
export const carry = (node: components['schemas']['NodeDetails']): number => node.Current_Binary.reduce((sum, side) => sum + side, 0);
export const payment: Body<'/deposit/make_payment'> = { amount_usdt: 100, currency: 'USDT.BEP20', jwt: 'token-in-the-body' };
export const fault: paths['/__qa/faults']['post']['requestBody']['content']['application/json'] = { path: '/user/view_profile', body: { any: ['json', 1, null, { nested: true }] } };
export const totp = (username: paths['/__qa/totp/{username}']['get']['parameters']['path']['username']) => username;
`,
      );
      const tsc = await run(
        process.execPath,
        [
          join(REPO, 'node_modules/typescript/bin/tsc'),
          '--strict',
          '--noEmit',
          '--target',
          'es2022',
          join(dir, 'client.ts'),
        ],
        { cwd: dir },
      ).catch((error: { stdout?: string; code?: number }) => ({
        stdout: error.stdout ?? String(error),
        code: error.code,
      }));
      expect(tsc.stdout).toBe('');
      expect('code' in tsc ? tsc.code : 0).toBe(0);
    },
    TOOL_TIMEOUT,
  );
});
