/**
 * The daily runs, each paid exactly once (DESIGN §5):
 * - a run is claimed by inserting its job_runs row (UNIQUE (job, business_date)) in an
 *   IMMEDIATE transaction: a retry, a second server on the same file, or a second advance of
 *   the clock over the same day finds the row and does not pay again;
 * - payouts are written in chunks of members; each chunk's transaction reads the cursor, pays
 *   the next members after it and advances the cursor, so a process killed midway resumes
 *   after the last committed chunk (resumeUnfinishedRuns at start, and before any new run)
 *   and two processes working one run take turns instead of paying a member twice;
 * - inside a chunk, the cap is written per member while the ledger credits and notifications
 *   are queued and written together just before the cursor moves, in the same transaction.
 */
import { microsToAmount } from '@md/shared';
import { moneyTransaction } from '../ledger/ledger.ts';
import { rowWriter } from '../ledger/sql.ts';
import {
  BINARY_BASIS_POINTS,
  activeSubscriptionsOf,
  newPayouts,
  payCappedIncome,
  percentOf,
  prepared,
  ranksInMicros,
  roiSubscriptionsAfter,
  writePayouts,
  type EngineCtx,
  type Payouts,
  type RoiSubscription,
} from './income.ts';
import { dueRuns, scheduledAt, type JobName } from './schedule.ts';
import { backfillBinaryStats } from './stats.ts';

export interface JobRunReport {
  job: string;
  /** Business date (YYYY-MM-DD) the run is for. */
  date: string;
  summary?: string;
}

/** Test seams: chunk size, and a hook called after each chunk commits (a test throws there to simulate a crash). */
export const engineHooks: { chunkSize: number; afterChunk?: (job: JobName, date: string, cursor: number) => void } = { chunkSize: 2_000 };

interface Progress {
  payouts: number;
  paid: number;
  members: number;
}
interface RunRow {
  id: number;
  job: JobName;
  date: string;
  status: 'running' | 'done';
  cursor: number;
  summary: string | null;
}

const compactDate = (date: string) => date.replaceAll('-', '');
const readProgress = (summary: string | null): Progress => (summary?.startsWith('{') ? (JSON.parse(summary) as Progress) : { payouts: 0, paid: 0, members: 0 });

const runRow = (ctx: EngineCtx, job: JobName, date: string) =>
  prepared(ctx.sqlite, 'select id, job, business_date as date, status, cursor, summary from job_runs where job = ? and business_date = ?').get(job, date) as
    | RunRow
    | undefined;

/** Claims the run; answers false when it is already claimed (done, or running elsewhere / unfinished). */
function claim(ctx: EngineCtx, job: JobName, date: string, at: number): boolean {
  return moneyTransaction(ctx, () => {
    const inserted = prepared(
      ctx.sqlite,
      "insert into job_runs (job, business_date, status, cursor, started_at, summary) values (?, ?, 'running', 0, ?, ?) on conflict(job, business_date) do nothing",
    ).run(job, date, ctx.clock.now(), JSON.stringify({ payouts: 0, paid: 0, members: 0 }));
    if (inserted.changes === 0) return false;
    if (job === 'binary') foldVolumes(ctx, date, at);
    return true;
  });
}

/**
 * Folds the day's own volumes up the binary tree in one pass, deepest members first: each
 * member hands its subtree's volume to its parent's leg. Binary volume lands in
 * left/right_pending (matched by the chunks), rank volume straight into the lifetime
 * rank_left/right with a 'rank' volume row. Runs inside the claim's transaction, so the
 * fold and the claim commit together or not at all.
 */
