/**
 * The authentication limits under concurrency, tried as an attacker would: the real
 * server listening on 127.0.0.1, bounded bursts of concurrent requests over HTTP from several
 * loopback source addresses (Linux routes all of 127/8 to loopback, so each `localAddress` is a
 * client address of its own). An answer that is not 429 is a guess the server evaluated; their
 * number must never pass a limit, and a right password or code sent while a burst is being checked
 * must not get through once the burst has used the limit up. Timings are not asserted here
 * (scripts/bench/auth-timing.ts measures them): where a flood must be refused "at once", the test
 * asserts the 429 and that the hashing queue's bounds held.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp, type App } from '../src/app.ts';
import { FAILURE_LIMITS } from '../src/core/attempts.ts';
import { OTP_MESSAGES } from '../src/core/otp.ts';
import { HASH_BUSY_MESSAGE, hashPassword, hashQueueStats } from '../src/core/passwords.ts';
import { moneyTransaction, transfer } from '../src/modules/ledger/ledger.ts';
import { DEMO_TRANSACTION_PASSWORD } from '../src/seed/demo-money.ts';
import { wrongCode } from './helpers.ts';

// Bursts of hundreds of scrypt checks on 2 cores that the browser project shares: bounded work, a
// generous limit (no timing is asserted).
vi.setConfig({ testTimeout: 120_000 });

interface Reply {
  status: number;
  body: Record<string, unknown>;
}

let app: App;
let port: number;
let freshMembers: string[];
let withTransactionPassword: string[];
beforeAll(async () => {
  app = await buildApp({ databasePath: ':memory:', seed: 'demo', jwtSecret: 'attack-test-secret' });
  await app.fastify.listen({ host: '127.0.0.1', port: 0 });
  port = (app.fastify.server.address() as AddressInfo).port;
  const names = (sql: string) =>
    (app.services.sqlite.prepare(sql).all() as { username: string }[]).map((r) => r.username);
  freshMembers = names(
    "select username from members where totp_enabled = 0 and transaction_password_hash is null and username <> 'demo' order by id",
  );
  withTransactionPassword = names(
    "select username from members where transaction_password_hash is not null and wallet_address is not null and username <> 'demo' order by id",
  );
});
afterAll(() => app.fastify.close());

let addresses = 0;
/** A loopback address no other test has used: every test starts with clean per-address counts. */
const nextAddress = () => `127.0.${1 + Math.floor(addresses / 250)}.${1 + (addresses++ % 250)}`;
let taken = 0;
const freshMember = () => freshMembers[taken++]!;

/** One request over its own connection from `from`. */
function send(
  method: 'GET' | 'POST',
  path: string,
  body: unknown,
  from: string,
  token?: string,
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const payload = method === 'POST' ? JSON.stringify(body ?? {}) : undefined;
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        path,
        method,
        localAddress: from,
        agent: false,
        headers: {
          ...(payload ? { 'content-type': 'application/json' } : {}),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode!, body: JSON.parse(text) as Record<string, unknown> }),
        );
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}
const post = (path: string, body: unknown, from: string, token?: string) =>
  send('POST', path, body, from, token);
const qa = (path: string, body?: unknown) =>
  body === undefined ? send('GET', path, undefined, '127.0.0.1') : post(path, body, '127.0.0.1');

const login = (username: string, password: string, from: string, totp?: string) =>
  post('/user/login', { username, password, ...(totp ? { totp } : {}) }, from);
async function tokenOf(username: string): Promise<string> {
  const reply = await login(username, 'Demo@1234', nextAddress());
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return String(reply.body.JWT);
}

/** Requests sent together; `answers` fills as they come back, `all` waits for every one. */
function burst(count: number, one: (i: number) => Promise<Reply>) {
  const answers: Reply[] = [];
  const all = Promise.all(
    Array.from({ length: count }, (_, i) => one(i).then((reply) => (answers.push(reply), reply))),
  );
  return { answers, all };
}

