/**
 * The fold of the day's own volumes up the binary tree, run with the claim of a binary run
 * (jobs.ts).
 */
import { rowWriter } from '../ledger/sql.ts';
import { prepared, type EngineCtx } from './income.ts';
import { compactDate } from './runs.ts';

/**
 * Folds the day's own volumes up the binary tree in one pass, deepest members first: each
 * member hands its subtree's volume to its parent's leg. Binary volume lands in
 * left/right_pending (matched by the chunks), rank volume straight into the lifetime
 * rank_left/right with a 'rank' volume row. Runs inside the claim's transaction, so the
 * fold and the claim commit together or not at all.
 */
export function foldVolumes(ctx: EngineCtx, date: string, at: number): void {
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
