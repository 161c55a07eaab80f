/**
 * A money move nested in another (a purchase inside moneyAnswer's transaction) runs as part of it,
 * without a savepoint: its failure fails the whole transaction, even when a caller catches it and
 * goes on, so nothing commits half a move. Inside a transaction opened another way (a plain one) a
 * nested move is a savepoint: it fails alone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NESTED_FAILURE_CAUGHT } from '../src/core/prepared.ts';
import { moneyTransaction, transfer } from '../src/modules/ledger/ledger.ts';
import { createTestApp, expectLedgerSound, memberIdOf, moneySnapshot, type TestApp } from './helpers.ts';

let t: TestApp;
let memberId: number;
beforeAll(async () => {
  t = await createTestApp({ seed: 'demo' });
  memberId = memberIdOf(t, 'demo');
});
afterAll(async () => {
  await expectLedgerSound(t);
  await t.close();
});

let n = 0;
/** 1 USDT from the payouts account to the member's Direct wallet. */
const credit = () =>
  transfer(t.services, [
    {
      transId: `NEST${++n}`,
      from: { system: 'payouts' },
      to: { member: memberId, wallet: 'Direct' },
      amount: 1_000_000,
      reason: 'direct_income',
      memberId,
    },
  ]);
const refusal = new Error('refused inside');
/** A nested move that writes, then fails. */
const failingMove = () =>
  moneyTransaction(t.services, () => {
    credit();
    throw refusal;
  });

describe('a money move inside another', () => {
  it('commits with the outer one, as one transaction', () => {
    const before = t.count('transfers');
    moneyTransaction(t.services, () => {
      credit();
      moneyTransaction(t.services, credit);
    });
    expect(t.count('transfers')).toBe(before + 2);
  });

  it('that fails fails the outer one: nothing of either is written', () => {
    const before = moneySnapshot(t);
    expect(() =>
      moneyTransaction(t.services, () => {
        credit();
        failingMove();
      }),
    ).toThrow(refusal);
    expect(moneySnapshot(t)).toEqual(before);
  });

  it('that fails and is caught still rolls the outer one back, with the reason, instead of committing half a move', () => {
    const before = moneySnapshot(t);
    const transfers = t.count('transfers');
    expect(() =>
      moneyTransaction(t.services, () => {
        credit();
        try {
          failingMove();
        } catch {
          // A caller that goes on as if the move had been undone alone.
        }
        credit();
      }),
    ).toThrow(NESTED_FAILURE_CAUGHT);
    expect(moneySnapshot(t)).toEqual(before);
    // The connection is usable afterwards, and the next transaction is not held to the failure.
    moneyTransaction(t.services, credit);
    expect(t.count('transfers')).toBe(transfers + 1);
  });

  it('inside a transaction opened another way (a plain one) is a savepoint: it fails alone', () => {
    const before = t.count('transfers');
    t.services.sqlite.transaction(() => {
      credit();
      expect(failingMove).toThrow(refusal);
      credit();
    })();
    expect(t.count('transfers')).toBe(before + 2);
  });
});
