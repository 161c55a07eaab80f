/**
 * Extension `binary_paths` (issue 15): paths in the binary tree from the caller, for a tree view
 * that copes with spillover legs 26,378 levels deep. The bottom of a leg is the member a new
 * registration of the caller on that side is placed under (placement.ts follows the same side
 * from the sponsor); a search by name opens the member with the path from the caller.
 *
 * Each answer is one recursive statement over indexed links (down: members_parent_side, up: the
 * primary key), never a query per level, and holds only the path's first and last
 * BINARY_PATH_ENDS names with the count between: a 26k-member path is a few names on the wire.
 * A name outside the caller's downline and an unknown one get the same 404 after the same scope
 * walk (scope.ts), as on the other tree reads.
 */
import { BINARY_PATH_ENDS, type OutputOf } from '@md/shared';
import { notFound } from '../../core/errors.ts';
import type { Handlers } from '../../transport/handlers.ts';
import { prepared } from '../ledger/sql.ts';
import { downlineCheck, NETWORK_MESSAGES } from './scope.ts';

type BinaryPath = OutputOf<'binary.view_path'>['Success'];

/** Steps (levels from the caller) kept: the first and last BINARY_PATH_ENDS of a path `levels` long. */
const KEEP = `(step < @ends or step > @levels - @ends)`;

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

/** Up the parent links from a member `@levels` below the caller (known from the scope check), keeping both ends. */
const UP_SQL = `with recursive up(id, step) as (
    select @member, @levels
    union all
    select m.parent_id, up.step - 1 from members m join up on m.id = up.id where up.step > 0
  )
  select m.username, up.step from up join members m on m.id = up.id
  where ${KEEP.replaceAll('step', 'up.step')}
  order by up.step`;

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
    const rows = prepared(ctx.sqlite, LEG_SQL).all({ root: ctx.member.id, side: input.side, ends: BINARY_PATH_ENDS }) as { username: string; step: number; levels: number }[];
    return { Success: pathAnswer(rows.map((row) => row.username), rows[0]?.levels ?? 0) };
  },

  'binary.view_path': (ctx, input) => {
    const { inside, memberId, levels } = downlineCheck(ctx, 'binary', ctx.member.id, { username: input.username });
    if (!inside || memberId === null || levels === null) throw notFound(NETWORK_MESSAGES.notInDownline);
    const rows = prepared(ctx.sqlite, UP_SQL).all({ member: memberId, levels, ends: BINARY_PATH_ENDS }) as { username: string; step: number }[];
    return { Success: pathAnswer(rows.map((row) => row.username), levels) };
  },
};
