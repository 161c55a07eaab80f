/**
 * Who may look at whom (DESIGN §5 Scoping): trees and node details answer only for members in
 * the caller's own downline.
 *
 * Rule: X is in C's downline when X's ancestor at C's depth is C. That ancestor is found by
 * walking up from X with the jump pointers of binary_stats (jumps.ts): at most
 * 3·⌈log2(depth + 1)⌉ steps of three row reads by primary key each, whatever the depths, never
 * X's whole chain (26,000 levels under spillover) nor C's team.
 *
 * And every check costs the same (issue 11: the walk's length told who exists): the walk goes on
 * in place until PADDED_STEPS steps, a name nobody has walks from the caller, a member shallower
 * than the caller stays where it is. So inside, outside and unknown take the same row reads for
 * any tree up to 65,535 levels deep (deeper targets take a few more). A member whose rows are not
 * filled yet (the start-up backfill fills them) is outside.
 */
import type { Services } from '../../core/services.ts';
import { prepared } from '../ledger/sql.ts';
import { WALK_STEP_LIMIT, walkStepBound } from './jumps.ts';

type Sql = Pick<Services, 'sqlite'>;

export type Tree = 'binary' | 'sponsor';

/** Steps every check walks: enough for any target up to 65,535 levels deep. */
export const PADDED_STEPS = walkStepBound(2 ** 16 - 1);

/** Where each tree keeps its depth and jump pointer (binary_stats) and its link up (members). */
const COLUMNS = {
  binary: { depth: 'depth', jump: 'binary_jump_id', link: 'parent_id' },
  sponsor: { depth: 'sponsor_depth', jump: 'sponsor_jump_id', link: 'sponsor_id' },
} as const;

const positionSql = (tree: Tree) => `select ${COLUMNS[tree].depth} as depth from binary_stats where member_id = ? and ${COLUMNS[tree].jump} is not null`;

/**
 * One step: take the jump unless it lands above @depth, else the parent; once at @depth (or
 * above it from the start), stay, reading the same three rows. It stops after PADDED_STEPS steps
 * once arrived, or at WALK_STEP_LIMIT (only corrupt pointers get there). UNION ALL: each row is
 * a new step, nothing to dedupe.
 */
const walkSql = (tree: Tree) => {
  const { depth, jump, link } = COLUMNS[tree];
  return `with recursive walk(id, depth, jump, steps) as (
      select member_id, ${depth}, ${jump}, 0 from binary_stats where member_id = @member
      union all
      select next.member_id, next.${depth}, next.${jump}, walk.steps + 1
      from walk
      join members m on m.id = walk.id
      join binary_stats jumped on jumped.member_id = walk.jump
      join binary_stats next on next.member_id = case
        when walk.depth <= @depth then walk.id
        when jumped.${depth} >= @depth then walk.jump
        else m.${link} end
      where (walk.steps < ${PADDED_STEPS} or walk.depth > @depth) and walk.steps < ${WALK_STEP_LIMIT}
    )
    select id, depth, steps, (select ${depth} from binary_stats where member_id = @member) as start
    from walk order by steps desc limit 1`;
};

export interface DownlineAnswer {
  /** The member is the root or sits below it. */
  inside: boolean;
  /** Levels below the root when inside (0 for the root itself). */
  levels: number | null;
  /** Walk steps taken (each reads three rows by primary key): PADDED_STEPS for any tree up to 65,535 deep. */
  steps: number;
}

const OUTSIDE = { inside: false, levels: null } as const;

/**
 * Whether `memberId` is `rootId` itself or sits below it in `tree`; `memberId` undefined (a name
 * nobody has) walks from the root and answers outside, so it costs what a real member costs.
 */
export function downlineCheck(ctx: Sql, tree: Tree, rootId: number, memberId: number | undefined): DownlineAnswer {
  const root = prepared(ctx.sqlite, positionSql(tree)).get(rootId) as { depth: number | null } | undefined;
  const rootDepth = root?.depth ?? -1;
  // A root without a position (corrupt data) is outside everything; depth 0 keeps its walk short.
  const reached = prepared(ctx.sqlite, walkSql(tree)).get({ member: memberId ?? rootId, depth: Math.max(rootDepth, 0) }) as
    | { id: number; depth: number | null; steps: number; start: number }
    | undefined;
  const steps = reached?.steps ?? 0;
  if (memberId === undefined || !reached || rootDepth < 0 || reached.depth !== rootDepth || reached.id !== rootId) return { ...OUTSIDE, steps };
  return { inside: true, levels: reached.start - rootDepth, steps };
}

/** Whether `memberId` (undefined: unknown name) is `rootId` itself or sits anywhere below it in the binary tree. */
export const inBinaryTree = (ctx: Sql, rootId: number, memberId: number | undefined) => downlineCheck(ctx, 'binary', rootId, memberId).inside;

/** Whether `memberId` (undefined: unknown name) sits anywhere below `rootId` in the sponsor tree (never the root itself). */
export const inSponsorDownline = (ctx: Sql, rootId: number, memberId: number | undefined) =>
  downlineCheck(ctx, 'sponsor', rootId, memberId).inside && memberId !== rootId;

/**
 * How many sponsor levels `memberId` (undefined: unknown name) sits below `rootId` (0 for the root
 * itself); null when it is not in the downline or more than `maxLevels` below.
 */
export function sponsorLevelBelow(ctx: Sql, rootId: number, memberId: number | undefined, maxLevels: number): number | null {
  const { levels } = downlineCheck(ctx, 'sponsor', rootId, memberId);
  return levels !== null && levels <= maxLevels ? levels : null;
}
