import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetDatabase, seedScenario } from '../src/seed/index.ts';
import { addIsoDuration } from '../src/modules/qa/routes.ts';
import { createTestApp, type TestApp } from './helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seed: 'demo' });
});
afterAll(() => t.close());

describe('QA mailbox', () => {
  it('lists mails newest first, by email or username, case-insensitive', async () => {
    await t.post('/user/reset_password_email', { username: 'demo' });
    t.clock.advance(11_000);
    await t.post('/user/reset_password_email', { username: 'demo' });
    const byName =
      await t.get<{ to: string; subject: string; text: string; otp: string; sentAt: string }[]>(
        '/__qa/mailbox?to=DEMO',
      );
    expect(byName.status).toBe(200);
    expect(byName.body).toHaveLength(2);
    expect(byName.body[0]!.to).toBe('demo@example.com');
    expect(byName.body[0]!.text).toContain(byName.body[0]!.otp);
    expect(Date.parse(byName.body[0]!.sentAt)).toBeGreaterThan(Date.parse(byName.body[1]!.sentAt));
    expect((await t.get('/__qa/mailbox?to=Demo@Example.com')).body).toEqual(byName.body);
    expect((await t.get<unknown[]>('/__qa/mailbox')).body.length).toBeGreaterThanOrEqual(2);
    expect((await t.get('/__qa/mailbox?to=nobody@x.test')).body).toEqual([]);
  });
});

describe('QA clock', () => {
  it('reads, sets and advances; bad input is 400', async () => {
    const now = (await t.get<{ now: string }>('/__qa/clock')).body.now;
    expect(Date.parse(now)).toBe(t.clock.now());
    const set = await t.post('/__qa/clock?wait=true', { set: '2027-01-04T10:00:00Z' });
    // Setting the clock forward runs every daily run in between, in order (the income engine's ROI, matching and ranks).
    expect(set.status).toBe(200);
    const setBody = set.body as { now: string; ran: { job: string; date: string }[] };
    expect(setBody.now).toBe('2027-01-04T10:00:00.000Z');
    expect(setBody.ran.at(-1)).toMatchObject({ job: 'roi', date: '2027-01-04' });
    // Monday 2027-01-04: 11:00 London (= UTC in winter) falls inside 10:00–11:30: binary then ranks.
    const advanced = (
      await t.post<{ now: string; ran: { job: string; date: string }[] }>('/__qa/clock?wait=true', {
        advance: 'PT1H30M',
      })
    ).body;
    expect(advanced.now).toBe('2027-01-04T11:30:00.000Z');
    expect(advanced.ran.map((r) => [r.job, r.date])).toEqual([
      ['binary', '2027-01-04'],
      ['ranks', '2027-01-04'],
    ]);
    expect((await t.post('/__qa/clock?wait=true', { advance: 'P1D' })).body).toMatchObject({
      now: '2027-01-05T11:30:00.000Z',
    });
    expect(
      (await t.post('/__qa/clock?wait=true', { set: '2027-02-01T00:00:00Z', advance: 'P1M' })).body,
    ).toMatchObject({ now: '2027-03-01T00:00:00.000Z' });
    for (const body of [
      { advance: '1 hour' },
      { advance: 'P' },
      { advance: 'PT' },
      { set: 'yesterday' },
      { set: 5 },
      { other: 1 },
    ]) {
      const reply = await t.post<{ Error: string }>('/__qa/clock?wait=true', body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(typeof reply.body.Error).toBe('string');
    }
    expect((await t.post('/__qa/clock', undefined, { raw: '[]' })).status).toBe(400);
  });

  it('parses ISO-8601 durations', () => {
    const base = Date.UTC(2026, 0, 31);
    expect(addIsoDuration(base, 'PT10M')).toBe(base + 600_000);
    expect(addIsoDuration(base, 'P1W')).toBe(base + 7 * 86_400_000);
    expect(addIsoDuration(base, 'PT0.5S')).toBe(base + 500);
    expect(addIsoDuration(base, 'P1M')).toBe(Date.UTC(2026, 1, 28));
    expect(addIsoDuration(base, 'nope')).toBeNull();
  });
});

describe('QA scenarios and reset', () => {
  it('lists scenarios and rebuilds the database; unknown names are 400', async () => {
    const scenarios = await t.get<{ name: string; description: string }[]>('/__qa/scenarios');
    expect(scenarios.body.map((s) => s.name)).toEqual(['demo', 'empty', 'scale']);

    await t.post('/__qa/clock?wait=true', { advance: 'P3D' });
    const empty = await t.post('/__qa/reset', { scenario: 'empty' });
    expect(empty).toEqual({ status: 200, body: { scenario: 'empty', members: 0 } });
    expect(t.count('members') + t.count('notifications') + t.count('mail_outbox') + t.count('otps')).toBe(0);
    // The clock is back at its start (manual clock) / real time (offset 0).
    expect(t.clock.now()).toBe(Date.UTC(2026, 10, 2, 9, 0, 0));

    const demo = await t.post<{ scenario: string; members: number }>('/__qa/reset', { scenario: 'demo' });
    expect(demo.body).toEqual({ scenario: 'demo', members: 122 });
    await t.login('demo');
    expect((await t.post('/__qa/reset', { scenario: 'nope' })).status).toBe(400);
    expect((await t.post('/__qa/reset', { scenario: 5 })).status).toBe(400);
    // A failed reset changed nothing.
    expect(t.count('members')).toBe(122);
  });
});

describe('demo scenario', () => {
  // Its seeding time is a benchmark figure (docs/performance.md), not an assertion.
  it('is deterministic and deep on both legs of demo in both trees', { timeout: 120_000 }, async () => {
    const first = resetDatabase(t.services, 'demo');
    const names = () =>
      t.services.sqlite
        .prepare(
          'select username, name, email, country, sponsor_id, parent_id, side, created_at from members order by id',
        )
        .all();
    const firstMembers = names();
    const second = resetDatabase(t.services, 'demo');
    expect(second).toEqual(first);
    expect(names()).toEqual(firstMembers);
    expect(first.members).toBeGreaterThanOrEqual(100);
    expect(first.demo!.binaryDepth.left).toBeGreaterThanOrEqual(6);
    expect(first.demo!.binaryDepth.right).toBeGreaterThanOrEqual(6);
    expect(first.demo!.sponsorDepth.left).toBeGreaterThanOrEqual(6);
    expect(first.demo!.sponsorDepth.right).toBeGreaterThanOrEqual(6);
    // Generated names follow the documented pattern.
    const generated = firstMembers.slice(2) as { username: string; email: string }[];
    expect(
      generated.every(
        (m, i) =>
          m.username.endsWith(`_${String(i + 1).padStart(3, '0')}`) &&
          m.email === `${m.username}@example.com`,
      ),
    ).toBe(true);
    // Every binary slot holds at most one member, and each member sits in its sponsor's subtree.
    const orphan = t.services.sqlite
      .prepare(
        'select count(*) as n from members where parent_id is not null and parent_id not in (select id from members)',
      )
      .get() as { n: number };
    expect(orphan.n).toBe(0);
  });

  it('seeding twice into a seeded database is refused by the unique username index', () => {
    expect(() => seedScenario(t.services, 'demo')).toThrow();
    expect(t.count('members')).toBe(122);
  });
});

describe('QA API is off when qaControl is off', () => {
  it('answers 404', async () => {
    const app = await createTestApp({ seed: 'empty', config: { qaControl: false } });
    expect((await app.get('/__qa/clock')).status).toBe(404);
    await app.close();
  });
});