function foldVolumes(ctx: EngineCtx, date: string, at: number): void {
  // Each column comes as one JSON array (aggregated in SQLite, parsed by V8): a row at a time
  // through the driver costs several times more at 1,000,000 members. The columns of one
  // aggregate query list the rows in the same order; the values are integers (exact in JSON
  // below 2^53, as every amount here).
  const columns = prepared(
    ctx.sqlite,
    `select json_group_array(member_id) as ids, json_group_array(depth) as depths, json_group_array(own_binary_pending) as ownBinary,
            json_group_array(own_rank_pending) as ownRank, json_group_array(rank_left) as rankLeft, json_group_array(rank_right) as rankRight
       from binary_stats`,
  ).get() as Record<'ids' | 'depths' | 'ownBinary' | 'ownRank' | 'rankLeft' | 'rankRight', string>;
  const statsIds = JSON.parse(columns.ids) as number[];
  const depths = JSON.parse(columns.depths) as number[];
  const members = prepared(
    ctx.sqlite,
    'select json_group_array(id) as ids, json_group_array(parent_id) as parents, json_group_array(side) as sides from members',
  ).get() as Record<'ids' | 'parents' | 'sides', string>;
  const memberIds = JSON.parse(members.ids) as number[];
  let maxId = 0;
  for (const id of statsIds) if (id > maxId) maxId = id;
  for (const id of memberIds) if (id > maxId) maxId = id;
  // Dense arrays by member id: a Map or an object per member costs several times more memory and GC.
  const hasStats = new Uint8Array(maxId + 1);
  const depthOf = new Int32Array(maxId + 1);
  const ownBinary = new Float64Array(maxId + 1);
  const ownRank = new Float64Array(maxId + 1);
  const rankLeftBefore = new Float64Array(maxId + 1);
  const rankRightBefore = new Float64Array(maxId + 1);
  let minDepth = 0;
  let maxDepth = 0;
  for (const [column, into] of [
    ['ownBinary', ownBinary],
    ['ownRank', ownRank],
    ['rankLeft', rankLeftBefore],
    ['rankRight', rankRightBefore],
  ] as const) {
    const values = JSON.parse(columns[column]) as number[];
    for (let i = 0; i < statsIds.length; i++) into[statsIds[i]!] = values[i]!;
  }
  for (let i = 0; i < statsIds.length; i++) {
    const id = statsIds[i]!;
    const depth = depths[i]!;
    hasStats[id] = 1;
    depthOf[id] = depth;
    if (depth < minDepth) minDepth = depth;
    if (depth > maxDepth) maxDepth = depth;
  }
  const rows = statsIds.length;
  const NOT_A_MEMBER = -2;
  const NO_PARENT = -1;
  const parentOf = new Float64Array(maxId + 1).fill(NOT_A_MEMBER);
  const onLeft = new Uint8Array(maxId + 1);
  const parents = JSON.parse(members.parents) as (number | null)[];
  const sides = JSON.parse(members.sides) as ('0' | '1' | null)[];
  for (let i = 0; i < memberIds.length; i++) {
    const id = memberIds[i]!;
    parentOf[id] = parents[i] ?? NO_PARENT;
    onLeft[id] = sides[i] === '0' ? 1 : 0;
  }
  // The members with a binary_stats row, deepest first and, within a depth, highest id first:
  // the order of the depth index read backwards, the order the rank volume rows were always
  // written in (their ids follow it).
  const bucketStart = new Int32Array(maxDepth - minDepth + 2);
  for (let id = 0; id <= maxId; id++) if (hasStats[id]) bucketStart[maxDepth - depthOf[id]! + 1]!++;
  for (let d = 1; d < bucketStart.length; d++) bucketStart[d]! += bucketStart[d - 1]!;
  const order = new Float64Array(rows);
  for (let id = maxId; id >= 0; id--) if (hasStats[id]) order[bucketStart[maxDepth - depthOf[id]!]!++] = id;

  const binaryLeft = new Float64Array(maxId + 1);
  const binaryRight = new Float64Array(maxId + 1);
  const rankLeft = new Float64Array(maxId + 1);
  const rankRight = new Float64Array(maxId + 1);
  for (const id of order) {
    const parentId = parentOf[id]!;
    if (parentId < 0) continue; // the root, or a binary_stats row without a member: neither passes volume up
    const binary = ownBinary[id]! + binaryLeft[id]! + binaryRight[id]!;
    const rank = ownRank[id]! + rankLeft[id]! + rankRight[id]!;
    if (binary === 0 && rank === 0) continue;
    if (onLeft[id]) {
      binaryLeft[parentId]! += binary;
      rankLeft[parentId]! += rank;
    } else {
      binaryRight[parentId]! += binary;
      rankRight[parentId]! += rank;
    }
  }
  // One statement per row with movement or own volume, in id order (the table's order, so each
  // page is visited once): both legs' pending binary volume, lifetime rank volume, and the own
  // volumes just folded set back to 0. Only members receive volume; every row's own volume is
  // cleared.
  const addVolume = prepared(
    ctx.sqlite,
    'update binary_stats set left_pending = left_pending + ?, right_pending = right_pending + ?, rank_left = rank_left + ?, rank_right = rank_right + ? where member_id = ?',
  );
  const addVolumeAndClear = prepared(
    ctx.sqlite,
    `update binary_stats set left_pending = left_pending + ?, right_pending = right_pending + ?, rank_left = rank_left + ?, rank_right = rank_right + ?,
            own_binary_pending = 0, own_rank_pending = 0 where member_id = ?`,
  );
  const clear = prepared(ctx.sqlite, 'update binary_stats set own_binary_pending = 0, own_rank_pending = 0 where member_id = ?');
  const moves = (id: number) => parentOf[id] !== NOT_A_MEMBER && (binaryLeft[id] !== 0 || binaryRight[id] !== 0 || rankLeft[id] !== 0 || rankRight[id] !== 0);
  for (let id = 0; id <= maxId; id++) {
    if (!hasStats[id]) continue;
    const folded = ownBinary[id]! > 0 || ownRank[id]! > 0;
    if (moves(id)) (folded ? addVolumeAndClear : addVolume).run(binaryLeft[id], binaryRight[id], rankLeft[id], rankRight[id], id);
    else if (folded) clear.run(id);
  }
  // The rank volume rows in the fold's order, with the new lifetime totals.
  const entries = rowWriter(ctx.sqlite, 'volume_entries', ['kind', 'trans_id', 'member_id', 'volume', 'left_volume', 'left_total', 'right_volume', 'right_total', 'status', 'created_at']);
  const compact = compactDate(date);
  for (const id of order) {
    const rl = rankLeft[id]!;
    const rr = rankRight[id]!;
    if (moves(id) && (rl > 0 || rr > 0)) entries.push(['rank', `RV${compact}M${id}`, id, rl + rr, rl, rankLeftBefore[id]! + rl, rr, rankRightBefore[id]! + rr, 'Credited', at]);
  }
  entries.end();
}

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
    message: (usdt) => `You earned $${usdt} daily ROI for ${date}.`,
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
  // The volume rows first: they read the legs as they were before the carry is written.
  const entries = prepared(
    ctx.sqlite,
    `insert into volume_entries (kind, trans_id, member_id, volume, left_volume, left_carry, left_total, right_volume, right_carry, right_total, status, created_at)
     select 'binary', 'BV' || @date || 'M' || member_id, member_id, matched, left_pending, left_carry + left_pending - matched, left_total + left_pending,
            right_pending, right_carry + right_pending - matched, right_total + right_pending, case when matched > 0 then 'Matched' else 'Carried' end, @at
       from (select member_id, left_pending, right_pending, left_carry, right_carry, left_total, right_total, ${MATCHED} as matched
               from binary_stats where member_id > @cursor and member_id <= @last and ${HAS_NEW_VOLUME})
      order by member_id`,
  ).run(chunk);
  // Every expression reads the row as it was before this update (SQL semantics).
  const carried = prepared(
    ctx.sqlite,
    `update binary_stats set left_carry = left_carry + left_pending - ${MATCHED}, right_carry = right_carry + right_pending - ${MATCHED},
            left_total = left_total + left_pending, right_total = right_total + right_pending, left_pending = 0, right_pending = 0
      where member_id > @cursor and member_id <= @last and ${HAS_NEW_VOLUME}`,
  ).run({ cursor, last });
  if (entries.changes !== members || carried.changes !== members) throw new Error(`binary chunk after ${cursor}: ${members} members, ${entries.changes} rows, ${carried.changes} carries`);
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
    message: (usdt) => `You earned $${usdt} binary income on ${date} (matched volume $${microsToAmount(matched)}).`,
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
    const message = `Congratulations! You reached the ${r.name} rank${r.reward > 0 ? ` and earned a $${r.reward} reward` : ''}.`;
    payouts.notifications.push({ memberId, type: 'Rank_Achieved', message, transId, createdAt: at });
  }
  prepared(ctx.sqlite, 'update binary_stats set rank = ?, rank_updated_at = ? where member_id = ?').run(ranks[reached]!.name, at, memberId);
}

