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
