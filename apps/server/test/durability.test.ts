/**
 * The real server (main.ts, a child process on a database file) is killed with SIGKILL in the
 * middle of a burst of money requests from several members; restarted on the same file, its
 * ledger is sound and every request that was answered with a success is there, whole.
 */
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '@md/db';
import { amountToMicros } from '@md/shared';
import { buildApp } from '../src/app.ts';
import { DEMO_PASSWORD, DEMO_PASSWORD_HASH, hashPassword } from '../src/core/passwords.ts';
import { insertMember } from '../src/modules/auth/members.ts';
import { moneyTransaction, transfer } from '../src/modules/ledger/ledger.ts';
import { PURCHASE_REPEAT_WINDOW_MS } from '../src/modules/packages/packages.ts';
import { killChildren, startServerProcess } from './server-process.ts';

const dir = mkdtempSync(join(tmpdir(), 'durability-'));
const databasePath = join(dir, 'app.sqlite');
const children: ChildProcessWithoutNullStreams[] = [];
afterAll(() => {
  killChildren(children);
  rmSync(dir, { recursive: true, force: true });
});

const TXN_PASSWORD = 'Txn@1234';
const MEMBERS = 7; // a sponsor chain d0 → d1 → … → d6: each sends P2P to the next
const SENDERS = 6;
const WORKERS_PER_MEMBER = 2;
/** Successful answers to collect before the kill (requests keep flowing until then). */
const KILL_AFTER = 40;

/** Members, their passwords and funds, written before the server starts. */
async function setUp() {
  const { services, fastify } = await buildApp({ databasePath, seed: 'empty' });
  const txnHash = await hashPassword(TXN_PASSWORD);
  let sponsor: number | null = null;
  for (let i = 0; i < MEMBERS; i++) {
    const id: number = insertMember(services, {
      username: `d${i}`,
      name: `Durable ${i}`,
      email: `d${i}@example.com`,
      country: 'United Kingdom',
      passwordHash: DEMO_PASSWORD_HASH,
      sponsorId: sponsor,
      side: '0',
      createdAt: services.clock.now(),
    }).id;
    services.sqlite
      .prepare('update members set transaction_password_hash = ?, wallet_address = ? where id = ?')
      .run(txnHash, '0x842dad94eaA5655D6452EEe18419FaA8a085dab8', id);
    for (const [wallet, amount] of [
      ['Deposit', 100_000],
      ['Direct', 10_000],
      ['Withdrawal', 10_000],
    ] as const)
      moneyTransaction(services, () =>
        transfer(services, [
          {
            transId: `SETUP${id}${wallet}`,
            from: { system: 'payouts' },
            to: { member: id, wallet },
            amount: amountToMicros(amount),
            reason: 'direct_income',
            memberId: id,
          },
        ]),
      );
    sponsor = id;
  }
  await fastify.close();
}

const startServer = () =>
  startServerProcess(databasePath, children, { JWT_SECRET: 'durability-test-secret' });