/** Waits (polling, never asserting a time) until the server has answered something with 429. */
async function untilRefused(answers: Reply[]) {
  for (let i = 0; i < 4000 && !answers.some((r) => r.status === 429); i++)
    await new Promise((done) => setTimeout(done, 5));
  expect(
    answers.some((r) => r.status === 429),
    'the burst was refused at some point',
  ).toBe(true);
}

const evaluated = (replies: Reply[]) => replies.filter((r) => r.status !== 429);
const refusedWith = (replies: Reply[]) =>
  new Set(replies.filter((r) => r.status === 429).map((r) => r.body.Error));
/** Funds for a withdrawal or a transfer, so the request gets as far as the password. */
function fund(username: string, wallet: 'Withdrawal' | 'Deposit', amount: number) {
  const memberId = (
    app.services.sqlite.prepare('select id from members where username = ?').get(username) as { id: number }
  ).id;
  moneyTransaction(app.services, () =>
    transfer(app.services, [
      {
        transId: `ATTACK${memberId}${wallet}`,
        from: { system: 'payouts' },
        to: { member: memberId, wallet },
        amount: amount * 1_000_000,
        reason: 'direct_income',
        memberId,
      },
    ]),
  );
}
const balances = () =>
  JSON.stringify(app.services.sqlite.prepare('select id, balance from accounts order by id').all());
const INVALID = { status: 400, body: { Error: 'Invalid username or password', Code: 'INVALID_CREDENTIALS' } };

/**
 * Keeps the hashing queue busy with internal hashes (no address) for a while, so a burst sent now
 * certainly finds its hashes waiting: what does not fit must be refused, whatever the machine's speed.
 */
const occupyHashQueue = (hashes: number) =>
  Promise.all(Array.from({ length: hashes }, () => hashPassword('occupied')));

