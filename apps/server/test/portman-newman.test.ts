/**
 * Portman and newman, as a team that lives in Postman builds on the document: Portman turns the
 * served document (its QA section filtered out) into a collection with its contract tests (status
 * 2xx, JSON type and body, the answer against the documented schema), and newman runs it against
 * a demo server on loopback. The requests are the document's examples, sent as written. The
 * collection's one pre-request script is what a tester writes once: each request starts from the
 * same demo world with example codes (a QA snapshot restored), carries its member's token
 * (`x-example-as`), first makes the call its example needs (`x-example-after`), and takes the two
 * values a world makes at random (a captcha, another session's id). The QA headers the document
 * offers are left out and an Idempotency-Key is a fresh UUID, as a client sends them.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contract, procedureNames } from '@md/shared';
import type { OpenApiDocument } from '../src/modules/docs/openapi.ts';
import { createTestApp, expectLedgerSound, solveCaptcha, type TestApp } from './helpers.ts';

const run = promisify(execFile);
const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const bin = (name: string) => join(REPO, 'node_modules', '.bin', name);
const SNAPSHOT = 'newman-demo';

let t: TestApp;
let origin: string;
let dir: string;

beforeAll(async () => {
  t = await createTestApp({ seed: 'demo', config: { qaControl: true, rateLimits: false } });
  origin = await t.fastify.listen({ port: 0, host: '127.0.0.1' });
  dir = mkdtempSync(join(tmpdir(), 'md-newman-'));
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The collection's pre-request script: `as` and `after` by path, from the document. */
function preRequestScript(as: Record<string, string>, after: Record<string, unknown>): string {
  return `
const AS = ${JSON.stringify(as)};
const AFTER = ${JSON.stringify(after)};
const base = pm.variables.get('baseUrl');
const path = '/' + pm.request.url.path.join('/');
pm.request.headers.remove('X-QA-Fault');
pm.request.headers.remove('X-QA-World');
if (pm.request.headers.has('Idempotency-Key'))
  pm.request.headers.upsert({ key: 'Idempotency-Key', value: pm.variables.replaceIn('{{$guid}}') });
const token = AS[path] ? pm.variables.get('token_' + AS[path]) : undefined;
// The collection's bearer auth reads {{bearerToken}}.
pm.variables.set('bearerToken', token || '');
const post = (to, body, next) =>
  pm.sendRequest(
    {
      url: base + to,
      method: 'POST',
      header: { 'Content-Type': 'application/json', ...(token ? { Authorization: 'Bearer ' + token } : {}) },
      body: { mode: 'raw', raw: JSON.stringify(body) },
    },
    (error, response) => {
      if (error || response.code >= 300) throw new Error('POST ' + to + ': ' + (error || response.text()));
      next(response);
    },
  );
const setBody = (fields) => {
  pm.request.body.raw = JSON.stringify({ ...JSON.parse(pm.request.body.raw), ...fields });
};
const carried = () => {
  if (path === '/user/forgot_username') setBody({ captcha: pm.variables.get('captcha') });
  if (path === '/user/end_session')
    post('/user/view_sessions', {}, (response) =>
      setBody({ session: response.json().Success.find((session) => !session.Current).ID }),
    );
};
post('/__qa/snapshots/${SNAPSHOT}/restore', {}, () =>
  AFTER[path] ? post(AFTER[path].path, AFTER[path].request, carried) : carried(),
);
`;
}

interface NewmanReport {
  run: {
    stats: Record<
      'requests' | 'assertions' | 'testScripts' | 'prerequestScripts',
      { total: number; failed: number }
    >;
    failures: { error: { name: string; message: string }; source?: { name?: string } }[];
    executions: {
      item: { name: string };
      request: { url: { path: string[] } };
      response?: { code: number };
    }[];
  };
}

