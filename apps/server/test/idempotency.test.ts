/**
 * Idempotency keys of money moves (core/idempotency.ts), over real HTTP on loopback: a burst with one
 * key moves money once and every other answer is the replay or a 409; the same key with other
 * parameters is a 422; keys are the member's own; every money endpoint of the contract honours
 * them; a refusal is not stored; an answer outlives 24 hours and not more; and the answer is
 * written in the move's transaction, so when it cannot be written the move does not happen either.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  amountToMicros,
  contract,
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENCY_RETENTION_MS,
  IDEMPOTENT_REPLAYED_HEADER,
  MSG,
  procedureNames,
  type ProcedureName,
} from '@md/shared';
import { IDEMPOTENCY_MESSAGES } from '../src/core/idempotency.ts';
import { DEMO_TRANSACTION_PASSWORD } from '../src/seed/demo-money.ts';
import { createTestApp, expectLedgerSound, memberIdOf, type TestApp } from './helpers.ts';
import { balanceOf, grant } from './money-fixtures.ts';

let t: TestApp;
let base: string;
let demo: string;
/** A member of demo's sponsor downline: P2P recipient, and a second member with keys of its own. */
let recipient: string;
let recipientToken: string;

beforeAll(async () => {
  t = await createTestApp({ seed: 'demo' });
  base = await t.fastify.listen({ port: 0, host: '127.0.0.1' });
  demo = await t.login('demo');
  recipient = (
    t.services.sqlite
      .prepare('select username from members where sponsor_id = ? and totp_enabled = 0 order by id limit 1')
      .get(memberIdOf(t, 'demo')) as { username: string }
  ).username;
  recipientToken = await t.login(recipient);
  grant(t, 'demo', 'Deposit', 100_000);
  grant(t, 'demo', 'Direct', 10_000);
  grant(t, 'demo', 'Withdrawal', 10_000);
});
afterAll(() => t.close());

interface Answer {
  status: number;
  replayed: boolean;
  body: Record<string, unknown>;
}

