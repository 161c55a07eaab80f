/**
 * The per-chunk work of the daily runs (DESIGN §5–6): what one chunk of ROI, binary matching or
 * rank evaluation pays, given the cursor it starts after. The orchestration (claim, cursor,
 * transactions, resume, catch-up, the worker) is in jobs.ts; the fold of the day's volumes in
 * fold.ts. Inside a chunk, what each payout takes from the caps, its ledger credit and its
 * notification are queued and written together just before the cursor moves, in the same
 * transaction (jobs.ts runChunk, income.ts writePayouts); a member is paid at most once per job
 * in a chunk, so the subscriptions a chunk reads up front are still its members' when paid.
 */
import { microsToAmount, formatMoney } from '@md/shared';
import {
  BINARY_BASIS_POINTS,
  activeSubscriptionsOf,
  payCappedIncome,
  percentOf,
  prepared,
  ranksInMicros,
  roiSubscriptionsAfter,
  type EngineCtx,
  type Payouts,
  type RoiSubscription,
} from './income.ts';
import type { JobName } from './schedule.ts';

/** A run's running totals, kept in job_runs.summary (JSON) between chunks. */
export interface Progress {
  payouts: number;
  paid: number;
  members: number;
}

export const compactDate = (date: string) => date.replaceAll('-', '');

/** ROI of one member's ACTIVE subscriptions (bought before the run), capped. */
function payRoi(ctx: EngineCtx, memberId: number, subscriptions: readonly RoiSubscription[], date: string, at: number, progress: Progress, payouts: Payouts): void {
  // One read (for the whole chunk) serves both the ROI figure and the cap (oldest first).
  const expected = subscriptions.reduce((sum, s) => (s.createdAt <= at ? sum + percentOf(s.amount, s.bps) : sum), 0);
  const received = payCappedIncome(ctx, {
    memberId,
    wallet: 'ROI',
    reason: 'roi',
    expected,
    transId: `ROI${compactDate(date)}M${memberId}`,
    at,
    notificationType: 'ROI_Income',
    message: (usdt) => `You earned ${usdt} daily ROI for ${date}.`,
  }, payouts, subscriptions);
  progress.members++;
  if (received > 0) {
    progress.payouts++;
    progress.paid += received;
  }
}

/**
 * Binary matching (DESIGN §6): matched = min(carry + new volume) of the two legs, 10 % of it paid
 * (capped), the rest of each leg carried. The SQL below is the one place these figures are
 * computed: each chunk writes its members' volume rows and carries with one statement each
 * (a statement per member cost more than the matching itself at 400,000 members a day), and
 * pays in JS only the members with a match.
 */
const MATCHED = 'min(left_carry + left_pending, right_carry + right_pending)';
const HAS_NEW_VOLUME = '(left_pending > 0 or right_pending > 0)';
/** A member with new volume on a leg, and its match. */
interface LegsRow {
  id: number;
  matched: number;
}

/** Volume rows and carries of the members with new volume in (cursor, last], the chunk's members. */
function carryLegs(ctx: EngineCtx, cursor: number, last: number, members: number, date: string, at: number): void {
  const chunk = { cursor, last, date: compactDate(date), at };
  // The volume rows first: they read the legs as they were before the carry is written. Both
  // statements are `or fail`: a statement that may abort halfway keeps a journal of every page it
  // touches (thousands of rows here), one that fails does not; nothing here can fail a
  // constraint, and an error would roll the whole chunk back.
  // A row per leg that received volume (spec §2 Volume): Side is that leg, Volume what it received,
  // Left/Right Volume what the row added to each leg, Carry and Total the legs after the day's match.
  const entries = prepared(
    ctx.sqlite,
    `insert or fail into volume_entries (kind, trans_id, member_id, side, volume, left_volume, left_carry, left_total, right_volume, right_carry, right_total, status, created_at)
     select 'binary', 'BV' || @date || 'M' || member_id, member_id, leg.side, case leg.side when '0' then left_pending else right_pending end,
            case leg.side when '0' then left_pending else 0 end, left_carry + left_pending - matched, left_total + left_pending,
            case leg.side when '1' then right_pending else 0 end, right_carry + right_pending - matched, right_total + right_pending,
            case when matched > 0 then 'Matched' else 'Carried' end, @at
       from (select member_id, left_pending, right_pending, left_carry, right_carry, left_total, right_total, ${MATCHED} as matched
               from binary_stats where member_id > @cursor and member_id <= @last and ${HAS_NEW_VOLUME}) s
       join (select '0' as side union all select '1') leg on (leg.side = '0' and s.left_pending > 0) or (leg.side = '1' and s.right_pending > 0)
      order by member_id, leg.side`,
  ).run(chunk);
  // Every expression reads the row as it was before this update (SQL semantics).
  const carried = prepared(
    ctx.sqlite,
    `update or fail binary_stats set left_carry = left_carry + left_pending - ${MATCHED}, right_carry = right_carry + right_pending - ${MATCHED},
            left_total = left_total + left_pending, right_total = right_total + right_pending, left_pending = 0, right_pending = 0
      where member_id > @cursor and member_id <= @last and ${HAS_NEW_VOLUME}`,
  ).run({ cursor, last });
  if (entries.changes < members || entries.changes > 2 * members || carried.changes !== members) throw new Error(`binary chunk after ${cursor}: ${members} members, ${entries.changes} rows, ${carried.changes} carries`);
}

