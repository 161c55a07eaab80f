/**
 * The `scale` scenario: N members (default 100,000) with realistic spillover trees and money, for
 * load tests, benchmarks and QA of the daily runs at scale. Sponsors are picked by preferential
 * attachment (big recruiters recruit more) and each member goes to the outer end of the chosen
 * leg of its sponsor, exactly as registration places people, which makes the binary tree very
 * deep (DESIGN §6 performance facts). The outer ends are found in memory with cached jumps along
 * each leg, then members and their binary_stats (with both trees' jump pointers) are bulk-inserted;
 * the whole scenario is one transaction.
 *
 * Money: about half the members, `demo` always, bought one package of the plan (cheaper
 * tiers more often) right after joining, paid by a deposit of its price. With `historyDays` (the
 * scenario's default for QA: SCALE_HISTORY_DAYS) the joining year ends that many days ago and the
 * real engine then plays those days' runs (runDueJobs, as the demo's simulation does): the first
 * binary run folds the year's volume up both legs and matches it, ranks follow, ROI is paid every
 * day, so every screen has figures at scale. Without (0, the daily-run benchmarks' start) no run
 * has happened: every package is ACTIVE (unless its sponsors' level income took it to its 3x
 * cap), its volume is still the buyer's own pending binary and rank volume, and the next runs
 * pay across the network. Each buyer gets the rows a deposit paid through QA and a purchase
 * write (payDeposit, buyPackage): a PAID deposit, its Deposit wallet (a wallet is created by its
 * first transfer), the ledger's deposit (deposits_clearing → Deposit) and purchase (Deposit →
 * package_sales) transfers, the subscription, the level income of its five sponsors (a
 * level_incomes row each, Direct and Level credits from `payouts` up to each one's cap, whose
 * notices the list reads from them), the pending volume and the purchase's notification; the ledger balances.
 * Written in bulk, in the order and with the ids those calls would give them (test: scale.test.ts
 * replays the purchases through the money modules and compares every row). One difference:
 * deposit addresses are `0x` + the deposit id in 40 decimal digits (a valid EIP-55 address, having
 * no letters) instead of keccak-256 of the TransID, which costs 15–60 µs each in JavaScript.
 *
 * Members: `demo` (the root, Demo@1234) and `m0000002`, `m0000003`, … all with Demo@1234.
 */
import { amountToMicros, EARNINGS_CAP_MULTIPLIER, formatMoney } from '@md/shared';
import { DEMO_PASSWORD_HASH } from '../core/passwords.ts';
import type { Services } from '../core/services.ts';
import { DEPOSIT_WINDOW_MS } from '../modules/deposits/deposits.ts';
import {
  CAP_REACHED_REASON,
  LEVEL_INCOME_COLUMNS,
  LEVEL_PERCENTAGES,
  percentOf,
} from '../modules/engine/income.ts';
import { runDueJobs } from '../modules/engine/jobs.ts';
import { markStatsComplete } from '../modules/engine/stats.ts';
import { monthOf } from '../modules/ledger/ledger.ts';
import { rowWriter } from '../modules/ledger/sql.ts';
import { roiBasisPoints } from '../modules/packages/packages.ts';
import { treePositions } from '../modules/network/jumps.ts';

export interface ScaleOptions {
  members?: number;
  /** Days of daily runs after the joining year (which then ends that many days ago); 0 by default. */
  historyDays?: number;
  /** Called every 10,000 members and at the end. */
  onProgress?: (done: number, total: number) => void;
}

export interface ScaleFacts {
  members: number;
  maxDepth: number;
  meanDepth: number;
  /** Members with an ACTIVE package (one each). */
  packages: number;
  /** Their binary volume, micro-units (waiting for the next binary run when no run was played). */
  packageVolume: number;
  /** Daily runs the engine played after the joining year (historyDays). */
  runs: number;
}

export const DEFAULT_SCALE_MEMBERS = 100_000;
/** The days of runs the `scale` scenario plays for QA (worlds, a reset): binary, ranks and ROI have figures. */
export const SCALE_HISTORY_DAYS = 4;
const DAY_MS = 86_400_000;

/**
 * Indexes the scenario fills in random order: by sponsor and parent, by depth, and the sponsors'
 * level income (its credits and rows go to them; their wallets open out of member order).
 */
