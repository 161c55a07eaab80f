/**
 * Extension `binary_paths`: paths in the binary tree from the caller, for a tree view
 * that copes with spillover legs 26,378 levels deep. The bottom of a leg is the member a new
 * registration of the caller on that side is placed under (placement.ts follows the same side
 * from the sponsor); a search by name opens the member with the path from the caller.
 *
 * A leg's bottom is one recursive statement down its outer edge (members_parent_side), never a
 * query per level; a path by name walks up the jump pointers to the few names below the caller
 * and the parent links for the few above the member, never the chain between. Answers hold only
 * the path's first and last BINARY_PATH_ENDS names with the count between: a 26k-member path is a
 * few names on the wire.
 * A name outside the caller's downline and an unknown one get the same 404 after the same scope
 * walk (scope.ts), as on the other tree reads.
 */
import { BINARY_PATH_ENDS, type OutputOf } from '@md/shared';
import { notFound } from '../../core/errors.ts';
import type { AuthedCtx } from '../../core/services.ts';
import type { Handlers } from '../../transport/handlers.ts';
import { prepared } from '../ledger/sql.ts';
import { WALK_STEP_LIMIT } from './jumps.ts';
import { downlineCheck, NETWORK_MESSAGES } from './scope.ts';

type BinaryPath = OutputOf<'binary.view_path'>['Success'];

/**
 * Down the `side` child from the caller to the end of that leg, keeping both ends of the path.
 * The window gives the bottom's level without a second walk.
 */
const LEG_SQL = `with recursive leg(id, step) as (
    select @root, 0
    union all
    select m.id, leg.step + 1 from members m join leg on m.parent_id = leg.id and m.side = @side
  ),
  measured as (select id, step, max(step) over () as levels from leg)
  select m.username, measured.step, measured.levels from measured join members m on m.id = measured.id
  where measured.step < @ends or measured.step > measured.levels - @ends
  order by measured.step`;

/** `@steps` parent links up from `@member`: the names from the highest reached down to the member. */
const UP_SQL = `with recursive up(id, step) as (
    select @member, 0
    union all
    select m.parent_id, up.step + 1 from members m join up on m.id = up.id where up.step < @steps and m.parent_id is not null
  )
  select m.username from up join members m on m.id = up.id order by up.step desc`;

/**
 * The ancestor of `@member` at binary depth `@depth`, by the jump pointers (jumps.ts): take the
 * jump unless it lands above @depth, else the parent; at most 3·⌈log2(depth + 1)⌉ steps, so the
 * head of a 26,000-level path costs a few dozen row reads instead of the whole chain.
 */
const ANCESTOR_SQL = `with recursive walk(id, depth, jump, steps) as (
    select member_id, depth, binary_jump_id, 0 from binary_stats where member_id = @member
    union all
    select next.member_id, next.depth, next.binary_jump_id, walk.steps + 1
    from walk
    join members m on m.id = walk.id
    join binary_stats jumped on jumped.member_id = walk.jump
    join binary_stats next on next.member_id = case when jumped.depth >= @depth then walk.jump else m.parent_id end
    where walk.depth > @depth and walk.steps < ${WALK_STEP_LIMIT}
  )
  select id from walk where depth = @depth limit 1`;

const upNames = (ctx: AuthedCtx, member: number, steps: number) =>
  (prepared(ctx.sqlite, UP_SQL).all({ member, steps }) as { username: string }[]).map((row) => row.username);

/**
 * The path from the caller to `memberId`, `levels` below it: a short one whole; a long one as the
 * BINARY_PATH_ENDS names below the caller (up from their last, found by the jump pointers) and the
 * BINARY_PATH_ENDS above the member, never the chain between.
 */
function pathDown(ctx: AuthedCtx, memberId: number, levels: number): BinaryPath {
  if (levels + 1 <= 2 * BINARY_PATH_ENDS) return pathAnswer(upNames(ctx, memberId, levels), levels);
  const callerDepth = (
    prepared(ctx.sqlite, 'select depth from binary_stats where member_id = ?').get(ctx.member.id) as {
      depth: number;
    }
  ).depth;
  const headEnd = prepared(ctx.sqlite, ANCESTOR_SQL).get({
    member: memberId,
    depth: callerDepth + BINARY_PATH_ENDS - 1,
  }) as { id: number } | undefined;
  // Only corrupt pointers miss it (the scope check walked them): then the chain itself.
  if (!headEnd) return pathAnswer(upNames(ctx, memberId, levels), levels);
  return pathAnswer(
    [...upNames(ctx, headEnd.id, BINARY_PATH_ENDS - 1), ...upNames(ctx, memberId, BINARY_PATH_ENDS - 1)],
    levels,
  );
}

/** The answer from the kept names, in path order (the caller first). */
function pathAnswer(names: string[], levels: number): BinaryPath {
  const whole = names.length === levels + 1;
  return {
    Username: names[names.length - 1]!,
    Levels: levels,
    Head: whole ? names : names.slice(0, BINARY_PATH_ENDS),
    Skipped: whole ? 0 : levels + 1 - names.length,
    Tail: whole ? [] : names.slice(BINARY_PATH_ENDS),
  };
}

export const pathHandlers: Handlers = {
  'binary.view_leg_bottom': (ctx, input) => {
    const rows = prepared(ctx.sqlite, LEG_SQL).all({
      root: ctx.member.id,
      side: input.side,
      ends: BINARY_PATH_ENDS,
    }) as { username: string; step: number; levels: number }[];
    return {
      Success: pathAnswer(
        rows.map((row) => row.username),
        rows[0]?.levels ?? 0,
      ),
    };
  },

  'binary.view_path': (ctx, input) => {
    const { inside, memberId, levels } = downlineCheck(ctx, 'binary', ctx.member.id, {
      username: input.username,
    });
    if (!inside || memberId === null || levels === null) throw notFound(NETWORK_MESSAGES.notInDownline);
    return { Success: pathDown(ctx, memberId, levels) };
  },
};