/** SQL of the plan's ranks as a VALUES list (idx, name, left, right micro-units), cached per plan. */
const rankValues = new WeakMap<object, string>();
function ranksSql(ctx: EngineCtx): string {
  let values = rankValues.get(ctx.plan);
  if (!values) {
    values = ranksInMicros(ctx)
      .map((r, i) => `(${i}, '${r.name.replaceAll("'", "''")}', ${r.left}, ${r.right})`)
      .join(', ');
    rankValues.set(ctx.plan, values);
  }
  return values;
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
type ChunkWork = (ctx: EngineCtx, cursor: number, date: string, at: number, limit: number, progress: Progress, payouts: Payouts) => number | undefined;

/** ROI: the next members with an ACTIVE subscription bought before the run. */
const roiChunk: ChunkWork = (ctx, cursor, date, at, limit, progress, payouts) => {
  const chunk = roiSubscriptionsAfter(ctx, cursor, at, limit);
  if (!chunk) return undefined;
  for (const [id, subscriptions] of chunk.subscriptions) {
    // Members whose every subscription is newer than the run are not paid (and not counted).
    if (id <= chunk.last && subscriptions[0]!.createdAt <= at) payRoi(ctx, id, subscriptions, date, at, progress, payouts);
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
  const near = prepared(
    ctx.sqlite,
    `with ranks(idx, name, l, r) as (values ${ranksSql(ctx)})
     select b.member_id as id, b.rank as rank, b.rank_left as rl, b.rank_right as rr from binary_stats b
       join ranks cur on cur.name = b.rank join ranks nxt on nxt.idx = cur.idx + 1
      where b.member_id > ? and b.rank_left >= nxt.l and b.rank_right >= nxt.r
      order by b.member_id limit ?`,
  ).all(cursor, limit) as RankRow[];
  if (near.length === 0) return undefined;
  const ranks = ranksInMicros(ctx);
  const leaders = qualifiedLeaders(ctx, near.map((s) => s.id));
  for (const s of near) evaluateRank(ctx, s, ranks, leaders.get(s.id) ?? 0, at, progress, payouts);
  return near.at(-1)!.id;
};

const chunkWork: Record<JobName, ChunkWork> = { roi: roiChunk, binary: binaryChunk, ranks: ranksChunk };

/** One chunk in its own transaction; answers false when the run has nothing left. */
function runChunk(ctx: EngineCtx, job: JobName, date: string, at: number): boolean {
  const more = moneyTransaction(ctx, () => {
    const run = runRow(ctx, job, date)!;
    if (run.status === 'done') return false;
    const progress = readProgress(run.summary);
    // A member appears once in a chunk, so what a chunk reads of its members up front (their
    // subscriptions) is still theirs when their turn comes. Credits and notifications are
    // queued and written together before the cursor moves.
    const payouts = newPayouts();
    const last = chunkWork[job](ctx, run.cursor, date, at, engineHooks.chunkSize, progress, payouts);
    if (last === undefined) {
      prepared(ctx.sqlite, "update job_runs set status = 'done', finished_at = ?, summary = ? where id = ?").run(
        ctx.clock.now(),
        summaryText(job, progress),
        run.id,
      );
      return false;
    }
    writePayouts(ctx, payouts);
    prepared(ctx.sqlite, 'update job_runs set cursor = ?, summary = ? where id = ?').run(last, JSON.stringify(progress), run.id);
    return true;
  });
  if (more) engineHooks.afterChunk?.(job, date, runRow(ctx, job, date)!.cursor);
  return more;
}

function summaryText(job: JobName, p: Progress): string {
  const what = job === 'roi' ? 'ROI' : job === 'binary' ? 'binary matching' : 'rank evaluation';
  const unit = job === 'ranks' ? 'members near a new rank' : 'members';
  return `${what}: ${p.members} ${unit}, ${p.payouts} payouts, ${microsToAmount(p.paid)} USDT`;
}

/** Works a claimed run to its end; answers its report. */
function finish(ctx: EngineCtx, job: JobName, date: string): JobRunReport {
  const at = scheduledAt(job, date);
  while (runChunk(ctx, job, date, at));
  return { job, date, summary: runRow(ctx, job, date)!.summary ?? '' };
}

/** Finishes every run a previous process left unfinished, oldest first. Call at start. */
export function resumeUnfinishedRuns(ctx: EngineCtx): JobRunReport[] {
  return withRunCache(ctx, () => {
    const running = prepared(ctx.sqlite, "select job, business_date as date from job_runs where status = 'running' order by id").all() as { job: JobName; date: string }[];
    return running.map(({ job, date }) => finish(ctx, job, date));
  });
}

/** Runs every run due in (from, to], in order, each at most once; answers those this call worked on. */
export function runDueJobs(ctx: EngineCtx, from: number, to: number): JobRunReport[] {
  return withRunCache(ctx, () => {
    const ran = resumeUnfinishedRuns(ctx);
    const due = dueRuns(from, to);
    if (due.some((r) => r.job === 'binary')) backfillBinaryStats(ctx);
    for (const { job, date, at } of due) {
      if (!claim(ctx, job, date, at)) continue;
      ran.push(finish(ctx, job, date));
    }
    return ran;
  });
}

/** SQLite page cache while runs work, KiB. */
const RUN_CACHE_KIB = 65_536;
/**
 * Runs `work` with the connection's page cache raised to RUN_CACHE_KIB (never lowered), then
 * puts the setting back. A run walks whole tables (binary_stats, subscriptions, accounts) and
 * its chunks re-read pages the fold or the chunk before wrote; the default 2 MB keeps few of
 * them. Memory only: durability settings are untouched.
 */
function withRunCache<T>(ctx: EngineCtx, work: () => T): T {
  const previous = ctx.sqlite.pragma('cache_size', { simple: true }) as number;
  const pageSize = ctx.sqlite.pragma('page_size', { simple: true }) as number;
  // A positive cache_size counts pages, a negative one KiB.
  const previousKib = previous < 0 ? -previous : (previous * pageSize) / 1024;
  if (previousKib >= RUN_CACHE_KIB) return work();
  ctx.sqlite.pragma(`cache_size = -${RUN_CACHE_KIB}`);
  try {
    return work();
  } finally {
    ctx.sqlite.pragma(`cache_size = ${previous}`);
  }
}

/** Where a process starting up should catch up from: the last run's due instant, or now for a new database. */
export function catchUpFrom(ctx: EngineCtx): number {
  const last = prepared(ctx.sqlite, 'select job, business_date as date from job_runs order by business_date desc, id desc limit 1').get() as
    | { job: JobName; date: string }
    | undefined;
  return last ? scheduledAt(last.job, last.date) : ctx.clock.now();
}

/**
 * Real-time scheduling for `npm start`: once a minute, run what fell due since the last look
 * (catching up from the last recorded run after a stop). Runs already done are skipped by
 * their job_runs key, so the QA clock and this timer never pay a day twice.
 */
export function startJobTimer(ctx: EngineCtx, onError: (error: unknown) => void, everyMs = 60_000): () => void {
  let from = catchUpFrom(ctx);
  const tick = () => {
    try {
      const now = ctx.clock.now();
      if (now > from) {
        runDueJobs(ctx, from, now);
        from = now;
      }
    } catch (error) {
      onError(error);
    }
  };
  tick();
  const timer = setInterval(tick, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
