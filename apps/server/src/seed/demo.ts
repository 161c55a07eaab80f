/**
 * The `demo` scenario, built by simulation: SIM_DAYS of registrations, deposits, purchases,
 * swaps, P2P transfers and withdrawals played in time order on a simulated clock, with the
 * engine's daily runs (ROI, binary matching, ranks) paid between them as on a live server, so
 * every income is the real engine's. Deterministic (faker with fixed seeds, times relative to
 * the clock; figures that depend on the weekday of "now" move by a day's ROI at most).
 *
 * Members:
 * - `demo` / Demo@1234, 'Demo Member', demo@example.com, the root of both trees.
 * - `demo2fa` / Demo@1234, sponsored by demo on the right leg, TOTP on with the fixed secret
 *   DEMO_TOTP_SECRET (add it to an authenticator, or read the code at GET /__qa/totp/demo2fa).
 * - 120 generated members named `<firstname>_<nnn>` (nnn = 001..120, e.g. `olivia_001`), email
 *   `<username>@example.com`, password Demo@1234. Odd nnn join the left leg of demo, even nnn
 *   the right leg; each is sponsored by demo (about 1 in 8) or by one of the four latest
 *   members of its leg, and placed by the same placement function registration uses, so both
 *   legs are many levels deep in the sponsor tree and the binary tree.
 * Every member gets a Welcome notification and each sponsor a New_Registration one; demo also
 * gets a few Security_Alert / Profile_Update / System ones. The team is planned in demo-team.ts, the
 * money in demo-money.ts.
 */
import { DEMO_PASSWORD_HASH } from '../core/passwords.ts';
import type { Member, Services } from '../core/services.ts';
import { insertMember } from '../modules/auth/members.ts';
import type { Side } from '../modules/network/placement.ts';
import { noticeCount } from '../modules/notifications/notices.ts';
import { notify } from '../modules/notifications/notify.ts';
import { scheduleDemoMoney, type DemoMoneyFacts } from './demo-money.ts';
import { planTeam, type PlannedMember } from './demo-team.ts';
import { createSimulation, type Simulation } from './simulation.ts';

export const DEMO_TOTP_SECRET = 'KRUGS4ZANFZSAZDFNVXSAMTGMEQGWZLZ';
/** Simulated days of history before "now" (13 whole weeks). */
export const SIM_DAYS = 91;
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

export interface DemoFacts {
  /** Depth of demo's binary legs (levels below demo), left and right. */
  binaryDepth: { left: number; right: number };
  /** Deepest sponsor level below demo among the members of each binary leg. */
  sponsorDepth: { left: number; right: number };
  directs: number;
  /** demo's wallets after the simulation (USDT). */
  money?: DemoMoneyFacts;
  /** Simulated days, actions played and daily runs paid. */
  simulation?: { days: number; actions: number; runs: number };
}

const EXTRA_NOTIFICATIONS: ReadonlyArray<readonly [string, string]> = [
  ['Security_Alert', 'New sign-in from Chrome on Windows.'],
  ['Security_Alert', 'New sign-in from Safari on iPhone.'],
  ['Profile_Update', 'Your profile details were updated.'],
  ['System', 'Scheduled maintenance on Sunday 02:00–03:00 UK time.'],
  ['System', 'New packages are available in the Package section.'],
  ['Security_Alert', 'Remember to turn on two-factor authentication in Settings.'],
];

