/** Read helpers over binary_stats (depth, team size, legs' volumes, rank) for the network and analytics reads. */
import { eq, inArray } from 'drizzle-orm';
import { binaryStats } from '@md/db';
import type { Services } from '../../core/services.ts';

export type BinaryStats = typeof binaryStats.$inferSelect;

/** The member's binary figures, or undefined for a member without a row (inserted outside insertMember). */
export const binaryStatsOf = (ctx: Pick<Services, 'db'>, memberId: number): BinaryStats | undefined =>
  ctx.db.select().from(binaryStats).where(eq(binaryStats.memberId, memberId)).get();

/** Figures of several members at once (a tree page's nodes), keyed by member id. */
export function binaryStatsOfMany(ctx: Pick<Services, 'db'>, memberIds: readonly number[]): Map<number, BinaryStats> {
  if (memberIds.length === 0) return new Map();
  const rows = ctx.db.select().from(binaryStats).where(inArray(binaryStats.memberId, [...memberIds])).all();
  return new Map(rows.map((row) => [row.memberId, row]));
}

/** The member's current rank name ('Starter' until the rank run promotes it). */
export const currentRankOf = (ctx: Pick<Services, 'db'>, memberId: number): string => binaryStatsOf(ctx, memberId)?.rank ?? 'Starter';

/**
 * Fills binary_stats (depth, team_size) for members that have no row or no depth yet (a
 * database made before the engine, bulk-inserted members): one pass over parent pointers,
 * keeping any volumes already recorded. Cheap when nothing is missing.
 */
export function backfillBinaryStats(ctx: Pick<Services, 'sqlite'>): number {
  const missing = ctx.sqlite
    .prepare<[], { n: number }>('select count(*) as n from members m left join binary_stats b on b.member_id = m.id where b.member_id is null or b.depth < 0')
    .get()!.n;
  if (missing === 0) return 0;
  const rows = ctx.sqlite.prepare<[], { id: number; parentId: number | null }>('select id, parent_id as parentId from members order by id').all();
  const parentOf = new Map<number, number | null>(rows.map((r) => [r.id, r.parentId]));
  const depth = new Map<number, number>();
  const depthOf = (id: number): number => {
    // Iterative: spillover trees are thousands deep, recursion would overflow the stack.
    const chain: number[] = [];
    let cursor: number | null | undefined = id;
    while (cursor != null && !depth.has(cursor)) {
      chain.push(cursor);
      cursor = parentOf.get(cursor);
    }
    let d = cursor != null ? depth.get(cursor)! : -1;
    for (let i = chain.length - 1; i >= 0; i--) depth.set(chain[i]!, ++d);
    return depth.get(id)!;
  };
  for (const r of rows) depthOf(r.id);
  const teamSize = new Map<number, number>();
  const deepestFirst = [...rows].sort((a, b) => depth.get(b.id)! - depth.get(a.id)!);
  for (const r of deepestFirst) {
    if (r.parentId != null) teamSize.set(r.parentId, (teamSize.get(r.parentId) ?? 0) + (teamSize.get(r.id) ?? 0) + 1);
  }
  const upsert = ctx.sqlite.prepare(
    `insert into binary_stats (member_id, depth, team_size) values (?, ?, ?)
     on conflict(member_id) do update set depth = excluded.depth, team_size = excluded.team_size`,
  );
  ctx.sqlite.transaction(() => {
    for (const r of rows) upsert.run(r.id, depth.get(r.id)!, teamSize.get(r.id) ?? 0);
  }).immediate();
  return missing;
}
