/** The network read side: binary tree, node details, level tree, and scoping to the caller's downline. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers.ts';

let t: TestApp;
let demo: string;
beforeAll(async () => {
  t = await createTestApp({ seed: 'demo' });
  demo = await t.login('demo');
});
afterAll(() => t.close());

const sql = <T>(query: string, ...params: unknown[]) => t.services.sqlite.prepare(query).get(...params) as T;
const idOf = (username: string) =>
  sql<{ id: number }>('select id from members where username = ?', username).id;
type Node = { Username: string; CountUser: number; Downline: { Username: string; Side: string }[] };

async function register(username: string, sponsor: string, side: '0' | '1') {
  const email = `${username}@mail.test`;
  await t.post(
    '/user/verify_otp',
    { username, email, page: 'Email Verification', project: 'Pro' },
    { ip: '10.9.9.9' },
  );
  const otp = await t.latestOtp(email);
  const reply = await t.post<{ JWT: string }>(
    '/user/register',
    {
      username,
      name: username,
      sponsor,
      email,
      password: 'Start#1234',
      conpassword: 'Start#1234',
      otp,
      side,
      country: 'India',
      project: 'Pro',
    },
    { ip: '10.9.9.9' },
  );
  expect(reply.status).toBe(200);
  return reply.body.JWT;
}

describe('binary tree', () => {
  it("answers the caller's node with its children by side and its whole team size", async () => {
    const reply = await t.post<{ Success: Node }>(
      '/binary/view_binary_downline',
      { username: 'demo' },
      { token: demo },
    );
    expect(reply.status).toBe(200);
    const { Success: node } = reply.body;
    expect(node.Username).toBe('demo');
    expect(node.Downline.map((d) => d.Side)).toEqual(['0', '1']);
    const everyoneElse = sql<{ n: number }>('select count(*) as n from members').n - 1;
    expect(node.CountUser).toBe(everyoneElse);
    // The extension fields: each child's sponsor and whether it holds an active package.
    for (const entry of node.Downline as (Node['Downline'][number] & {
      Sponsor?: string;
      Status?: boolean;
    })[]) {
      const expected = sql<{ sponsor: string; active: number }>(
        `select s.username as sponsor, exists (select 1 from subscriptions x where x.member_id = m.id and x.status = 'ACTIVE') as active
         from members m join members s on s.id = m.sponsor_id where m.username = ?`,
        entry.Username,
      );
      expect(entry).toMatchObject({ Sponsor: expected.sponsor, Status: Boolean(expected.active) });
    }
    const child = node.Downline[0]!.Username;
    const childNode = (
      await t.post<{ Success: Node }>(
        '/binary/view_binary_downline',
        { username: child.toUpperCase() },
        { token: demo },
      )
    ).body.Success;
    const below = sql<{ n: number }>(
      `with recursive sub(id) as (select id from members where parent_id = ? union all select m.id from members m join sub on m.parent_id = sub.id) select count(*) as n from sub`,
      idOf(child),
    ).n;
    expect(childNode.CountUser).toBe(below);
  });

  it('keeps team sizes right as members join', async () => {
    const before = (
      await t.post<{ Success: Node }>('/binary/view_binary_downline', { username: 'demo' }, { token: demo })
    ).body.Success.CountUser;
    await register('treejoiner', 'demo', '0');
    const after = (
      await t.post<{ Success: Node }>('/binary/view_binary_downline', { username: 'demo' }, { token: demo })
    ).body.Success.CountUser;
    expect(after).toBe(before + 1);
    // The newcomer sits at the outer end of demo's left leg: a leaf with no team.
    const leaf = (
      await t.post<{ Success: Node }>(
        '/binary/view_binary_downline',
        { username: 'treejoiner' },
        { token: demo },
      )
    ).body.Success;
    expect(leaf).toEqual({ Username: 'treejoiner', CountUser: 0, Downline: [] });
  });

  it('gives node details that agree with the wallets and subscriptions', async () => {
    const reply = await t.post<{ Success: Record<string, unknown> }>(
      '/binary/view_binary_downline_details',
      { username: 'demo' },
      { token: demo },
    );
    expect(reply.status).toBe(200);
    const details = reply.body.Success;
    const wallets = (
      await t.post<{ Success: Record<string, { Total: number }> }>(
        '/wallet/view_all_wallets_details',
        {},
        { token: demo },
      )
    ).body.Success;
    // Direct only ever receives direct income, and the reward wallets only incomes.
    expect(details.Direct_Bouns).toBeCloseTo(wallets.Direct!.Total, 6);
    const incomes = ['Direct', 'Level', 'Binary', 'ROI', 'Rank'].reduce(
      (sum, w) => sum + wallets[w]!.Total,
      0,
    );
    expect(details.Earnings).toBeCloseTo(incomes, 6);
    expect(details).toMatchObject({ Status: true, Sponsor: null, Side: null });
    expect(details.Total_User_Subscription_Plan).toMatchObject({
      Platinum: { Active: true },
      Silver: { Active: true },
    });
    expect((details.Current_Binary as number[]).length).toBe(2);

    const child = sql<{ username: string; sponsor: string; side: string }>(
      'select m.username, s.username as sponsor, m.side from members m join members s on s.id = m.sponsor_id where m.parent_id = ? order by m.side limit 1',
      idOf('demo'),
    );
    const childDetails = (
      await t.post<{ Success: Record<string, unknown> }>(
        '/binary/view_binary_downline_details',
        { username: child.username },
        { token: demo },
      )
    ).body.Success;
    expect(childDetails).toMatchObject({ Sponsor: child.sponsor, Side: child.side });
  });
});

describe('level tree', () => {
  it("answers the caller's directs with their own direct counts", async () => {
    const reply = await t.post<{
      Success: { Username: string; CountUser: number; Downline: { Username: string; Count: number }[] };
    }>('/level/view_downline', { username: 'demo' }, { token: demo });
    expect(reply.status).toBe(200);
    const directs = t.services.sqlite
      .prepare(
        'select username, (select count(*) from members d where d.sponsor_id = m.id) as n from members m where sponsor_id = ?',
      )
      .all(idOf('demo')) as { username: string; n: number }[];
    expect(reply.body.Success.CountUser).toBe(directs.length);
    expect(new Map(reply.body.Success.Downline.map((d) => [d.Username, d.Count]))).toEqual(
      new Map(directs.map((d) => [d.username, d.n])),
    );
  });

  it('opens members down to level 4 and refuses level 5 and deeper', async () => {
    const atLevel = (level: number) =>
      sql<{ username: string } | undefined>(
        `with recursive down(id, level) as (select id, 0 from members where username = 'demo'
           union all select m.id, down.level + 1 from members m join down on m.sponsor_id = down.id where down.level < ?)
         select m.username from down join members m on m.id = down.id where down.level = ? limit 1`,
        level,
        level,
      );
    const four = atLevel(4);
    const five = atLevel(5);
    expect(four && five).toBeTruthy();
    expect((await t.post('/level/view_downline', { username: four!.username }, { token: demo })).status).toBe(
      200,
    );
    const refused = await t.post<{ Error: string }>(
      '/level/view_downline',
      { username: five!.username },
      { token: demo },
    );
    expect(refused.status).toBe(404);
    expect(refused.body).toMatchObject({ Error: 'User not found in your downline' });
  });
});

describe('scoping', () => {
  it('answers an Error that reveals nothing for members outside the downline, and for unknown names', async () => {
    const leftChild = (
      await t.post<{ Success: Node }>('/binary/view_binary_downline', { username: 'demo' }, { token: demo })
    ).body.Success.Downline[0]!.Username;
    const own = await t.login(leftChild);
    for (const path of [
      '/binary/view_binary_downline',
      '/binary/view_binary_downline_details',
      '/level/view_downline',
    ]) {
      for (const username of ['demo', 'nosuchmember']) {
        const reply = await t.post(path, { username }, { token: own });
        expect(reply.status, `${path} ${username}`).toBe(404);
        expect(reply.body, `${path} ${username}`).toMatchObject({ Error: 'User not found in your downline' });
      }
    }
    // The right leg is outside the left child's binary subtree.
    const rightChild = (
      await t.post<{ Success: Node }>('/binary/view_binary_downline', { username: 'demo' }, { token: demo })
    ).body.Success.Downline[1]!.Username;
    expect(
      (await t.post('/binary/view_binary_downline', { username: rightChild }, { token: own })).status,
    ).toBe(404);
    expect(
      (await t.post('/binary/view_binary_downline', { username: leftChild }, { token: own })).status,
    ).toBe(200);
  });

  it('needs a token', async () => {
    const reply = await t.post('/binary/view_binary_downline', { username: 'demo' });
    expect(reply.status).toBe(401);
  });
});
