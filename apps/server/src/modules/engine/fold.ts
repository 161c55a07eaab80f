/**
 * The fold of a day's volumes up the binary tree, in chunks (DESIGN §5–6; jobs.ts runs it).
 *
 * A purchase adds its volumes to the buyer's own_binary_pending / own_rank_pending only. The
 * day's binary run hands them to every ancestor's leg: binary volume into left/right_pending
 * (matched by the run's 'pay' phase), rank volume into the lifetime rank_left/right with a
 * 'rank' volume row. At 1,000,000 members that is seconds of writing, so it cannot be one
 * transaction (every request would wait for it); it is two phases of short chunks, each chunk
 * one transaction that also moves the run's cursor (jobs.ts runChunk):
 *
 * 1. 'stage', by member id: each member with own volume gets `staged_* = own_*`,
 *    `staged_run = <this run's job_runs id>`, `own_* = 0`. A chunk commits with the cursor, so
 *    after a crash the members up to the cursor are staged and those after it are not: each
 *    member's volume is staged exactly once. A purchase while this phase runs adds to own_*:
 *    it is staged today if its member's chunk has not been done yet, otherwise it waits in
 *    own_* for tomorrow's run; either way it is counted exactly once.
 * 2. 'fold': the fold is computed in memory from the staged values of this run (staged_run =
 *    run id), the members' parent and side, and their depth, read in one read transaction (no
 *    lock taken: requests keep writing meanwhile), deepest members first as before. Its result,
 *    what each member's legs receive, is then written in chunks by member id after the cursor.
 *    Nothing it reads changes until the run is done: staged values are written only by the
 *    'stage' phase of a run, and the next binary run cannot start before this one is done;
 *    placement never changes an existing member's parent, side or depth; a member registered
 *    during the run is a leaf with nothing staged, so it neither passes nor receives anything.
 *    So a process resuming this phase after a crash computes the very same fold and writes
 *    what the cursor says is left: each member's legs receive the day's volume exactly once.
 *    The lifetime totals of a 'rank' row are read in the chunk that adds to them.
 *
 * New purchases during the fold and the matching land in own_* for the next day. Staged values
 * are never cleared: staged_run tells whose they are, and the next run's stage overwrites them.
 * (A database from before this design has runs whose fold ran inside the claim: those rows are
 * in phase 'pay' and never come here.)
 */
import { rowWriter } from '../ledger/sql.ts';
import { prepared, type EngineCtx } from './income.ts';
import { compactDate } from './runs.ts';

/** What the fold gives: members whose legs receive volume, ascending, with the four amounts each. */
export interface Fold {
  /** The job_runs id it was computed for. */
  runId: number;
  ids: Float64Array;
  binaryLeft: Float64Array;
  binaryRight: Float64Array;
  rankLeft: Float64Array;
  rankRight: Float64Array;
}

const HAS_OWN_VOLUME = '(own_binary_pending <> 0 or own_rank_pending <> 0)';

/**
 * Stages the own volumes of the members in (cursor, cursor + span]; answers the new cursor, or
 * undefined when the cursor has passed every member (the phase is over). Caller holds the
 * transaction.
 */
export function stageChunk(ctx: EngineCtx, runId: number, cursor: number, span: number): number | undefined {
  const { last } = prepared(ctx.sqlite, 'select max(member_id) as last from binary_stats').get() as {
    last: number | null;
  };
  if (last === null || cursor >= last) return undefined;
  const upTo = Math.min(last, cursor + Math.max(1, span));
  prepared(
    ctx.sqlite,
    `update binary_stats set staged_binary = own_binary_pending, staged_rank = own_rank_pending, staged_run = ?, own_binary_pending = 0, own_rank_pending = 0
      where member_id > ? and member_id <= ? and ${HAS_OWN_VOLUME}`,
  ).run(runId, cursor, upTo);
  return upTo;
}

/**
 * The fold of run `runId`'s staged volumes: one pass over the members with a binary_stats row,
 * deepest first, each handing its subtree's volume to its parent's leg. Reads in one read
 * transaction (a consistent snapshot, no write lock); pure otherwise.
 */
export function computeFold(ctx: EngineCtx, runId: number): Fold {
  return ctx.sqlite.transaction(() => foldFromRows(ctx, runId)).deferred();
}

