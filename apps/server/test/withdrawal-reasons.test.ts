/**
 * Why a withdrawal was rejected and when a pending one is due: QA's reject takes an optional
 * `reason` (the default when absent), kept with the withdrawal, answered by the member's timeline
 * (`Reason`, `Expected_By`) and said in the notices (and the mail, with email on). A bad reason is a
 * 400 naming the problem that changes nothing; of a burst of decisions on one withdrawal exactly one wins.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  amountToMicros,
  WITHDRAWAL_DEFAULT_REJECT_REASON,
  WITHDRAWAL_PROCESSING_HOURS,
  WITHDRAWAL_REASON_MAX,
  type WithdrawalTimeline,
} from '@md/shared';
import { walletBalance } from '../src/modules/ledger/ledger.ts';
import { swapWallets } from '../src/modules/wallets/wallets.ts';
import { noticeTime } from '@md/shared';
import { requestWithdrawal } from '../src/modules/withdrawals/withdrawals.ts';
import {
  createTestApp,
  expectLedgerSound,
  HOUR,
  memberIdOf,
  moneySnapshot,
  type TestApp,
} from './helpers.ts';

let t: TestApp;
let demo: number;
let address: string;
let token: string;
beforeAll(async () => {
  t = await createTestApp({ seed: 'demo' });
  demo = memberIdOf(t, 'demo');
  address = (
    t.services.sqlite.prepare('select wallet_address from members where id = ?').get(demo) as {
      wallet_address: string;
    }
  ).wallet_address;
  token = await t.login('demo');
  // Room for every request below: reward wallets moved to Withdrawal until it holds 200.
  for (const from of ['ROI', 'Direct', 'Binary', 'Level', 'Rank'] as const) {
    const short = amountToMicros(200) - walletBalance(t.services, demo, 'Withdrawal');
    const available = walletBalance(t.services, demo, from);
    if (short > 0 && available > 0)
      swapWallets(t.services, demo, from, 'Withdrawal', Math.min(short, available));
  }
  expect(walletBalance(t.services, demo, 'Withdrawal')).toBeGreaterThanOrEqual(amountToMicros(200));
}, 120_000);
afterAll(() => t.close());

const pendingOfDemo = () => requestWithdrawal(t.services, demo, amountToMicros(20), address);
const row = (transId: string) =>
  t.services.sqlite
    .prepare('select status, reject_reason, decided_at from withdrawals where trans_id = ?')
    .get(transId) as { status: string; reject_reason: string | null; decided_at: number | null };
const noticesOf = (transId: string) =>
  t.services.sqlite
    .prepare('select message from notifications where trans_id = ? order by id')
    .pluck()
    .all(transId) as string[];
const timeline = async (transId: string) => {
  const reply = await t.post<{ Success: WithdrawalTimeline }>(
    '/withdraw/view_withdrawal_timeline',
    { trans_id: transId },
    { token },
  );
  expect(reply.status).toBe(200);
  return reply.body.Success;
};
const reject = (transId: string, body?: unknown, raw?: string) =>
  t.post<Record<string, unknown> & { Error?: string }>(
    `/__qa/withdrawals/${transId}/reject`,
    body,
    raw === undefined ? {} : { raw },
  );
/** A reject with no body at all (no content type either), as curl -X POST sends it. */
const rejectBare = async (transId: string) => {
  const reply = await t.fastify.inject({ method: 'POST', url: `/__qa/withdrawals/${transId}/reject` });
  return { status: reply.statusCode, body: reply.json<Record<string, unknown> & { Error?: string }>() };
};

describe('a pending withdrawal', () => {
  it('answers when it is expected to be decided, and the request notice says it', async () => {
    const requestedAt = t.services.clock.now();
    const w = pendingOfDemo();
    const due = requestedAt + WITHDRAWAL_PROCESSING_HOURS * HOUR;
    const answer = await timeline(w.transId);
    expect(answer.Status).toBe('PENDING');
    expect(answer.Expected_By).toBe(new Date(due).toISOString());
    expect(answer.Reason).toBeUndefined();
    expect(noticesOf(w.transId)).toEqual([
      `Your withdrawal request of $20.00 was received (fee $1.00). Expected to be processed by ${noticeTime(due)}.`,
    ]);
    expect(noticeTime(Date.UTC(2026, 10, 30, 9, 5))).toBe('Nov 30, 2026 09:05 UTC');
  });
});