async function call(path: string, body: unknown, token: string, key?: string): Promise<Answer> {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${token}`,
      ...(key === undefined ? {} : { [IDEMPOTENCY_KEY_HEADER]: key }),
    },
    body: JSON.stringify(body),
  });
  return {
    status: response.status,
    replayed: response.headers.get(IDEMPOTENT_REPLAYED_HEADER) === 'true',
    body: (await response.json()) as Record<string, unknown>,
  };
}

let keyCounter = 0;
const newKey = () => `test-key-${++keyCounter}-${Date.now()}`;
const transfers = (reason: string) =>
  (
    t.services.sqlite.prepare('select count(*) as n from transfers where reason = ?').get(reason) as {
      n: number;
    }
  ).n;
const count = (sql: string) => (t.services.sqlite.prepare(sql).get() as { n: number }).n;

const p2p = (amount: number) => ({ username: recipient, amount, password: DEMO_TRANSACTION_PASSWORD });

describe('a burst of 20 P2P calls with one key and one body', () => {
  it('moves the money once; every other answer is the replay or a 409', async () => {
    const key = newKey();
    const before = { sender: balanceOf(t, 'demo', 'Deposit'), moves: transfers('p2p') };
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => call('/transfer_to_user', p2p(3.5), demo, key)),
    );

    const executed = answers.filter((a) => a.status === 200 && !a.replayed);
    const replays = answers.filter((a) => a.status === 200 && a.replayed);
    const conflicts = answers.filter((a) => a.status === 409);
    expect(executed).toHaveLength(1);
    expect(executed.length + replays.length + conflicts.length).toBe(20);
    expect(executed[0]!.body).toEqual({ Success: MSG.transferSuccessful });
    for (const replay of replays) expect(replay.body).toEqual(executed[0]!.body);
    for (const conflict of conflicts)
      expect(conflict.body).toMatchObject({ Error: IDEMPOTENCY_MESSAGES.inFlight });
    // The hash check keeps the first call running while the others arrive.
    expect(conflicts.length).toBeGreaterThan(0);

    expect(transfers('p2p')).toBe(before.moves + 1);
    expect(amountToMicros(balanceOf(t, 'demo', 'Deposit'))).toBe(
      amountToMicros(before.sender) - amountToMicros(3.5),
    );
    // Once the first is answered, a retry is the replay.
    const late = await call('/transfer_to_user', p2p(3.5), demo, key);
    expect(late).toEqual({ status: 200, replayed: true, body: executed[0]!.body });
    expect(transfers('p2p')).toBe(before.moves + 1);
    await expectLedgerSound(t);
  });
});

describe('a key used again', () => {
  it('with another amount is refused 422 and moves nothing', async () => {
    const key = newKey();
    expect((await call('/transfer_to_user', p2p(1), demo, key)).status).toBe(200);
    const moves = transfers('p2p');
    const sender = balanceOf(t, 'demo', 'Deposit');
    const other = await call('/transfer_to_user', p2p(2), demo, key);
    expect(other).toMatchObject({
      status: 422,
      replayed: false,
      body: { Error: IDEMPOTENCY_MESSAGES.mismatch },
    });
    // On another endpoint too: a key names one call.
    const swap = await call(
      '/wallet/transfer_wallet',
      { amount: 1, from_wallet: 'Direct', to_wallet: 'Deposit' },
      demo,
      key,
    );
    expect(swap.status).toBe(422);
    expect(transfers('p2p')).toBe(moves);
    expect(balanceOf(t, 'demo', 'Deposit')).toBe(sender);
  });

  it('by another member is that member’s own: both move', async () => {
    const key = newKey();
    grant(t, recipient, 'Direct', 100);
    const swaps = transfers('swap');
    const body = { amount: 2, from_wallet: 'Direct', to_wallet: 'Deposit' };
    const [mine, theirs] = await Promise.all([
      call('/wallet/transfer_wallet', body, demo, key),
      call('/wallet/transfer_wallet', body, recipientToken, key),
    ]);
    expect([mine.status, mine.replayed, theirs.status, theirs.replayed]).toEqual([200, false, 200, false]);
    expect(transfers('swap')).toBe(swaps + 2);
  });

  it('over tRPC is the same key: the REST call’s answer is replayed there', async () => {
    const key = newKey();
    const body = { amount: 1.25, from_wallet: 'Direct', to_wallet: 'Withdrawal' };
    const first = await call('/wallet/transfer_wallet', body, demo, key);
    const swaps = transfers('swap');
    const response = await fetch(`${base}/trpc/wallet.transfer_wallet`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${demo}`,
        [IDEMPOTENCY_KEY_HEADER]: key,
      },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get(IDEMPOTENT_REPLAYED_HEADER)).toBe('true');
    expect(await response.json()).toEqual({ result: { data: first.body } });
    expect(transfers('swap')).toBe(swaps);
  });

  it('malformed (blank, too long, with a space) is refused 400 before anything runs', async () => {
    const swaps = transfers('swap');
    const body = { amount: 1, from_wallet: 'Direct', to_wallet: 'Deposit' };
    for (const key of ['', 'a'.repeat(256), 'two words']) {
      expect(await call('/wallet/transfer_wallet', body, demo, key)).toMatchObject({
        status: 400,
        replayed: false,
        body: { Error: IDEMPOTENCY_MESSAGES.malformed },
      });
    }
    expect(transfers('swap')).toBe(swaps);
  });
});