async function post(
  url: string,
  path: string,
  body: unknown,
  token?: string,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** An acknowledged request and how to find it in the database. */
type Ack =
  | { kind: 'deposit'; member: string; transId: string }
  | { kind: 'purchase'; member: string; at: number }
  | { kind: 'p2p' | 'swap' | 'withdrawal'; member: string; micros: number };

describe('SIGKILL during a burst of money requests', () => {
  it('keeps every answered payment, applies none by halves, and leaves the ledger sound', async () => {
    await setUp();
    const first = await startServer();
    const tokens = new Map<string, string>();
    for (let i = 0; i < SENDERS; i++) {
      const login = await post(first.url, '/user/login', { username: `d${i}`, password: DEMO_PASSWORD });
      expect(login.status, JSON.stringify(login.body)).toBe(200);
      tokens.set(`d${i}`, String(login.body.JWT));
    }

    const acks: Ack[] = [];
    let counter = 0;
    let inFlight = 0;
    let inFlightAtKill = -1;
    let killed = false;
    let refused = 0;
    const exited = new Promise<void>((done) => first.child.on('exit', () => done()));
    const kill = () => {
      if (killed) return;
      killed = true;
      inFlightAtKill = inFlight;
      first.child.kill('SIGKILL');
    };

    /** One request of the given kind; answers the Ack when the server said it succeeded. */
    async function once(member: string, next: string, kind: Ack['kind']): Promise<Ack | null> {
      const token = tokens.get(member)!;
      // A unique amount per request identifies its row afterwards (micro-units for P2P and
      // withdrawals, 0.01 steps for swaps, which must be multiples of 0.01).
      const n = ++counter;
      switch (kind) {
        case 'deposit': {
          const opened = await post(
            first.url,
            '/deposit/make_payment',
            { amount_usdt: 50, currency: 'USDT.BEP20' },
            token,
          );
          if (opened.status !== 200) return null;
          const transId = String((opened.body.Success as { TransID: string }).TransID);
          const paid = await post(first.url, `/__qa/deposits/${transId}/pay`, {});
          return paid.status === 200 && paid.body.status === 'PAID' ? { kind, member, transId } : null;
        }
        case 'purchase':
          return (
            await post(first.url, '/subscription/buy_subscription_packages', { plan: 'Starter' }, token)
          ).status === 200
            ? { kind, member, at: Date.now() }
            : null;
        case 'p2p': {
          const micros = 1_000_000 + n;
          const reply = await post(
            first.url,
            '/transfer_to_user',
            { username: next, amount: micros / 1e6, password: TXN_PASSWORD },
            token,
          );
          return reply.status === 200 ? { kind, member, micros } : null;
        }
        case 'withdrawal': {
          const micros = 20_000_000 + n;
          const reply = await post(
            first.url,
            '/withdraw/withdraw_request',
            { amount: micros / 1e6, password: TXN_PASSWORD },
            token,
          );
          return reply.status === 200 ? { kind, member, micros } : null;
        }
        case 'swap': {
          const micros = n * 10_000;
          const reply = await post(
            first.url,
            '/wallet/transfer_wallet',
            { from_wallet: 'Direct', to_wallet: n % 2 ? 'Deposit' : 'Withdrawal', amount: micros / 1e6 },
            token,
          );
          return reply.status === 200 ? { kind, member, micros } : null;
        }
      }
    }

    const KINDS: Ack['kind'][] = ['deposit', 'purchase', 'p2p', 'withdrawal', 'swap'];
    async function worker(sender: number, offset: number) {
      for (let i = offset; !killed; i++) {
        inFlight++;
        try {
          const ack = await once(`d${sender}`, `d${sender + 1}`, KINDS[i % KINDS.length]!);
          // An answer that arrives after the kill was sent before it: it counts too.
          if (ack) acks.push(ack);
          else if (!killed) refused++;
          if (acks.length >= KILL_AFTER) kill();
        } catch {
          // No answer: the process is gone (or going). Such a request may or may not have committed.
        } finally {
          inFlight--;
        }
      }
    }
    await Promise.all(Array.from({ length: SENDERS * WORKERS_PER_MEMBER }, (_, w) => worker(w % SENDERS, w)));
    await exited;
    expect(first.child.signalCode).toBe('SIGKILL');
    // Killed mid-burst: requests were still on their way, and every kind had succeeded before.
    expect(inFlightAtKill).toBeGreaterThan(0);
    expect(new Set(acks.map((a) => a.kind))).toEqual(new Set(KINDS));
    expect(refused).toBe(0);

    // Restart on the same file: it opens, migrates nothing and resumes; the ledger is sound.
    const second = await startServer();
    const check = (await (await fetch(`${second.url}/__qa/ledger/check`)).json()) as Record<string, unknown>;
    expect(check).toMatchObject({ balanced: true, total: 0, negativeWallets: [], mismatchedWallets: [] });
    const secondExited = new Promise<void>((done) => second.child.on('exit', () => done()));
    second.child.kill('SIGINT');
    await secondExited;

    const db = new Database(databasePath, { readonly: true });
    const one = <T>(sql: string, ...params: unknown[]) => db.prepare(sql).get(...params) as T;
    const memberId = (username: string) =>
      one<{ id: number }>('select id from members where username = ?', username).id;
    for (const ack of acks) {
      const id = memberId(ack.member);
      const label = JSON.stringify(ack);
      if (ack.kind === 'deposit') {
        expect(
          one<{ status: string }>('select status from deposits where trans_id = ?', ack.transId).status,
          label,
        ).toBe('PAID');
        expect(
          one<{ n: number }>(
            "select count(*) as n from transfers where trans_id = ? and reason = 'deposit'",
            ack.transId,
          ).n,
          label,
        ).toBe(1);
      } else if (ack.kind === 'withdrawal') {
        const row = one<{ transId: string } | undefined>(
          'select trans_id as transId from withdrawals where member_id = ? and amount = ?',
          id,
          ack.micros,
        );
        expect(row, label).toBeDefined();
        expect(
          one<{ n: number }>(
            "select count(*) as n from transfers where trans_id = ? and reason = 'withdrawal_request'",
            row!.transId,
          ).n,
          label,
        ).toBe(1);
      } else if (ack.kind === 'p2p' || ack.kind === 'swap') {
        expect(
          one<{ n: number }>(
            'select count(*) as n from transfers where reason = ? and member_id = ? and amount = ?',
            ack.kind,
            id,
            ack.micros,
          ).n,
          label,
        ).toBe(1);
      }
    }
    // Purchases carry no id in their answer, and the same package bought again by the same member
    // within PURCHASE_REPEAT_WINDOW_MS is answered with the first purchase (a double tap buys once): per member,
    // at least one subscription per window of acknowledged purchases (a window opens with an
    // answer more than the repeat window after the previous window's first answer).
    for (let i = 0; i < SENDERS; i++) {
      const answered = acks
        .flatMap((a) => (a.kind === 'purchase' && a.member === `d${i}` ? [a.at] : []))
        .sort((a, b) => a - b);
      let windows = 0;
      let opened = -Infinity;
      for (const at of answered)
        if (at - opened > PURCHASE_REPEAT_WINDOW_MS) [windows, opened] = [windows + 1, at];
      expect(
        one<{ n: number }>('select count(*) as n from subscriptions where member_id = ?', memberId(`d${i}`))
          .n,
      ).toBeGreaterThanOrEqual(windows);
    }
    // Nothing by halves: every row has the transfer that paid for it, and the other way round.
    const orphans = one<{ n: number }>(
      `select (select count(*) from subscriptions s where not exists (select 1 from transfers t where t.trans_id = s.trans_id and t.reason = 'package_purchase'))
            + (select count(*) from transfers t where t.reason = 'package_purchase' and not exists (select 1 from subscriptions s where s.trans_id = t.trans_id))
            + (select count(*) from withdrawals w where not exists (select 1 from transfers t where t.trans_id = w.trans_id and t.reason = 'withdrawal_request'))
            + (select count(*) from transfers t where t.reason = 'withdrawal_request' and not exists (select 1 from withdrawals w where w.trans_id = t.trans_id))
            + (select count(*) from deposits d where d.status = 'PAID' and not exists (select 1 from transfers t where t.trans_id = d.trans_id and t.reason = 'deposit'))
            + (select count(*) from transfers t where t.reason = 'deposit' and not exists (select 1 from deposits d where d.trans_id = t.trans_id and d.status = 'PAID')) as n`,
    );
    expect(orphans.n).toBe(0);
    db.close();
  }, 120_000);
});

describe('openDatabase', () => {
  it('syncs every commit of a file database to disk (WAL, synchronous=FULL)', () => {
    const { sqlite } = openDatabase(join(dir, 'pragmas.sqlite'));
    expect(sqlite.pragma('journal_mode', { simple: true })).toBe('wal');
    // 2 = FULL: NORMAL (1) may lose the last commits on a power loss or OS crash.
    expect(sqlite.pragma('synchronous', { simple: true })).toBe(2);
    sqlite.close();
  });
});