export function seedDemo(services: Services): {
  scenario: 'demo';
  members: number;
  notifications: number;
  demo: DemoFacts;
} {
  const now = services.clock.now();
  const start = now - SIM_DAYS * DAY;
  const sim = createSimulation(services, start);
  const register = (
    s: Simulation,
    planned: Omit<PlannedMember, 'sponsor' | 'joinAt'>,
    sponsor: Member | null,
    at: number,
    totpSecret?: string,
  ) => {
    const member = insertMember(s.services, {
      ...planned,
      email: `${planned.username}@example.com`,
      passwordHash: DEMO_PASSWORD_HASH,
      sponsorId: sponsor?.id ?? null,
      createdAt: at,
      ...(totpSecret ? { totpSecret } : {}),
    });
    notify(
      s.services,
      member.id,
      'Welcome',
      `Welcome, ${member.name}! Your account is ready.`,
      `SEED-W-${member.id}`,
      at,
    );
    if (sponsor)
      notify(
        s.services,
        sponsor.id,
        'New_Registration',
        `${member.name} (${member.username}) joined your team on the ${member.side === '0' ? 'left' : 'right'} leg.`,
        `SEED-R-${member.id}`,
        at,
      );
    return member;
  };

  const demo = register(
    sim,
    { username: 'demo', name: 'Demo Member', country: 'United Kingdom', side: '0' },
    null,
    start,
  );
  let demo2fa: Member | undefined;
  sim.at(start + DAY, (at) => {
    demo2fa = register(
      sim,
      { username: 'demo2fa', name: 'Demo Two-Factor', country: 'United Kingdom', side: '1' },
      demo,
      at,
      DEMO_TOTP_SECRET,
    );
  });
  const team = planTeam(start, SIM_DAYS);
  const joined: Member[] = [];
  const sponsorOf = (p: PlannedMember) =>
    p.sponsor === -1 ? demo : p.sponsor === -2 ? demo2fa! : joined[p.sponsor]!;
  team.forEach((planned, i) =>
    sim.at(planned.joinAt, (at) => {
      joined[i] = register(sim, planned, sponsorOf(planned), at);
    }),
  );

  const money = scheduleDemoMoney(sim, { demo, team, joined, sponsorOf, start, now });
  EXTRA_NOTIFICATIONS.forEach(([type, message], i) =>
    sim.at(now - (i + 1) * 13 * HOUR, (at) =>
      notify(sim.services, demo.id, type, message, `SEED-X-${String(i + 1).padStart(3, '0')}`, at),
    ),
  );
  const played = sim.run(now);

  const totals = {
    members: services.sqlite.prepare('select count(*) from members').pluck().get() as number,
    notifications: noticeCount(services),
  };
  return {
    scenario: 'demo',
    ...totals,
    demo: { ...demoFacts(services, demo.id), money: money(), simulation: { days: SIM_DAYS, ...played } },
  };
}

/** Depths of the two legs of `rootId` in the binary tree and in the sponsor tree. */
export function demoFacts(services: Pick<Services, 'sqlite'>, rootId: number): DemoFacts {
  const binary = services.sqlite
    .prepare<[{ root: number }], { leg: Side; depth: number }>(
      `with recursive t(id, leg, depth) as (
         select id, side, 1 from members where parent_id = @root
         union all
         select m.id, t.leg, t.depth + 1 from members m join t on m.parent_id = t.id
       )
       select leg, max(depth) as depth from t group by leg`,
    )
    .all({ root: rootId });
  const sponsor = services.sqlite
    .prepare<[{ root: number }], { leg: Side; depth: number }>(
      `with recursive b(id, leg) as (
         select id, side from members where parent_id = @root
         union all
         select m.id, b.leg from members m join b on m.parent_id = b.id
       ), s(id, depth) as (
         select id, 1 from members where sponsor_id = @root
         union all
         select m.id, s.depth + 1 from members m join s on m.sponsor_id = s.id
       )
       select b.leg as leg, max(s.depth) as depth from s join b on b.id = s.id group by b.leg`,
    )
    .all({ root: rootId });
  const depthOf = (rows: { leg: Side; depth: number }[], leg: Side) =>
    rows.find((r) => r.leg === leg)?.depth ?? 0;
  const directs =
    services.sqlite
      .prepare<[number], { n: number }>('select count(*) as n from members where sponsor_id = ?')
      .get(rootId)?.n ?? 0;
  return {
    binaryDepth: { left: depthOf(binary, '0'), right: depthOf(binary, '1') },
    sponsorDepth: { left: depthOf(sponsor, '0'), right: depthOf(sponsor, '1') },
    directs,
  };
}
