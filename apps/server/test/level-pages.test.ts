/** The level tree a page at a time: the `downline_pages` extension over the same directs, scoping and limits as level.view_downline. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEVEL_PAGE_SIZE } from '@md/shared';
import { RATE_RULES } from '../src/transport/rate-limit.ts';
import { createTestApp, type TestApp } from './helpers.ts';

let t: TestApp;
let demo: string;
beforeAll(async () => {
  t = await createTestApp({ seed: 'demo' });
  demo = await t.login('demo');
});
afterAll(() => t.close());

type Directs = { Username: string; CountUser: number; Downline: { Username: string; Count: number }[] };
type Page = Directs & { Page: number; Per_Page: number };
const sql = <T>(query: string, ...params: unknown[]) => t.services.sqlite.prepare(query).get(...params) as T;
const memberCount = () => sql<{ n: number }>('select count(*) as n from members').n;

describe('level.view_downline_page', () => {
  it('is advertised in /config.json as the downline_pages capability and limited like view_downline', async () => {
    const config = await t.get<{ capabilities: string[] }>('/config.json');
    expect(config.body.capabilities).toContain('downline_pages');
    expect(RATE_RULES['level.view_downline_page']).toEqual(RATE_RULES['level.view_downline']);
  });

  it('answers the same directs as view_downline, in the same order, a page at a time, with the total on every page', async () => {
    const whole = (
      await t.post<{ Success: Directs }>('/level/view_downline', { username: 'demo' }, { token: demo })
    ).body.Success;
    expect(whole.CountUser).toBeGreaterThan(5);
    const pages = Math.ceil(whole.CountUser / 5);
    const seen: Directs['Downline'] = [];
    for (let page = 1; page <= pages + 1; page++) {
      const reply = await t.post<{ Success: Page }>(
        '/level/view_downline_page',
        { username: 'demo', page, per_page: 5 },
        { token: demo },
      );
      expect(reply.status).toBe(200);
      expect(reply.body.Success).toMatchObject({
        Username: 'demo',
        CountUser: whole.CountUser,
        Page: page,
        Per_Page: 5,
      });
      expect(reply.body.Success.Downline.length).toBe(
        page <= pages ? Math.min(5, whole.CountUser - (page - 1) * 5) : 0,
      );
      seen.push(...reply.body.Success.Downline);
    }
    expect(seen).toEqual(whole.Downline);

    // Without per_page: LEVEL_PAGE_SIZE; over tRPC the same answer.
    const first = await t.post<{ Success: Page }>(
      '/level/view_downline_page',
      { username: 'demo', page: 1 },
      { token: demo },
    );
    expect(first.body.Success.Per_Page).toBe(LEVEL_PAGE_SIZE);
    expect(first.body.Success.Downline).toEqual(whole.Downline.slice(0, LEVEL_PAGE_SIZE));
    const rpc = await t.trpc('level.view_downline_page', 'query', { username: 'demo', page: 1 }, demo);
    expect((rpc.body as { result: { data: unknown } }).result.data).toEqual(first.body);
    // A far page past the end is empty, not an error.
    expect(
      (
        await t.post<{ Success: Page }>(
          '/level/view_downline_page',
          { username: 'demo', page: 1_000_000_000 },
          { token: demo },
        )
      ).body.Success,
    ).toMatchObject({ CountUser: whole.CountUser, Downline: [] });
  });

  it('opens the same members as view_downline: the caller, and down to level 4; refuses level 5, outsiders and unknown names alike', async () => {
    const atLevel = (level: number) =>
      sql<{ username: string }>(
        `with recursive down(id, level) as (select id, 0 from members where username = 'demo'
           union all select m.id, down.level + 1 from members m join down on m.sponsor_id = down.id where down.level < ?)
         select m.username from down join members m on m.id = down.id where down.level = ? limit 1`,
        level,
        level,
      ).username;
    const four = atLevel(4);
    const five = atLevel(5);
    const direct = sql<{ username: string }>(
      "select username from members where sponsor_id = (select id from members where username = 'demo') and not totp_enabled limit 1",
    ).username;
    for (const [username, token, status] of [
      [four, demo, 200],
      [five, demo, 404],
      ['nosuchmember', demo, 404],
      // A direct of demo cannot open demo (above it) or demo's other directs.
      ['demo', await t.login(direct), 404],
    ] as const) {
      const paged = await t.post('/level/view_downline_page', { username, page: 1 }, { token });
      const whole = await t.post('/level/view_downline', { username }, { token });
      expect(paged.status, username).toBe(status);
      expect(whole.status, username).toBe(status);
      if (status === 404) expect(paged.body).toMatchObject({ Error: 'User not found in your downline' });
    }
    expect((await t.post('/level/view_downline_page', { username: 'demo', page: 1 })).status).toBe(401);
  });

  it('refuses bad paging input with a 400 naming the field, and changes nothing', async () => {
    const before = memberCount();
    const cases: [Record<string, unknown>, string][] = [
      [{ username: 'demo' }, 'page must be a number'],
      [{ username: 'demo', page: 0 }, 'page must be at least 1'],
      [{ username: 'demo', page: -3 }, 'page must be at least 1'],
      [{ username: 'demo', page: 1.5 }, 'page must be a whole number'],
      [{ username: 'demo', page: '2' }, 'page must be a number'],
      [{ username: 'demo', page: 1, per_page: 0 }, 'per_page must be at least 1'],
      [{ username: 'demo', page: 1, per_page: 101 }, 'per_page must be at most 100'],
      [{ username: 'demo', page: 1, per_page: 'all' }, 'per_page must be a number'],
      [{ page: 1 }, 'Username is required'],
    ];
    for (const [body, message] of cases) {
      const reply = await t.post<{ Error: string }>('/level/view_downline_page', body, { token: demo });
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(reply.body.Error, JSON.stringify(body)).toBe(message);
    }
    expect(memberCount()).toBe(before);
  });
});