describe('sign-in under concurrent guesses', () => {
  const { pair, client, account } = FAILURE_LIMITS.login;

  it(`one account from one address: at most ${pair.failures} guesses evaluated; the right password sent while they are checked gets 429 and no JWT; the owner elsewhere signs in meanwhile`, async () => {
    const member = freshMember();
    const from = nextAddress();
    // 15 wrong ones (under the 20 a minute request rate, so only the failure limits refuse).
    const wrong = burst(15, () => login(member, 'Wrong@1234', from));
    await untilRefused(wrong.answers);
    const [right, owner] = await Promise.all([
      login(member, 'Demo@1234', from),
      login(member, 'Demo@1234', nextAddress()),
    ]);
    expect(right).toMatchObject({ status: 429, body: { Error: pair.message } });
    expect(owner.status).toBe(200);
    expect(typeof owner.body.JWT).toBe('string');
    const replies = await wrong.all;
    expect(evaluated(replies)).toHaveLength(pair.failures);
    expect(evaluated(replies).every((r) => r.body.Error === INVALID.body.Error)).toBe(true);
    expect(refusedWith(replies)).toEqual(new Set([pair.message]));
  });

  it(`one account from eleven addresses: at most ${pair.failures} per address and ${account.failures} in all; then only the owner's address gets in, during the flood too`, async () => {
    const member = freshMember();
    const home = nextAddress();
    expect((await login(member, 'Demo@1234', home)).status).toBe(200);
    const strangers = Array.from({ length: 11 }, nextAddress);
    const perAddress = strangers.map(() => 0);
    // Rounds of 2 from each address (22 at once, within the hashing queue, so the owner's sign-in
    // fits beside them) until nothing is evaluated.
    for (let round = 0; round < 12; round++) {
      const flood = burst(strangers.length * 2, (i) =>
        login(member, 'Wrong@1234', strangers[i % strangers.length]!),
      );
      // The owner signs in from its own address while the flood is being checked.
      const owner = await login(member, 'Demo@1234', home);
      expect(owner.status, `round ${round}: ${JSON.stringify(owner.body)}`).toBe(200);
      const replies = await flood.all;
      replies.forEach((reply, i) => {
        if (reply.status !== 429) perAddress[i % strangers.length]!++;
      });
      for (const reply of evaluated(replies)) expect(reply).toEqual(INVALID);
      for (const message of refusedWith(replies)) expect([pair.message, account.message]).toContain(message);
      if (evaluated(replies).length === 0) break;
    }
    expect(Math.max(...perAddress)).toBeLessThanOrEqual(pair.failures);
    expect(perAddress.reduce((a, b) => a + b)).toBe(account.failures);
    // A new address, even with the right password, is refused; the owner's is not.
    expect(await login(member, 'Demo@1234', nextAddress())).toMatchObject({
      status: 429,
      body: { Error: account.message },
    });
    expect((await login(member, 'Demo@1234', home)).status).toBe(200);
  });

  it(`one address across accounts: at most ${client.failures} guesses evaluated, over bursts of fresh names`, async () => {
    const from = nextAddress();
    let total = 0;
    for (let round = 0; round < 4; round++) {
      const replies = await burst(12, (i) => login(`sprayed_${round}_${i}`, 'Spring@2026', from)).all;
      for (const reply of evaluated(replies)) expect(reply).toEqual(INVALID);
      total += evaluated(replies).length;
    }
    expect(total).toBe(client.failures);
    expect(await login(freshMember(), 'Demo@1234', from)).toMatchObject({
      status: 429,
      body: { Error: client.message },
    });
  });

  it('a flood of unknown names from one address is refused with 429, not queued; the queue bounds hold; a member elsewhere signs in meanwhile', async () => {
    const before = hashQueueStats();
    const from = nextAddress();
    const busy = occupyHashQueue(8);
    const flood = burst(60, (i) => login(`ghost_${i}_${from}`, 'Wrong@1234', from));
    await untilRefused(flood.answers);
    const member = await login(freshMember(), 'Demo@1234', nextAddress());
    expect(member.status).toBe(200);
    const replies = await flood.all;
    await busy;
    const stats = hashQueueStats();
    // Every answer is a refusal or a checked guess; the address never had more than its share queued.
    for (const reply of replies) expect([400, 429]).toContain(reply.status);
    expect(evaluated(replies).length).toBeLessThanOrEqual(client.failures);
    expect(replies.filter((r) => r.body.Error === HASH_BUSY_MESSAGE).length).toBeGreaterThan(0);
    expect(stats.refused).toBeGreaterThan(before.refused);
    expect(stats.peakPerClient).toBeLessThanOrEqual(stats.maxPerClient);
    expect(stats.peakWaiting).toBeLessThanOrEqual(stats.maxWaiting);
    expect(stats.peakRunning).toBeLessThanOrEqual(stats.concurrency);
    expect(stats).toMatchObject({ running: 0, waiting: 0, clients: 0 });
  });

  it('floods from eight addresses at once: never more than the global bound waiting; the surplus is refused at once', async () => {
    const before = hashQueueStats();
    const floods = Array.from({ length: 8 }, nextAddress);
    const busy = occupyHashQueue(8);
    const replies = await burst(floods.length * 16, (i) =>
      login(`crowd_${i}`, 'Wrong@1234', floods[i % floods.length]!),
    ).all;
    await busy;
    const stats = hashQueueStats();
    for (const reply of replies) expect([400, 429]).toContain(reply.status);
    expect(refusedWith(replies)).toEqual(new Set([HASH_BUSY_MESSAGE]));
    expect(stats.refused).toBeGreaterThan(before.refused);
    expect(stats.peakWaiting).toBeLessThanOrEqual(stats.maxWaiting);
    expect(stats.peakRunning).toBeLessThanOrEqual(stats.concurrency);
  });
});