/** Pays one member's binary income on its match, capped. */
function payBinary(ctx: EngineCtx, s: LegsRow, subscriptions: readonly RoiSubscription[], date: string, at: number, progress: Progress, payouts: Payouts): void {
  const { id: memberId, matched } = s;
  const received = payCappedIncome(ctx, {
    memberId,
    wallet: 'Binary',
    reason: 'binary_income',
    expected: percentOf(matched, BINARY_BASIS_POINTS),
    transId: `BV${compactDate(date)}M${memberId}`,
    at,
    notificationType: 'Binary_Income',
    message: (usdt) => `You earned ${usdt} binary income on ${date} (matched volume ${formatMoney(microsToAmount(matched))}).`,
  }, payouts, subscriptions);
  if (received > 0) {
    progress.payouts++;
    progress.paid += received;
  }
}

/** A member near its next rank: its current rank and lifetime rank volume per leg. */
interface RankRow {
  id: number;
  rank: string;
  rl: number;
  rr: number;
}

/** Promotes one member to the highest rank it meets, paying each newly reached rank's one-time reward (not capped). */
function evaluateRank(ctx: EngineCtx, s: RankRow, ranks: ReturnType<typeof ranksInMicros>, leaders: number, at: number, progress: Progress, payouts: Payouts): void {
  const memberId = s.id;
  const current = Math.max(0, ranks.findIndex((r) => r.name === s.rank));
  let reached = current;
  for (let i = current + 1; i < ranks.length; i++) {
    const r = ranks[i]!;
    if (s.rl >= r.left && s.rr >= r.right && leaders >= r.qualifiedLeaders) reached = i;
    else break;
  }
  progress.members++;
  if (reached === current) return;
  for (let i = current + 1; i <= reached; i++) {
    const r = ranks[i]!;
    const transId = `RK${memberId}R${i}`;
    prepared(ctx.sqlite, 'insert into rank_rewards (trans_id, member_id, rank, reward, status, created_at) values (?, ?, ?, ?, 1, ?)').run(
      transId,
      memberId,
      r.name,
      r.rewardMicros,
      at,
    );
    if (r.rewardMicros > 0) {
      payouts.credits.push({ transId, memberId, wallet: 'Rank', amount: r.rewardMicros, reason: 'rank_reward', at });
      progress.payouts++;
      progress.paid += r.rewardMicros;
    }
    const message = `Congratulations! You reached the ${r.name} rank${r.reward > 0 ? ` and earned a ${formatMoney(r.reward)} reward` : ''}.`;
    payouts.notifications.push({ memberId, type: 'Rank_Achieved', message, transId, createdAt: at });
  }
  prepared(ctx.sqlite, 'update binary_stats set rank = ?, rank_updated_at = ? where member_id = ?').run(ranks[reached]!.name, at, memberId);
}

/**
 * SQL of the plan's ranks as a VALUES list (idx, name, left, right micro-units), and the least
 * left and right volume any rank above the first asks for, cached per plan.
 */
const rankValues = new WeakMap<object, { values: string; minLeft: number; minRight: number }>();
function ranksSql(ctx: EngineCtx): { values: string; minLeft: number; minRight: number } {
  let sql = rankValues.get(ctx.plan);
  if (!sql) {
    const ranks = ranksInMicros(ctx);
    const above = ranks.slice(1);
    sql = {
      values: ranks.map((r, i) => `(${i}, '${r.name.replaceAll("'", "''")}', ${r.left}, ${r.right})`).join(', '),
      minLeft: above.length > 0 ? Math.min(...above.map((r) => r.left)) : Number.MAX_SAFE_INTEGER,
      minRight: above.length > 0 ? Math.min(...above.map((r) => r.right)) : Number.MAX_SAFE_INTEGER,
    };
    rankValues.set(ctx.plan, sql);
  }
  return sql;
}

