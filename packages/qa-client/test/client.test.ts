import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEMO_TOTP_SECRET } from '../../../apps/server/src/seed/demo.ts';
import { createQaClient, QaError, type CreatedWorld, type QaFetch, type WorldState } from '../src/index.ts';

const baseUrl = inject('qaServerUrl');
const qa = createQaClient({ baseUrl });
const DAY = 86_400_000;
const twoFactorState = JSON.parse(
  readFileSync(join(import.meta.dirname, '../../../world-states/two-factor.json'), 'utf8'),
) as WorldState;

/** The ids of the server's live worlds. */
const liveWorlds = async () => (await qa.api.GET('/__qa/worlds')).data!.worlds.map((world) => world.id);

/** A contract call in `world`, as the web app makes it: its status and JSON. */
async function contract(world: CreatedWorld, path: string, body: unknown, token?: string) {
  const response = await world.fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}
/** Sets the world's clock to the start of a 30 s TOTP step, so the codes read next are of one step. */
async function atStepStart(world: CreatedWorld) {
  const now = Date.parse((await world.clock.get()).now);
  await world.clock.set(new Date(Math.ceil(now / 30_000) * 30_000));
}
const signIn = async (world: CreatedWorld, username: string, totp?: string) =>
  (await contract(world, '/user/login', { username, password: 'Demo@1234', totp })).body.JWT as string;

describe('a world made by the client', () => {
  let world: CreatedWorld;
  beforeAll(async () => {
    world = await qa.createWorld({ from: 'demo' }, { name: 'qa-client', ttlMinutes: 30 });
  });
  afterAll(() => world.delete());

  it('is live, answered as made, and its calls name it', async () => {
    expect(world.info).toMatchObject({ from: 'demo', name: 'qa-client', ttlMinutes: 30 });
    expect(world.id).toMatch(/^w-/);
    expect(world.enter).toBe(`${baseUrl}/__qa/worlds/${world.id}/enter`);
    expect(await liveWorlds()).toContain(world.id);
    const current = await world.api.GET('/__qa/worlds/current');
    expect(current.data!.world?.id).toBe(world.id);
    const config = (await (await world.fetch('/config.json')).json()) as { qaWorld?: string };
    expect(config.qaWorld).toBe(world.id);
  });

  it("moves the world's clock and runs what fell due, leaving the default world's alone", async () => {
    const before = Date.parse((await world.clock.get()).now);
    const defaultBefore = Date.parse((await qa.defaultWorld.clock.get()).now);
    const moved = await world.clock.advance('P2D');
    expect(Date.parse(moved.now) - before).toBeGreaterThanOrEqual(2 * DAY);
    expect(Date.parse(moved.now) - before).toBeLessThan(2 * DAY + 60_000);
    expect(moved.ran.length).toBeGreaterThan(0);
    expect(Date.parse((await qa.defaultWorld.clock.get()).now) - defaultBefore).toBeLessThan(60_000);
    const target = new Date(Date.parse(moved.now) + DAY);
    const set = Date.parse((await world.clock.set(target)).now) - target.getTime();
    expect(set).toBeGreaterThanOrEqual(0);
    expect(set).toBeLessThan(60_000);
  });

  it("reads the newest code from the world's mailbox, and waits for a mail that has not come", async () => {
    const email = 'qa-client@example.com';
    const ask = () =>
      contract(world, '/user/verify_otp', {
        page: 'Email Verification',
        username: 'qaclient',
        email,
        project: 'Pro',
      });
    expect((await ask()).status).toBe(200);
    const first = await world.mailbox.lastOtp(email);
    expect(first).toMatch(/^\d{6}$/);
    const mails = await world.mailbox.list(email);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ to: email, otp: first });
    expect(await qa.defaultWorld.mailbox.list(email)).toEqual([]);
    await expect(world.mailbox.lastOtp(email, { seen: 1, timeoutMs: 300 })).rejects.toThrow(
      `No new OTP mailed to ${email} (had 1 mails)`,
    );
    expect((await ask()).status).toBe(200);
    expect(await world.mailbox.lastOtp(email, { seen: 1 })).toBe((await world.mailbox.list(email))[0]!.otp);
  });

  it("turns example codes on in the world alone: the document's example code is what it mails", async () => {
    const email = 'examples@example.com';
    const ask = (target: CreatedWorld | typeof qa.defaultWorld) =>
      target.fetch('/user/verify_otp', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ page: 'Email Verification', username: 'examples', email }),
      });
    const { code } = await world.exampleCodes(true);
    try {
      expect((await ask(world)).status).toBe(200);
      expect(await world.mailbox.lastOtp(email)).toBe(code);
      expect((await ask(qa.defaultWorld)).status).toBe(200);
      expect((await qa.defaultWorld.mailbox.list(email))[0]?.otp).not.toBe(code);
    } finally {
      expect(await world.exampleCodes(false)).toEqual({ on: false, code });
    }
  });

  it("gives a member's TOTP code by the world's moved clock, from the server or from the secret", async () => {
    // The world's clock is days ahead of this machine's: a code by the machine's time would differ.
    await atStepStart(world);
    const code = await world.totp('demo2fa');
    expect(await world.totpFromSecret(DEMO_TOTP_SECRET)).toBe(code);
    expect(await signIn(world, 'demo2fa', code)).toBeTruthy();
    await expect(world.totp('demo')).rejects.toMatchObject({ status: 404 });
  });

  it('confirms TOTP for a member who turns it on, with the code of the secret it was handed', async () => {
    const token = await signIn(world, 'gonzalo_001');
    const started = await contract(world, '/user/enable_totp', {}, token);
    const { Key } = started.body.Success as { Key: string };
    await atStepStart(world);
    const confirmed = await contract(
      world,
      '/user/change_totp_status',
      { status: true, totp: await world.totpFromSecret(Key) },
      token,
    );
    expect(confirmed.body).toHaveProperty('Success');
    expect(await world.totp('gonzalo_001')).toBe(await world.totpFromSecret(Key));
  });

  it('adds, lists, applies and removes fault rules in the world alone', async () => {
    const token = await signIn(world, 'demo');
    const rule = await world.faults.add({ path: '/user/view_profile', status: 503, error: 'Down here' });
    expect(rule).toMatchObject({ path: '/user/view_profile', status: 503 });
    expect(await contract(world, '/user/view_profile', {}, token)).toEqual({
      status: 503,
      body: expect.objectContaining({ Error: 'Down here' }),
    });
    expect((await world.faults.list()).map((r) => [r.id, r.applied])).toEqual([[rule.id, 1]]);
    expect(await qa.defaultWorld.faults.list()).toEqual([]);
    await world.faults.remove(rule.id);
    expect((await contract(world, '/user/view_profile', {}, token)).status).toBe(200);
    await world.faults.add({ path: '*', status: 500 });
    await world.faults.seed(7);
    await world.faults.clear();
    expect(await world.faults.list()).toEqual([]);
  });
});

