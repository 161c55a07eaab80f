/**
 * The `demo` scenario's team as planned before the simulation plays it: 120 generated members,
 * their names, countries, sponsors, legs and join times. Its own file so that demo.ts (which
 * registers them) and demo-money.ts (which gives them money) both read the plan without importing
 * each other.
 */
import { Faker, base, en } from '@faker-js/faker';
import { COUNTRIES } from '../modules/auth/countries.ts';
import type { Side } from '../modules/network/placement.ts';

export const DEMO_GENERATED_MEMBERS = 120;
const FAKER_SEED = 20_260_101;
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

/** A member of the team as planned before the simulation: who, sponsored by whom (index into the plan, -1 = demo, -2 = demo2fa), when. */
export interface PlannedMember {
  username: string;
  name: string;
  country: string;
  sponsor: number;
  side: Side;
  joinAt: number;
}

/** The team: the same names, sponsors and legs on every seed (the member faker's call order is fixed). */
export function planTeam(start: number, simDays: number): PlannedMember[] {
  const faker = new Faker({ locale: [en, base] });
  faker.seed(FAKER_SEED);
  const legs: Record<Side, number[]> = { '0': [], '1': [] };
  const team: PlannedMember[] = [];
  const spacing = Math.floor(((simDays - 12) * DAY) / DEMO_GENERATED_MEMBERS);
  for (let n = 1; n <= DEMO_GENERATED_MEMBERS; n++) {
    const leg: Side = n % 2 === 1 ? '0' : '1';
    const members = legs[leg];
    const first = faker.person.firstName();
    const last = faker.person.lastName();
    // demo2fa opens the right leg, so the right leg's first generated member may be sponsored by it (index -2).
    const candidates = leg === '1' ? [-2, ...members] : members;
    const byDemo = candidates.length === 0 || faker.number.int({ min: 1, max: 8 }) === 1;
    const sponsor = byDemo ? -1 : faker.helpers.arrayElement(candidates.slice(-4));
    const side: Side = byDemo ? leg : faker.helpers.arrayElement(['0', '1'] as const);
    const username = `${first.toLowerCase().replace(/[^a-z0-9]/g, '') || 'member'}_${String(n).padStart(3, '0')}`;
    team.push({
      username,
      name: `${first} ${last}`,
      country: faker.helpers.arrayElement(COUNTRIES),
      sponsor,
      side,
      joinAt: start + 2 * DAY + n * spacing + faker.number.int({ min: 0, max: 6 * HOUR }),
    });
    members.push(n - 1);
  }
  return team;
}
