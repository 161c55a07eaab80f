/**
 * Builds a declared world state (packages/shared world-state.ts) into a freshly migrated, empty
 * database, through the domain functions only: members by the registration and placement
 * function, money by ledger transfers (deposits paid as QA pays them, opening balances by a
 * qa_credit transfer from the qa_funding system account), packages by the purchase function,
 * withdrawals by the request function and QA's decision, notifications by notify. The engine's
 * daily runs are played between the declared times (seed/simulation.ts), so every ROI, binary,
 * level and rank income is the engine's. One transaction: a fault found while building (a domain
 * function refusing) is answered with the JSON path it concerns, and changes nothing.
 */
import type { MemberWallet } from '@md/db';
import {
  amountToMicros,
  findWorldPlan,
  legPrefix,
  legStarts,
  MIN_DEPOSIT,
  worldStateError,
  worldStateFaults,
  worldStatePath,
  type WorldLeg,
  type WorldMember,
  type WorldState,
  type WorldStateFault,
} from '@md/shared';
import { AppError, badRequest } from '../core/errors.ts';
import { immediateTransaction } from '../core/prepared.ts';
import { DEMO_PASSWORD, DEMO_PASSWORD_HASH, hashPasswordSync } from '../core/passwords.ts';
import { newTotpSecret } from '../core/totp.ts';
import type { Member, Services } from '../core/services.ts';
import { insertMember } from '../modules/auth/members.ts';
import { DEPOSIT_WINDOW_MS, expireDeposit, openDeposit, payDeposit } from '../modules/deposits/deposits.ts';
import { backfillBinaryStats } from '../modules/engine/stats.ts';
import { dueRuns } from '../modules/engine/schedule.ts';
import { moneyTransaction, nextTransId, transfer } from '../modules/ledger/ledger.ts';
import { flushTeamSizes, teamSizeBatch, type TeamSizeBatch } from '../modules/network/placement.ts';
import { notify } from '../modules/notifications/notify.ts';
import { buyPackage } from '../modules/packages/packages.ts';
import { setTransactionPasswordHash } from '../modules/security/security.ts';
import { decideWithdrawal, requestWithdrawal } from '../modules/withdrawals/withdrawals.ts';
import { DEMO_TRANSACTION_PASSWORD, DEMO_TRANSACTION_PASSWORD_HASH } from './demo-money.ts';
import { createSimulation, type Simulation } from './simulation.ts';

/** Where a declared withdrawal goes when it names no address (a fixed, valid BEP.20 address). */
export const WORLD_WITHDRAWAL_ADDRESS = '0x8ba1f109551bD432803012645Ac136ddd64DBA72';
const DEFAULT_COUNTRY = 'United Kingdom';
const MINUTE = 60_000;

/** How far a build is: members registered of those declared and generated, daily runs paid of those owed. */
export interface WorldBuildProgress {
  members: { done: number; total: number };
  runs: { done: number; total: number };
}
/** The longest a build goes without telling its progress. */
const PROGRESS_EVERY_MS = 250;

export interface WorldStateSummary {
  members: number;
  /** Daily runs the engine paid between start and date. */
  runs: number;
  /** The clock's time at the end (the declared date), epoch ms. */
  now: number;
}

/** A refusal found while building, naming the path it concerns (a 400 like a parse fault). */
class WorldBuildError extends AppError {
  constructor(readonly faults: WorldStateFault[]) {
    super(400, worldStateError(faults));
  }
}

/**
 * Builds `state` (already parsed by parseWorldState) into `services`' empty database and sets the
 * clock to its date. Synchronous; throws a 400 AppError naming each fault's path (and leaves the
 * database and clock as they were) when the server's plan or a domain function refuses.
 */