const RANDOM_ORDER_INDEXES = [
  'members_sponsor',
  'members_parent_side',
  'binary_stats_depth',
  'accounts_member_wallet',
  'transfers_to_time',
  'notifications_member_time',
  'level_incomes_member_time',
];
/** Most KiB of page cache while seeding: about 1 KiB a member, 1 GiB at 1,000,000. */
const SEED_CACHE_KIB = 1_048_576;

export function seedScale(
  services: Pick<Services, 'sqlite' | 'db' | 'clock' | 'plan'>,
  options: ScaleOptions = {},
): ScaleFacts {
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

  const end = services.clock.now();
  const historyDays = Math.max(0, Math.floor(options.historyDays ?? 0));
  // The joining year ends `historyDays` before the clock; the runs of those days follow below.
  const now = end - historyDays * DAY_MS;
  // The indexes the scenario would fill in random order are dropped and built again at the end
  // (sorting is several times faster than inserting at random: at 1,000,000 members most rows
  // touched a page outside the cache); the others grow at their end and stay. The page cache is
  // raised meanwhile (memory only; put back after).
  const indexes = services.sqlite
    .prepare<[], { name: string; sql: string }>(
      `select name, sql from sqlite_master where type = 'index' and sql is not null and name in (${RANDOM_ORDER_INDEXES.map((t) => `'${t}'`).join(', ')})`,
    )
    .all();
  for (const { name } of indexes) services.sqlite.exec(`drop index "${name}"`);
  const cacheSize = services.sqlite.pragma('cache_size', { simple: true }) as number;
  services.sqlite.pragma(`cache_size = -${Math.min(SEED_CACHE_KIB, Math.max(2_000, total))}`);
  const money = scaleMoney(services, total, sponsor);
  const members = rowWriter(services.sqlite, 'members', [
    'id',
    'username',
    'name',
    'email',
    'country',
    'sponsor_id',
    'parent_id',
    'side',
    'created_at',
    'password_hash',
  ]);
  const stats = rowWriter(services.sqlite, 'binary_stats', [
    'member_id',
    'depth',
    'team_size',
    'binary_jump_id',
    'sponsor_depth',
    'sponsor_jump_id',
    'own_binary_pending',
    'own_rank_pending',
  ]);
  const countries = [
    'India',
    'Nigeria',
    'Philippines',
    'Indonesia',
    'Brazil',
    'United Kingdom',
    'Vietnam',
    'Pakistan',
  ];
  // Joining times spread over the past year, in id order; a buyer's deposit and purchase come
  // before the next member joins, so every table's rows are in time order.
  const span = 365 * 86_400_000;
  const gap = Math.floor(span / (total + 1));
  const joinedAtOf = (id: number) => now - span + Math.floor((span * id) / (total + 1));
  for (let id = 1; id <= total; id++) {
    const username = id === 1 ? 'demo' : `m${String(id).padStart(7, '0')}`;
    const joinedAt = joinedAtOf(id);
    members.push([
      id,
      username,
      id === 1 ? 'Demo Member' : `Member ${id}`,
      `${username}@example.com`,
      countries[id % countries.length],
      id === 1 ? null : sponsor[id],
      id === 1 ? null : parent[id],
      id === 1 ? null : String(side[id]),
      joinedAt,
      DEMO_PASSWORD_HASH,
    ]);
    const pkg = money.packageOf(id);
    stats.push([
      id,
      depth[id],
      team[id],
      binaryJump[id],
      sponsorPosition.depth[id],
      sponsorPosition.jump[id],
      pkg?.binaryVolume ?? 0,
      pkg?.rankVolume ?? 0,
    ]);
  }
  members.end();
  stats.end();
  // The money after every member's row: a level income's row carries its buyer's username
  // (migration 0020's trigger reads it from the buyer's row as the income is written).
  for (let id = 1; id <= total; id++) {
    const pkg = money.packageOf(id);
    if (pkg) money.buy(id, pkg, joinedAtOf(id), gap);
    if (id % 10_000 === 0) options.onProgress?.(id, total);
  }
  money.end();
  for (const { sql } of indexes) services.sqlite.exec(sql);
  services.sqlite.pragma(`cache_size = ${cacheSize}`);
  // Every member has its complete row: the start-up check need not look at them again.
  markStatsComplete(services, total);
  const runs = historyDays > 0 ? runDueJobs(services, now, end).length : 0;
  options.onProgress?.(total, total);
  return {
    members: total,
    maxDepth,
    meanDepth: total > 1 ? Math.round(depthSum / (total - 1)) : 0,
    packages: money.packages,
    packageVolume: money.volume,
    runs,
  };
}

