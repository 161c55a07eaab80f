/**
 * The `scale` scenario: N members (default 100,000) with realistic spillover trees, for load
 * tests and benchmarks. Sponsors are picked by preferential attachment (big recruiters recruit
 * more) and each member goes to the outer end of the chosen leg of its sponsor, exactly
 * as registration places people, which makes the binary tree very deep (DESIGN §6 performance
 * facts). The outer ends are found in memory with cached jumps along each leg, then members and
 * their binary_stats (with both trees' jump pointers) are bulk-inserted; the whole scenario is one
 * transaction.
 *
 * Members: `demo` (the root, Demo@1234) and `m0000002`, `m0000003`, … all with Demo@1234.
 */
import { DEMO_PASSWORD_HASH } from '../core/passwords.ts';
import type { Services } from '../core/services.ts';
import { markStatsComplete } from '../modules/engine/stats.ts';
import { treePositions } from '../modules/network/jumps.ts';

export interface ScaleOptions {
  members?: number;
  /** Called every 10,000 members and at the end. */
  onProgress?: (done: number, total: number) => void;
}

export interface ScaleFacts {
  members: number;
  maxDepth: number;
  meanDepth: number;
}

export const DEFAULT_SCALE_MEMBERS = 100_000;

export function seedScale(services: Pick<Services, 'sqlite' | 'clock'>, options: ScaleOptions = {}): ScaleFacts {
  const total = Math.max(1, Math.floor(options.members ?? DEFAULT_SCALE_MEMBERS));
  let seed = 20_261_122;
  const random = () => {
    // mulberry32: small, fast, deterministic
    seed = (seed + 0x6d2b79f5) | 0;
    let r = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
    return ((r ^ (r >>> 14)) >>> 0) / 4_294_967_296;
  };

  // Ids are 1..total; a member is always placed under an earlier one, so parent id < child id.
  const sponsor = new Int32Array(total + 1);
  const parent = new Int32Array(total + 1);
  const side = new Uint8Array(total + 1);
  const child = [new Int32Array(total + 1), new Int32Array(total + 1)] as const;
  // legEnd[s][m]: a member known to be on m's s-leg chain (a shortcut towards its outer end).
  const legEnd = [new Int32Array(total + 1), new Int32Array(total + 1)] as const;
  const visited: number[] = [];

  const outerEnd = (member: number, s: 0 | 1) => {
    let at = member;
    visited.length = 0;
    for (;;) {
      const jump = legEnd[s][at]!;
      const next = jump && jump !== at ? jump : child[s][at]!;
      if (!next) break;
      visited.push(at);
      at = next;
    }
    for (const v of visited) legEnd[s][v] = at;
    return at;
  };

  for (let id = 2; id <= total; id++) {
    // Preferential attachment: half the time the sponsor of a random member (big recruiters
    // recruit more), otherwise anyone. Recruits of one sponsor pile up at its legs' outer ends.
    const anyone = 1 + Math.floor(random() * (id - 1));
    const sponsorId = random() < 0.5 && anyone > 1 ? sponsor[anyone]! : anyone;
    const s: 0 | 1 = random() < 0.5 ? 0 : 1;
    const at = outerEnd(sponsorId, s);
    sponsor[id] = sponsorId;
    parent[id] = at;
    side[id] = s;
    child[s][at] = id;
    legEnd[s][at] = id;
  }

  const depth = new Int32Array(total + 1);
  let maxDepth = 0;
  let depthSum = 0;
  for (let id = 2; id <= total; id++) {
    depth[id] = depth[parent[id]!]! + 1;
    if (depth[id]! > maxDepth) maxDepth = depth[id]!;
    depthSum += depth[id]!;
  }
  const team = new Int32Array(total + 1);
  for (let id = total; id >= 2; id--) team[parent[id]!]! += team[id]! + 1;
  // Both trees' jump pointers, as placement would have set them (the scope checks walk them).
  const isMember = new Uint8Array(total + 1).fill(1, 1);
  const binaryJump = treePositions(parent, isMember).jump;
  const sponsorPosition = treePositions(sponsor, isMember);

  const now = services.clock.now();
  const insertMember = services.sqlite.prepare(
    `insert into members (id, username, name, email, country, sponsor_id, parent_id, side, created_at, password_hash)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertStats = services.sqlite.prepare(
    'insert into binary_stats (member_id, depth, team_size, binary_jump_id, sponsor_depth, sponsor_jump_id) values (?, ?, ?, ?, ?, ?)',
  );
  const countries = ['India', 'Nigeria', 'Philippines', 'Indonesia', 'Brazil', 'United Kingdom', 'Vietnam', 'Pakistan'];
  // Joining times spread over the past year, in id order.
  const span = 365 * 86_400_000;
  for (let id = 1; id <= total; id++) {
    const username = id === 1 ? 'demo' : `m${String(id).padStart(7, '0')}`;
    insertMember.run(
      id,
      username,
      id === 1 ? 'Demo Member' : `Member ${id}`,
      `${username}@example.com`,
      countries[id % countries.length],
      id === 1 ? null : sponsor[id],
      id === 1 ? null : parent[id],
      id === 1 ? null : String(side[id]),
      now - span + Math.floor((span * id) / (total + 1)),
      DEMO_PASSWORD_HASH,
    );
    insertStats.run(id, depth[id], team[id], binaryJump[id], sponsorPosition.depth[id], sponsorPosition.jump[id]);
    if (id % 10_000 === 0) options.onProgress?.(id, total);
  }
  // Every member has its complete row: the start-up check need not look at them again.
  markStatsComplete(services, total);
  options.onProgress?.(total, total);
  return { members: total, maxDepth, meanDepth: total > 1 ? Math.round(depthSum / (total - 1)) : 0 };
}