describe('TOTP under concurrency', () => {
  const totp = async () => (await qa('/__qa/totp/demo2fa')).body.code as string;

  it('exactly one of 10 concurrent sign-ins with one code gets a JWT', async () => {
    await qa('/__qa/clock?wait=true', { advance: 'PT30S' });
    const code = await totp();
    const replies = await burst(10, () => login('demo2fa', 'Demo@1234', nextAddress(), code)).all;
    const signedIn = replies.filter((r) => r.status === 200);
    expect(signedIn).toHaveLength(1);
    expect(typeof signedIn[0]!.body.JWT).toBe('string');
    for (const reply of replies.filter((r) => r.status !== 200))
      expect(reply).toMatchObject({ status: 400, body: { Error: 'Invalid TOTP' } });
  });

  it(`wrong codes from one address: at most ${FAILURE_LIMITS.login.pair.failures} evaluated; the right code sent meanwhile gets 429`, async () => {
    await qa('/__qa/clock?wait=true', { advance: 'PT30S' });
    const code = await totp();
    const from = nextAddress();
    const wrong = burst(15, () => login('demo2fa', 'Demo@1234', from, wrongCode(code)));
    await untilRefused(wrong.answers);
    expect(await login('demo2fa', 'Demo@1234', from, code)).toMatchObject({
      status: 429,
      body: { Error: FAILURE_LIMITS.login.pair.message },
    });
    const replies = await wrong.all;
    expect(evaluated(replies)).toHaveLength(FAILURE_LIMITS.login.pair.failures);
    for (const reply of evaluated(replies))
      expect(reply).toMatchObject({ status: 400, body: { Error: 'Invalid TOTP' } });
    // The code was never used: the owner signs in with it from elsewhere.
    expect((await login('demo2fa', 'Demo@1234', nextAddress(), code)).status).toBe(200);
  });
});

describe('transaction password under concurrency', () => {
  const { account, client } = FAILURE_LIMITS.transactionPassword;

  it(`P2P and withdrawal share ${account.failures} guesses per account whatever the addresses; the right password sent meanwhile moves no money`, async () => {
    fund('demo', 'Withdrawal', 100);
    const token = await tokenOf('demo');
    const before = balances();
    const from = Array.from({ length: 5 }, nextAddress);
    const wrong = burst(20, (i) =>
      i % 2
        ? post(
            '/transfer_to_user',
            { username: 'gonzalo_001', amount: 1, password: 'Wrong@123' },
            from[i % from.length]!,
            token,
          )
        : post(
            '/withdraw/withdraw_request',
            { amount: 20, password: 'Wrong@123' },
            from[i % from.length]!,
            token,
          ),
    );
    await untilRefused(wrong.answers);
    const [p2p, withdrawal] = await Promise.all([
      post(
        '/transfer_to_user',
        { username: 'gonzalo_001', amount: 1, password: DEMO_TRANSACTION_PASSWORD },
        nextAddress(),
        token,
      ),
      post(
        '/withdraw/withdraw_request',
        { amount: 20, password: DEMO_TRANSACTION_PASSWORD },
        nextAddress(),
        token,
      ),
    ]);
    expect(p2p).toMatchObject({ status: 429, body: { Error: account.message } });
    expect(withdrawal).toMatchObject({ status: 429, body: { Error: account.message } });
    const replies = await wrong.all;
    expect(evaluated(replies)).toHaveLength(account.failures);
    for (const reply of evaluated(replies))
      expect(reply).toMatchObject({ status: 400, body: { Error: 'Invalid transaction password' } });
    expect(balances()).toBe(before);
  });

  it(`one address across accounts: at most ${client.failures} guesses evaluated`, async () => {
    const members = withTransactionPassword.slice(0, 4);
    for (const username of members) fund(username, 'Withdrawal', 100);
    const tokens = await Promise.all(members.map(tokenOf));
    const before = balances();
    const from = nextAddress();
    let total = 0;
    for (let round = 0; round < 6; round++) {
      const replies = await burst(tokens.length * 10, (i) =>
        post(
          '/withdraw/withdraw_request',
          { amount: 20, password: 'Wrong@123' },
          from,
          tokens[i % tokens.length],
        ),
      ).all;
      for (const reply of evaluated(replies))
        expect(reply).toMatchObject({ status: 400, body: { Error: 'Invalid transaction password' } });
      total += evaluated(replies).length;
      if (evaluated(replies).length === 0) break;
    }
    expect(total).toBe(client.failures);
    expect(
      await post(
        '/withdraw/withdraw_request',
        { amount: 20, password: DEMO_TRANSACTION_PASSWORD },
        from,
        tokens[0],
      ),
    ).toMatchObject({ status: 429, body: { Error: client.message } });
    expect(balances()).toBe(before);
  });
});