export function buildWorldState(
  services: Services,
  state: WorldState,
  onProgress?: (progress: WorldBuildProgress) => void,
): WorldStateSummary {
  // The server's own plan may differ from the default one parseWorldState checked against.
  const faults = worldStateFaults(state, services.plan);
  if (faults.length > 0) throw new WorldBuildError(faults);
  const date = Date.parse(state.date);
  const start = state.start === undefined ? date : Date.parse(state.start);
  try {
    return immediateTransaction(services.sqlite, (): WorldStateSummary => {
      const members = new Map<string, Member>();
      const total = {
        members:
          state.members.length + (state.legs ?? []).reduce((n, leg) => n + (leg.count ?? leg.depth), 0),
        runs: dueRuns(start, date).length,
      };
      let told = 0;
      let runsPaid = 0;
      const tell = (runs = runsPaid, force = false) => {
        runsPaid = runs;
        const now = Date.now();
        if (!onProgress || (!force && now - told < PROGRESS_EVERY_MS)) return;
        told = now;
        onProgress({
          members: { done: members.size, total: total.members },
          runs: { done: Math.min(runs, total.runs), total: total.runs },
        });
      };
      const sim = createSimulation(services, start, tell);
      state.members.forEach((declared, index) =>
        scheduleMember(sim, declared, index, members, { start, date }),
      );
      const legTimes = legStarts(state);
      state.legs?.forEach((leg, index) =>
        sim.at(legTimes[index]!, (at) =>
          attempt(['legs', index], () => buildLeg(sim, leg, members, at, () => tell())),
        ),
      );
      const played = sim.run(date);
      tell(played.runs, true);
      backfillBinaryStats(services);
      // Last, inside the transaction: a clock the database refuses to store rolls the build back.
      services.clock.set(date);
      const { count } = services.sqlite.prepare('select count(*) as count from members').get() as {
        count: number;
      };
      return { members: count, runs: played.runs, now: services.clock.now() };
    });
  } catch (error) {
    // The stored offset rolled back with the transaction: the clock follows the database.
    services.clock.reload();
    throw error;
  }
}

/**
 * A generated leg: the chain first, each member sponsored by the one above on `side`; the rest
 * hang off the chain on the other side, top first. Placed as one batch (one team_size pass).
 */
function buildLeg(
  sim: Simulation,
  leg: WorldLeg,
  members: Map<string, Member>,
  at: number,
  /** Told after each member (a leg of thousands is one action): the build's progress. */
  onMember?: () => void,
) {
  const under = members.get(leg.under)!;
  const prefix = legPrefix(leg);
  const count = leg.count ?? leg.depth;
  const chain: Member[] = [];
  const teamSizes = teamSizeBatch();
  for (let n = 1; n <= count; n++) {
    const inChain = n <= leg.depth;
    const sponsor = inChain ? (chain[n - 2] ?? under) : chain[(n - leg.depth - 1) % leg.depth]!;
    const side = inChain ? leg.side : leg.side === '0' ? '1' : '0';
    const member = register(sim, { username: `${prefix}${n}` }, { sponsor, side, at, teamSizes });
    members.set(member.username, member);
    if (inChain) chain.push(member);
    if (leg.plan !== undefined) buy(sim, member.id, leg.plan, at);
    onMember?.();
  }
  flushTeamSizes(sim.services.sqlite, teamSizes);
}

/** Runs `work`; a domain refusal becomes a fault at `path`. */
function attempt<T>(path: readonly PropertyKey[], work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (error instanceof WorldBuildError) throw error;
    if (error instanceof AppError && error.status < 500)
      throw new WorldBuildError([{ path: worldStatePath(path), message: error.message }]);
    throw error;
  }
}

function register(
  sim: Simulation,
  declared: Pick<WorldMember, 'username'> & Partial<WorldMember>,
  place: {
    sponsor: Member | null;
    side: '0' | '1';
    at: number;
    totpSecret?: string;
    teamSizes?: TeamSizeBatch;
  },
): Member {
  const password = declared.password ?? DEMO_PASSWORD;
  return insertMember(
    sim.services,
    {
      username: declared.username,
      name: declared.name ?? declared.username,
      email: declared.email ?? `${declared.username}@example.com`,
      country: declared.country ?? DEFAULT_COUNTRY,
      // The seeds' password keeps its precomputed hash: a leg of thousands costs no KDF time.
      passwordHash: password === DEMO_PASSWORD ? DEMO_PASSWORD_HASH : hashPasswordSync(password),
      sponsorId: place.sponsor?.id ?? null,
      side: place.side,
      createdAt: place.at,
      ...(place.totpSecret ? { totpSecret: place.totpSecret } : {}),
    },
    place.teamSizes,
  );
}

/** A package bought as a member does: a deposit of its price paid just before, then the purchase. */
function buy(sim: Simulation, memberId: number, plan: string | number, at: number) {
  const ctx = sim.services;
  const pkg = findWorldPlan(ctx.plan, plan);
  if (!pkg) throw badRequest(`Unknown package ${JSON.stringify(plan)}`);
  const price = amountToMicros(pkg.price);
  const deposit = openDeposit(ctx, memberId, Math.max(price, amountToMicros(MIN_DEPOSIT)), 'USDT.BEP20', at);
  payDeposit(ctx, deposit.id, undefined, at);
  return buyPackage(ctx, memberId, pkg.name, at);
}

