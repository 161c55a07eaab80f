/**
 * What the development defaults cost on reads: the QA journal and the output
 * check on against both off, on the same database, CPU µs per request of the server process
 * (from /proc, so other processes' load barely moves it) and throughput, in interleaved rounds.
 *   node --import tsx scripts/bench/dev-defaults.ts [--rounds 3] [--duration 3] [--connections 20]
 * Goal: journal + output check ≤ 15 % more CPU per read than the same read with both off.
 * The servers run as `node --import tsx scripts/bench/dev-defaults.ts --serve <db> <port> <on|off>`.
 */
import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../../apps/server/src/app.ts';
import { DEMO_PASSWORD } from '../../apps/server/src/core/passwords.ts';
import { addMoneyRows } from './fixtures.ts';
import { median, numberArg, stringArg } from './cli.ts';

if (stringArg('serve') !== undefined) {
  const [databasePath, port, mode] = process.argv.slice(process.argv.indexOf('--serve') + 1);
  const on = mode === 'on';
  const { fastify } = await buildApp({
    databasePath,
    jwtSecret: 'bench-secret-bench-secret-bench-secret',
    config: { qaControl: on, validateOutput: on, rateLimits: false },
  });
  await fastify.listen({ port: Number(port), host: '127.0.0.1' });
  console.log(`listening ${mode}`);
  // A clean exit, so `--cpu-prof` writes its profile.
  process.once('SIGTERM', () => process.exit(0));
} else {
  const ROUNDS = numberArg('rounds', 3);
  const DURATION = numberArg('duration', 3);
  const CONNECTIONS = numberArg('connections', 20);
  const dir = mkdtempSync(join(tmpdir(), 'md-bench-dev-'));
  const databasePath = join(dir, 'demo.sqlite');
  const children: ChildProcess[] = [];
  process.once('exit', () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  });
  process.once('SIGINT', () => process.exit(130));
  {
    const { services, fastify } = await buildApp({ databasePath, seed: 'demo' });
    addMoneyRows(services, 1, 1_000);
    await fastify.close();
  }
  const basePort = 4600 + Math.floor(Math.random() * 300);
  const modes = ['on', 'off'] as const;
  const pids: Record<string, number> = {};
  await Promise.all(
    modes.map(
      (mode, i) =>
        new Promise<void>((resolve, reject) => {
          const child = spawn(
            process.execPath,
            [
              '--import',
              'tsx',
              'scripts/bench/dev-defaults.ts',
              '--serve',
              databasePath,
              String(basePort + i),
              mode,
            ],
            { stdio: ['ignore', 'pipe', 'pipe'] },
          );
          children.push(child);
          pids[mode] = child.pid!;
          let output = '';
          const onData = (chunk: Buffer) => {
            output += chunk.toString();
            if (output.includes('listening')) resolve();
          };
          child.stdout!.on('data', onData);
          child.stderr!.on('data', onData);
          child.once('exit', (code) => reject(new Error(`server ${mode} exited (${code}):\n${output}`)));
        }),
    ),
  );
  const url = (mode: string, path: string) =>
    `http://127.0.0.1:${basePort + modes.indexOf(mode as 'on')}${path}`;
  const login = await fetch(url('off', '/user/login'), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'demo', password: DEMO_PASSWORD }),
  });
  const { JWT: token } = (await login.json()) as { JWT: string };
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const reads: [string, string, object][] = [
    ['profile', '/user/view_profile', {}],
    ['wallets', '/wallet/view_all_wallets_details', {}],
    ['deposits page 1', '/table/view_deposit_transaction', { pageNo: 1, pageSize: 10 }],
    ['rank (uncached)', '/rank/current_rank', {}],
  ];
  const cpuMsOf = (pid: number) => {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  };
  const measure = async (mode: string, path: string, body: object, seconds: number) => {
    const before = cpuMsOf(pids[mode]!);
    const result = await autocannon({
      url: url(mode, path),
      method: 'POST',
      headers,
      body: JSON.stringify({ jwt: token, ...body }),
      connections: CONNECTIONS,
      duration: seconds,
    });
    const failed = result.non2xx + result.errors + result.timeouts;
    if (failed > 0) throw new Error(`${mode} ${path}: ${failed} failed of ${result.requests.total}`);
    return {
      rps: result.requests.average,
      cpu: ((cpuMsOf(pids[mode]!) - before) * 1000) / Math.max(1, result.requests.total),
    };
  };
  console.log(
    `load average at start: ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`,
  );
  console.log(
    '| read | CPU µs/req on | CPU µs/req off | on ÷ off CPU (min–max) | req/s on ÷ off (min–max) |',
  );
  console.log('|---|---|---|---|---|');
  for (const [label, path, body] of reads) {
    for (const mode of modes) await measure(mode, path, body, 1);
    const on: number[] = [],
      off: number[] = [],
      cpuRatio: number[] = [],
      rpsRatio: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 ? [...modes].reverse() : modes;
      const got: Record<string, { rps: number; cpu: number }> = {};
      for (const mode of order) got[mode] = await measure(mode, path, body, DURATION);
      on.push(got.on!.cpu);
      off.push(got.off!.cpu);
      cpuRatio.push(got.on!.cpu / got.off!.cpu);
      rpsRatio.push(got.on!.rps / got.off!.rps);
    }
    const range = (xs: number[]) =>
      `${median(xs).toFixed(2)} (${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)})`;
    console.log(
      `| ${label} | ${median(on).toFixed(0)} | ${median(off).toFixed(0)} | ${range(cpuRatio)} | ${range(rpsRatio)} |`,
    );
  }
  console.log(
    `load average at end: ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`,
  );
  process.exit(0);
}