describe('every money move of the contract', () => {
  /** A valid call of each idempotent procedure, and what counts its moves. */
  const CASES: Partial<Record<ProcedureName, { input: () => Record<string, unknown>; moves: () => number }>> =
    {
      'subscription.buy_subscription_packages': {
        input: () => ({ plan: 'Starter' }),
        moves: () => count('select count(*) as n from subscriptions'),
      },
      transfer_to_user: { input: () => p2p(1.5), moves: () => transfers('p2p') },
      'wallet.transfer_wallet': {
        input: () => ({ amount: 1.5, from_wallet: 'Direct', to_wallet: 'Deposit' }),
        moves: () => transfers('swap'),
      },
      'withdraw.withdraw_request': {
        input: () => ({ amount: 25, password: DEMO_TRANSACTION_PASSWORD }),
        moves: () => count('select count(*) as n from withdrawals'),
      },
      'deposit.make_payment': {
        input: () => ({ amount_usdt: 50, currency: 'USDT.BEP20' }),
        moves: () => count('select count(*) as n from deposits'),
      },
    };
  const moneyMoves = procedureNames.filter((name) => contract[name].idempotent);

  it('are the five the issue names, each with a case here', () => {
    expect(moneyMoves.sort()).toEqual(Object.keys(CASES).sort());
  });

  it.each(moneyMoves)('%s: a retry with the key is the replay and moves nothing', async (name) => {
    const { input, moves } = CASES[name]!;
    const key = newKey();
    const before = moves();
    const first = await call(contract[name].path, input(), demo, key);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.replayed).toBe(false);
    expect(moves()).toBe(before + 1);
    const again = await call(contract[name].path, input(), demo, key);
    expect(again).toEqual({ status: 200, replayed: true, body: first.body });
    expect(moves()).toBe(before + 1);
    await expectLedgerSound(t);
  });
});

describe('what is stored', () => {
  it('not a refusal: the same key runs again once the member can pay', async () => {
    const key = newKey();
    const body = { amount: 999_999, from_wallet: 'Direct', to_wallet: 'Deposit' };
    const refused = await call('/wallet/transfer_wallet', body, recipientToken, key);
    expect(refused.status).toBe(400);
    grant(t, recipient, 'Direct', 1_000_000);
    const paid = await call('/wallet/transfer_wallet', body, recipientToken, key);
    expect([paid.status, paid.replayed]).toEqual([200, false]);
  });

  it('the answer, for 24 hours of the server clock and no longer', async () => {
    const key = newKey();
    const body = { amount: 0.5, from_wallet: 'Direct', to_wallet: 'Deposit' };
    const swaps = transfers('swap');
    expect((await call('/wallet/transfer_wallet', body, demo, key)).replayed).toBe(false);
    const clock = t.clock;
    clock.advance(IDEMPOTENCY_RETENTION_MS - 1_000);
    // A session lasts as long: the key is the member's, whichever token carries it.
    demo = await t.login('demo');
    expect((await call('/wallet/transfer_wallet', body, demo, key)).replayed).toBe(true);
    expect(transfers('swap')).toBe(swaps + 1);
    clock.advance(2_000);
    demo = await t.login('demo');
    const later = await call('/wallet/transfer_wallet', body, demo, key);
    expect([later.status, later.replayed]).toEqual([200, false]);
    expect(transfers('swap')).toBe(swaps + 2);
  });

  it('in the move’s transaction: when the answer cannot be written, nothing moves', async () => {
    const sqlite = t.services.sqlite;
    sqlite.exec(
      "create temp trigger refuse_answers before insert on idempotency_keys begin select raise(abort, 'disk says no'); end",
    );
    try {
      const swaps = transfers('swap');
      const direct = balanceOf(t, 'demo', 'Direct');
      const answer = await call(
        '/wallet/transfer_wallet',
        { amount: 4, from_wallet: 'Direct', to_wallet: 'Deposit' },
        demo,
        newKey(),
      );
      expect(answer.status).toBe(500);
      expect(transfers('swap')).toBe(swaps);
      expect(balanceOf(t, 'demo', 'Direct')).toBe(direct);
    } finally {
      sqlite.exec('drop trigger temp.refuse_answers');
    }
    await expectLedgerSound(t);
  });
});

describe('the 10-second repeat rule, for clients without a key', () => {
  it('answers a repeated purchase as the first, and says it is a replay', async () => {
    const subscriptions = count('select count(*) as n from subscriptions');
    const first = await call('/subscription/buy_subscription_packages', { plan: 'Silver' }, demo);
    const repeat = await call('/subscription/buy_subscription_packages', { plan: 'Silver' }, demo);
    expect([first.status, first.replayed]).toEqual([200, false]);
    expect(repeat).toEqual({ status: 200, replayed: true, body: first.body });
    expect(count('select count(*) as n from subscriptions')).toBe(subscriptions + 1);
  });
});
