/**
 * The network read side: the binary tree a level at a time, a node's hover details, and the
 * sponsor (level) tree across 5 levels. Every answer is scoped to the caller's own downline; a
 * member outside it, or unknown, gets the same 404 after the same scope walk (scope.ts), so
 * neither the answer nor its time reveals anything.
 */
import { eq } from 'drizzle-orm';
import { members } from '@md/db';
import { LEVEL_CHART_LEVELS, LEVEL_PAGE_SIZE, microsToAmount } from '@md/shared';
import { notFound } from '../../core/errors.ts';
import { isoTime } from '../../core/iso-time.ts';
import { limitSql, prepared } from '../../core/prepared.ts';
import type { AuthedCtx } from '../../core/services.ts';
import type { Handlers } from '../../transport/handlers.ts';
import { binaryStatsOf } from '../engine/stats.ts';
import { pathHandlers } from './paths.ts';
import { downlineCheck, NETWORK_MESSAGES, sponsorLevelOf } from './scope.ts';

export { NETWORK_MESSAGES };

type Side = '0' | '1';
const asSide = (value: unknown): Side => (String(value) === '0' ? '0' : '1');

/** The member row of an id a scope check answered. */
const memberById = (ctx: AuthedCtx, id: number) =>
  ctx.db.select().from(members).where(eq(members.id, id)).get();

function binaryMember(ctx: AuthedCtx, username: string) {
  const { inside, memberId } = downlineCheck(ctx, 'binary', ctx.member.id, { username });
  const member = inside ? memberById(ctx, memberId!) : undefined;
  if (!member) throw notFound(NETWORK_MESSAGES.notInDownline);
  return member;
}

/**
 * The member whose directs the level chart may show: the caller or a member of their sponsor
 * downline down to level 4 (the chart covers 5 levels, so level 5 is never opened); anyone else is 404.
 */
function levelMember(ctx: AuthedCtx, username: string) {
  const found = sponsorLevelOf(ctx, ctx.member.id, username);
  const member =
    found && found.levels <= LEVEL_CHART_LEVELS - 1 ? memberById(ctx, found.memberId) : undefined;
  if (!member) throw notFound(NETWORK_MESSAGES.notInDownline);
  return member;
}

/** A sponsor's directs with how many each sponsors in turn (ordered and paged by the caller). */
const DIRECTS = `select m.username, (select count(*) from members d where d.sponsor_id = m.id) as count
  from members m where m.sponsor_id = @sponsor`;

/** Lifetime credits of the member's income transfers, by reason. */
function incomeTotals(ctx: AuthedCtx, memberId: number) {
  const rows = prepared<{ member: number }, { reason: string; total: number }>(
    ctx.sqlite,
    `select t.reason, sum(t.amount) as total
       from transfers t join accounts a on a.id = t.to_account_id
       where a.member_id = @member and t.reason in ('roi', 'direct_income', 'level_income', 'binary_income', 'rank_reward')
       group by t.reason`,
  ).all({ member: memberId });
  const by = new Map(rows.map((row) => [row.reason, row.total]));
  const earnings = rows.reduce((sum, row) => sum + row.total, 0);
  return { earnings, direct: by.get('direct_income') ?? 0 };
}

export const networkHandlers: Handlers = {
  'binary.view_binary_downline': (ctx, input) => {
    const member = binaryMember(ctx, input.username);
    const children = prepared<
      { parent: number },
      { username: string; side: string; sponsor: string | null; active: number }
    >(
      ctx.sqlite,
      `select m.username, m.side, s.username as sponsor,
           exists (select 1 from subscriptions x where x.member_id = m.id and x.status = 'ACTIVE') as active
         from members m left join members s on s.id = m.sponsor_id
         where m.parent_id = @parent order by m.side`,
    ).all({ parent: member.id });
    return {
      Success: {
        Username: member.username,
        // Team size: everyone below in the binary tree (kept at placement, so no subtree walk).
        CountUser: binaryStatsOf(ctx, member.id)?.teamSize ?? children.length,
        Downline: children.map((child) => ({
          Username: child.username,
          Side: asSide(child.side),
          Sponsor: child.sponsor,
          Status: Boolean(child.active),
        })),
      },
    };
  },

  'binary.view_binary_downline_details': (ctx, input) => {
    const member = binaryMember(ctx, input.username);
    const stats = binaryStatsOf(ctx, member.id);
    const { earnings, direct } = incomeTotals(ctx, member.id);
    const sponsor = member.sponsorId
      ? prepared<{ id: number }, { username: string }>(
          ctx.sqlite,
          'select username from members where id = @id',
        ).get({ id: member.sponsorId })
      : undefined;
    const subscriptions = prepared<
      { member: number },
      { plan: string; status: string; end_date: number | null }
    >(
      ctx.sqlite,
      'select plan, status, end_date from subscriptions where member_id = @member order by created_at, id',
    ).all({ member: member.id });
    // One entry per plan name: active when any subscription of it is, expiry of the latest ended one.
    const plans: Record<string, { Active: boolean; Expiry: string | null }> = {};
    for (const s of subscriptions) {
      const entry = (plans[s.plan] ??= { Active: false, Expiry: null });
      if (s.status === 'ACTIVE') entry.Active = true;
      if (s.end_date !== null) entry.Expiry = isoTime(s.end_date);
    }
    return {
      Success: {
        Current_Binary: [microsToAmount(stats?.leftCarry ?? 0), microsToAmount(stats?.rightCarry ?? 0)] as [
          number,
          number,
        ],
        Earnings: microsToAmount(earnings),
        Direct_Bouns: microsToAmount(direct),
        Status: subscriptions.some((s) => s.status === 'ACTIVE'),
        Sponsor: sponsor?.username ?? null,
        Side: member.side === null ? null : asSide(member.side),
        Total_User_Subscription_Plan: plans,
      },
    };
  },

  'level.view_downline': (ctx, input) => {
    const member = levelMember(ctx, input.username);
    const directs = prepared<{ sponsor: number }, { username: string; count: number }>(
      ctx.sqlite,
      `${DIRECTS} order by m.created_at, m.id`,
    ).all({ sponsor: member.id });
    return {
      Success: {
        Username: member.username,
        CountUser: directs.length,
        Downline: directs.map((direct) => ({ Username: direct.username, Count: direct.count })),
      },
    };
  },

  // Extension `downline_pages`: the same directs in the same order, a page at a time.
  'level.view_downline_page': (ctx, input) => {
    const member = levelMember(ctx, input.username);
    const perPage = input.per_page ?? LEVEL_PAGE_SIZE;
    const total = prepared<{ sponsor: number }, { n: number }>(
      ctx.sqlite,
      'select count(*) as n from members where sponsor_id = @sponsor',
    ).get({ sponsor: member.id })!.n;
    // Past the last page there is nothing to read (and an offset that large must not be walked).
    const directs =
      (input.page - 1) * perPage >= total
        ? []
        : prepared<{ sponsor: number; offset: number }, { username: string; count: number }>(
            ctx.sqlite,
            `${DIRECTS} order by m.created_at, m.id ${limitSql(perPage)} offset @offset`,
          ).all({ sponsor: member.id, offset: (input.page - 1) * perPage });
    return {
      Success: {
        Username: member.username,
        CountUser: total,
        Downline: directs.map((direct) => ({ Username: direct.username, Count: direct.count })),
        Page: input.page,
        Per_Page: perPage,
      },
    };
  },

  // Extension `binary_paths`: leg bottoms and paths by name (paths.ts).
  ...pathHandlers,
};