describe('emailed codes under concurrency', () => {
  const { account, client } = FAILURE_LIMITS.code;
  const ADDRESS = `0x${'cd'.repeat(20)}`;

  it(`one account from several addresses: at most ${account.failures} wrong codes evaluated; the right code afterwards gets 429`, async () => {
    const member = freshMember();
    const token = await tokenOf(member);
    expect(
      (
        await post(
          '/wallet/update_wallet_address',
          { address: ADDRESS, network: 'BEP.20' },
          nextAddress(),
          token,
        )
      ).status,
    ).toBe(200);
    const email = (
      app.services.sqlite.prepare('select email from members where username = ?').get(member) as {
        email: string;
      }
    ).email;
    const code = (
      (await qa(`/__qa/mailbox?to=${encodeURIComponent(email)}`)).body as unknown as { otp: string }[]
    )[0]!.otp;
    const from = Array.from({ length: 4 }, nextAddress);
    const wrong = burst(24, (i) =>
      post(
        '/wallet/wallet_address_verification',
        { address: ADDRESS, network: 'BEP.20', otp: wrongCode(code) },
        from[i % from.length]!,
        token,
      ),
    );
    await untilRefused(wrong.answers);
    const right = await post(
      '/wallet/wallet_address_verification',
      { address: ADDRESS, network: 'BEP.20', otp: code },
      nextAddress(),
      token,
    );
    expect(right).toMatchObject({ status: 429, body: { Error: account.message } });
    const replies = await wrong.all;
    expect(evaluated(replies)).toHaveLength(account.failures);
    for (const reply of evaluated(replies))
      expect([OTP_MESSAGES.invalid, OTP_MESSAGES.tooManyTries]).toContain(reply.body.Error);
    expect(
      (
        app.services.sqlite.prepare('select wallet_address from members where username = ?').get(member) as {
          wallet_address: string | null;
        }
      ).wallet_address,
    ).toBeNull();
  });

  it(`one address across accounts: at most ${client.failures} wrong codes evaluated`, async () => {
    const from = nextAddress();
    const replies = await burst(45, (i) =>
      post(
        '/user/reset_password',
        { username: `nobody_${i}`, otp: '123456', newpassword: 'Fresh@1234', conpassword: 'Fresh@1234' },
        from,
      ),
    ).all;
    expect(evaluated(replies)).toHaveLength(client.failures);
    for (const reply of evaluated(replies))
      expect(reply).toMatchObject({ status: 400, body: { Error: OTP_MESSAGES.invalid } });
    expect(refusedWith(replies)).toEqual(new Set([client.message]));
  });
});