describe('Portman and newman on the served document', () => {
  it(
    'runs every contract example with Portman’s contract tests and no failure',
    { timeout: 240_000 },
    async () => {
      const document = (await t.get<OpenApiDocument>('/docs/openapi.json')).body;
      const as: Record<string, string> = {};
      const after: Record<string, unknown> = {};
      for (const name of procedureNames) {
        const { path } = contract[name];
        const operation = document.paths[path]!.post!;
        if (typeof operation['x-example-as'] === 'string') as[path] = operation['x-example-as'];
        if (operation['x-example-after']) after[path] = operation['x-example-after'];
      }

      // The stage, once: example codes on, the members signed in (demo twice, for end_session), a snapshot.
      const qa = (method: 'PUT' | 'POST', url: string, body: unknown) =>
        t.fastify.inject({
          method,
          url,
          headers: { 'content-type': 'application/json' },
          payload: JSON.stringify(body),
        });
      expect((await qa('PUT', '/__qa/example-codes', { on: true })).statusCode).toBe(200);
      const tokens = new Map<string, string>();
      for (const member of new Set(Object.values(as))) tokens.set(member, await t.login(member));
      await t.login('demo');
      expect((await qa('POST', '/__qa/snapshots', { name: SNAPSHOT })).statusCode).toBe(201);

      const files = {
        document: join(dir, 'openapi.json'),
        filter: join(dir, 'filter.json'),
        postman: join(dir, 'postman-config.json'),
        portman: join(dir, 'portman-config.json'),
        collection: join(dir, 'collection.json'),
        report: join(dir, 'report.json'),
      };
      writeFileSync(files.document, JSON.stringify(document));
      // What a Postman team keeps beside the document: the QA section out, examples as the requests.
      writeFileSync(
        files.filter,
        JSON.stringify({ tags: ['QA'], unusedComponents: ['schemas', 'parameters'] }),
      );
      writeFileSync(
        files.postman,
        JSON.stringify({ folderStrategy: 'Tags', parametersResolution: 'Example' }),
      );
      writeFileSync(
        files.portman,
        JSON.stringify({
          version: 1.0,
          tests: {
            contractTests: [
              {
                openApiOperation: '*::/*',
                statusSuccess: { enabled: true },
                contentType: { enabled: true },
                jsonBody: { enabled: true },
                schemaValidation: { enabled: true },
              },
            ],
          },
          globals: { collectionPreRequestScripts: [preRequestScript(as, after)] },
        }),
      );
      const env = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' };
      await run(
        bin('portman'),
        [
          `--local=${files.document}`,
          `--baseUrl=${origin}`,
          `--filterFile=${files.filter}`,
          `--postmanConfigFile=${files.postman}`,
          `--portmanConfigFile=${files.portman}`,
          `--output=${files.collection}`,
        ],
        { env, cwd: dir, maxBuffer: 64 << 20 },
      ).catch((error: { stdout?: string; stderr?: string }) => {
        throw new Error(`portman failed:\n${error.stdout ?? ''}\n${error.stderr ?? ''}`);
      });

      const captcha = await solveCaptcha(t.get);
      const variables = [
        `depositBaseUrl=${origin}`,
        `captcha=${captcha}`,
        ...[...tokens].map(([member, token]) => `token_${member}=${token}`),
      ];
      const newman = await run(
        bin('newman'),
        [
          'run',
          files.collection,
          ...variables.flatMap((variable) => ['--env-var', variable]),
          '--reporters=cli,json',
          `--reporter-json-export=${files.report}`,
          '--color=off',
          '--disable-unicode',
        ],
        { env, cwd: dir, maxBuffer: 64 << 20 },
      ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
      const report = JSON.parse(readFileSync(files.report, 'utf8')) as NewmanReport;
      const failures = report.run.failures.map(
        (f) => `${f.source?.name}: ${f.error.name}: ${f.error.message}`,
      );
      expect(failures, newman.stdout.slice(-6000)).toEqual([]);

      // Every contract operation ran and answered 2xx, each with Portman's four tests.
      const paths = new Set(
        report.run.executions.map((execution) => `/${execution.request.url.path.join('/')}`),
      );
      expect([...paths].filter((path) => path !== '/healthz' && path !== '/readyz').sort()).toEqual(
        procedureNames.map((name) => contract[name].path).sort(),
      );
      expect(report.run.executions.every((execution) => (execution.response?.code ?? 0) < 300)).toBe(true);
      expect(report.run.stats.assertions).toMatchObject({
        failed: 0,
        total: (procedureNames.length + 2) * 4,
      });
      await expectLedgerSound(t);
    },
  );
});
