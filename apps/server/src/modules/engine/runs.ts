/**
 * The per-chunk work of the daily runs (DESIGN §5–6): what one chunk of ROI, binary matching or
 * rank evaluation pays, given the cursor it starts after. The orchestration (claim, cursor,
 * transactions, resume, catch-up, the worker) is in jobs.ts; the fold of the day's volumes in
 * fold.ts. ROI and binary matching pay a chunk set-based: what each member is owed is staged
 * with one statement, then caps, credits, earning entries and notifications are written with a
 * fixed number of statements (income.ts payStagedIncomes), in the chunk's transaction with the
 * cursor (jobs.ts runChunk). Rank promotions, a few a day, queue theirs (writePayouts). A member
 * is paid at most once per job in a chunk, so the caps a chunk reads are still its members' when
 * paid.
 */
import { microsToAmount, formatMoney } from '@md/shared';
import { roiNoticeTextSql } from '../notifications/notices.ts';
import {
  BINARY_BASIS_POINTS,
  moneyTextSql,
  openStagedIncomes,
  payStagedIncomes,
  percentSql,
  prepared,
  ranksInMicros,
  type EngineCtx,
  type Payouts,
  type StagedIncomeKind,
} from './income.ts';
import type { JobName } from './schedule.ts';

/** A run's running totals, kept in job_runs.summary (JSON) between chunks. */
export interface Progress {
  payouts: number;
  paid: number;
  members: number;
}

export const compactDate = (date: string) => date.replaceAll('-', '');

/** ROI (DESIGN §6): 1.5 % a day (the package's rate) of each ACTIVE subscription bought before the run, capped. */
const ROI_INCOME: StagedIncomeKind = {
  wallet: 'ROI',
  reason: 'roi',
  transIdPrefix: 'ROI',
  notificationType: 'ROI_Income',
  message: (received) => roiNoticeTextSql(received, '@date'),
  noticeFromCredit: true,
};

/**
 * Binary matching (DESIGN §6): matched = min(carry + new volume) of the two legs, 10 % of it paid
 * (capped), the rest of each leg carried. The SQL below is the one place these figures are
 * computed: each chunk writes its members' volume rows and carries with one statement each
 * (a statement per member cost more than the matching itself at 400,000 members a day), and
 * pays the members with a match set-based as well (payStagedIncomes).
 */
const MATCHED = 'min(left_carry + left_pending, right_carry + right_pending)';
const HAS_NEW_VOLUME = '(left_pending > 0 or right_pending > 0)';
/** Volume rows and carries of the members with new volume in (cursor, last], the chunk's members. */
function carryLegs(
  ctx: EngineCtx,
  cursor: number,
  last: number,
  members: number,
  date: string,
  at: number,
): void {
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
  if (entries.changes < members || entries.changes > 2 * members || carried.changes !== members)
    throw new Error(
      `binary chunk after ${cursor}: ${members} members, ${entries.changes} rows, ${carried.changes} carries`,
    );
}

/** Binary income: 10 % of the member's match, capped; the staged detail is the matched volume. */
const BINARY_INCOME: StagedIncomeKind = {
  wallet: 'Binary',
  reason: 'binary_income',
  transIdPrefix: 'BV',
  notificationType: 'Binary_Income',
  message: (received, matched) =>
    `'You earned ' || ${moneyTextSql(received)} || ' binary income on ' || @date || ' (matched volume ' || ${moneyTextSql(matched)} || ').'`,
};

/** A member near its next rank: its current rank and lifetime rank volume per leg. */
interface RankRow {
  id: number;
  rank: string;
  rl: number;
  rr: number;
}

