/**
 * `npm run drift` (scripts/drift.ts) spawned for real against this server listening on
 * loopback as the provider: clean, it exits 0; with QA fault rules whose `body` drifts answers, it
 * exits 1 and names each field and kind; bad arguments and failed sign-ins exit 2 with a reason.
 */
import { execFile } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import type { DriftEntry } from '../src/modules/gateway/drift.ts';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

let app: Awaited<ReturnType<typeof buildApp>>;
let provider: string;

beforeAll(async () => {
  app = await buildApp({ databasePath: ':memory:', seed: 'demo', jwtSecret: 'drift-command-secret' });
  await app.fastify.listen({ host: '127.0.0.1', port: 0 });
  provider = `http://127.0.0.1:${(app.fastify.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await app?.fastify.close();
});
afterEach(async () => {
  await app.fastify.inject({ method: 'DELETE', url: '/__qa/faults' });
});

/** Runs the command as npm does; answers its exit code and output. */
function drift(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'scripts/drift.ts', ...args],
      { cwd: ROOT, timeout: 90_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

async function addFault(rule: Record<string, unknown>) {
  const response = await app.fastify.inject({ method: 'POST', url: '/__qa/faults', payload: rule });
  expect(response.statusCode, response.body).toBe(201);
}

const demo = () => ['--provider', provider, '--username', 'demo', '--password', 'Demo@1234'];

describe('npm run drift', () => {
  it('exits 0 on a provider that keeps the contract, having checked every read endpoint', async () => {
    const run = await drift(demo());
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('No drift: every answer matches the contract.');
    // view_country twice, the sign-in, and every other read of the contract.
    expect(run.stdout).toMatch(/Checked (\d+) answers/);
    expect(Number(/Checked (\d+) answers/.exec(run.stdout)![1])).toBeGreaterThanOrEqual(30);
    expect(run.code).toBe(0);
  }, 120_000);

  it('exits 1 on drifted answers and names each endpoint, field and kind', async () => {
    const wallet = { Available: '12.5', Total: 20, This_Month: 0, Last_Month: 0, User: 'demo' };
    await addFault({ path: '/rank/current_rank', body: { Success: { Current_Rank: 'Gold' } } });
    await addFault({ path: '/wallet/view_all_wallets_details', body: { Success: { Deposit: wallet } } });
    await addFault({
      path: '/binary/view_binary_downline',
      body: { Success: { Username: 'demo', CountUser: 1, Downline: [{ Username: 'x', Side: 'L' }] } },
    });
    await addFault({ path: '/withdraw/withdraw_fees', body: { Success: { fee: 5 } } });
    await addFault({ path: '/table/view_subscription', status: 500, body: 'Internal error' });

    const json = await drift([...demo(), '--json']);
    expect(json.code).toBe(1);
    const found = (JSON.parse(json.stdout) as DriftEntry[]).map(({ path, field, kind, seen }) => ({
      path,
      field,
      kind,
      seen,
    }));
    expect(found).toEqual(
      expect.arrayContaining([
        { path: '/rank/current_rank', field: 'Success.Rank', kind: 'missing', seen: undefined },
        { path: '/rank/current_rank', field: 'Success.Current_Rank', kind: 'extra', seen: 'Gold' },
        {
          path: '/wallet/view_all_wallets_details',
          field: 'Success.Deposit.Available',
          kind: 'type',
          seen: '12.5',
        },
        { path: '/binary/view_binary_downline', field: 'Success.Downline[].Side', kind: 'value', seen: 'L' },
        { path: '/withdraw/withdraw_fees', field: 'Success', kind: 'type', seen: { fee: 5 } },
        { path: '/table/view_subscription', field: 'Error', kind: 'envelope', seen: 'Internal error' },
      ]),
    );
    // Nothing else drifted: the other answers are the stand-in's own.
    expect(found).toHaveLength(6);

    const table = await drift(demo());
    expect(table.code).toBe(1);
    expect(table.stdout).toContain('6 drift findings');
    expect(table.stdout).toMatch(
      /\/binary\/view_binary_downline\s+Success\.Downline\[\]\.Side\s+value\s+"0" \| "1"\s+"L"\s+1/,
    );
    expect(table.stdout).toMatch(/\/table\/view_subscription: HTTP 500/);
  }, 180_000);

  it('exits 2 with the reason on bad arguments and failed sign-ins; signs in with --totp and writes only with --writes', async () => {
    const missing = await drift(['--username', 'demo', '--password', 'x']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--provider is required');
    const unknown = await drift([...demo(), '--fast']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("Unknown option '--fast'");

    const wrong = await drift(['--provider', provider, '--username', 'demo', '--password', 'Wrong@1234']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/sign-in as demo failed: HTTP 4\d\d /);

    const noCode = await drift(['--provider', provider, '--username', 'demo2fa', '--password', 'Demo@1234']);
    expect(noCode.code).toBe(2);
    expect(noCode.stderr).toContain('demo2fa has 2FA on: pass --totp CODE');

    const deposits = () =>
      app.services.sqlite
        .prepare(
          "select count(*) as n from deposits d join members m on m.id = d.member_id where m.username = 'demo2fa'",
        )
        .get() as { n: number };
    const before = deposits().n;
    const { code } = (await app.fastify.inject({ method: 'GET', url: '/__qa/totp/demo2fa' })).json<{
      code: string;
    }>();
    const withCode = await drift([
      '--provider',
      provider,
      '--username',
      'demo2fa',
      '--password',
      'Demo@1234',
      '--totp',
      code,
      '--writes',
    ]);
    expect(withCode.stdout).toContain('(with writes)');
    expect(withCode.stdout).toContain('No drift');
    expect(withCode.code).toBe(0);
    // --writes opened one deposit window; the runs without it opened none.
    expect(deposits().n).toBe(before + 1);
  }, 180_000);

  it('exits 2 when the provider does not answer', async () => {
    const run = await drift(['--provider', 'http://127.0.0.1:9', '--username', 'demo', '--password', 'x']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('did not answer');
  }, 60_000);
});