describe('the client', () => {
  it('follows the job when the server answers 202 (a build or a move that did not end in the wait)', async () => {
    // Told not to wait, the server answers every call that starts a job with the job at once.
    const answered: number[] = [];
    const noWait: QaFetch = async (request) => {
      if (request.method !== 'POST') return fetch(request);
      const response = await fetch(request.url.replace('wait=true', 'wait=false'), {
        method: 'POST',
        headers: request.headers,
        body: await request.text(),
      });
      answered.push(response.status);
      return response;
    };
    await createQaClient({ baseUrl, fetch: noWait }).withWorld({ state: twoFactorState }, async (world) => {
      expect(world.info).toMatchObject({ id: world.id, from: 'empty' });
      const before = Date.parse((await world.clock.get()).now);
      const moved = await world.clock.advance('P3D');
      expect(Date.parse(moved.now) - before).toBeGreaterThanOrEqual(3 * DAY);
      expect(moved.ran.length).toBeGreaterThan(0);
    });
    expect(answered).toEqual([202, 202]);
  });

  it("throws the server's refusal as a QaError", async () => {
    const error = await qa.createWorld({ from: 'no-such-scenario' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QaError);
    expect(error).toMatchObject({ call: 'POST /__qa/worlds', status: 400 });
    const gone = await qa
      .world('w-unknown')
      .clock.get()
      .catch((e: unknown) => e);
    expect(gone).toMatchObject({ status: 404 });
    expect((gone as QaError).message).toMatch(/^GET \/__qa\/clock answered 404: World 'w-unknown'/);
  });

  it('deletes the world withWorld made, after a pass and after a throw', async () => {
    let kept = '';
    const answer = await qa.withWorld({ from: 'demo' }, async (world) => {
      kept = world.id;
      return 'answer';
    });
    expect(answer).toBe('answer');
    expect(await liveWorlds()).not.toContain(kept);
    await expect(
      qa.withWorld({ from: 'demo' }, async (world) => {
        kept = world.id;
        throw new Error('the test failed');
      }),
    ).rejects.toThrow('the test failed');
    expect(await liveWorlds()).not.toContain(kept);
    // A world the test deleted itself is no error at the end.
    await qa.withWorld({ from: 'demo' }, (world) => world.delete());
  });
});
