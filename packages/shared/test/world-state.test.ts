/** The declared world state's schema, its cross-value checks, and the committed JSON Schema file. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  parseWorldState,
  WORLD_STATE_SCHEMA_FILE,
  worldStateJsonSchema,
  worldStatePath,
} from '../src/world-state.ts';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const minimal = { date: '2026-03-04T12:00:00Z', members: [{ username: 'ann' }] };
const faultsOf = (input: unknown) => {
  const parsed = parseWorldState(input);
  return parsed.success ? [] : parsed.faults.map((f) => `${f.path}: ${f.message}`);
};

describe('world state schema', () => {
  it('the committed JSON Schema is what the zod schema gives (npm run world-state:schema rewrites it)', () => {
    const committed = JSON.parse(readFileSync(join(ROOT, WORLD_STATE_SCHEMA_FILE), 'utf8')) as unknown;
    expect(committed).toEqual(worldStateJsonSchema());
  });

  it('documents every field and refuses unknown keys', () => {
    const schema = worldStateJsonSchema() as {
      additionalProperties: boolean;
      properties: Record<string, { description?: string }>;
    };
    expect(schema.additionalProperties).toBe(false);
    for (const [key, value] of Object.entries(schema.properties)) expect(value.description, key).toBeTruthy();
  });

  it('accepts a minimal state and keeps $schema', () => {
    const parsed = parseWorldState({ $schema: './world-state.schema.json', ...minimal });
    expect(parsed).toEqual({ success: true, state: { $schema: './world-state.schema.json', ...minimal } });
  });

  it('names the path of each value fault', () => {
    expect(
      faultsOf({
        date: 'tomorrow',
        members: [
          { username: 'Ann', wallets: { ROI: -5, Gold: 1 }, deposits: [{ amount: 5, status: 'LOST' }] },
        ],
      }),
    ).toEqual([
      'state.date: Must be an ISO-8601 date-time such as 2026-05-01T09:00:00Z',
      'state.members[0].username: Lowercase letters, digits and _ only',
      'state.members[0].wallets.ROI: Must be more than 0',
      "state.members[0].wallets.Gold: Unknown wallet 'Gold' (known: Deposit, Direct, Binary, Level, P2P, Withdrawal, ROI, Rank)",
      'state.members[0].deposits[0].status: Invalid option: expected one of "PAID"|"PENDING"|"EXPIRED"',
    ]);
  });

  it('checks times against the start, the date, the member’s join and its sponsor’s', () => {
    expect(
      faultsOf({
        date: '2026-03-04T12:00:00Z',
        start: '2026-03-01T00:00:00Z',
        members: [
          { username: 'ann', joinedAt: '2026-03-02T00:00:00Z' },
          {
            username: 'bob',
            sponsor: 'ann',
            side: '0',
            joinedAt: '2026-03-01T12:00:00Z',
            packages: [{ plan: 'Gold', at: '2026-03-05T00:00:00Z' }],
            deposits: [{ amount: 20, status: 'PENDING', at: '2026-03-03T00:00:00Z' }],
            withdrawals: [{ amount: 30, status: 'PENDING', decidedAt: '2026-03-04T00:00:00Z' }],
          },
        ],
      }),
    ).toEqual([
      "state.members[1].joinedAt: Is before its sponsor 'ann' joins (2026-03-02T00:00:00.000Z)",
      'state.members[1].packages[0].at: Is after the date (2026-03-04T12:00:00Z)',
      "state.members[1].deposits[0].at: A PENDING deposit's 30-minute window must still be open at the date",
      'state.members[1].withdrawals[0].decidedAt: A PENDING withdrawal is not decided',
      expect.stringMatching(
        /^state\.members\[1\]\.withdrawals\[0\]\.amount: 30 is more than the Withdrawal wallet/,
      ),
    ]);
    expect(faultsOf({ ...minimal, start: '2025-01-01T00:00:00Z' })).toEqual([
      'state.start: Is more than 400 days before the date (the cap of one state)',
    ]);
  });

  it('runs a Withdrawal wallet through its requests in time order: a refund pays for a later request', () => {
    const member = (second: string) => ({
      username: 'ann',
      wallets: { Withdrawal: 50 },
      withdrawals: [
        { amount: 50, status: 'REJECTED', at: '2026-03-01T00:00:00Z', decidedAt: '2026-03-02T00:00:00Z' },
        { amount: 50, at: second },
      ],
    });
    const state = (second: string) => ({
      date: '2026-03-04T12:00:00Z',
      start: '2026-03-01T00:00:00Z',
      members: [member(second)],
    });
    expect(faultsOf(state('2026-03-03T00:00:00Z'))).toEqual([]);
    expect(faultsOf(state('2026-03-01T12:00:00Z'))).toEqual([
      expect.stringMatching(/^state\.members\[0\]\.withdrawals\[1\]\.amount: 50 is more than/),
    ]);
  });

  it('legs: unknown parent, count below depth, generated names that clash, a runaway total', () => {
    expect(
      faultsOf({
        date: '2026-03-04T12:00:00Z',
        members: [{ username: 'ann' }, { username: 'ann_l2', sponsor: 'ann', side: '1' }],
        legs: [
          { under: 'ann', side: '0', depth: 3 },
          { under: 'bob', side: '0', depth: 3, count: 2 },
          { under: 'ann', side: '1', depth: 10_000, count: 20_000, prefix: 'x' },
        ],
      }),
    ).toEqual([
      "state.legs[0].prefix: Generates 'ann_l2', a username already taken",
      "state.legs[1].under: Unknown member 'bob' (a declared member, or one generated by an earlier leg)",
      'state.legs[1].count: Is less than the depth (3)',
      'state.legs: Generate 20,005 members in all; at most 20,000 (the cap of one state)',
    ]);
  });

  it('names the cap a state passes: declared members, legs, a chain’s depth', () => {
    const many = Array.from({ length: 5_001 }, (_, i) => ({ username: `m${i}` }));
    expect(faultsOf({ date: '2026-03-04T12:00:00Z', members: many })).toEqual([
      'state.members: At most 5,000 declared members (the cap of one state)',
    ]);
    const legs = (count: number, depth: number) =>
      faultsOf({
        date: '2026-03-04T12:00:00Z',
        members: [{ username: 'ann' }],
        legs: Array.from({ length: count }, (_, i) => ({ under: 'ann', side: '0', depth, prefix: `p${i}_` })),
      });
    expect(legs(101, 1)).toEqual(['state.legs: At most 100 legs (the cap of one state)']);
    expect(legs(1, 10_001)).toEqual(['state.legs[0].depth: At most 10,000 levels (the cap of one state)']);
  });

  it('writes paths as JSON paths from state', () => {
    expect(worldStatePath(['members', 2, 'sponsor'])).toBe('state.members[2].sponsor');
    expect(worldStatePath(['members', 0, 'wallets', 'odd key'])).toBe('state.members[0].wallets["odd key"]');
  });
});

it('an EXPIRED deposit without a time opens when the member joins: refused only when its window cannot have ended', () => {
  const state = (start: string) => ({
    date: '2026-03-04T12:00:00Z',
    start,
    members: [{ username: 'ann', deposits: [{ amount: 20, status: 'EXPIRED' }] }],
  });
  expect(faultsOf(state('2026-03-04T09:00:00Z'))).toEqual([]);
  expect(faultsOf(state('2026-03-04T11:45:00Z'))).toEqual([
    "state.members[0].deposits[0].at: An EXPIRED deposit's 30-minute window must have ended by the date: open it earlier",
  ]);
});