/** Promotes one member to the highest rank it meets, paying each newly reached rank's one-time reward (not capped). */
function evaluateRank(
  ctx: EngineCtx,
  s: RankRow,
  ranks: ReturnType<typeof ranksInMicros>,
  leaders: number,
  at: number,
  progress: Progress,
  payouts: Payouts,
): void {
  const memberId = s.id;
  const current = Math.max(
    0,
    ranks.findIndex((r) => r.name === s.rank),
  );
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
    prepared(
      ctx.sqlite,
      'insert into rank_rewards (trans_id, member_id, rank, reward, status, created_at) values (?, ?, ?, ?, 1, ?)',
    ).run(transId, memberId, r.name, r.rewardMicros, at);
    if (r.rewardMicros > 0) {
      payouts.credits.push({
        transId,
        memberId,
        wallet: 'Rank',
        amount: r.rewardMicros,
        reason: 'rank_reward',
        at,
      });
      progress.payouts++;
      progress.paid += r.rewardMicros;
    }
    const message = `Congratulations! You reached the ${r.name} rank${r.reward > 0 ? ` and earned a ${formatMoney(r.reward)} reward` : ''}.`;
    payouts.notifications.push({ memberId, type: 'Rank_Achieved', message, transId, createdAt: at });
  }
  prepared(ctx.sqlite, 'update binary_stats set rank = ?, rank_updated_at = ? where member_id = ?').run(
    ranks[reached]!.name,
    at,
    memberId,
  );
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
      values: ranks
        .map((r, i) => `(${i}, '${r.name.replaceAll("'", "''")}', ${r.left}, ${r.right})`)
        .join(', '),
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
export type ChunkWork = (
  ctx: EngineCtx,
  cursor: number,
  date: string,
  at: number,
  limit: number,
  progress: Progress,
  payouts: Payouts,
) => number | undefined;

/**
 * ROI: the next members with an ACTIVE subscription, each paid its subscriptions' ROI in SQL
 * (payStagedIncomes). A member whose every subscription is newer than the run is passed over
 * (not paid, not counted).
 */
const roiChunk: ChunkWork = (ctx, cursor, date, at, limit, progress) => {
  // The chunk's last member from the (status, member_id) index alone.
  const { last } = prepared(
    ctx.sqlite,
    "select max(member_id) as last from (select distinct member_id from subscriptions where status = 'ACTIVE' and member_id > ? order by member_id limit ?)",
  ).get(cursor, limit) as { last: number | null };
  if (last === null) return undefined;
  openStagedIncomes(ctx);
  // `+status`: read through the (member_id, created_at) index, in member order, rather than the status index.
  const staged = prepared(
    ctx.sqlite,
    `insert into temp.engine_incomes (member_id, expected)
     select member_id, sum(case when created_at <= @at then ${percentSql('amount', 'roi_basis_points')} else 0 end) from subscriptions
      where +status = 'ACTIVE' and member_id > @cursor and member_id <= @last group by member_id having min(created_at) <= @at`,
  ).run({ at, cursor, last });
  const paid = payStagedIncomes(ctx, ROI_INCOME, date, at);
  progress.members += staged.changes;
  progress.payouts += paid.count;
  progress.paid += paid.total;
  return last;
};

/** Binary matching: the next members with new volume on a leg; those with a match are paid in SQL (payStagedIncomes). */
const binaryChunk: ChunkWork = (ctx, cursor, date, at, limit, progress) => {
  const { size, last } = prepared(
    ctx.sqlite,
    `select count(*) as size, max(member_id) as last from (select member_id from binary_stats where member_id > ? and ${HAS_NEW_VOLUME} order by member_id limit ?)`,
  ).get(cursor, limit) as { size: number; last: number | null };
  if (last === null) return undefined;
  // The matches are staged before carryLegs moves the volume to the carry.
  openStagedIncomes(ctx);
  prepared(
    ctx.sqlite,
    `insert into temp.engine_incomes (member_id, expected, detail)
     select member_id, ${percentSql('matched', BINARY_BASIS_POINTS)}, matched
       from (select member_id, ${MATCHED} as matched from binary_stats where member_id > ? and member_id <= ? and ${HAS_NEW_VOLUME}) where matched > 0`,
  ).run(cursor, last);
  carryLegs(ctx, cursor, last, size, date, at);
  const paid = payStagedIncomes(ctx, BINARY_INCOME, date, at);
  progress.members += size;
  progress.payouts += paid.count;
  progress.paid += paid.total;
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
  const leaders = qualifiedLeaders(
    ctx,
    near.map((s) => s.id),
  );
  for (const s of near) evaluateRank(ctx, s, ranks, leaders.get(s.id) ?? 0, at, progress, payouts);
  return near.at(-1)!.id;
};

export const chunkWork: Record<JobName, ChunkWork> = {
  roi: roiChunk,
  binary: binaryChunk,
  ranks: ranksChunk,
};

export function summaryText(job: JobName, p: Progress): string {
  const what = job === 'roi' ? 'ROI' : job === 'binary' ? 'binary matching' : 'rank evaluation';
  const unit = job === 'ranks' ? 'members near a new rank' : 'members';
  return `${what}: ${p.members} ${unit}, ${p.payouts} payouts, ${microsToAmount(p.paid)} USDT`;
}
