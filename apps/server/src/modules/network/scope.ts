/**
 * Who may look at whom (DESIGN §5 Scoping): trees and node details answer only for members in
 * the caller's own downline. Both checks walk UP from the member asked about, so they cost the
 * member's depth, never the size of the caller's team.
 */
import type { Services } from '../../core/services.ts';

type Sql = Pick<Services, 'sqlite'>;

/**
 * Whether `rootId` is reached walking up from `memberId` along `link` (never counting the member
 * itself). UNION ALL: the links form trees, so no row repeats and the walk needs no dedupe set.
 */
function hasAncestor(ctx: Sql, link: 'parent_id' | 'sponsor_id', rootId: number, memberId: number): boolean {
  const row = ctx.sqlite
    .prepare<{ root: number; member: number }, { found: number }>(
      `with recursive up(id) as (
         select ${link} from members where id = @member
         union all
         select m.${link} from members m join up on m.id = up.id where up.id <> @root
       )
       select 1 as found from up where id = @root limit 1`,
    )
    .get({ root: rootId, member: memberId });
  return Boolean(row);
}

/** Whether `memberId` is `rootId` itself or sits anywhere below it in the binary tree. */
export const inBinaryTree = (ctx: Sql, rootId: number, memberId: number) =>
  rootId === memberId || hasAncestor(ctx, 'parent_id', rootId, memberId);

/** Whether `memberId` sits anywhere below `rootId` in the sponsor tree (never the root itself). */
export const inSponsorDownline = (ctx: Sql, rootId: number, memberId: number) =>
  rootId !== memberId && hasAncestor(ctx, 'sponsor_id', rootId, memberId);

/**
 * How many sponsor levels `memberId` sits below `rootId` (0 for the root itself), looking at most
 * `maxLevels` levels up; null when it is not within them.
 */
export function sponsorLevelBelow(ctx: Sql, rootId: number, memberId: number, maxLevels: number): number | null {
  if (rootId === memberId) return 0;
  const row = ctx.sqlite
    .prepare<{ root: number; member: number; max: number }, { level: number }>(
      `with recursive up(id, level) as (
         select sponsor_id, 1 from members where id = @member
         union all
         select m.sponsor_id, up.level + 1 from members m join up on m.id = up.id
         where up.id <> @root and up.level < @max
       )
       select level from up where id = @root limit 1`,
    )
    .get({ root: rootId, member: memberId, max: maxLevels });
  return row?.level ?? null;
}
