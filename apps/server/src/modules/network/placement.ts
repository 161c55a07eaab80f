/**
 * Binary placement: a new member goes under the outer end of the chosen leg of its sponsor
 * (follow the child on that side from the sponsor until there is none). Trees get thousands
 * deep under spillover, so the walk is one recursive query over (parent_id, side), not a loop
 * of queries.
 */
import type Database from 'better-sqlite3';

export type Side = '0' | '1';

const statements = new WeakMap<Database.Database, Database.Statement<[{ sponsorId: number; side: Side }], { id: number }>>();

function outerEndStatement(sqlite: Database.Database) {
  let statement = statements.get(sqlite);
  if (!statement) {
    statement = sqlite.prepare<[{ sponsorId: number; side: Side }], { id: number }>(
      `with recursive leg(id, depth) as (
         select @sponsorId, 0
         union all
         select m.id, leg.depth + 1 from members m join leg on m.parent_id = leg.id and m.side = @side
       )
       select id from leg order by depth desc limit 1`,
    );
    statements.set(sqlite, statement);
  }
  return statement;
}

/** The binary parent a new member of `sponsorId` on `side` is placed under. */
export function findPlacement(sqlite: Database.Database, sponsorId: number, side: Side): { parentId: number; side: Side } {
  const row = outerEndStatement(sqlite).get({ sponsorId, side });
  return { parentId: row?.id ?? sponsorId, side };
}

interface StatsStatements {
  insertRoot: Database.Statement<[{ memberId: number }]>;
  insertChild: Database.Statement<[{ memberId: number; parentId: number }]>;
  growAncestors: Database.Statement<[{ parentId: number }]>;
}
const statsStatements = new WeakMap<Database.Database, StatsStatements>();

function statsStatementsOf(sqlite: Database.Database): StatsStatements {
  let prepared = statsStatements.get(sqlite);
  if (!prepared) {
    prepared = {
      insertRoot: sqlite.prepare('insert into binary_stats (member_id, depth) values (@memberId, 0)'),
      insertChild: sqlite.prepare(
        `insert into binary_stats (member_id, depth)
         select @memberId, coalesce((select depth from binary_stats where member_id = @parentId), 0) + 1`,
      ),
      // One statement for the whole ancestor chain (thousands deep under spillover): the walk
      // follows parent pointers in SQLite instead of a query per level.
      growAncestors: sqlite.prepare(
        `with recursive up(id) as (
           select @parentId
           union all
           select m.parent_id from members m join up on m.id = up.id where m.parent_id is not null
         )
         update binary_stats set team_size = team_size + 1 where member_id in (select id from up)`,
      ),
    };
    statsStatements.set(sqlite, prepared);
  }
  return prepared;
}

/**
 * The binary_stats row of a member just placed: depth = parent's + 1, and every binary
 * ancestor's team_size + 1. Call it in the transaction that inserts the member.
 */
export function recordPlacement(sqlite: Database.Database, memberId: number, parentId: number | null): void {
  const prepared = statsStatementsOf(sqlite);
  if (parentId === null) {
    prepared.insertRoot.run({ memberId });
    return;
  }
  prepared.insertChild.run({ memberId, parentId });
  prepared.growAncestors.run({ parentId });
}