describe('QA rejects with a reason', () => {
  it('keeps the reason, answers it on the timeline and in the QA view, and says it in the notice and the mail', async () => {
    const prefs = await t.post(
      '/notification/update_preferences',
      { event: 'withdrawals', email: true },
      { token },
    );
    expect(prefs.status).toBe(200);
    const w = pendingOfDemo();
    const reason = 'The address is on a payout hold list';
    const reply = await reject(w.transId, { reason: `  ${reason} ` });
    expect(reply.status, reply.body.Error).toBe(200);
    expect(reply.body).toMatchObject({ TransID: w.transId, status: 'REJECTED', reason });
    expect(row(w.transId)).toMatchObject({ status: 'REJECTED', reject_reason: reason });

    const answer = await timeline(w.transId);
    expect(answer.Reason).toBe(reason);
    expect(answer.Expected_By).toBeUndefined();
    expect(answer.Steps.map((s) => s.Step)).toEqual(['Requested', 'Rejected', 'Refunded']);

    const notice = `Your withdrawal of $20.00 was rejected and refunded to your Withdrawal wallet. Reason: ${reason}.`;
    expect(noticesOf(w.transId).at(-1)).toBe(notice);
    const mail = (await t.mailbox('demo')).find((m) => m.text.includes(notice));
    expect(mail?.subject).toBe('Withdrawal update');

    const listed = await t.get<{ TransID: string; reason: string | null }[]>(
      '/__qa/withdrawals?status=REJECTED',
    );
    expect(listed.body.find((x) => x.TransID === w.transId)?.reason).toBe(reason);
    await expectLedgerSound(t);
  });

  it('gives the default reason when QA gives none (no body, or an empty object)', async () => {
    for (const bare of [true, false]) {
      const w = pendingOfDemo();
      const reply = bare ? await rejectBare(w.transId) : await reject(w.transId, {});
      expect(reply.status, reply.body.Error).toBe(200);
      expect(reply.body.reason).toBe(WITHDRAWAL_DEFAULT_REJECT_REASON);
      expect((await timeline(w.transId)).Reason).toBe(WITHDRAWAL_DEFAULT_REJECT_REASON);
      expect(noticesOf(w.transId).at(-1)).toContain(`Reason: ${WITHDRAWAL_DEFAULT_REJECT_REASON}.`);
    }
  });

  it('approving keeps no reason', async () => {
    const w = pendingOfDemo();
    const reply = await t.post(`/__qa/withdrawals/${w.transId}/approve`);
    expect(reply.status).toBe(200);
    expect(reply.body.reason).toBeNull();
    const answer = await timeline(w.transId);
    expect(answer.Reason).toBeUndefined();
    expect(answer.Expected_By).toBeUndefined();
  });

  it('refuses a bad reason with a 400 naming the problem, and changes nothing', async () => {
    const w = pendingOfDemo();
    const cases: [unknown, string | undefined, RegExp | string][] = [
      [{ reason: 42 }, undefined, 'reason must be a string'],
      [{ reason: null }, undefined, 'reason must be a string'],
      [{ reason: '' }, undefined, 'reason must not be blank (leave it out for the default)'],
      [{ reason: '   ' }, undefined, 'reason must not be blank (leave it out for the default)'],
      [
        { reason: 'x'.repeat(WITHDRAWAL_REASON_MAX + 1) },
        undefined,
        `reason must be at most ${WITHDRAWAL_REASON_MAX} characters`,
      ],
      [{ reason: 'two\nlines' }, undefined, 'reason must be one line without control characters'],
      [{ reason: 'a\u0000b' }, undefined, 'reason must be one line without control characters'],
      [{ reason: 'fine', extra: 1 }, undefined, 'Unknown field extra: the body takes only reason'],
      [undefined, '"just text"', 'The body must be a JSON object'],
      [undefined, '["x"]', 'The body must be a JSON object'],
    ];
    const money = moneySnapshot(t);
    const notices = t.count('notifications');
    const mails = (await t.mailbox('demo')).length;
    for (const [body, raw, message] of cases) {
      const reply = await reject(w.transId, body, raw);
      expect(reply.status, JSON.stringify(body ?? raw)).toBe(400);
      if (typeof message === 'string') expect(reply.body.Error).toBe(message);
      else expect(reply.body.Error).toMatch(message);
    }
    expect(row(w.transId)).toEqual({ status: 'PENDING', reject_reason: null, decided_at: null });
    expect(moneySnapshot(t)).toBe(money);
    expect(t.count('notifications')).toBe(notices);
    expect((await t.mailbox('demo')).length).toBe(mails);
    expect((await timeline(w.transId)).Reason).toBeUndefined();

    // The longest reason allowed is taken whole.
    const longest = 'y'.repeat(WITHDRAWAL_REASON_MAX);
    const ok = await reject(w.transId, { reason: longest });
    expect(ok.status, ok.body.Error).toBe(200);
    expect(row(w.transId).reject_reason).toBe(longest);
  });
});

describe('a burst of decisions on one withdrawal', () => {
  it('lets exactly one win: one refund, one reason kept, one notice; the rest answer 409', async () => {
    const w = pendingOfDemo();
    const balance = () =>
      t.services.sqlite
        .prepare("select balance from accounts where member_id = ? and wallet = 'Withdrawal'")
        .pluck()
        .get(demo) as number;
    const before = balance();
    const replies = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        i % 6 === 5
          ? t.post(`/__qa/withdrawals/${w.transId}/approve`)
          : reject(w.transId, { reason: `Reason number ${i}` }),
      ),
    );
    const won = replies.filter((r) => r.status === 200);
    expect(won).toHaveLength(1);
    expect(replies.filter((r) => r.status === 409)).toHaveLength(replies.length - 1);
    const winner = won[0]!.body as { status: string; reason: string | null };
    expect(row(w.transId)).toMatchObject({ status: winner.status, reject_reason: winner.reason });
    const refunds = t.services.sqlite
      .prepare("select count(*) from transfers where trans_id = ? and reason = 'withdrawal_refund'")
      .pluck()
      .get(w.transId);
    const decisionNotices = noticesOf(w.transId).slice(1);
    expect(decisionNotices).toHaveLength(1);
    if (winner.status === 'REJECTED') {
      expect(refunds).toBe(1);
      expect(balance()).toBe(before + w.amount);
      expect(decisionNotices[0]).toContain(`Reason: ${winner.reason}.`);
    } else {
      expect(refunds).toBe(0);
      expect(balance()).toBe(before);
    }
    await expectLedgerSound(t);
  });
});
