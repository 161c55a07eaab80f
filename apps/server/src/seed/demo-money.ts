/**
 * The money of the `demo` simulation, scheduled as actions that call the money modules (never
 * rows written by hand); the engine pays every income between them. Deterministic (its own
 * faker seed, so the team's names never move when this story changes).
 *
 * demo: deposits of 5,000, 2,000 and 1,500 (paid) and one of 300 that expired; packages Platinum
 * (day 0) and Silver (day 40), both ACTIVE; transaction password Txn@123 and a saved BEP.20
 * address; in the last days a P2P of 100 to a direct, swaps Direct → Withdrawal of 300 and
 * Direct → Deposit of 50, a withdrawal of 100 APPROVED and one of 50 PENDING. Its ROI, Direct,
 * Level, Binary and Rank wallets hold what the engine paid it.
 *
 * The team (demo2fa never buys, so it stays a member without a package): every direct of demo
 * and about 60 % of the others deposit and buy a package a few hours after joining (some helped
 * by a P2P from their sponsor, some after a deposit window that expired); a quarter of them
 * upgrade weeks later; every two weeks a buyer cashes out: the reward wallets are swapped to
 * Withdrawal (now and then ROI to Deposit instead), a withdrawal is requested (the first time
 * with a transaction password Txn@123 and an address set just before) and decided a day
 * later (one of a member's first six rejected and refunded); requests of the last day stay PENDING for QA.
 */
import { Faker, base, en } from '@faker-js/faker';
import { getAddress } from 'viem';
import { MIN_DEPOSIT, MIN_WITHDRAWAL, REWARD_WALLETS, amountToMicros, microsToAmount } from '@md/shared';
import type { Member } from '../core/services.ts';
import { expireDeposit, openDeposit, payDeposit, DEPOSIT_WINDOW_MS } from '../modules/deposits/deposits.ts';
import { walletBalance } from '../modules/ledger/ledger.ts';
import { buyPackage } from '../modules/packages/packages.ts';
import { saveWalletAddress, setTransactionPasswordHash } from '../modules/security/security.ts';
import { sendP2p } from '../modules/transfers/p2p.ts';
import { swapWallets } from '../modules/wallets/wallets.ts';
import { decideWithdrawal, requestWithdrawal } from '../modules/withdrawals/withdrawals.ts';
import type { PlannedMember } from './demo-team.ts';
import type { Simulation } from './simulation.ts';

/** scrypt hash of the demo transaction password 'Txn@123' (every demo member's), precomputed so seeding costs no KDF time. */
export const DEMO_TRANSACTION_PASSWORD = 'Txn@123';
export const DEMO_TRANSACTION_PASSWORD_HASH =
  'scrypt$16384$8$1$H8RfSLysYk5v5XJsgWDVsA$zUv1x_VJnJ3PX-uPnp8FG_oAUi368ko0i_2Jz7sCWws';
export const DEMO_WALLET_ADDRESS = '0x842dad94eaA5655D6452EEe18419FaA8a085dab8';

const MONEY_FAKER_SEED = 20_260_301;
const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const CASH_OUT_EVERY = 14 * DAY;

export interface DemoMoneyFacts {
  deposit: number;
  withdrawal: number;
  direct: number;
  roi: number;
  binary: number;
  level: number;
  rank: number;
  activePackages: string[];
}

export interface DemoWorld {
  demo: Member;
  team: readonly PlannedMember[];
  /** Team members by plan index, filled as they join. */
  joined: readonly Member[];
  sponsorOf(planned: PlannedMember): Member;
  start: number;
  now: number;
}