/** An opening balance: one transfer from the qa_funding system account, reason qa_credit. */
function creditForQa(sim: Simulation, memberId: number, wallet: MemberWallet, micros: number, at: number) {
  const ctx = sim.services;
  moneyTransaction(ctx, () =>
    transfer(ctx, [
      {
        transId: nextTransId(ctx, 'QC', 'transfers'),
        from: { system: 'qa_funding' },
        to: { member: memberId, wallet },
        amount: micros,
        reason: 'qa_credit',
        memberId,
        at,
      },
    ]),
  );
}

function scheduleMember(
  sim: Simulation,
  declared: WorldMember,
  index: number,
  members: Map<string, Member>,
  { start, date }: { start: number; date: number },
) {
  const ctx = sim.services;
  const path = ['members', index] as const;
  const joinedAt = declared.joinedAt === undefined ? start : Date.parse(declared.joinedAt);
  const time = (value: string | undefined, fallback: number) =>
    value === undefined ? fallback : Date.parse(value);
  let member: Member | undefined;

  sim.at(joinedAt, (at) =>
    attempt(path, () => {
      const sponsor = declared.sponsor === undefined ? null : members.get(declared.sponsor)!;
      const totpSecret =
        declared.twoFactor === undefined
          ? undefined
          : declared.twoFactor === true
            ? newTotpSecret()
            : declared.twoFactor.secret;
      member = register(sim, declared, {
        sponsor,
        side: declared.side ?? '0',
        at,
        ...(totpSecret ? { totpSecret } : {}),
      });
      members.set(member.username, member);
      for (const [wallet, amount] of Object.entries(declared.wallets ?? {}))
        if (amount !== undefined)
          creditForQa(sim, member.id, wallet as MemberWallet, amountToMicros(amount), at);
      if (declared.transactionPassword !== undefined)
        setTransactionPasswordHash(
          ctx,
          member.id,
          declared.transactionPassword === DEMO_TRANSACTION_PASSWORD
            ? DEMO_TRANSACTION_PASSWORD_HASH
            : hashPasswordSync(declared.transactionPassword),
        );
    }),
  );

  declared.packages?.forEach((p, j) =>
    sim.at(time(p.at, joinedAt), (at) =>
      attempt([...path, 'packages', j], () => buy(sim, member!.id, p.plan, at)),
    ),
  );

  declared.deposits?.forEach((d, j) => {
    const status = d.status ?? 'PAID';
    // A PENDING window opens a minute before the date unless told, so it is still open then.
    const opened = time(
      d.at,
      status === 'PENDING' ? Math.max(joinedAt, date - MINUTE) : status === 'EXPIRED' ? joinedAt : date,
    );
    sim.at(opened, (at) =>
      attempt([...path, 'deposits', j], () => {
        const deposit = openDeposit(
          ctx,
          member!.id,
          amountToMicros(d.amount),
          d.currency ?? 'USDT.BEP20',
          at,
        );
        if (status === 'PAID') payDeposit(ctx, deposit.id, undefined, at);
        if (status === 'EXPIRED')
          sim.at(at + DEPOSIT_WINDOW_MS, () =>
            attempt([...path, 'deposits', j], () => expireDeposit(ctx, deposit.id)),
          );
      }),
    );
  });

  declared.withdrawals?.forEach((w, j) => {
    const wPath = [...path, 'withdrawals', j] as const;
    const requested = time(w.at, date);
    sim.at(requested, (at) =>
      attempt(wPath, () => {
        const address = w.address ?? WORLD_WITHDRAWAL_ADDRESS;
        const row = requestWithdrawal(ctx, member!.id, amountToMicros(w.amount), address, at);
        const status = w.status ?? 'PENDING';
        if (status !== 'PENDING')
          sim.at(time(w.decidedAt, at), (decidedAt) =>
            attempt(wPath, () =>
              decideWithdrawal(ctx, row.id, status === 'APPROVED' ? 'approve' : 'reject', decidedAt),
            ),
          );
      }),
    );
  });

  declared.notifications?.forEach((n, j) =>
    sim.at(time(n.at, date), (at) =>
      attempt([...path, 'notifications', j], () => notify(ctx, member!.id, n.type, n.message, undefined, at)),
    ),
  );
}
