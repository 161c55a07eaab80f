/**
 * Dredd, as an integrator runs it, against the document as served: every contract operation's
 * documented example is sent to a server on loopback and its answer checked against the
 * documented status, headers (Content-Type, X-Request-Id, Idempotent-Replayed) and schema. The
 * hooks (fixtures/dredd-hooks.cjs) only set the stage: a fresh `demo` world with example codes per
 * transaction, its member's token, the call that mails an example's code, and the fault that
 * provokes a documented 400, 401, 413 or 415. Nothing in an answer is rewritten.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenApiDocument } from '../src/modules/docs/openapi.ts';
import { createTestApp, expectLedgerSound, type TestApp } from './helpers.ts';

const run = promisify(execFile);
const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const HOOKS = fileURLToPath(new URL('./fixtures/dredd-hooks.cjs', import.meta.url));
// The statuses the hooks provoke; the others need a state of their own and are skipped.
const PROVOKED = new Set(['200', '400', '401', '413', '415']);
const SKIPPED = new Set(['403', '404', '409', '422', '429', '503']);

let t: TestApp;
let dir: string;
let origin: string;

beforeAll(async () => {
  t = await createTestApp({ seed: 'demo', config: { qaControl: true } });
  origin = await t.fastify.listen({ port: 0, host: '127.0.0.1' });
  dir = mkdtempSync(join(tmpdir(), 'md-dredd-'));
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Outcome {
  verdict: 'pass' | 'fail' | 'skip';
  method: string;
  status: string;
  path: string;
}

describe('Dredd against the served document', () => {
  it(
    'passes every documented example and every status the hooks provoke, as served',
    { timeout: 240_000 },
    async () => {
      const document = (await t.get<OpenApiDocument>('/docs/openapi.json')).body;
      const file = join(dir, 'openapi.json');
      writeFileSync(file, JSON.stringify(document));
      const { stdout } = await run(
        join(REPO, 'node_modules/.bin/dredd'),
        [file, origin, `--hookfiles=${HOOKS}`, '--loglevel=warning', '--color=false'],
        {
          env: { ...process.env, DREDD_SERVER: origin, DREDD_DOCUMENT: file, NO_COLOR: '1' },
          maxBuffer: 64 << 20,
        },
      ).catch((error: { stdout?: string; stderr?: string }) => {
        throw new Error(`dredd failed:\n${(error.stdout ?? '').slice(-8000)}\n${error.stderr ?? ''}`);
      });
      const outcomes: Outcome[] = [...stdout.matchAll(/^(pass|fail|skip): (\w+) \((\d+)\) (\S+)/gm)].map(
        ([, verdict, method, status, path]) => ({ verdict, method, status, path }) as Outcome,
      );
      const failed = outcomes.filter((o) => o.verdict === 'fail');
      expect(failed, stdout.slice(-8000)).toEqual([]);
      expect(stdout).toMatch(/complete: \d+ passing, 0 failing, 0 errors/);

      // Every documented answer of a contract path that the hooks provoke passed; none was skipped.
      const expected = new Set<string>();
      for (const [path, operations] of Object.entries(document.paths)) {
        if (path.startsWith('/__qa')) continue;
        for (const [method, operation] of Object.entries(operations))
          for (const status of Object.keys(operation!.responses))
            if (PROVOKED.has(status)) expected.add(`${method.toUpperCase()} ${status} ${path}`);
      }
      const passed = new Set(
        outcomes.filter((o) => o.verdict === 'pass').map((o) => `${o.method} ${o.status} ${o.path}`),
      );
      expect([...expected].filter((key) => !passed.has(key))).toEqual([]);
      expect(passed.size).toBeGreaterThan(300);
      // What was skipped: the QA API, and statuses that need a state of their own.
      const skippedOthers = outcomes.filter(
        (o) => o.verdict === 'skip' && !o.path.startsWith('/__qa') && !SKIPPED.has(o.status),
      );
      expect(skippedOthers).toEqual([]);
      await expectLedgerSound(t);
    },
  );
});