/** Schedules the money story on `sim`; answers a function that reads demo's wallets once it has run. */
export function scheduleDemoMoney(sim: Simulation, world: DemoWorld): () => DemoMoneyFacts {
  const ctx = sim.services;
  const { demo, team, joined, start, now } = world;
  const faker = new Faker({ locale: [en, base] });
  faker.seed(MONEY_FAKER_SEED);
  const tiers = ctx.plan.packages;
  const balance = (memberId: number, wallet: Parameters<typeof walletBalance>[2]) =>
    walletBalance(ctx, memberId, wallet);

  /** A deposit opened and paid in full five minutes later. */
  const paidDeposit = (memberId: number, micros: number, at: number) => {
    const deposit = openDeposit(
      ctx,
      memberId,
      micros,
      faker.helpers.arrayElement(['USDT.BEP20', 'USDT.BEP20', 'BNB.BSC']),
      at,
    );
    payDeposit(ctx, deposit.id, undefined, at + 5 * MINUTE);
  };
  /** Tops the Deposit wallet up to the price (P2P money first) and buys. */
  const buy = (memberId: number, plan: string, at: number) => {
    const p2p = balance(memberId, 'P2P');
    if (p2p > 0) swapWallets(ctx, memberId, 'P2P', 'Deposit', p2p, at);
    const price = amountToMicros(tiers.find((p) => p.name === plan)!.price);
    const missing = price - balance(memberId, 'Deposit');
    if (missing > 0) paidDeposit(memberId, Math.max(missing, amountToMicros(MIN_DEPOSIT)), at);
    buyPackage(ctx, memberId, plan, at + 10 * MINUTE);
  };
  const later = (at: number, action: (at: number) => void) => {
    if (at < now) sim.at(at, action);
  };

  // demo's own story.
  sim.at(start + HOUR, (at) => paidDeposit(demo.id, amountToMicros(5000), at));
  sim.at(start + 2 * HOUR, (at) => buyPackage(ctx, demo.id, 'Platinum', at));
  sim.at(start + 5 * DAY, () => {
    setTransactionPasswordHash(ctx, demo.id, DEMO_TRANSACTION_PASSWORD_HASH);
    saveWalletAddress(ctx, demo.id, DEMO_WALLET_ADDRESS);
  });
  sim.at(start + 30 * DAY, (at) => paidDeposit(demo.id, amountToMicros(2000), at));
  sim.at(start + 40 * DAY, (at) => buyPackage(ctx, demo.id, 'Silver', at));
  sim.at(now - 50 * DAY, (at) => {
    const deposit = openDeposit(ctx, demo.id, amountToMicros(300), 'BNB.BSC', at);
    sim.at(at + DEPOSIT_WINDOW_MS, () => expireDeposit(ctx, deposit.id));
  });
  sim.at(now - 3 * DAY, (at) => paidDeposit(demo.id, amountToMicros(1500), at));
  sim.at(now - 2 * DAY, (at) => {
    const direct = team.findIndex((p) => p.sponsor === -1);
    sendP2p(ctx, demo.id, joined[direct]!.username, amountToMicros(100), at);
  });
  sim.at(now - 2 * DAY + HOUR, (at) =>
    swapWallets(ctx, demo.id, 'Direct', 'Withdrawal', amountToMicros(300), at),
  );
  sim.at(now - 2 * DAY + 2 * HOUR, (at) =>
    swapWallets(ctx, demo.id, 'Direct', 'Deposit', amountToMicros(50), at),
  );
  sim.at(now - DAY, (at) => {
    const approved = requestWithdrawal(ctx, demo.id, amountToMicros(100), DEMO_WALLET_ADDRESS, at);
    sim.at(at + 4 * HOUR, (decidedAt) => decideWithdrawal(ctx, approved.id, 'approve', decidedAt));
  });
  sim.at(now - 2 * HOUR, (at) =>
    requestWithdrawal(ctx, demo.id, amountToMicros(50), DEMO_WALLET_ADDRESS, at),
  );

  // The team. Every random draw happens here, up front, so the story is fixed before it plays.
  team.forEach((planned, index) => {
    const isDirect = planned.sponsor === -1;
    const buys = isDirect || faker.number.float() < 0.6;
    const tier = tiers[faker.number.int({ min: 0, max: Math.min(tiers.length, 4) - 1 })]!;
    const helpedBySponsor = !isDirect && planned.sponsor >= 0 && faker.number.float() < 0.2;
    const lapsedWindow = faker.number.float() < 0.1;
    const upgradeAfter = faker.number.float() < 0.25 ? faker.number.int({ min: 20, max: 40 }) * DAY : null;
    const compounds = faker.number.float() < 0.2;
    const rejectedRound = faker.number.int({ min: 1, max: 6 });
    // faker writes lowercase; stored and shown addresses are EIP-55 (no faker draw, so the run is unchanged).
    const address = getAddress(faker.finance.ethereumAddress());
    if (!buys) return;
    const join = planned.joinAt;
    const member = () => joined[index]!;

    if (helpedBySponsor)
      sim.at(join + HOUR, (at) => {
        const sponsor = world.sponsorOf(planned);
        // A P2P asks for a transaction password: the sponsor sets one the first time.
        setTransactionPasswordHash(ctx, sponsor.id, DEMO_TRANSACTION_PASSWORD_HASH);
        paidDeposit(sponsor.id, amountToMicros(25), at);
        sendP2p(ctx, sponsor.id, member().username, amountToMicros(25), at + 10 * MINUTE);
      });
    if (lapsedWindow)
      sim.at(join + HOUR + 30 * MINUTE, (at) => {
        const deposit = openDeposit(ctx, member().id, amountToMicros(tier.price), 'USDT.BEP20', at);
        sim.at(at + DEPOSIT_WINDOW_MS, () => expireDeposit(ctx, deposit.id));
      });
    sim.at(join + 3 * HOUR, (at) => buy(member().id, tier.name, at));
    if (upgradeAfter !== null) {
      const next = tiers[Math.min(tiers.indexOf(tier) + 1, tiers.length - 1)]!;
      later(join + upgradeAfter, (at) => buy(member().id, next.name, at));
    }

    let cashOuts = 0;
    let readyToWithdraw = false;
    for (let at = join + CASH_OUT_EVERY; at < now; at += CASH_OUT_EVERY) {
      const round = ++cashOuts;
      sim.at(at, (t) => {
        const id = member().id;
        for (const wallet of REWARD_WALLETS) {
          const amount = balance(id, wallet);
          if (amount === 0) continue;
          swapWallets(ctx, id, wallet, compounds && wallet === 'ROI' ? 'Deposit' : 'Withdrawal', amount, t);
        }
        // Whole dollars, as people type them.
        const amount = Math.floor(balance(id, 'Withdrawal') / 1_000_000) * 1_000_000;
        if (amount < amountToMicros(MIN_WITHDRAWAL)) return;
        // The first withdrawal is when a member sets a transaction password and an address.
        if (!readyToWithdraw) {
          setTransactionPasswordHash(ctx, id, DEMO_TRANSACTION_PASSWORD_HASH);
          saveWalletAddress(ctx, id, address);
          readyToWithdraw = true;
        }
        const request = requestWithdrawal(ctx, id, amount, address, t + MINUTE);
        later(t + DAY, (decidedAt) =>
          decideWithdrawal(ctx, request.id, round === rejectedRound ? 'reject' : 'approve', decidedAt),
        );
      });
    }
  });

  return () => ({
    deposit: microsToAmount(balance(demo.id, 'Deposit')),
    withdrawal: microsToAmount(balance(demo.id, 'Withdrawal')),
    direct: microsToAmount(balance(demo.id, 'Direct')),
    roi: microsToAmount(balance(demo.id, 'ROI')),
    binary: microsToAmount(balance(demo.id, 'Binary')),
    level: microsToAmount(balance(demo.id, 'Level')),
    rank: microsToAmount(balance(demo.id, 'Rank')),
    activePackages: ctx.sqlite
      .prepare<[number], { plan: string }>(
        "select plan from subscriptions where member_id = ? and status = 'ACTIVE' order by created_at, id",
      )
      .all(demo.id)
      .map((s) => s.plan),
  });
}