describe('an emailed code and the busy hashing queue', () => {
  it('a reset refused because every hashing slot is taken keeps its code: the retry with the same code resets the password', async () => {
    const member = freshMember();
    const from = nextAddress();
    expect((await post('/user/reset_password_email', { username: member }, from)).status).toBe(200);
    const email = (
      app.services.sqlite.prepare('select email from members where username = ?').get(member) as {
        email: string;
      }
    ).email;
    const mails = async () =>
      (await qa(`/__qa/mailbox?to=${encodeURIComponent(email)}`)).body as unknown as { otp: string | null }[];
    await expect.poll(async () => (await mails()).some((m) => m.otp)).toBe(true);
    const code = (await mails()).find((m) => m.otp)!.otp!;
    const reset = () =>
      post(
        '/user/reset_password',
        { username: member, otp: code, newpassword: 'Fresh@1234', conpassword: 'Fresh@1234' },
        from,
      );
    // Every slot running and every waiting place taken by internal hashes: the reset's hash cannot queue.
    const busy = occupyHashQueue(hashQueueStats().concurrency + hashQueueStats().maxWaiting);
    expect(await reset()).toMatchObject({ status: 429, body: { Error: HASH_BUSY_MESSAGE } });
    await busy;
    // Past the spec's 10 s between resets of one name (the QA clock), then the same code again.
    const laterReset = async () => (await qa('/__qa/clock?wait=true', { advance: 'PT11S' }), reset());
    expect((await laterReset()).status).toBe(200);
    expect((await login(member, 'Fresh@1234', from)).status).toBe(200);
    // Used now: the same code never works twice.
    expect((await laterReset()).body).toMatchObject({ Error: OTP_MESSAGES.invalid });
  });
});

describe('limits and the QA clock', () => {
  const clockNow = async () => String((await qa('/__qa/clock')).body.now);

  /** One sign-in every 3 s of QA clock for two minutes (the request rate allows 20 a minute): none refused. */
  async function signInEveryThreeSeconds(from: string) {
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) {
      await qa('/__qa/clock?wait=true', { advance: 'PT3S' });
      statuses.push((await login('demo', 'Demo@1234', from)).status);
    }
    expect(
      statuses.filter((s) => s !== 200),
      JSON.stringify(statuses),
    ).toEqual([]);
  }

  /** A day ahead: the request rate of `from` for demo used up, and failures counted. */
  async function useUpLimitsADayAhead(from: string) {
    await qa('/__qa/clock?wait=true', { advance: 'P1D' });
    for (let i = 0; i < 15; i++) expect((await login('demo', 'Demo@1234', from)).status).toBe(200);
    for (let i = 0; i < 5; i++) expect(await login('demo', 'Wrong@1234', from)).toEqual(INVALID);
    expect((await login('demo', 'Demo@1234', from)).status).toBe(429);
  }

  it('moving the clock back leaves no one locked: a window that starts after now has lapsed', async () => {
    const from = nextAddress();
    const start = await clockNow();
    await useUpLimitsADayAhead(from);
    expect((await qa('/__qa/clock?wait=true', { set: start })).status).toBe(200);
    await signInEveryThreeSeconds(from);
  });

  it('a reset clears the counters: a member locked out before it signs in at once; after a day ahead and a reset, a sign-in every 3 s is never refused', async () => {
    const from = nextAddress();
    for (let i = 0; i < FAILURE_LIMITS.login.pair.failures; i++)
      expect(await login('demo', 'Wrong@1234', from)).toEqual(INVALID);
    expect(await login('demo', 'Demo@1234', from)).toMatchObject({
      status: 429,
      body: { Error: FAILURE_LIMITS.login.pair.message },
    });
    expect((await qa('/__qa/reset', { scenario: 'demo' })).status).toBe(200);
    expect((await login('demo', 'Demo@1234', from)).status).toBe(200);

    const again = nextAddress();
    await useUpLimitsADayAhead(again);
    expect((await qa('/__qa/reset', { scenario: 'demo' })).status).toBe(200);
    await signInEveryThreeSeconds(again);
  });
});

