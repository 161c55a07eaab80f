/** Creating a member: placement in the binary tree plus the row. Registration and the seed share it. */
import { eq } from 'drizzle-orm';
import { members } from '@md/db';
import type { Member, Services } from '../../core/services.ts';
import { findPlacement, recordPlacement, type Side, type TeamSizeBatch } from '../network/placement.ts';

export interface NewMember {
  username: string;
  name: string;
  email: string;
  country: string;
  passwordHash: string;
  /** Null only for a root member. */
  sponsorId: number | null;
  /** The leg of the sponsor the member is placed in. */
  side: Side;
  createdAt: number;
  totpSecret?: string | null;
}

/** Synchronous so the caller can run it inside one transaction with what belongs with it. */
export function insertMember(
  ctx: Pick<Services, 'db' | 'sqlite'>,
  input: NewMember,
  /** Many members placed at once: the ancestors' team_size is raised by the batch's flush (placement.ts). */
  teamSizes?: TeamSizeBatch,
): Member {
  const placement =
    input.sponsorId === null
      ? { parentId: null, side: null }
      : findPlacement(ctx.sqlite, input.sponsorId, input.side);
  // The member row and its binary_stats (depth, ancestors' team_size) commit together.
  return ctx.sqlite.transaction(() => {
    const member = ctx.db
      .insert(members)
      .values({
        username: input.username,
        name: input.name,
        email: input.email.toLowerCase(),
        country: input.country,
        sponsorId: input.sponsorId,
        parentId: placement.parentId,
        side: placement.side,
        createdAt: input.createdAt,
        passwordHash: input.passwordHash,
        totpSecret: input.totpSecret ?? null,
        totpEnabled: Boolean(input.totpSecret),
      })
      .returning()
      .get();
    recordPlacement(ctx.sqlite, member.id, placement.parentId, teamSizes);
    return member;
  })();
}

export const findMemberByUsername = (ctx: Pick<Services, 'db'>, username: string) =>
  ctx.db.select().from(members).where(eq(members.username, username.toLowerCase())).get();
