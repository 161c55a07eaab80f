/** What the web app's QA panel needs from the server: the 'qa' capability and the next runs of the clock. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers.ts';

interface ClockReply {
  now: string;
  nextRuns: { job: string; date: string; at: string }[];
}

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seed: 'empty' });
});
afterAll(() => t.close());

describe('/config.json for the QA panel', () => {
  it("announces 'qa' only while QA control is on", async () => {
    expect((await t.get<{ capabilities: string[] }>('/config.json')).body.capabilities).toContain('qa');
    const off = await createTestApp({ seed: 'empty', config: { qaControl: false } });
    try {
      expect((await off.get<{ capabilities: string[] }>('/config.json')).body.capabilities).not.toContain(
        'qa',
      );
    } finally {
      await off.close();
    }
  });
});

describe('GET /__qa/clock nextRuns', () => {
  const clockAt = async (iso: string) => {
    await t.post('/__qa/clock?wait=true', { set: iso });
    return (await t.get<ClockReply>('/__qa/clock')).body;
  };

  it('answers the next run of each job in winter (London = UTC): ROI skips the weekend', async () => {
    // Friday 2027-01-08, 12:00 UTC: binary is next on Saturday 11:00, ROI only on Monday 00:05.
    const clock = await clockAt('2027-01-08T12:00:00Z');
    expect(clock.now).toBe('2027-01-08T12:00:00.000Z');
    expect(clock.nextRuns).toEqual([
      { job: 'binary', date: '2027-01-09', at: '2027-01-09T11:00:00.000Z' },
      { job: 'ranks', date: '2027-01-09', at: '2027-01-09T11:00:00.000Z' },
      { job: 'roi', date: '2027-01-11', at: '2027-01-11T00:05:00.000Z' },
    ]);
  });

  it('follows London wall-clock time across the change to summer time', async () => {
    // Saturday 2027-03-27; clocks go forward on Sunday 28 March: 11:00 BST is 10:00 UTC.
    const clock = await clockAt('2027-03-27T12:00:00Z');
    expect(clock.nextRuns.find((r) => r.job === 'binary')).toEqual({
      job: 'binary',
      date: '2027-03-28',
      at: '2027-03-28T10:00:00.000Z',
    });
    expect(clock.nextRuns.find((r) => r.job === 'roi')).toEqual({
      job: 'roi',
      date: '2027-03-29',
      at: '2027-03-28T23:05:00.000Z',
    });
  });

  it('setting the clock to the next binary instant runs binary matching and ranks for that day', async () => {
    const { nextRuns } = await clockAt('2027-03-27T12:00:00Z');
    const binary = nextRuns.find((r) => r.job === 'binary')!;
    const reply = await t.post<{ now: string; ran: { job: string; date: string }[] }>(
      '/__qa/clock?wait=true',
      {
        set: binary.at,
      },
    );
    expect(reply.body.now).toBe(binary.at);
    expect(reply.body.ran.map((r) => [r.job, r.date])).toEqual([
      ['binary', '2027-03-28'],
      ['ranks', '2027-03-28'],
    ]);
    // The run just made is no longer next: tomorrow's is.
    expect((await t.get<ClockReply>('/__qa/clock')).body.nextRuns.find((r) => r.job === 'binary')!.date).toBe(
      '2027-03-29',
    );
  });
});
