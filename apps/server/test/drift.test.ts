import { describe, expect, it } from 'vitest';
import { createDriftStore, DRIFT_CAPACITY, findDrift } from '../src/modules/gateway/drift.ts';

const profile = {
  Username: 'demo',
  Name: 'Demo Member',
  Email: 'demo@example.com',
  Side: '0',
  Sponsor: null,
  Country: 'United Kingdom',
  Created_On: '2026-01-01T00:00:00.000Z',
  Subscription: true,
  package: 'Starter',
  Transaction_Password: true,
  TOTP_Enabled: false,
  Wallet_Details: { Wallet_Address: null, Network: 'BEP.20' },
};
const wallet = { Available: 12.5, Total: 20, This_Month: 1, Last_Month: 0, User: 'demo' };
const earningRow = {
  DateTime: '2026-01-02T00:00:00.000Z',
  TransID: 'T1',
  Amount: 5,
  Type: 'ROI',
  By: 'system',
  Transfer: 'Credit',
  Wallet: 'ROI',
  Status: 'Completed',
};

/** A clock the test moves by hand. */
function steppedClock(start = Date.UTC(2026, 0, 5, 9)) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe('drift findings of one answer', () => {
  it('an answer of the contract has none, a failure in the { Error } envelope neither', () => {
    expect(findDrift('user.view_profile', 200, { Success: [profile] })).toEqual([]);
    expect(
      findDrift('wallet.view_all_wallets_details', 200, { Success: { Deposit: wallet, ROI: wallet } }),
    ).toEqual([]);
    expect(findDrift('user.view_profile', 401, { Error: 'Session Expired' })).toEqual([]);
    // The provider may fail with HTTP 200: the client reads Error as a failure, so it is no drift.
    expect(findDrift('user.view_profile', 200, { Error: 'Invalid Authentication' })).toEqual([]);
    // Optional extension fields absent (as at the provider), unions on either side.
    expect(
      findDrift('binary.view_binary_downline', 200, {
        Success: { Username: 'demo', CountUser: 2, Downline: [{ Username: 'a', Side: '1' }] },
      }),
    ).toEqual([]);
    expect(
      findDrift('binary.view_binary_downline', 200, {
        Success: { Username: 'demo', CountUser: 0, Downline: { a: 'b' } },
      }),
    ).toEqual([]);
    expect(findDrift('user.view_country', 200, { Success: ['Spain'] })).toEqual([]);
  });

  it('a renamed field is the contract name missing and the new one extra', () => {
    const { Side, ...rest } = profile;
    expect(findDrift('user.view_profile', 200, { Success: [{ ...rest, Leg: Side }] })).toEqual([
      { field: 'Success[].Side', kind: 'missing', expected: '"0" | "1"', seen: undefined },
      { field: 'Success[].Leg', kind: 'extra', expected: 'absent (not in the contract)', seen: '0' },
    ]);
  });

  it('a number sent as a string is a type drift with the string as the example', () => {
    expect(
      findDrift('wallet.view_all_wallets_details', 200, {
        Success: { Deposit: { ...wallet, Available: '12.5' } },
      }),
    ).toEqual([{ field: 'Success.Deposit.Available', kind: 'type', expected: 'number', seen: '12.5' }]);
    // An integer the contract asks for (the page count) sent with a fraction is a value drift.
    expect(findDrift('earning.total_pagination_earning_history', 200, { Success: 1.5 })).toEqual([
      { field: 'Success', kind: 'value', expected: 'integer', seen: 1.5 },
    ]);
  });

  it('a drift inside a map names the entry’s key (which wallet), a long key cut', () => {
    const { Total, ...noTotal } = wallet;
    void Total;
    expect(
      findDrift('wallet.view_all_wallets_details', 200, { Success: { ROI: wallet, Deposit: noTotal } }),
    ).toEqual([{ field: 'Success.Deposit.Total', kind: 'missing', expected: 'number', seen: undefined }]);
    const long = 'W'.repeat(500);
    const [issue] = findDrift('wallet.view_all_wallets_details', 200, { Success: { [long]: noTotal } });
    expect(issue?.field).toBe(`Success.${'W'.repeat(64)}….Total`);
  });

  it('a missing field, and null where the contract has no null, are told apart', () => {
    const { Amount, ...noAmount } = earningRow;
    void Amount;
    expect(findDrift('earning.view_all_earning_history', 200, { Success: [earningRow, noAmount] })).toEqual([
      { field: 'Success[].Amount', kind: 'missing', expected: 'number', seen: undefined },
    ]);
    expect(
      findDrift('earning.view_all_earning_history', 200, { Success: [{ ...earningRow, Status: null }] }),
    ).toEqual([{ field: 'Success[].Status', kind: 'type', expected: 'string', seen: null }]);
  });

  it("a side 'L' is a value outside the enum, reported once for every row that has it", () => {
    const rows = [
      { Username: 'a', Side: 'L' },
      { Username: 'b', Side: 'R' },
      { Username: 'c', Side: '0' },
    ];
    expect(
      findDrift('binary.view_binary_downline', 200, {
        Success: { Username: 'demo', CountUser: 3, Downline: rows },
      }),
    ).toEqual([{ field: 'Success.Downline[].Side', kind: 'value', expected: '"0" | "1"', seen: 'L' }]);
    // A number where the enum has strings is a type drift.
    expect(findDrift('user.view_profile', 200, { Success: [{ ...profile, Side: 0 }] })).toEqual([
      { field: 'Success[].Side', kind: 'type', expected: '"0" | "1"', seen: 0 },
    ]);
  });

  it('an answer outside the envelopes is an envelope drift', () => {
    expect(findDrift('user.view_profile', 200, [profile])).toMatchObject([
      { field: '(body)', kind: 'envelope', expected: 'a JSON object such as { Success: … }' },
    ]);
    expect(findDrift('user.view_profile', 200, undefined)).toEqual([
      {
        field: '(body)',
        kind: 'envelope',
        expected: 'a JSON object such as { Success: … }',
        seen: '(no JSON body)',
      },
    ]);
    expect(findDrift('user.view_profile', 200, { data: [profile] })).toMatchObject([
      { field: 'Success', kind: 'envelope' },
    ]);
    expect(findDrift('user.view_profile', 500, { error: 'Boom' })).toEqual([
      { field: 'Error', kind: 'envelope', expected: '{ Error: string }', seen: { error: 'Boom' } },
    ]);
    expect(findDrift('user.view_profile', 502, undefined)).toEqual([
      { field: 'Error', kind: 'envelope', expected: '{ Error: string }', seen: '(no JSON body)' },
    ]);
  });

  it('examples are redacted and bounded; a long list is sampled, not walked row by row', () => {
    const [login] = findDrift('user.login', 200, { Success: 'Login successful!', JWT: 42, token: 'abc.def' });
    expect(login).toEqual({ field: 'JWT', kind: 'type', expected: 'string', seen: '[redacted]' });
    expect(findDrift('user.login', 200, { Success: 'ok', JWT: 'x', token: 'abc' })).toEqual([
      { field: 'token', kind: 'extra', expected: 'absent (not in the contract)', seen: '[redacted]' },
    ]);
    const [long] = findDrift('user.view_profile', 200, { Success: [{ ...profile, Note: 'x'.repeat(5000) }] });
    expect(JSON.stringify(long!.seen).length).toBeLessThan(200);
    // Row 30 of 1000 is past the sample: its drift is not seen, row 999's is.
    const rows = Array.from({ length: 1000 }, () => ({ ...earningRow }));
    rows[30] = { ...earningRow, Wallet: 7 as unknown as string };
    expect(findDrift('earning.view_all_earning_history', 200, { Success: rows })).toEqual([]);
    rows[999] = { ...earningRow, Wallet: 7 as unknown as string };
    expect(findDrift('earning.view_all_earning_history', 200, { Success: rows })).toEqual([
      { field: 'Success[].Wallet', kind: 'type', expected: 'string', seen: 7 },
    ]);
  });
});

