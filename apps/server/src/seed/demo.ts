/**
 * The `demo` scenario: deterministic (faker with a fixed seed, dates relative to the clock).
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
 * Every member gets a Welcome notification and each sponsor a New_Registration one; demo gets
 * further Security_Alert / Profile_Update / System ones up to DEMO_NOTIFICATIONS in total.
 */
import { Faker, base, en } from '@faker-js/faker';
import { count, eq } from 'drizzle-orm';
import { notifications } from '@md/db';
import { DEMO_PASSWORD_HASH } from '../core/passwords.ts';
import type { Member, Services } from '../core/services.ts';
import { COUNTRIES } from '../modules/auth/countries.ts';
import { insertMember } from '../modules/auth/members.ts';
import type { Side } from '../modules/network/placement.ts';
import { notify } from '../modules/notifications/notify.ts';
import { seedDemoMoney, type DemoMoneyFacts } from './demo-money.ts';

export const DEMO_TOTP_SECRET = 'KRUGS4ZANFZSAZDFNVXSAMTGMEQGWZLZ';
export const DEMO_GENERATED_MEMBERS = 120;
export const DEMO_NOTIFICATIONS = 45;
const FAKER_SEED = 20_260_101;
const DAY = 24 * 60 * 60 * 1000;
const HISTORY_DAYS = 180;

export interface DemoFacts {
  /** Depth of demo's binary legs (levels below demo), left and right. */
  binaryDepth: { left: number; right: number };
  /** Deepest sponsor level below demo among the members of each binary leg. */
  sponsorDepth: { left: number; right: number };
  directs: number;
  /** demo's wallets after the money history (USDT). */
  money?: DemoMoneyFacts;
}

const EXTRA_NOTIFICATIONS: ReadonlyArray<readonly [string, string]> = [
  ['Security_Alert', 'New sign-in from Chrome on Windows.'],
  ['Security_Alert', 'New sign-in from Safari on iPhone.'],
  ['Profile_Update', 'Your profile details were updated.'],
  ['System', 'Scheduled maintenance on Sunday 02:00–03:00 UK time.'],
  ['System', 'New packages are available in the Package section.'],
  ['Security_Alert', 'Remember to turn on two-factor authentication in Settings.'],
];

export function seedDemo(services: Services): { scenario: 'demo'; members: number; notifications: number; demo: DemoFacts } {
  const faker = new Faker({ locale: [en, base] });
  faker.seed(FAKER_SEED);
  const now = services.clock.now();
  const start = now - HISTORY_DAYS * DAY;

  const demo = insertMember(services, {
    username: 'demo',
    name: 'Demo Member',
    email: 'demo@example.com',
    country: 'United Kingdom',
    passwordHash: DEMO_PASSWORD_HASH,
    sponsorId: null,
    side: '0',
    createdAt: start,
  });
  notify(services, demo.id, 'Welcome', 'Welcome, Demo Member! Your account is ready.', 'SEED-W-000', start);

  const join = (member: Member, sponsor: Member) => {
    notify(services, member.id, 'Welcome', `Welcome, ${member.name}! Your account is ready.`, `SEED-W-${member.id}`, member.createdAt);
    notify(
      services,
      sponsor.id,
      'New_Registration',
      `${member.name} (${member.username}) joined your team on the ${member.side === '0' ? 'left' : 'right'} leg.`,
      `SEED-R-${member.id}`,
      member.createdAt,
    );
  };

  const demo2fa = insertMember(services, {
    username: 'demo2fa',
    name: 'Demo Two-Factor',
    email: 'demo2fa@example.com',
    country: 'United Kingdom',
    passwordHash: DEMO_PASSWORD_HASH,
    sponsorId: demo.id,
    side: '1',
    createdAt: start + DAY,
    totpSecret: DEMO_TOTP_SECRET,
  });
  join(demo2fa, demo);

  const legs: Record<Side, Member[]> = { '0': [], '1': [demo2fa] };
  const generated: Member[] = [];
  const spacing = Math.floor(((HISTORY_DAYS - 10) * DAY) / DEMO_GENERATED_MEMBERS);
  for (let n = 1; n <= DEMO_GENERATED_MEMBERS; n++) {
    const leg: Side = n % 2 === 1 ? '0' : '1';
    const members = legs[leg];
    const first = faker.person.firstName();
    const last = faker.person.lastName();
    const byDemo = members.length === 0 || faker.number.int({ min: 1, max: 8 }) === 1;
    const sponsor = byDemo ? demo : faker.helpers.arrayElement(members.slice(-4));
    const side: Side = byDemo ? leg : faker.helpers.arrayElement(['0', '1'] as const);
    const username = `${first.toLowerCase().replace(/[^a-z0-9]/g, '') || 'member'}_${String(n).padStart(3, '0')}`;
    const member = insertMember(services, {
      username,
      name: `${first} ${last}`,
      email: `${username}@example.com`,
      country: faker.helpers.arrayElement(COUNTRIES),
      passwordHash: DEMO_PASSWORD_HASH,
      sponsorId: sponsor.id,
      side,
      createdAt: start + 2 * DAY + n * spacing + faker.number.int({ min: 0, max: 6 * 60 * 60 * 1000 }),
    });
    join(member, sponsor);
    members.push(member);
    generated.push(member);
  }

  const money = seedDemoMoney(services, demo, generated, now);

  // Top demo's notifications up to DEMO_NOTIFICATIONS, spread over the last weeks.
  const demoCount = () => services.db.select({ n: count() }).from(notifications).where(eq(notifications.memberId, demo.id)).get()?.n ?? 0;
  const missing = DEMO_NOTIFICATIONS - demoCount();
  for (let i = 0; i < missing; i++) {
    const [type, message] = EXTRA_NOTIFICATIONS[i % EXTRA_NOTIFICATIONS.length]!;
    notify(services, demo.id, type, message, `SEED-X-${String(i + 1).padStart(3, '0')}`, now - (i + 1) * 13 * 60 * 60 * 1000);
  }

  const totals = services.sqlite
    .prepare<[], { members: number; notifications: number }>(
      'select (select count(*) from members) as members, (select count(*) from notifications) as notifications',
    )
    .get()!;
  return { scenario: 'demo', ...totals, demo: { ...demoFacts(services, demo.id), money } };
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
  const depthOf = (rows: { leg: Side; depth: number }[], leg: Side) => rows.find((r) => r.leg === leg)?.depth ?? 0;
  const directs = services.sqlite.prepare<[number], { n: number }>('select count(*) as n from members where sponsor_id = ?').get(rootId)?.n ?? 0;
  return {
    binaryDepth: { left: depthOf(binary, '0'), right: depthOf(binary, '1') },
    sponsorDepth: { left: depthOf(sponsor, '0'), right: depthOf(sponsor, '1') },
    directs,
  };
}
