/**
 * The `binary_paths` extension: the bottom of a leg (where the caller's next
 * registration on that side is placed) and the path to a member named, on a tree thousands of
 * levels deep built directly in the database; both ends of a long path only, with the count
 * between; scoped like the other tree reads (outside and unknown answer alike), limited per
 * member, bad input a 400. Timings are in scripts/bench/binary-paths.ts, never asserted here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BINARY_PATH_ENDS } from '@md/shared';
import { DEMO_PASSWORD_HASH } from '../src/core/passwords.ts';
import { insertMember } from '../src/modules/auth/members.ts';
import { backfillBinaryStats } from '../src/modules/engine/stats.ts';
import { findPlacement } from '../src/modules/network/placement.ts';
import { RATE_RULES } from '../src/transport/rate-limit.ts';
import { createTestApp, type TestApp } from './helpers.ts';

interface Link {
  username: string;
  parent: string | null;
  side: '0' | '1' | null;
}

const LEFT_DEPTH = 3000;
const name = (prefix: string, i: number) => `${prefix}${String(i).padStart(4, '0')}`;

/**
 * `root` with a left leg l0001…l3000 (each the left child of the one before), a right leg of two
 * (r0001, r0002), a zigzag z0001… hanging right of l0001 then left (inside root's left leg, not on
 * its outer edge), and a second root `other` with o0001…o0100 (outside everything of root).
 */
function forest(): Link[] {
  const links: Link[] = [
    { username: 'root', parent: null, side: null },
    { username: 'other', parent: null, side: null },
  ];
  const chain = (prefix: string, count: number, from: string, firstSide: '0' | '1', side: '0' | '1') => {
    for (let i = 1; i <= count; i++)
      links.push({
        username: name(prefix, i),
        parent: i === 1 ? from : name(prefix, i - 1),
        side: i === 1 ? firstSide : side,
      });
  };
  chain('l', LEFT_DEPTH, 'root', '0', '0');
  chain('r', 2, 'root', '1', '1');
  chain('z', 50, 'l0001', '1', '0');
  chain('o', 100, 'other', '0', '0');
  return links;
}

let t: TestApp;
let rootToken: string;
let midToken: string;
const sqlite = () => t.services.sqlite;
const idOf = (username: string) =>
  (sqlite().prepare('select id from members where username = ?').get(username) as { id: number }).id;

beforeAll(async () => {
  t = await createTestApp({ seed: 'empty' });
  // Bulk-inserted as the scale seed does (sponsor = binary parent), then the start-up backfill.
  const insert = sqlite().prepare(
    `insert into members (username, name, email, country, sponsor_id, parent_id, side, created_at, password_hash)
     values (@username, @username, @username || '@example.com', 'India',
       (select id from members where username = @parent), (select id from members where username = @parent), @side, 0, @hash)`,
  );
  sqlite().transaction(() => {
    for (const link of forest()) insert.run({ ...link, hash: DEMO_PASSWORD_HASH });
  })();
  backfillBinaryStats(t.services);
  rootToken = await t.login('root');
  midToken = await t.login('l1000');
});
afterAll(() => t.close());

type BinaryPath = { Username: string; Levels: number; Head: string[]; Skipped: number; Tail: string[] };
const legBottom = (side: unknown, token = rootToken) =>
  t.post<{ Success: BinaryPath }>('/binary/view_leg_bottom', { side }, { token });
const pathTo = (username: unknown, token = rootToken) =>
  t.post<{ Success: BinaryPath }>('/binary/view_path', { username }, { token });
const range = (prefix: string, from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => name(prefix, from + i));

