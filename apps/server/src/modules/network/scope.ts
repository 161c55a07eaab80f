/**
 * Who may look at whom (DESIGN §5 Scoping): trees and node details answer only for members in
 * the caller's own downline.
 *
 * Rule: X is in C's downline when X's ancestor at C's depth is C. That ancestor is found by
 * walking up from X with the jump pointers of binary_stats (jumps.ts), so a check costs at most
 * 3·⌈log2(depth + 1)⌉ steps of three indexed row reads each, whatever the depths: never X's
 * whole chain (26,000 levels under spillover), never the size of C's team. A member shallower
 * than C is outside at once; one whose rows are not filled yet (the start-up backfill fills
 * them) is outside too. So an outside member costs about what an unknown name costs, and the
 * timing no longer tells who exists (issue 11).
 */
import type { Services } from '../../core/services.ts';
import { prepared } from '../ledger/sql.ts';
import { WALK_STEP_LIMIT } from './jumps.ts';

type Sql = Pick<Services, 'sqlite'>;

export type Tree = 'binary' | 'sponsor';

/** Where each tree keeps its depth and jump pointer (binary_stats) and its link up (members). */
const COLUMNS = {
  binary: { depth: 'depth', jump: 'binary_jump_id', link: 'parent_id' },
  sponsor: { depth: 'sponsor_depth', jump: 'sponsor_jump_id', link: 'sponsor_id' },
} as const;

const positionSql = (tree: Tree) => `select ${COLUMNS[tree].depth} as depth from binary_stats where member_id = ? and ${COLUMNS[tree].jump} is not null`;

/**
 * One step: take the jump unless it lands above @depth, else the parent. UNION ALL needs no
 * dedupe (the depth falls at every step); the step limit only matters on corrupt pointers.
 */
const walkSql = (tree: Tree) => {
  const { depth, jump, link } = COLUMNS[tree];
  return `with recursive walk(id, depth, jump, steps) as (
      select member_id, ${depth}, ${jump}, 0 from binary_stats where member_id = @member
      union all
      select next.member_id, next.${depth}, next.${jump}, walk.steps + 1
      from walk
      join binary_stats jumped on jumped.member_id = walk.jump
      join binary_stats next on next.member_id = iif(jumped.${depth} >= @depth, walk.jump, (select ${link} from members where id = walk.id))
      where walk.depth > @depth and walk.steps < ${WALK_STEP_LIMIT}
    )
    select id, depth, steps from walk order by steps desc limit 1`;
};

export interface DownlineAnswer {
  /** `memberId` is `rootId` or sits below it. */
  inside: boolean;
  /** Walk steps taken (each reads at most three rows by primary key): the tests hold it to the bound. */
  steps: number;
}

/** Whether `memberId` is `rootId` itself or sits below it in `tree`, and what finding out cost. */
export function downlineCheck(ctx: Sql, tree: Tree, rootId: number, memberId: number): DownlineAnswer {
  const root = prepared(ctx.sqlite, positionSql(tree)).get(rootId) as { depth: number | null } | undefined;
  if (!root || root.depth === null || root.depth < 0) return { inside: false, steps: 0 };
  const reached = prepared(ctx.sqlite, walkSql(tree)).get({ member: memberId, depth: root.depth }) as
    | { id: number; depth: number | null; steps: number }
    | undefined;
  if (!reached) return { inside: false, steps: 0 };
  return { inside: reached.depth === root.depth && reached.id === rootId, steps: reached.steps };
}

/** Whether `memberId` is `rootId` itself or sits anywhere below it in the binary tree. */
export const inBinaryTree = (ctx: Sql, rootId: number, memberId: number) =>
  rootId === memberId || downlineCheck(ctx, 'binary', rootId, memberId).inside;

/** Whether `memberId` sits anywhere below `rootId` in the sponsor tree (never the root itself). */
export const inSponsorDownline = (ctx: Sql, rootId: number, memberId: number) =>
  rootId !== memberId && downlineCheck(ctx, 'sponsor', rootId, memberId).inside;

/**
 * How many sponsor levels `memberId` sits below `rootId` (0 for the root itself), looking at most
 * `maxLevels` levels up; null when it is not within them. Bounded by `maxLevels` already.
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
