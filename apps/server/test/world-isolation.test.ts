/**
 * Worlds do not stall each other: on the server bundle and a database file, while one world builds
 * `world-states/deep-leg.json` and then a 20,000-member state (in its build thread), a member of
 * another world and one of the default world keep reading their wallets, and every read is answered
 * with the same wallets as before (the figures masked: a real-time daily run may pay meanwhile). How fast they are answered is the benchmark's
 * (scripts/bench/world-isolation.ts), not this test's.
 */
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { killChildren, startServerProcess, type ServerProcess } from './server-process.ts';

const dir = mkdtempSync(join(tmpdir(), 'world-isolation-'));
const children: ChildProcessWithoutNullStreams[] = [];
afterAll(() => {
  killChildren(children);
  rmSync(dir, { recursive: true, force: true });
});

interface Job {
  state: string;
  url: string;
  progress: Record<string, { done: number; total: number }>;
  result?: { id: string };
}

async function call(
  server: ServerProcess,
  method: string,
  path: string,
  init: { world?: string; body?: unknown; token?: string } = {},
) {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(init.world ? { 'x-qa-world': init.world } : {}),
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
    },
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
  });
  return { status: response.status, text: await response.text() };
}

const masked = (text: string) => text.replace(/\d+/g, '#');

const twentyThousand = {
  date: '2026-03-11T12:00:00Z',
  start: '2026-03-04T12:00:00Z',
  members: [{ username: 'big_root' }],
  legs: [
    { under: 'big_root', side: '0', depth: 200, count: 10_000 },
    { under: 'big_root', side: '1', depth: 200, count: 9_999 },
  ],
};

describe('a world building a big state beside other worlds', () => {
  it('leaves every read of another world and of the default world answered, with the same wallets', async () => {
    const server = await startServerProcess(join(dir, 'app.sqlite'), children, { WORLDS_PER_CLIENT: '10' });
    const other = JSON.parse(
      (await call(server, 'POST', '/__qa/worlds', { body: { from: 'demo' } })).text,
    ) as { id: string };
    const signIn = async (world?: string) =>
      (
        JSON.parse(
          (
            await call(server, 'POST', '/user/login', {
              ...(world ? { world } : {}),
              body: { username: 'demo', password: 'Demo@1234' },
            })
          ).text,
        ) as { JWT: string }
      ).JWT;
    const readers = [
      { world: other.id, token: await signIn(other.id) },
      { world: undefined, token: await signIn() },
    ];
    const wallets = (reader: (typeof readers)[number]) =>
      call(server, 'POST', '/wallet/view_all_wallets_details', {
        ...(reader.world ? { world: reader.world } : {}),
        token: reader.token,
        body: {},
      });
    const before = await Promise.all(readers.map(wallets));
    for (const answer of before) expect(answer.status).toBe(200);

    for (const state of [
      JSON.parse(readFileSync(join(import.meta.dirname, '../../../world-states/deep-leg.json'), 'utf8')),
      twentyThousand,
    ]) {
      const started = await call(server, 'POST', '/__qa/worlds', { body: { state } });
      expect(started.status).toBe(202);
      let job = JSON.parse(started.text) as Job;
      const reads: { status: number; same: boolean }[] = [];
      const polling = (async () => {
        for (let i = 0; i < 3_000 && job.state === 'running'; i++)
          job = JSON.parse((await call(server, 'GET', `${job.url}?wait=1`)).text) as Job;
      })();
      // Bounded by the job: readers read while it builds.
      for (let i = 0; i < 20_000 && job.state === 'running'; i++) {
        const answers = await Promise.all(readers.map(wallets));
        answers.forEach((answer, r) =>
          reads.push({ status: answer.status, same: masked(answer.text) === masked(before[r]!.text) }),
        );
        await new Promise((done) => setTimeout(done, 20));
      }
      await polling;
      expect(job.state).toBe('done');
      expect(reads.length).toBeGreaterThan(10);
      expect(reads.filter((read) => read.status !== 200 || !read.same)).toEqual([]);
      const check = await call(server, 'GET', '/__qa/ledger/check', { world: job.result!.id });
      expect(JSON.parse(check.text)).toMatchObject({ balanced: true, negativeWallets: [] });
    }
    server.child.kill('SIGTERM');
    await server.exited;
  }, 300_000);
});