describe('binary.view_leg_bottom', () => {
  it('is advertised as the binary_paths capability and limited per member like the other tree reads', async () => {
    expect((await t.get<{ capabilities: string[] }>('/config.json')).body.capabilities).toContain(
      'binary_paths',
    );
    expect(RATE_RULES['binary.view_leg_bottom']).toEqual(RATE_RULES['binary.view_binary_downline']);
    expect(RATE_RULES['binary.view_path']).toEqual(RATE_RULES['binary.view_binary_downline']);
  });

  it('follows the left leg 3,000 levels down to its end, answering both ends of the path and the count between', async () => {
    const reply = await legBottom('0');
    expect(reply.status).toBe(200);
    expect(reply.body.Success).toEqual({
      Username: 'l3000',
      Levels: LEFT_DEPTH,
      Head: ['root', ...range('l', 1, BINARY_PATH_ENDS - 1)],
      Skipped: LEFT_DEPTH + 1 - 2 * BINARY_PATH_ENDS,
      Tail: range('l', LEFT_DEPTH - BINARY_PATH_ENDS + 1, LEFT_DEPTH),
    });
  });

  it('answers the member placement puts a new registration of the caller under, on either side', async () => {
    for (const [side, bottom] of [
      ['0', 'l3000'],
      ['1', 'r0002'],
    ] as const) {
      expect((await legBottom(side)).body.Success.Username).toBe(bottom);
      expect(findPlacement(sqlite(), idOf('root'), side).parentId).toBe(idOf(bottom));
    }
    // A registration there lands where the answer said, and the bottom moves down to it.
    insertMember(t.services, {
      username: 'newcomer',
      name: 'newcomer',
      email: 'newcomer@example.com',
      country: 'India',
      passwordHash: DEMO_PASSWORD_HASH,
      sponsorId: idOf('root'),
      side: '1',
      createdAt: 0,
    });
    expect(
      sqlite().prepare('select parent_id as parent from members where username = ?').get('newcomer'),
    ).toEqual({ parent: idOf('r0002') });
    expect((await legBottom('1')).body.Success).toEqual({
      Username: 'newcomer',
      Levels: 3,
      Head: ['root', 'r0001', 'r0002', 'newcomer'],
      Skipped: 0,
      Tail: [],
    });
  });

  it('answers the caller itself for an empty leg, and counts from the caller (not the tree root)', async () => {
    expect((await legBottom('1', midToken)).body.Success).toEqual({
      Username: 'l1000',
      Levels: 0,
      Head: ['l1000'],
      Skipped: 0,
      Tail: [],
    });
    expect((await legBottom('0', midToken)).body.Success).toMatchObject({
      Username: 'l3000',
      Levels: 2000,
      Head: range('l', 1000, 1004),
      Tail: range('l', 2996, 3000),
    });
  });

  it('refuses a bad side with a 400 naming it and a call without a session with a 401', async () => {
    for (const side of ['2', 'left', '', 0, null, undefined]) {
      const reply = await legBottom(side);
      expect(reply.status, String(side)).toBe(400);
      expect(JSON.stringify(reply.body), String(side)).toContain('Side');
    }
    expect((await t.post('/binary/view_leg_bottom', { side: '0' })).status).toBe(401);
  });
});

describe('binary.view_path', () => {
  it('answers the path from the caller to a member thousands of levels down, the same over tRPC', async () => {
    const reply = await pathTo('L2500', midToken);
    expect(reply.status).toBe(200);
    expect(reply.body.Success).toEqual({
      Username: 'l2500',
      Levels: 1500,
      Head: range('l', 1000, 1004),
      Skipped: 1501 - 10,
      Tail: range('l', 2496, 2500),
    });
    const rpc = await t.trpc('binary.view_path', 'query', { username: 'l2500' }, midToken);
    expect((rpc.body as { result: { data: unknown } }).result.data).toEqual(reply.body);
  });

  it('follows the zigzag off the outer edge, and lists a short path whole', async () => {
    expect((await pathTo('z0050')).body.Success).toEqual({
      Username: 'z0050',
      Levels: 51,
      Head: ['root', 'l0001', 'z0001', 'z0002', 'z0003'],
      Skipped: 52 - 10,
      Tail: range('z', 46, 50),
    });
    expect((await pathTo('z0003')).body.Success).toEqual({
      Username: 'z0003',
      Levels: 4,
      Head: ['root', 'l0001', 'z0001', 'z0002', 'z0003'],
      Skipped: 0,
      Tail: [],
    });
    // Nine levels: ten names, still whole; ten levels: split.
    expect((await pathTo('l1009', midToken)).body.Success).toMatchObject({
      Levels: 9,
      Head: range('l', 1000, 1009),
      Skipped: 0,
      Tail: [],
    });
    expect((await pathTo('l1010', midToken)).body.Success).toMatchObject({
      Levels: 10,
      Head: range('l', 1000, 1004),
      Skipped: 1,
      Tail: range('l', 1006, 1010),
    });
    expect((await pathTo('l1000', midToken)).body.Success).toEqual({
      Username: 'l1000',
      Levels: 0,
      Head: ['l1000'],
      Skipped: 0,
      Tail: [],
    });
  });

  it('gives members outside the downline (above, beside, another root) and unknown names the same 404', async () => {
    const notInDownline = { status: 404, body: { Error: 'User not found in your downline' } };
    for (const outside of ['root', 'l0999', 'z0010', 'r0001', 'o0100', 'other', 'nobody_at_all'])
      expect(await pathTo(outside, midToken), outside).toMatchObject(notInDownline);
  });

  it('refuses an empty, over-long or missing name with a 400', async () => {
    for (const username of ['', '   ', 'x'.repeat(200), undefined, 42])
      expect((await pathTo(username)).status, String(username)).toBe(400);
  });

  it('limits the calls to 300 a minute per member: the 301st answers 429, another member is unaffected', async () => {
    const flooder = await t.login('o0001');
    const other = await t.login('o0002');
    for (let i = 1; i <= 300; i++) {
      const reply = await t.post('/binary/view_path', { username: 'o0100' }, { token: flooder });
      if (reply.status !== 200) expect({ call: i, reply }).toBe('answered');
    }
    expect(await t.post('/binary/view_leg_bottom', { side: '0' }, { token: flooder })).toEqual({
      status: 200,
      body: expect.anything(),
    });
    expect(await t.post('/binary/view_path', { username: 'o0100' }, { token: flooder })).toMatchObject({
      status: 429,
      body: { Error: 'Too many requests. Please wait a minute and try again.' },
    });
    expect((await t.post('/binary/view_path', { username: 'o0100' }, { token: other })).status).toBe(200);
  });
});
