/**
 * Who may look at whom (DESIGN §5 Scoping): trees and node details answer only for members in
 * the caller's own downline, P2P reaches only the sponsor downline.
 *
 * Rule: X is in C's downline when X's ancestor at C's depth is C. That ancestor is found by
 * walking up from X with the jump pointers of binary_stats (jumps.ts): at most
 * 3·⌈log2(depth + 1)⌉ steps of three row reads by primary key each, whatever the depths, never
 * X's whole chain (26,000 levels under spillover) nor C's team.
 *
 * And a check costs the same whoever is named (otherwise the walk's length would tell who exists):
 * - the name is looked up in the username index alone (`select id`: no member row read), found
 *   or not;
 * - the walk goes on in place until PADDED_STEPS steps, so any target up to 65,535 levels deep,
 *   shallower than the caller or not, takes the same number of row reads;
 * - a name nobody has walks from a stand-in member picked by the name's hash (the same one every
 *   time, as a real name's walk is), so it reads rows spread like a real member's.
 * A member whose rows are not filled yet (the start-up backfill fills them) is outside.
 */
import type { Services } from '../../core/services.ts';
import { prepared } from '../ledger/sql.ts';
import { WALK_STEP_LIMIT, walkStepBound } from './jumps.ts';

type Sql = Pick<Services, 'sqlite'>;

/** The one answer for a member outside the caller's downline or unknown, on every tree call. */
export const NETWORK_MESSAGES = {
  notInDownline: 'User not found in your downline',
} as const;

export type Tree = 'binary' | 'sponsor';

/** Steps every check walks: enough for any target up to 65,535 levels deep. */
export const PADDED_STEPS = walkStepBound(2 ** 16 - 1);

/** Where each tree keeps its depth and jump pointer (binary_stats) and its link up (members). */
const COLUMNS = {
  binary: { depth: 'depth', jump: 'binary_jump_id', link: 'parent_id' },
  sponsor: { depth: 'sponsor_depth', jump: 'sponsor_jump_id', link: 'sponsor_id' },
} as const;

const positionSql = (tree: Tree) =>
  `select ${COLUMNS[tree].depth} as depth from binary_stats where member_id = ? and ${COLUMNS[tree].jump} is not null`;

/**
 * The target (@member, or the member named @name) and the stand-in (the first member from
 * @pick modulo the highest id), both always looked up; then the walk from the target, or from the
 * stand-in when there is none. One step: take the jump unless it lands above @depth, else the
 * parent; once at @depth (or above it from the start), stay, reading the same three rows. It
 * stops after PADDED_STEPS steps once arrived, or at WALK_STEP_LIMIT (only corrupt pointers get
 * there). UNION ALL: each row is a new step, nothing to dedupe.
 */
const walkSql = (tree: Tree) => {
  const { depth, jump, link } = COLUMNS[tree];
  return `with recursive
    target(member, standin) as (
      select coalesce(@member, (select id from members where username = @name)),
        (select member_id from binary_stats where member_id > @pick % (select max(member_id) from binary_stats) order by member_id limit 1)
    ),
    walk(id, depth, jump, steps) as (
      select member_id, ${depth}, ${jump}, 0 from binary_stats where member_id = (select coalesce(member, standin) from target)
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
    select (select member from target) as member, walk.id, walk.depth, walk.steps,
      (select ${depth} from binary_stats where member_id = (select member from target)) as start
    from walk order by walk.steps desc limit 1`;
};

/** FNV-1a: a name's stand-in, the same for every lookup of it. */
function nameHash(name: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) hash = Math.imul(hash ^ name.charCodeAt(i), 0x01000193) >>> 0;
  return hash;
}

export interface DownlineAnswer {
  /** The member named, when one is (inside or not). */
  memberId: number | null;
  /** The member is the root or sits below it. */
  inside: boolean;
  /** Levels below the root when inside (0 for the root itself). */
  levels: number | null;
  /** Walk steps taken (each reads three rows by primary key): PADDED_STEPS for any tree up to 65,535 deep. */
  steps: number;
}

/** Whether the member `target` names (by id, or by username as a client sends it) is `rootId` itself or sits below it in `tree`. */
export function downlineCheck(
  ctx: Sql,
  tree: Tree,
  rootId: number,
  target: { id: number } | { username: string },
): DownlineAnswer {
  const root = prepared(ctx.sqlite, positionSql(tree)).get(rootId) as { depth: number | null } | undefined;
  const rootDepth = root?.depth ?? -1;
  const byName = 'username' in target ? target.username.toLowerCase() : null;
  // A root without a position (corrupt data) is outside everything; depth 0 keeps its walk short.
  const reached = prepared(ctx.sqlite, walkSql(tree)).get({
    member: byName === null ? (target as { id: number }).id : null,
    name: byName,
    pick: byName === null ? 0 : nameHash(byName),
    depth: Math.max(rootDepth, 0),
  }) as { member: number | null; id: number; depth: number | null; steps: number; start: number } | undefined;
  const memberId = reached?.member ?? null;
  const steps = reached?.steps ?? 0;
  if (memberId === null || rootDepth < 0 || reached!.depth !== rootDepth || reached!.id !== rootId)
    return { memberId, inside: false, levels: null, steps };
  return { memberId, inside: true, levels: reached!.start - rootDepth, steps };
}

/** Levels `username` sits below `rootId` in the sponsor tree (0: the root itself) and its id, or null outside it or unknown. */
export function sponsorLevelOf(
  ctx: Sql,
  rootId: number,
  username: string,
): { memberId: number; levels: number } | null {
  const { memberId, levels } = downlineCheck(ctx, 'sponsor', rootId, { username });
  return levels === null ? null : { memberId: memberId!, levels };
}
