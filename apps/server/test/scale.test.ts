/** The `scale` scenario: deterministic, registration's placement rule, consistent depths and team sizes. */
import { describe, expect, it } from 'vitest';
import { seedScenario } from '../src/seed/index.ts';
import { createTestApp } from './helpers.ts';

const MEMBERS = 3_000;

async function scaled() {
  const t = await createTestApp({ seed: 'empty' });
  const summary = seedScenario(t.services, 'scale', { members: MEMBERS });
  return { t, summary };
}

describe('scale scenario', () => {
  it('places every member at the outer end of its sponsor’s chosen leg, with depths and team sizes that agree', async () => {
    const { t, summary } = await scaled();
    const db = t.services.sqlite;
    expect(summary.members).toBe(MEMBERS);
    expect((db.prepare('select count(*) as n from members').get() as { n: number }).n).toBe(MEMBERS);
    expect(summary.scale!.maxDepth).toBeGreaterThan(50); // spillover makes it deep

    // Each member lies on its sponsor's chain of same-side children (so it was at the outer end when placed).
    const sample = db.prepare('select id, sponsor_id, side from members where id > 1 and id % 37 = 0').all() as { id: number; sponsor_id: number; side: string }[];
    const onChain = db.prepare(
      `with recursive leg(id) as (select @sponsor union all select m.id from members m join leg on m.parent_id = leg.id and m.side = @side)
       select 1 as found from leg where id = @member`,
    );
    for (const m of sample) expect(onChain.get({ sponsor: m.sponsor_id, side: m.side, member: m.id }), `member ${m.id}`).toBeDefined();

    const badDepths = db
      .prepare('select count(*) as n from members m join binary_stats s on s.member_id = m.id join binary_stats p on p.member_id = m.parent_id where s.depth <> p.depth + 1')
      .get() as { n: number };
    expect(badDepths.n).toBe(0);
    const root = db.prepare('select team_size from binary_stats where member_id = 1').get() as { team_size: number };
    expect(root.team_size).toBe(MEMBERS - 1);
    // team_size = children's team sizes + number of children, everywhere.
    const badTeams = db
      .prepare(
        `select count(*) as n from binary_stats s where s.team_size <> coalesce((
           select sum(c.team_size + 1) from members m join binary_stats c on c.member_id = m.id where m.parent_id = s.member_id), 0)`,
      )
      .get() as { n: number };
    expect(badTeams.n).toBe(0);
    await t.close();
  });

  it('is the same every time, and its root can sign in', async () => {
    const first = await scaled();
    const second = await scaled();
    const shape = (s: typeof first) => JSON.stringify(s.t.services.sqlite.prepare('select id, sponsor_id, parent_id, side from members order by id').all());
    expect(shape(first)).toBe(shape(second));
    const token = await first.t.login('demo');
    const tree = await first.t.post<{ Success: { CountUser: number } }>('/binary/view_binary_downline', { username: 'demo' }, { token });
    expect(tree.body.Success.CountUser).toBe(MEMBERS - 1);
    await first.t.close();
    await second.t.close();
  });
});
