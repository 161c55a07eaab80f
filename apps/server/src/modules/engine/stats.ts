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