/** A plan package with its figures in micro-units, and the texts its rows carry. */
interface SeedPackage {
  index: number;
  name: string;
  price: number;
  roiBasisPoints: number;
  binaryVolume: number;
  rankVolume: number;
  depositMessage: string;
  purchaseMessage: string;
}

/** Seed of the packages' own random sequence: the trees stay as they were before the scenario had money. */
const MONEY_SEED = 20_261_123;

/** Accounts by kind, as the seed numbers them. */
const DEPOSIT = 0;
const DIRECT = 1;
const LEVEL = 2;
const CLEARING = 3;
const SALES = 4;
const PAYOUTS = 5;
const ACCOUNT_NAMES = [
  'Deposit',
  'Direct',
  'Level',
  'deposits_clearing',
  'package_sales',
  'payouts',
] as const;

/**
 * Who buys what, and the rows that a deposit paid through QA and a purchase write for each buyer
 * (payDeposit, buyPackage with its level income), in the order those calls would write them:
 * deposits, transfers, level_incomes and notifications as they happen; accounts and
 * subscriptions at the end with their final balances and earnings (their ids are counted as
 * the calls would give them). Each member buys at most once, so a member's ACTIVE
 * subscriptions are its one package until level income takes it to its cap.
 */
function scaleMoney(services: Pick<Services, 'sqlite' | 'plan'>, total: number, sponsor: Int32Array) {
  const { sqlite, plan } = services;
  let seed = MONEY_SEED;
  const random = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let r = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
    return ((r ^ (r >>> 14)) >>> 0) / 4_294_967_296;
  };
  const packages: SeedPackage[] = plan.packages.map((p, index) => ({
    index,
    name: p.name,
    price: amountToMicros(p.price),
    roiBasisPoints: roiBasisPoints(p),
    binaryVolume: amountToMicros(p.binaryVolume),
    rankVolume: amountToMicros(p.rankVolume),
    depositMessage: `Your deposit of ${formatMoney(p.price)} was received and credited to your Deposit wallet.`,
    purchaseMessage: `You purchased the ${p.name} package for ${formatMoney(p.price)}.`,
  }));
  // Cheaper tiers more often: weights n, n - 1, …, 1 over the plan's order.
  const weights = packages.map((_, i) => packages.length - i);
  const weightSum = weights.reduce((a, b) => a + b, 0);
  const choice = new Uint8Array(total + 1); // package index + 1, 0 for none
  for (let id = 1; id <= total; id++) {
    const buys = random() < 0.5;
    let pick = random() * weightSum;
    let index = 0;
    while (pick >= weights[index]!) pick -= weights[index++]!;
    if (buys || id === 1) choice[id] = index + 1;
  }
  const firstId = (table: string) =>
    (sqlite.prepare(`select coalesce(max(id), 0) + 1 as id from ${table}`).get() as { id: number }).id;
  // Accounts: created by their first transfer (a system account too), ids in that order.
  let nextAccount = firstId('accounts');
  const accountMember: number[] = [];
  const accountKind: number[] = [];
  const open = (member: number, kind: number) => {
    accountMember.push(member);
    accountKind.push(kind);
    return nextAccount++;
  };
  const system = [0, 0, 0, 0, 0, 0]; // CLEARING, SALES, PAYOUTS → account id, 0 before its first transfer
  const systemAccount = (kind: number) => (system[kind] ||= open(0, kind));
  const walletOf = [new Int32Array(total + 1), new Int32Array(total + 1), new Int32Array(total + 1)]; // DEPOSIT, DIRECT, LEVEL
  const balanceOf = [new Float64Array(total + 1), new Float64Array(total + 1), new Float64Array(total + 1)];
  // Each buyer's one subscription: id, time, what is left under its cap, when it reached it.
  let nextSubscription = firstId('subscriptions');
  const subscriptionOf = new Int32Array(total + 1);
  const boughtAtOf = new Float64Array(total + 1);
  const roomOf = new Float64Array(total + 1);
  const expiredAtOf = new Float64Array(total + 1);
  let nextDeposit = firstId('deposits');

  const deposits = rowWriter(sqlite, 'deposits', [
    'id',
    'trans_id',
    'member_id',
    'amount',
    'currency',
    'address',
    'status',
    'paid_amount',
    'created_at',
    'expires_at',
    'paid_at',
  ]);
  const moves = rowWriter(sqlite, 'transfers', [
    'trans_id',
    'from_account_id',
    'to_account_id',
    'amount',
    'reason',
    'member_id',
    'counterparty_member_id',
    'created_at',
  ]);
  const levelIncomes = rowWriter(sqlite, 'level_incomes', LEVEL_INCOME_COLUMNS);
  const notifications = rowWriter(sqlite, 'notifications', [
    'member_id',
    'type',
    'message',
    'trans_id',
    'created_at',
  ]);
  // Credits per account and UTC month (account_months, kept by ledger.post): the seed's time only
  // moves forward, so a month's rows are complete, and written, when the next month begins.
  const months = rowWriter(sqlite, 'account_months', ['account_id', 'month', 'credits']);
  const monthCredits = new Map<number, number>();
  let month = Number.NEGATIVE_INFINITY;
  let nextMonth = Number.NEGATIVE_INFINITY;
  const endMonth = () => {
    for (const [account, credits] of monthCredits) months.push([account, month, credits]);
    monthCredits.clear();
  };
  const credit = (account: number, amount: number, at: number) => {
    if (at >= nextMonth || at < month) {
      endMonth();
      month = monthOf(at);
      nextMonth = monthOf(month + 32 * 86_400_000);
    }
    monthCredits.set(account, (monthCredits.get(account) ?? 0) + amount);
  };
  const facts = { packages: 0, volume: 0, paid: 0, credited: 0 };
  const credits: [memberId: number, kind: number, amount: number, transId: string][] = [];

  return {
    packageOf: (id: number): SeedPackage | undefined => (choice[id] ? packages[choice[id] - 1] : undefined),
    /** The buyer's deposit (opened a quarter of the gap after joining, paid within its window) and its purchase just after. */
    buy(memberId: number, pkg: SeedPackage, joinedAt: number, gap: number) {
      const openedAt = joinedAt + Math.floor(gap / 4);
      const paidAt = openedAt + Math.min(Math.floor(gap / 4), DEPOSIT_WINDOW_MS / 2);
      const at = paidAt + 1;
      // payDeposit: deposits_clearing → the Deposit wallet, and its notification.
      const depositId = nextDeposit++;
      const depositTransId = `DP${String(depositId).padStart(8, '0')}`;
      deposits.push([
        depositId,
        depositTransId,
        memberId,
        pkg.price,
        'USDT.BEP20',
        `0x${String(depositId).padStart(40, '0')}`,
        'PAID',
        pkg.price,
        openedAt,
        openedAt + DEPOSIT_WINDOW_MS,
        paidAt,
      ]);
      const clearing = systemAccount(CLEARING);
      const depositWallet = (walletOf[DEPOSIT]![memberId] = open(memberId, DEPOSIT));
      moves.push([depositTransId, clearing, depositWallet, pkg.price, 'deposit', memberId, null, paidAt]);
      credit(depositWallet, pkg.price, paidAt);
      notifications.push([memberId, 'Deposit', pkg.depositMessage, depositTransId, paidAt]);
      // buyPackage: Deposit → package_sales, the subscription, level income, the volume, its notification.
      const subscriptionId = nextSubscription++;
      const transId = `PK${String(subscriptionId).padStart(8, '0')}`;
      moves.push([
        transId,
        depositWallet,
        systemAccount(SALES),
        pkg.price,
        'package_purchase',
        memberId,
        null,
        at,
      ]);
      credit(systemAccount(SALES), pkg.price, at);
      subscriptionOf[memberId] = subscriptionId;
      boughtAtOf[memberId] = at;
      roomOf[memberId] = pkg.price * EARNINGS_CAP_MULTIPLIER;
      // payLevelIncome: five sponsors up, each paid up to its package's cap (none without one).
      credits.length = 0;
      for (
        let level = 1, upline = sponsor[memberId]!;
        level <= LEVEL_PERCENTAGES.length && upline > 0;
        level++, upline = sponsor[upline]!
      ) {
        const percentage = LEVEL_PERCENTAGES[level - 1]!;
        const expected = percentOf(pkg.price, percentage);
        const active = subscriptionOf[upline]! > 0 && expiredAtOf[upline] === 0;
        const received = active ? Math.min(expected, roomOf[upline]!) : 0;
        const levelTransId = `LI${transId}L${level}`;
        if (received > 0) {
          roomOf[upline]! -= received;
          if (roomOf[upline] === 0) expiredAtOf[upline] = at;
          credits.push([upline, level === 1 ? DIRECT : LEVEL, received, levelTransId]);
        }
        levelIncomes.push([
          levelTransId,
          upline,
          memberId,
          transId,
          level,
          percentage,
          pkg.price,
          expected,
          received,
          at,
        ]);
      }
      if (credits.length > 0) {
        // creditFromSystem: the payouts account, then the wallets missing, in the credits' order.
        const payouts = systemAccount(PAYOUTS);
        for (const [upline, kind] of credits)
          if (!walletOf[kind]![upline]) walletOf[kind]![upline] = open(upline, kind);
        for (const [upline, kind, amount, levelTransId] of credits) {
          moves.push([
            levelTransId,
            payouts,
            walletOf[kind]![upline],
            amount,
            kind === DIRECT ? 'direct_income' : 'level_income',
            upline,
            memberId,
            at,
          ]);
          balanceOf[kind]![upline]! += amount;
          credit(walletOf[kind]![upline]!, amount, at);
          facts.credited += amount;
        }
      }
      notifications.push([memberId, 'Package_Purchase', pkg.purchaseMessage, transId, at]);
      facts.packages++;
      facts.volume += pkg.binaryVolume;
      facts.paid += pkg.price;
    },
    end() {
      endMonth();
      for (const writer of [deposits, moves, levelIncomes, notifications, months]) writer.end();
      // The subscriptions, in id order (= buyer order), with what level income took from their caps.
      const subscriptions = rowWriter(sqlite, 'subscriptions', [
        'id',
        'trans_id',
        'member_id',
        'plan',
        'amount',
        'roi_basis_points',
        'max_earnings',
        'total_earnings',
        'binary_volume',
        'rank_volume',
        'wallet',
        'status',
        'reason',
        'created_at',
        'end_date',
      ]);
      for (let id = 1; id <= total; id++) {
        if (!subscriptionOf[id]) continue;
        const pkg = packages[choice[id]! - 1]!;
        const max = pkg.price * EARNINGS_CAP_MULTIPLIER;
        const expired = expiredAtOf[id]! > 0;
        subscriptions.push([
          subscriptionOf[id],
          `PK${String(subscriptionOf[id]).padStart(8, '0')}`,
          id,
          pkg.name,
          pkg.price,
          pkg.roiBasisPoints,
          max,
          max - roomOf[id]!,
          pkg.binaryVolume,
          pkg.rankVolume,
          'Deposit',
          expired ? 'EXPIRED' : 'ACTIVE',
          expired ? CAP_REACHED_REASON : null,
          boughtAtOf[id],
          expired ? expiredAtOf[id] : null,
        ]);
      }
      subscriptions.end();
      // The accounts in id order, with their balances and running totals (debits, credits): every
      // Deposit wallet got its price and spent it; Direct and Level wallets were only credited;
      // the clearing and payouts accounts only debited, package_sales only credited.
      const systemDebits = [0, 0, 0, facts.paid, 0, facts.credited];
      const systemCredits = [0, 0, 0, 0, facts.paid, 0];
      const accounts = rowWriter(sqlite, 'accounts', [
        'id',
        'member_id',
        'wallet',
        'kind',
        'balance',
        'debits_posted',
        'credits_posted',
      ]);
      const firstAccount = nextAccount - accountMember.length;
      for (let i = 0; i < accountMember.length; i++) {
        const kind = accountKind[i]!;
        const member = accountMember[i]!;
        if (kind >= CLEARING) {
          accounts.push([
            firstAccount + i,
            null,
            ACCOUNT_NAMES[kind],
            'system',
            systemCredits[kind]! - systemDebits[kind]!,
            systemDebits[kind],
            systemCredits[kind],
          ]);
        } else if (kind === DEPOSIT) {
          const price = packages[choice[member]! - 1]!.price;
          accounts.push([firstAccount + i, member, ACCOUNT_NAMES[kind], 'member', 0, price, price]);
        } else {
          const credited = balanceOf[kind]![member]!;
          accounts.push([firstAccount + i, member, ACCOUNT_NAMES[kind], 'member', credited, 0, credited]);
        }
      }
      accounts.end();
    },
    get packages() {
      return facts.packages;
    },
    get volume() {
      return facts.volume;
    },
  };
}