describe('the drift store', () => {
  it('keeps one entry per endpoint, field and kind with counts and first and last seen; clear forgets', () => {
    const clock = steppedClock();
    const store = createDriftStore({ now: clock.now });
    const drifted = { Success: [{ ...profile, Side: 'L' }] };
    store.check('user.view_profile', 200, drifted);
    clock.advance(60_000);
    store.check('user.view_profile', 200, { Success: [{ ...profile, Side: 'R' }] });
    store.check('user.view_profile', 200, { Success: [profile] });
    store.check('rank.current_rank', 200, { Success: { Rank: 3 } });
    expect(store.list()).toEqual([
      {
        path: '/rank/current_rank',
        field: 'Success.Rank',
        kind: 'type',
        expected: 'string',
        seen: 3,
        count: 1,
        firstSeen: '2026-01-05T09:01:00.000Z',
        lastSeen: '2026-01-05T09:01:00.000Z',
      },
      {
        path: '/user/view_profile',
        field: 'Success[].Side',
        kind: 'value',
        expected: '"0" | "1"',
        seen: 'L',
        count: 2,
        firstSeen: '2026-01-05T09:00:00.000Z',
        lastSeen: '2026-01-05T09:01:00.000Z',
      },
    ]);
    // What list answers is a copy: changing it changes nothing stored.
    store.list()[0]!.count = 99;
    expect(store.list()[0]!.count).toBe(1);
    expect(store.clear()).toBe(2);
    expect(store.list()).toEqual([]);
    store.check('user.view_profile', 200, drifted);
    expect(store.list()).toMatchObject([{ count: 1, firstSeen: '2026-01-05T09:01:00.000Z' }]);
  });

  it('is bounded: past its capacity new findings are only counted', () => {
    const store = createDriftStore({ capacity: 3 });
    const extras = Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`Extra_${i}`, i]));
    store.check('rank.current_rank', 200, { Success: { Rank: 'Gold', ...extras } });
    expect(store.list()).toHaveLength(3);
    expect(store.overflow).toBe(2);
    expect(DRIFT_CAPACITY).toBeGreaterThan(100);
  });

  it('never throws, whatever it is given', () => {
    const store = createDriftStore();
    const cyclic: Record<string, unknown> = { Rank: 'x' };
    cyclic.self = cyclic;
    expect(() => store.check('rank.current_rank', 200, { Success: cyclic })).not.toThrow();
    expect(() => store.check('nope' as never, 200, {})).not.toThrow();
    expect(store.list()).toMatchObject([{ field: 'Success.self', kind: 'extra' }]);
  });
});
