/**
 * Binary placement: a new member goes under the outer end of the chosen leg of its sponsor
 * (follow the child on that side from the sponsor until there is none). Trees get thousands
 * deep under spillover, so the walk is one recursive query over (parent_id, side), not a loop
 * of queries.
 */
import type Database from 'better-sqlite3';
import { perDatabase } from '../../core/prepared.ts';
import { childJump } from './jumps.ts';

export type Side = '0' | '1';

const outerEndStatement = perDatabase((sqlite: Database.Database) =>
  sqlite.prepare<[{ sponsorId: number; side: Side }], { id: number }>(
    `with recursive leg(id, depth) as (
       select @sponsorId, 0
       union all
       select m.id, leg.depth + 1 from members m join leg on m.parent_id = leg.id and m.side = @side
     )
     select id from leg order by depth desc limit 1`,
  ),
);

/** The binary parent a new member of `sponsorId` on `side` is placed under. */
export function findPlacement(
  sqlite: Database.Database,
  sponsorId: number,
  side: Side,
): { parentId: number; side: Side } {
  const row = outerEndStatement(sqlite).get({ sponsorId, side });
  return { parentId: row?.id ?? sponsorId, side };
}

/** A member's place in one tree: levels below its root (-1: not known yet) and its jump pointer. */
interface Position {
  depth: number;
  jump: number | null;
}

interface StatsStatements {
  sponsorOf: Database.Statement<[number], { sponsorId: number | null }>;
  binaryPosition: Database.Statement<[number], { depth: number; jump: number | null }>;
  sponsorPosition: Database.Statement<[number], { depth: number | null; jump: number | null }>;
  insert: Database.Statement<[number, number, number | null, number | null, number | null]>;
  growAncestors: Database.Statement<[{ parentId: number; by: number }]>;
  growOne: Database.Statement<[number, number]>;
}
const statsStatementsOf = perDatabase((sqlite: Database.Database): StatsStatements => ({
  sponsorOf: sqlite.prepare('select sponsor_id as sponsorId from members where id = ?'),
  binaryPosition: sqlite.prepare(
    'select depth, binary_jump_id as jump from binary_stats where member_id = ?',
  ),
  sponsorPosition: sqlite.prepare(
    'select sponsor_depth as depth, sponsor_jump_id as jump from binary_stats where member_id = ?',
  ),
  insert: sqlite.prepare(
    'insert into binary_stats (member_id, depth, binary_jump_id, sponsor_depth, sponsor_jump_id) values (?, ?, ?, ?, ?)',
  ),
  // One statement for the whole ancestor chain (thousands deep under spillover): the walk
  // follows parent pointers in SQLite instead of a query per level.
  growAncestors: sqlite.prepare(
    `with recursive up(id) as (
       select @parentId
       union all
       select m.parent_id from members m join up on m.id = up.id where m.parent_id is not null
     )
     update binary_stats set team_size = team_size + @by where member_id in (select id from up)`,
  ),
  growOne: sqlite.prepare('update binary_stats set team_size = team_size + ? where member_id = ?'),
}));

/**
 * The position of a new member under `aboveId` in one tree (jumps.ts): a root's depth is 0 and it
 * jumps to itself; a child's comes from its parent's row and the two its jump leads to. Unknown
 * when any of those is (a bulk-inserted member before the start-up backfill): depth -1, no jump.
 */
function positionUnder(
  memberId: number,
  aboveId: number | null,
  rowOf: (id: number) => { depth: number | null; jump: number | null } | undefined,
): Position {
  if (aboveId === null) return { depth: 0, jump: memberId };
  const rows = new Map<number, { depth: number; jump: number }>();
  const known = (id: number) => {
    const row = rowOf(id);
    if (!row || row.depth === null || row.depth < 0 || row.jump === null) return undefined;
    const position = { depth: row.depth, jump: row.jump };
    rows.set(id, position);
    return position;
  };
  const parent = known(aboveId);
  const jump = parent && known(parent.jump);
  if (!parent || !jump || !known(jump.jump)) return { depth: -1, jump: null };
  return {
    depth: parent.depth + 1,
    jump: childJump(
      aboveId,
      (id) => rows.get(id)!.depth,
      (id) => rows.get(id)!.jump,
    ),
  };
}

/**
 * The binary_stats row of a member just inserted: its depth and jump pointer in the binary tree
 * (under `parentId`) and in the sponsor tree (under its row's sponsor), and every binary
 * ancestor's team_size + 1. Call it in the transaction that inserts the member.
 */
export function recordPlacement(
  sqlite: Database.Database,
  memberId: number,
  parentId: number | null,
  /** Given, the ancestors' team_size waits for the batch's flush (many members placed at once). */
  teamSizes?: TeamSizeBatch,
): void {
  const prepared = statsStatementsOf(sqlite);
  const binary = positionUnder(memberId, parentId, (id) => prepared.binaryPosition.get(id));
  const sponsorId = prepared.sponsorOf.get(memberId)?.sponsorId ?? null;
  const sponsor = positionUnder(memberId, sponsorId, (id) => prepared.sponsorPosition.get(id));
  // An unknown sponsor depth stays null (the column allows it); an unknown binary depth is -1.
  prepared.insert.run(
    memberId,
    binary.depth,
    binary.jump,
    sponsor.depth < 0 ? null : sponsor.depth,
    sponsor.jump,
  );
  if (parentId === null) return;
  if (teamSizes) teamSizes.placed.push([memberId, parentId]);
  else prepared.growAncestors.run({ parentId, by: 1 });
}

/**
 * Members placed one after another whose ancestors' team_size is raised once at the end: placing
 * a chain n deep one by one walks n(n+1)/2 ancestor rows (minutes for thousands); the flush
 * counts each member's new descendants in one backwards pass and walks above the batch once per
 * place it hangs from. Flush in the transaction that placed them, before anything reads team_size.
 */
export interface TeamSizeBatch {
  /** [member, binary parent], in placement order (a parent before its children). */
  readonly placed: [number, number][];
}

export const teamSizeBatch = (): TeamSizeBatch => ({ placed: [] });

export function flushTeamSizes(sqlite: Database.Database, batch: TeamSizeBatch): void {
  const prepared = statsStatementsOf(sqlite);
  const inBatch = new Map(batch.placed);
  const below = new Map<number, number>();
  const outside = new Map<number, number>();
  for (let i = batch.placed.length - 1; i >= 0; i--) {
    const [memberId, parentId] = batch.placed[i]!;
    const team = (below.get(memberId) ?? 0) + 1;
    const counts = inBatch.has(parentId) ? below : outside;
    counts.set(parentId, (counts.get(parentId) ?? 0) + team);
  }
  for (const [memberId, by] of below) prepared.growOne.run(by, memberId);
  for (const [parentId, by] of outside) prepared.growAncestors.run({ parentId, by });
  batch.placed.length = 0;
}