function foldFromRows(ctx: EngineCtx, runId: number): Fold {
  // A day without purchases stages nothing: nothing to fold, and no need to read the whole tree
  // (a clock moved a month at 100,000 members did it on every day).
  if (
    prepared(ctx.sqlite, 'select 1 from binary_stats where staged_run = ? limit 1').get(runId) === undefined
  ) {
    const none = new Float64Array(0);
    return { runId, ids: none, binaryLeft: none, binaryRight: none, rankLeft: none, rankRight: none };
  }
  // Each column comes as one JSON array (aggregated in SQLite, parsed by V8): a row at a time
  // through the driver costs several times more at 1,000,000 members. The columns of one
  // aggregate query list the rows in the same order; the values are integers (exact in JSON
  // below 2^53, as every amount here).
  const columns = prepared(
    ctx.sqlite,
    `select json_group_array(member_id) as ids, json_group_array(depth) as depths,
            json_group_array(case when staged_run = @run then staged_binary else 0 end) as stagedBinary,
            json_group_array(case when staged_run = @run then staged_rank else 0 end) as stagedRank
       from binary_stats`,
  ).get({ run: runId }) as Record<'ids' | 'depths' | 'stagedBinary' | 'stagedRank', string>;
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
  let minDepth = 0;
  let maxDepth = 0;
  for (const [column, into] of [
    ['stagedBinary', ownBinary],
    ['stagedRank', ownRank],
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
  // The members with a binary_stats row, deepest first (within a depth, highest id first).
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
  // Only members with a binary_stats row receive (as the single-pass fold always did).
  const receives = (id: number) =>
    hasStats[id] === 1 &&
    parentOf[id] !== NOT_A_MEMBER &&
    (binaryLeft[id] !== 0 || binaryRight[id] !== 0 || rankLeft[id] !== 0 || rankRight[id] !== 0);
  let count = 0;
  for (let id = 0; id <= maxId; id++) if (receives(id)) count++;
  const fold: Fold = {
    runId,
    ids: new Float64Array(count),
    binaryLeft: new Float64Array(count),
    binaryRight: new Float64Array(count),
    rankLeft: new Float64Array(count),
    rankRight: new Float64Array(count),
  };
  let i = 0;
  for (let id = 0; id <= maxId; id++) {
    if (!receives(id)) continue;
    fold.ids[i] = id;
    fold.binaryLeft[i] = binaryLeft[id]!;
    fold.binaryRight[i] = binaryRight[id]!;
    fold.rankLeft[i] = rankLeft[id]!;
    fold.rankRight[i] = rankRight[id]!;
    i++;
  }
  return fold;
}

/**
 * Writes the fold for the next `limit` receiving members after `cursor` (by id): both legs'
 * pending binary volume, the lifetime rank volume and its 'rank' volume row with the new totals.
 * Answers the last member written, or undefined when none is left. Caller holds the transaction.
 */
export function writeFoldChunk(
  ctx: EngineCtx,
  fold: Fold,
  cursor: number,
  limit: number,
  date: string,
  at: number,
): number | undefined {
  // First receiving member after the cursor (binary search: ids ascend).
  let lo = 0;
  let hi = fold.ids.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (fold.ids[mid]! <= cursor) lo = mid + 1;
    else hi = mid;
  }
  if (lo === fold.ids.length) return undefined;
  const end = Math.min(fold.ids.length, lo + Math.max(1, limit));
  const entries = rowWriter(ctx.sqlite, 'volume_entries', [
    'kind',
    'trans_id',
    'member_id',
    'side',
    'volume',
    'left_volume',
    'left_total',
    'right_volume',
    'right_total',
    'status',
    'created_at',
  ]);
  const compact = compactDate(date);
  // Members are updated FOLD_BATCH per statement: one statement per member was ~2.5 s of the
  // 1,000,000-member run (the driver's per-call cost, not SQLite's work).
  for (let from = lo; from < end; from += FOLD_BATCH) {
    const to = Math.min(end, from + FOLD_BATCH);
    const params: number[] = [];
    for (let i = from; i < to; i++)
      params.push(
        fold.ids[i]!,
        fold.binaryLeft[i]!,
        fold.binaryRight[i]!,
        fold.rankLeft[i]!,
        fold.rankRight[i]!,
      );
    const totals = addToLegs(ctx, to - from).all(params) as {
      id: number;
      rankLeft: number;
      rankRight: number;
    }[];
    if (totals.length !== to - from) {
      const updated = new Set(totals.map((t) => t.id));
      const missing = Array.from(fold.ids.subarray(from, to)).find((id) => !updated.has(id));
      throw new Error(`fold of run ${fold.runId}: member ${missing} has no binary_stats row`);
    }
    // RETURNING's order is unspecified: the 'rank' rows follow the fold's order, by id.
    totals.sort((a, b) => a.id - b.id);
    for (let i = from; i < to; i++) {
      const rl = fold.rankLeft[i]!;
      const rr = fold.rankRight[i]!;
      const { id, rankLeft, rankRight } = totals[i - from]!;
      // A row per leg credited, as the binary rows (spec §2 Volume: Side is the leg, Volume its credit).
      if (rl > 0)
        entries.push(['rank', `RV${compact}M${id}`, id, '0', rl, rl, rankLeft, 0, rankRight, 'Credited', at]);
      if (rr > 0)
        entries.push(['rank', `RV${compact}M${id}`, id, '1', rr, 0, rankLeft, rr, rankRight, 'Credited', at]);
    }
  }
  entries.end();
  return fold.ids[end - 1]!;
}

/** Members whose legs one statement of the fold's write updates. */
const FOLD_BATCH = 64;

/** The update adding `rows` members' fold to their legs (the fold's ids are distinct), answering their new rank totals. */
const addToLegs = (ctx: EngineCtx, rows: number) =>
  prepared(
    ctx.sqlite,
    `update binary_stats set left_pending = left_pending + v.column2, right_pending = right_pending + v.column3,
            rank_left = rank_left + v.column4, rank_right = rank_right + v.column5
       from (values ${Array<string>(rows).fill('(?, ?, ?, ?, ?)').join(', ')}) as v
      where binary_stats.member_id = v.column1
      returning member_id as id, rank_left as rankLeft, rank_right as rankRight`,
  );