/** Qualified leaders of these members: directs who have a direct on each side (members with none are absent). */
function qualifiedLeaders(ctx: EngineCtx, memberIds: readonly number[]): Map<number, number> {
  // By the chunk's ids, not its id range: members near a rank are spread over the whole table.
  const rows = prepared(
    ctx.sqlite,
    `select d.sponsor_id as id, count(*) as leaders from members d
      where d.sponsor_id in (select value from json_each(?))
        and exists (select 1 from members c where c.sponsor_id = d.id and c.side = '0')
        and exists (select 1 from members c where c.sponsor_id = d.id and c.side = '1')
      group by d.sponsor_id`,
  ).all(JSON.stringify(memberIds)) as { id: number; leaders: number }[];
  return new Map(rows.map((r) => [r.id, r.leaders]));
}

/** A chunk of one job: pays the next members after `cursor` (at most `limit`) and answers the last one's id, or undefined when none is left. */
export type ChunkWork = (ctx: EngineCtx, cursor: number, date: string, at: number, limit: number, progress: Progress, payouts: Payouts) => number | undefined;

/** ROI: the next members with an ACTIVE subscription bought before the run. */
const roiChunk: ChunkWork = (ctx, cursor, date, at, limit, progress, payouts) => {
  const chunk = roiSubscriptionsAfter(ctx, cursor, limit);
  if (!chunk) return undefined;
  for (const [id, subscriptions] of chunk.subscriptions) {
    // Members whose every subscription is newer than the run are not paid (and not counted).
    if (subscriptions[0]!.createdAt <= at) payRoi(ctx, id, subscriptions, date, at, progress, payouts);
  }
  return chunk.last;
};

/** Binary matching: the next members with new volume on a leg. */
const binaryChunk: ChunkWork = (ctx, cursor, date, at, limit, progress, payouts) => {
  const { size, last } = prepared(
    ctx.sqlite,
    `select count(*) as size, max(member_id) as last from (select member_id from binary_stats where member_id > ? and ${HAS_NEW_VOLUME} order by member_id limit ?)`,
  ).get(cursor, limit) as { size: number; last: number | null };
  if (last === null) return undefined;
  // Only members with a match come to JS, read before carryLegs moves their volume to the carry.
  const matches = prepared(
    ctx.sqlite,
    `select member_id as id, ${MATCHED} as matched from binary_stats where member_id > ? and member_id <= ? and ${HAS_NEW_VOLUME} and ${MATCHED} > 0 order by member_id`,
  ).all(cursor, last) as LegsRow[];
  carryLegs(ctx, cursor, last, size, date, at);
  const subscriptions = activeSubscriptionsOf(ctx, matches.map((s) => s.id));
  for (const s of matches) payBinary(ctx, s, subscriptions.get(s.id) ?? [], date, at, progress, payouts);
  progress.members += size;
  return last;
};

/** Ranks: the next members whose lifetime rank volume already meets their next rank's (most are far from it); leaders are counted for those alone. */
const ranksChunk: ChunkWork = (ctx, cursor, _date, at, limit, progress, payouts) => {
  const { values, minLeft, minRight } = ranksSql(ctx);
  // The members below the least volume of any next rank are passed over on their own columns,
  // before the join with the ranks (joining each of 1,000,000 rows cost ten times more).
  const near = prepared(
    ctx.sqlite,
    `with ranks(idx, name, l, r) as (values ${values})
     select b.member_id as id, b.rank as rank, b.rank_left as rl, b.rank_right as rr from binary_stats b
       join ranks cur on cur.name = b.rank join ranks nxt on nxt.idx = cur.idx + 1
      where b.member_id > @cursor and b.rank_left >= @minLeft and b.rank_right >= @minRight and b.rank_left >= nxt.l and b.rank_right >= nxt.r
      order by b.member_id limit @limit`,
  ).all({ cursor, limit, minLeft, minRight }) as RankRow[];
  if (near.length === 0) return undefined;
  const ranks = ranksInMicros(ctx);
  const leaders = qualifiedLeaders(ctx, near.map((s) => s.id));
  for (const s of near) evaluateRank(ctx, s, ranks, leaders.get(s.id) ?? 0, at, progress, payouts);
  return near.at(-1)!.id;
};

export const chunkWork: Record<JobName, ChunkWork> = { roi: roiChunk, binary: binaryChunk, ranks: ranksChunk };

export function summaryText(job: JobName, p: Progress): string {
  const what = job === 'roi' ? 'ROI' : job === 'binary' ? 'binary matching' : 'rank evaluation';
  const unit = job === 'ranks' ? 'members near a new rank' : 'members';
  return `${what}: ${p.members} ${unit}, ${p.payouts} payouts, ${microsToAmount(p.paid)} USDT`;
}
