/** Read helpers over binary_stats (depth, team size, legs' volumes, rank) for the network and analytics reads. */
import { eq, inArray } from 'drizzle-orm';
import { binaryStats } from '@md/db';
import type { Services } from '../../core/services.ts';
import { prepared } from '../ledger/sql.ts';
import { treePositions } from '../network/jumps.ts';

export type BinaryStats = typeof binaryStats.$inferSelect;

/** The member's binary figures, or undefined for a member without a row (inserted outside insertMember). */
export const binaryStatsOf = (ctx: Pick<Services, 'db'>, memberId: number): BinaryStats | undefined =>
  ctx.db.select().from(binaryStats).where(eq(binaryStats.memberId, memberId)).get();

/** Figures of several members at once (a tree page's nodes), keyed by member id. */
export function binaryStatsOfMany(
  ctx: Pick<Services, 'db'>,
  memberIds: readonly number[],
): Map<number, BinaryStats> {
  if (memberIds.length === 0) return new Map();
  const rows = ctx.db
    .select()
    .from(binaryStats)
    .where(inArray(binaryStats.memberId, [...memberIds]))
    .all();
  return new Map(rows.map((row) => [row.memberId, row]));
}

/** The member's current rank name ('Starter' until the rank run promotes it). */
export const currentRankOf = (ctx: Pick<Services, 'db'>, memberId: number): string =>
  binaryStatsOf(ctx, memberId)?.rank ?? 'Starter';

/**
 * meta key: every member with an id up to this value has complete binary_stats tree columns.
 * backfillBinaryStats writes it; the trigger `members_stats_unchecked` (migration 0005) deletes
 * it when a member is inserted at or below it; a scenario reset wipes it with the rest of meta.
 */
export const STATS_COMPLETE_KEY = 'binary_stats_complete_through';

const INCOMPLETE_ROW = 'depth < 0 or binary_jump_id is null or sponsor_jump_id is null';

/** What the check reads: rows still to compute, members above the mark without a row, the mark and the last member id. */
function statsState(ctx: Pick<Services, 'sqlite'>, withoutRows: boolean) {
  const sqlite = ctx.sqlite;
  const mark = prepared(sqlite, 'select cast(value as integer) as id from meta where key = ?').get(
    STATS_COMPLETE_KEY,
  ) as { id: number } | undefined;
  const lastId = (prepared(sqlite, 'select coalesce(max(id), 0) as id from members').get() as { id: number })
    .id;
  // Through the partial index binary_stats_incomplete: one probe when there are none.
  const incomplete = (
    prepared(sqlite, `select count(*) as n from binary_stats where ${INCOMPLETE_ROW}`).get() as { n: number }
  ).n;
  // Members past the mark (all of them without one) in id order: the lookups walk binary_stats in key order.
  const unplaced = withoutRows
    ? (
        prepared(
          sqlite,
          'select count(*) as n from members m where m.id > ? and not exists (select 1 from binary_stats b where b.member_id = m.id)',
        ).get(mark?.id ?? -1) as { n: number }
      ).n
    : 0;
  return { mark: mark?.id, lastId, missing: incomplete + unplaced };
}

/**
 * Fills binary_stats' tree columns (depth, team_size, both trees' jump pointers and the sponsor
 * depth) for every member when any member lacks them: a database made before the engine or
 * before the jump pointers (migration 0004 adds them empty), bulk-inserted members. One pass over
 * the links in memory, keeping any volumes already recorded. Answers how many members lacked them.
 *
 * The check costs a few index probes, not a pass over every member (a full pass took 2.4 s at
 * 1,000,000 members): rows still to compute are in the partial index binary_stats_incomplete, and
 * members without a row are looked for only above the STATS_COMPLETE_KEY mark, which the check
 * moves up to the last member once they all have theirs. Every way a member arrives is covered:
 * registration and the demo seed write a complete row (or one with depth -1 under a parent that
 * has none, which the index finds); a bulk insert without rows (a script, a test) gets ids above
 * the mark, or withdraws the mark through the trigger when it fills a gap below it; a purchase by
 * a member without a row inserts one with depth -1; a database from before migration 0005 has no
 * mark, so its first check looks at every member once (0.4 s at 1,000,000). The scale seed sets
 * the mark itself: it writes every row complete.
 */
export function backfillBinaryStats(ctx: Pick<Services, 'sqlite'>): number {
  // The usual case reads three index entries and writes nothing (a read-only file still starts).
  const seen = statsState(ctx, false);
  if (seen.missing === 0 && seen.mark === seen.lastId) return 0;
  return ctx.sqlite
    .transaction(() => {
      // Again under the write lock, now with members above the mark.
      const { lastId, missing } = statsState(ctx, true);
      if (missing > 0) recomputeTreeColumns(ctx);
      markStatsComplete(ctx, lastId);
      return missing;
    })
    .immediate();
}

/**
 * Records that every member up to `lastId` has complete binary_stats tree columns. Only for a
 * writer that knows it (the check above, a seed that wrote every row). Caller's transaction.
 */
export function markStatsComplete(ctx: Pick<Services, 'sqlite'>, lastId: number): void {
  prepared(
    ctx.sqlite,
    'insert into meta (key, value) values (?, ?) on conflict(key) do update set value = excluded.value',
  ).run(STATS_COMPLETE_KEY, String(lastId));
}

/** The whole pass: every member's tree columns from the links, in one transaction (the caller's). */
function recomputeTreeColumns(ctx: Pick<Services, 'sqlite'>): void {
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
  for (let d = maxDepth; d > 0; d--)
    for (const id of byDepth[d]!) teamSize[parentOf[id]!]! += teamSize[id]! + 1;
  const upsert = ctx.sqlite.prepare(
    `insert into binary_stats (member_id, depth, team_size, binary_jump_id, sponsor_depth, sponsor_jump_id) values (?, ?, ?, ?, ?, ?)
     on conflict(member_id) do update set depth = excluded.depth, team_size = excluded.team_size,
       binary_jump_id = excluded.binary_jump_id, sponsor_depth = excluded.sponsor_depth, sponsor_jump_id = excluded.sponsor_jump_id`,
  );
  // A member on a cycle of links (corrupt data) keeps depth -1 and no jump: outside every downline.
  for (const id of ids) {
    const sponsorDepth = sponsor.depth[id]!;
    upsert.run(
      id,
      binary.depth[id]!,
      teamSize[id]!,
      binary.jump[id]! || null,
      sponsorDepth < 0 ? null : sponsorDepth,
      sponsor.jump[id]! || null,
    );
  }
}
