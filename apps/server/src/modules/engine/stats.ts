/** Read helpers over binary_stats (depth, team size, legs' volumes, rank) for the network and analytics reads. */
import { eq, inArray } from 'drizzle-orm';
import { binaryStats } from '@md/db';
import type { Services } from '../../core/services.ts';
import { treePositions } from '../network/jumps.ts';

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
 * Fills binary_stats' tree columns (depth, team_size, both trees' jump pointers and the sponsor
 * depth) for every member when any member lacks them: a database made before the engine or
 * before the jump pointers (migration 0004 adds them empty), bulk-inserted members. One pass over
 * the links in memory, keeping any volumes already recorded. Cheap when nothing is missing.
 */
export function backfillBinaryStats(ctx: Pick<Services, 'sqlite'>): number {
  const missing = ctx.sqlite
    .prepare<[], { n: number }>(
      `select count(*) as n from members m left join binary_stats b on b.member_id = m.id
       where b.member_id is null or b.depth < 0 or b.binary_jump_id is null or b.sponsor_jump_id is null`,
    )
    .get()!.n;
  if (missing === 0) return 0;
  // Each column as one JSON array: a row at a time through the driver costs several times more at 1,000,000 members.
  const columns = ctx.sqlite
    .prepare<[], Record<'ids' | 'parents' | 'sponsors', string>>(
      'select json_group_array(id) as ids, json_group_array(parent_id) as parents, json_group_array(sponsor_id) as sponsors from members',
    )
    .get()!;
  const ids = JSON.parse(columns.ids) as number[];
  const parents = JSON.parse(columns.parents) as (number | null)[];
  const sponsors = JSON.parse(columns.sponsors) as (number | null)[];
  let maxId = 0;
  for (const id of ids) if (id > maxId) maxId = id;
  // Dense arrays by member id, 0 for no link.
  const isMember = new Uint8Array(maxId + 1);
  const parentOf = new Int32Array(maxId + 1);
  const sponsorOf = new Int32Array(maxId + 1);
  for (let i = 0; i < ids.length; i++) {
    isMember[ids[i]!] = 1;
    parentOf[ids[i]!] = parents[i] ?? 0;
    sponsorOf[ids[i]!] = sponsors[i] ?? 0;
  }
  const binary = treePositions(parentOf, isMember);
  const sponsor = treePositions(sponsorOf, isMember);
  // Team sizes: each member adds itself and its team to its parent, deepest first.
  let maxDepth = 0;
  for (const id of ids) if (binary.depth[id]! > maxDepth) maxDepth = binary.depth[id]!;
  const byDepth: number[][] = Array.from({ length: maxDepth + 1 }, () => []);
  for (const id of ids) if (binary.depth[id]! >= 0) byDepth[binary.depth[id]!]!.push(id);
  const teamSize = new Int32Array(maxId + 1);
  for (let d = maxDepth; d > 0; d--) for (const id of byDepth[d]!) teamSize[parentOf[id]!]! += teamSize[id]! + 1;
  const upsert = ctx.sqlite.prepare(
    `insert into binary_stats (member_id, depth, team_size, binary_jump_id, sponsor_depth, sponsor_jump_id) values (?, ?, ?, ?, ?, ?)
     on conflict(member_id) do update set depth = excluded.depth, team_size = excluded.team_size,
       binary_jump_id = excluded.binary_jump_id, sponsor_depth = excluded.sponsor_depth, sponsor_jump_id = excluded.sponsor_jump_id`,
  );
  ctx.sqlite.transaction(() => {
    // A member on a cycle of links (corrupt data) keeps depth -1 and no jump: outside every downline.
    for (const id of ids) {
      const sponsorDepth = sponsor.depth[id]!;
      upsert.run(id, binary.depth[id]!, teamSize[id]!, binary.jump[id]! || null, sponsorDepth < 0 ? null : sponsorDepth, sponsor.jump[id]! || null);
    }
  }).immediate();
  return missing;
}