describe('realistic traffic under concurrency is never refused', () => {
  /** `count` members with a direct (a P2P recipient in their downline), the demo transaction password, and $100 in Deposit. */
  function senders(count: number, skip: number): { sender: string; recipient: string }[] {
    const pairs = app.services.sqlite
      .prepare(
        `select s.username as sender, min(d.username) as recipient from members s join members d on d.sponsor_id = s.id
         where s.username <> 'demo' group by s.id order by s.id desc limit ? offset ?`,
      )
      .all(count, skip) as { sender: string; recipient: string }[];
    expect(pairs).toHaveLength(count);
    app.services.sqlite
      .prepare(
        `update members set transaction_password_hash = (select transaction_password_hash from members where username = 'demo') where username in (${pairs.map(() => '?').join(',')})`,
      )
      .run(...pairs.map((p) => p.sender));
    for (const { sender } of pairs) fund(sender, 'Deposit', 100);
    return pairs;
  }
  const depositOf = (username: string) =>
    (
      app.services.sqlite
        .prepare(
          "select a.balance from accounts a join members m on m.id = a.member_id where m.username = ? and a.wallet = 'Deposit'",
        )
        .get(username) as { balance: number }
    ).balance;

  it('15 concurrent P2P transfers with the right transaction password all go through; none is told the password was wrong', async () => {
    const [{ sender, recipient }] = senders(1, 60) as [{ sender: string; recipient: string }];
    const token = await tokenOf(sender);
    const before = depositOf(sender);
    const from = nextAddress();
    const replies = await burst(15, () =>
      post(
        '/transfer_to_user',
        { username: recipient, amount: 1, password: DEMO_TRANSACTION_PASSWORD },
        from,
        token,
      ),
    ).all;
    for (const reply of replies)
      expect(reply.body.Error).not.toBe(FAILURE_LIMITS.transactionPassword.account.message);
    expect(replies.map((r) => r.status)).toEqual(replies.map(() => 200));
    expect(depositOf(sender)).toBe(before - 15 * 1_000_000);
    expect(
      (
        await post(
          '/transfer_to_user',
          { username: recipient, amount: 1, password: DEMO_TRANSACTION_PASSWORD },
          from,
          token,
        )
      ).status,
    ).toBe(200);
  });

  it('with wrong passwords in flight, a right one waits for them and is then told the truth: a limit reached, or through', async () => {
    const [{ sender, recipient }] = senders(1, 61) as [{ sender: string; recipient: string }];
    const token = await tokenOf(sender);
    const { account } = FAILURE_LIMITS.transactionPassword;
    const wrong = burst(account.failures - 1, () =>
      post(
        '/transfer_to_user',
        { username: recipient, amount: 1, password: 'Wrong@123' },
        nextAddress(),
        token,
      ),
    );
    const right = burst(3, () =>
      post(
        '/transfer_to_user',
        { username: recipient, amount: 1, password: DEMO_TRANSACTION_PASSWORD },
        nextAddress(),
        token,
      ),
    );
    // Nine wrong and three right, all sent before any was checked: the wrong ones fail, the right ones go through.
    for (const reply of await wrong.all)
      expect(reply).toMatchObject({ status: 400, body: { Error: 'Invalid transaction password' } });
    expect((await right.all).map((r) => r.status)).toEqual([200, 200, 200]);
  });

  it('50 members behind one address each sending a transfer at once, three rounds (one every 10 s, compressed): no busy answer', async () => {
    const pairs = senders(50, 0);
    const office = nextAddress();
    const tokens: string[] = [];
    for (const { sender } of pairs) tokens.push(await tokenOf(sender));
    const statsBefore = hashQueueStats();
    for (let round = 0; round < 3; round++) {
      const replies = await burst(pairs.length, (i) =>
        post(
          '/transfer_to_user',
          { username: pairs[i]!.recipient, amount: 1, password: DEMO_TRANSACTION_PASSWORD },
          office,
          tokens[i],
        ),
      ).all;
      expect(replies.filter((r) => r.status !== 200).map((r) => r.body.Error)).toEqual([]);
    }
    expect(hashQueueStats().refused).toBe(statsBefore.refused);
  });

  it('40 members signing in at once: every one gets in', async () => {
    const members = Array.from({ length: 40 }, freshMember);
    const statsBefore = hashQueueStats();
    const replies = await burst(members.length, (i) => login(members[i]!, 'Demo@1234', nextAddress())).all;
    expect(replies.filter((r) => r.status !== 200).map((r) => r.body.Error)).toEqual([]);
    expect(hashQueueStats().refused).toBe(statsBefore.refused);
  });
});
