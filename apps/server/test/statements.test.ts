/**
 * Statements to file (capability `statements`) in a world whose clock is months ahead of the
 * seeded demo: the months are the server's (the current one by its clock, none after it), the
 * current month is as of the moment it was made and never a future date, every line item of
 * the month is listed with its running balance and reconciles with the ledger to the micro-unit
 * (opening + lines = closing, lines by reason = the totals), and the reference is the same on
 * every download of the same ledger state and new after a movement.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { amountToMicros, WALLET_NAMES, type Statement } from '@md/shared';
import { monthRange, STATEMENT_MESSAGES } from '../src/modules/reports/statements.ts';
import { createTestApp, expectLedgerSound, memberIdOf, type TestApp } from './helpers.ts';

let t: TestApp;
let token: string;
const micros = amountToMicros;
const DAY = 86_400_000;

beforeAll(async () => {
  t = await createTestApp({ seed: 'demo' });
  // The demo is seeded on 2 November 2026; this world's clock is a hundred days on, in February 2027.
  const moved = await t.post('/__qa/clock?wait=true', { advance: 'P100D' });
  expect(moved.status).toBe(200);
  token = await t.login('demo');
}, 180_000);
afterAll(() => t.close());

const statement = async (body: { wallet: string; month?: string }) => {
  const reply = await t.post<{ Success: Statement; Error?: string }>('/wallet/view_statement', body, {
    token,
  });
  return reply;
};
const monthOf = (at: number) => new Date(at).toISOString().slice(0, 7);

describe('statements in a world whose clock is months ahead', () => {
  it('take the current month from the server clock, as of the moment made, and refuse the month after it', async () => {
    const now = t.services.clock.now();
    expect(monthOf(now)).toBe('2027-02');
    const current = await statement({ wallet: 'ROI' });
    expect(current.status).toBe(200);
    const s = current.body.Success;
    expect(s.Month).toBe('2027-02');
    expect(s.From).toBe('2027-02-01T00:00:00.000Z');
    expect(s.As_Of).toBe(new Date(now).toISOString());
    expect(s.Made_At).toBe(new Date(now).toISOString());
    expect(Date.parse(s.As_Of!)).toBeLessThanOrEqual(now);
    // The same month named answers the same statement.
    expect((await statement({ wallet: 'ROI', month: '2027-02' })).body.Success).toEqual(s);

    // A month that has ended is as of its end, which is in the past.
    const december = (await statement({ wallet: 'ROI', month: '2026-12' })).body.Success;
    expect(december.As_Of).toBe('2027-01-01T00:00:00.000Z');
    expect(Date.parse(december.As_Of!)).toBeLessThan(now);

    const next = await statement({ wallet: 'ROI', month: '2027-03' });
    expect({ status: next.status, body: next.body }).toMatchObject({
      status: 400,
      body: { Error: STATEMENT_MESSAGES.futureMonth },
    });
  });

  it('list every line item of each month with its running balance, equal to the ledger and the totals', async () => {
    const id = memberIdOf(t, 'demo');
    const months = ['2026-10', '2026-11', '2026-12', '2027-01', '2027-02'];
    let checkedLines = 0;
    for (const wallet of WALLET_NAMES) {
      let previous: number | undefined;
      for (const month of months) {
        const where = `${wallet} ${month}`;
        const reply = await statement({ wallet, month });
        expect(reply.status, where).toBe(200);
        const s = reply.body.Success;
        const lines = s.Lines!;
        expect(lines.length, where).toBe(s.Line_Count);
        if (previous !== undefined) expect(micros(s.Opening), where).toBe(previous);
        // The running balance: opening + each line, and the last one is the closing.
        let balance = micros(s.Opening);
        for (const line of lines) {
          balance += micros(line.Amount);
          expect(micros(line.Balance), `${where} ${line.Reference}`).toBe(balance);
          expect(line.Reason).not.toMatch(/_/);
        }
        expect(balance, where).toBe(micros(s.Closing));
        // Lines by reason are the totals by reason.
        const byReason = (sign: 1 | -1) => {
          const sums = new Map<string, { count: number; micros: number }>();
          for (const line of lines.filter((l) => Math.sign(l.Amount) === sign)) {
            const sum = sums.get(line.Reason) ?? { count: 0, micros: 0 };
            sums.set(line.Reason, {
              count: sum.count + 1,
              micros: sum.micros + Math.abs(micros(line.Amount)),
            });
          }
          return Object.fromEntries(sums);
        };
        const totals = (rows: Statement['Credits']) =>
          Object.fromEntries(rows.map((r) => [r.Reason, { count: r.Count, micros: micros(r.Amount) }]));
        expect(byReason(1), where).toEqual(totals(s.Credits));
        expect(byReason(-1), where).toEqual(totals(s.Debits));
        // Independently from the ledger: the wallet's legs in the month, in time order.
        const { from, to } = monthRange(month);
        const legs = t.services.sqlite
          .prepare(
            `select t.trans_id as ref, case when ta.member_id = @id and ta.wallet = @wallet then t.amount else -t.amount end as micros
               from transfers t join accounts fa on fa.id = t.from_account_id join accounts ta on ta.id = t.to_account_id
              where ((ta.member_id = @id and ta.wallet = @wallet) or (fa.member_id = @id and fa.wallet = @wallet))
                and t.created_at >= @from and t.created_at < @to
              order by t.created_at, t.id`,
          )
          .all({ id, wallet, from, to }) as { ref: string; micros: number }[];
        expect(
          lines.map((l) => ({ ref: l.Reference, micros: micros(l.Amount) })),
          where,
        ).toEqual(legs);
        checkedLines += lines.length;
        previous = micros(s.Closing);
      }
      const kept = t.services.sqlite
        .prepare('select balance from accounts where member_id = ? and wallet = ?')
        .get(id, wallet) as { balance: number } | undefined;
      expect(previous, `${wallet} balance`).toBe(kept?.balance ?? 0);
    }
    expect(checkedLines).toBeGreaterThan(100);
  }, 60_000);

  it('give the same reference on every download of the same ledger state, and a new one after a movement', async () => {
    const before = {
      roi: (await statement({ wallet: 'ROI' })).body.Success,
      deposit: (await statement({ wallet: 'Deposit' })).body.Success,
      january: (await statement({ wallet: 'ROI', month: '2027-01' })).body.Success,
    };
    expect(before.roi.Reference).toMatch(/^ST-ROI-202702-[0-9A-F]{10}$/);
    expect(before.deposit.Reference).not.toBe(before.roi.Reference);
    // Later on the clock, nothing moved: the same reference, a later as-of.
    t.services.clock.advance(60_000);
    const again = (await statement({ wallet: 'ROI' })).body.Success;
    expect(again.Reference).toBe(before.roi.Reference);
    expect(Date.parse(again.As_Of!)).toBe(Date.parse(before.roi.As_Of!) + 60_000);
    // Another member's statement of the same wallet and month has another reference.
    const other = await t.post<{ Success: Statement }>(
      '/wallet/view_statement',
      { wallet: 'ROI', month: '2027-02' },
      { token: await t.login('gonzalo_001') },
    );
    expect(other.body.Success.Reference).not.toBe(before.roi.Reference);

    const swap = await t.post(
      '/wallet/transfer_wallet',
      { from_wallet: 'ROI', to_wallet: 'Deposit', amount: 0.01 },
      { token },
    );
    expect(swap.status, JSON.stringify(swap.body)).toBe(200);
    const after = {
      roi: (await statement({ wallet: 'ROI' })).body.Success,
      deposit: (await statement({ wallet: 'Deposit' })).body.Success,
      january: (await statement({ wallet: 'ROI', month: '2027-01' })).body.Success,
    };
    expect(after.roi.Reference).not.toBe(before.roi.Reference);
    expect(after.deposit.Reference).not.toBe(before.deposit.Reference);
    expect(after.january.Reference).toBe(before.january.Reference);
    expect(after.roi.Lines!.at(-1)).toMatchObject({ Reason: 'Wallet Swap', Amount: -0.01 });
    expect(micros(after.roi.Closing)).toBe(micros(before.roi.Closing) - 10_000);
    expect(after.deposit.Lines!.at(-1)).toMatchObject({ Reason: 'Wallet Swap', Amount: 0.01 });
    expect(Date.parse(after.roi.As_Of!)).toBeLessThanOrEqual(t.services.clock.now());
    expect(Date.parse(after.roi.As_Of!)).toBeGreaterThan(t.services.clock.now() - DAY);
    await expectLedgerSound(t);
  });
});
