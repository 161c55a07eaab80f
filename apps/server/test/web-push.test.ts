/**
 * Web Push (extension `web_push`) end to end against a push service on loopback (push-service.ts)
 * that checks each request's VAPID signature and audience and decrypts its body with the
 * subscription's private key: a daily run's payouts, a P2P transfer received, a deposit paid and a
 * withdrawal approved and rejected each reach the member's device exactly once while the phone
 * choice is on, and nothing while it is off; a 410 drops the subscription. Subscribing is strict
 * (keys, endpoint rules: no loopback or http without the server's leave, no private or IP hosts),
 * scoped to the token's member, and capped per member under a concurrent burst.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { amountToMicros, PUSH_DEVICES_MAX } from '@md/shared';
import { walletBalance } from '../src/modules/ledger/ledger.ts';
import { memberNotices } from '../src/modules/notifications/notices.ts';
import { ENDPOINT_MESSAGES, endpointRefusal, guardedLookup } from '../src/modules/push/endpoints.ts';
import { PUSH_MESSAGES } from '../src/modules/push/push.ts';
import { pusherOf } from '../src/modules/push/sender.ts';
import { sendP2p } from '../src/modules/transfers/p2p.ts';
import { swapWallets } from '../src/modules/wallets/wallets.ts';
import { requestWithdrawal } from '../src/modules/withdrawals/withdrawals.ts';
import { createQaClient } from '@md/qa-client';
import { createTestApp, expectLedgerSound, injectFetch, memberIdOf, type TestApp } from './helpers.ts';
import { startPushService, type Device, type PushService } from './push-service.ts';

let t: TestApp;
let service: PushService;
const tokens: Record<string, string> = {};
beforeAll(async () => {
  service = await startPushService();
  t = await createTestApp({ seed: 'demo', config: { pushLoopback: true }, pushRetryDelaysMs: [20, 40] });
  for (const name of ['demo', 'gonzalo_001', 'jeff_006']) tokens[name] = await t.login(name);
}, 120_000);
afterAll(async () => {
  await t?.close();
  await service?.close();
});

type Answer = { Success?: unknown; Devices?: number; Error?: string; Preferences?: unknown };
const subscribe = (member: string, device: Pick<Device, 'endpoint' | 'keys'>, extra: object = {}) =>
  t.post<Answer>(
    '/notification/subscribe_push',
    { endpoint: device.endpoint, keys: device.keys, expirationTime: null, ...extra },
    { token: tokens[member] },
  );
const setPhone = async (member: string, event: string, phone: boolean) => {
  const reply = await t.post<Answer>(
    '/notification/update_preferences',
    { event, phone },
    { token: tokens[member] },
  );
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
};
/** Everything queued has been sent (or has failed for good). */
const settled = async () => {
  const pusher = pusherOf(t.services)!;
  for (let i = 0; i < 200; i++) {
    await pusher.idle();
    const pending = t.services.sqlite
      .prepare("select count(*) from push_outbox where delivery = 'pending'")
      .pluck()
      .get();
    if (pending === 0) return;
    await new Promise((next) => setTimeout(next, 25));
  }
  throw new Error('pushes still pending');
};
const receivedBy = (device: Device) => service.received.filter((r) => device.endpoint.endsWith(r.path));
const subscriptions = () =>
  t.services.sqlite.prepare('select count(*) from push_subscriptions').pluck().get() as number;

describe('subscribing', () => {
  it('answers the VAPID public key, kept per database, and counts the devices', async () => {
    const first = await t.post<{ Success: { Public_Key: string; Devices: number } }>(
      '/notification/view_push_key',
      {},
      { token: tokens.demo },
    );
    expect(first.status).toBe(200);
    expect(Buffer.from(first.body.Success.Public_Key, 'base64url')).toHaveLength(65);
    expect(first.body.Success.Devices).toBe(0);
    const again = await t.post<{ Success: { Public_Key: string } }>(
      '/notification/view_push_key',
      {},
      { token: tokens.gonzalo_001 },
    );
    expect(again.body.Success.Public_Key).toBe(first.body.Success.Public_Key);
    const stored = t.services.sqlite
      .prepare("select value from meta where key = 'vapid_public_key'")
      .pluck()
      .get();
    expect(stored).toBe(first.body.Success.Public_Key);
  });

  it('refuses bad keys and fields with a 400 naming them, storing nothing', async () => {
    const device = service.device();
    const cases: [object, RegExp][] = [
      [{ keys: { ...device.keys, p256dh: 'B' + 'A'.repeat(10) } }, /p256dh/],
      // The right length, but no point of the curve.
      [{ keys: { ...device.keys, p256dh: 'B' + 'A'.repeat(86) } }, new RegExp(PUSH_MESSAGES.badKey)],
      [{ keys: { ...device.keys, auth: 'short' } }, /auth/],
      [{ keys: { ...device.keys, extra: 'x' } }, /extra/],
      [{ endpoint: 'not a url' }, /endpoint/],
      [{ endpoint: 'ftp://push.example.com/x' }, /endpoint/],
      [{ endpoint: `https://push.example.com/${'x'.repeat(2100)}` }, /endpoint/],
      [{ colour: 'red' }, /colour/],
    ];
    for (const [change, error] of cases) {
      const { endpoint = device.endpoint, keys = device.keys, ...extra } = change as Partial<Device>;
      const reply = await subscribe('demo', { endpoint, keys }, extra);
      expect(reply.status, JSON.stringify(change)).toBe(400);
      expect(reply.body.Error).toMatch(error);
    }
    expect(subscriptions()).toBe(0);
  });

  it('refuses endpoints that would reach a private network (SSRF) with a clear 400, storing nothing', async () => {
    const keys = service.device().keys;
    for (const [endpoint, message] of [
      ['https://10.0.0.8/push', ENDPOINT_MESSAGES.host],
      ['https://192.168.1.1/push', ENDPOINT_MESSAGES.host],
      ['https://[fd00::1]/push', ENDPOINT_MESSAGES.host],
      ['https://169.254.169.254/latest/meta-data', ENDPOINT_MESSAGES.host],
      ['https://metadata.google.internal/push', ENDPOINT_MESSAGES.host],
      ['https://intranet/push', ENDPOINT_MESSAGES.host],
      ['https://push.example.com:8443/push', ENDPOINT_MESSAGES.port],
      ['https://user:secret@push.example.com/push', ENDPOINT_MESSAGES.credentials],
      ['http://push.example.com/push', ENDPOINT_MESSAGES.https],
      ['http://10.0.0.8/push', ENDPOINT_MESSAGES.https],
    ] as const) {
      const reply = await subscribe('demo', { endpoint, keys });
      expect(reply.status, endpoint).toBe(400);
      expect(reply.body.Error, endpoint).toBe(message);
    }
    expect(subscriptions()).toBe(0);
  });

  it('refuses loopback and plain http on a server that was not told to allow them', async () => {
    const strict = await createTestApp({ seed: 'demo' });
    try {
      const token = await strict.login('demo');
      for (const endpoint of [
        `${service.origin}/push/x`,
        'https://127.0.0.1/push',
        'https://localhost/push',
      ]) {
        const reply = await strict.post<Answer>(
          '/notification/subscribe_push',
          { endpoint, keys: service.device().keys },
          { token },
        );
        expect(reply.status, endpoint).toBe(400);
        expect(reply.body.Error).toMatch(/https|public host/);
      }
      expect(strict.services.sqlite.prepare('select count(*) from push_subscriptions').pluck().get()).toBe(0);
    } finally {
      await strict.close();
    }
  });

  it('checks at send time that a name resolves to public addresses only', async () => {
    expect(endpointRefusal('https://fcm.googleapis.com/fcm/send/abc', { loopback: false })).toBeNull();
    const refusal = await new Promise<NodeJS.ErrnoException | null>((done) =>
      guardedLookup({ loopback: false })('localhost', {}, (error) => done(error)),
    );
    expect(refusal?.code).toBe('EPUSHADDRESS');
    const allowed = await new Promise<NodeJS.ErrnoException | null>((done) =>
      guardedLookup({ loopback: true })('localhost', {}, (error) => done(error)),
    );
    expect(allowed).toBeNull();
  });

  it('caps the devices of a member under a concurrent burst, scoped to the token’s member', async () => {
    const burst = Array.from({ length: PUSH_DEVICES_MAX + 5 }, () => service.device());
    const replies = await Promise.all(burst.map((device) => subscribe('jeff_006', device)));
    expect(replies.filter((r) => r.status === 200)).toHaveLength(PUSH_DEVICES_MAX);
    const refused = replies.filter((r) => r.status !== 200);
    expect(refused).toHaveLength(5);
    for (const r of refused) expect(r.body.Error).toBe(PUSH_MESSAGES.tooMany);
    const jeff = memberIdOf(t, 'jeff_006');
    expect(
      t.services.sqlite
        .prepare('select count(*) from push_subscriptions where member_id = ?')
        .pluck()
        .get(jeff),
    ).toBe(PUSH_DEVICES_MAX);
    // Subscribing again one already subscribed is no new device.
    const kept = burst[replies.findIndex((r) => r.status === 200)]!;
    expect((await subscribe('jeff_006', kept)).body.Devices).toBe(PUSH_DEVICES_MAX);
    // Another member cannot unsubscribe jeff's device.
    const other = await t.post<Answer>(
      '/notification/unsubscribe_push',
      { endpoint: kept.endpoint },
      { token: tokens.demo },
    );
    expect(other.status).toBe(200);
    expect(
      t.services.sqlite
        .prepare('select count(*) from push_subscriptions where endpoint = ?')
        .pluck()
        .get(kept.endpoint),
    ).toBe(1);
    // jeff can; then every device of the burst goes.
    for (const device of burst)
      await t.post(
        '/notification/unsubscribe_push',
        { endpoint: device.endpoint },
        { token: tokens.jeff_006 },
      );
    expect(
      t.services.sqlite
        .prepare('select count(*) from push_subscriptions where member_id = ?')
        .pluck()
        .get(jeff),
    ).toBe(0);
  });
});

describe('pushes, decrypted on the loopback push service', () => {
  let demoPhone: Device;
  let gonzaloPhone: Device;
  let demo: number;
  let key: string;
  beforeAll(async () => {
    demo = memberIdOf(t, 'demo');
    demoPhone = service.device();
    gonzaloPhone = service.device();
    expect((await subscribe('demo', demoPhone)).status).toBe(200);
    expect((await subscribe('gonzalo_001', gonzaloPhone)).status).toBe(200);
    key = (
      await t.post<{ Success: { Public_Key: string } }>(
        '/notification/view_push_key',
        {},
        { token: tokens.demo },
      )
    ).body.Success.Public_Key;
    // Room for two withdrawals and a transfer.
    for (const from of ['ROI', 'Direct', 'Binary', 'Level', 'Rank'] as const) {
      const short = amountToMicros(100) - walletBalance(t.services, demo, 'Withdrawal');
      const available = walletBalance(t.services, demo, from);
      if (short > 0 && available > 0)
        swapWallets(t.services, demo, from, 'Withdrawal', Math.min(short, available));
    }
  });

  /** Demo's payout notices as the list shows them (daily ROI's read from its credits). */
  const payoutNotices = () =>
    memberNotices(t.services, demo, 1e9)
      .filter((n) =>
        ['ROI_Income', 'Binary_Income', 'Direct_Income', 'Level_Income', 'Rank_Achieved'].includes(n.type),
      )
      .map(({ transId, message, type }) => ({ transId, message, type }));
  const advanceDay = async () => {
    const seen = new Set(payoutNotices().map((n) => `${n.type} ${n.transId}`));
    const reply = await t.post('/__qa/clock?wait=true', { advance: 'P1D' });
    expect(reply.status).toBe(200);
    await settled();
    // Sessions end as the clock moves on: sign in again.
    for (const name of Object.keys(tokens)) tokens[name] = await t.login(name);
    return payoutNotices().filter((n) => !seen.has(`${n.type} ${n.transId}`));
  };

  it('a daily run’s payouts reach the device exactly once each, signed for the service’s origin', async () => {
    // Days until one pays demo (a weekend pays no ROI).
    let payouts: { transId: string; message: string; type: string }[] = [];
    for (let day = 0; day < 4 && payouts.length === 0; day++) payouts = await advanceDay();
    expect(payouts.length).toBeGreaterThan(0);
    const got = receivedBy(demoPhone);
    expect(service.refused).toEqual([]);
    expect(got.map((r) => r.message.tag).sort()).toEqual(payouts.map((p) => p.transId).sort());
    for (const payout of payouts) {
      const push = got.find((r) => r.message.tag === payout.transId)!;
      expect(push.message.body).toBe(payout.message);
      expect(push.message.url).toBe(
        payout.type === 'Rank_Achieved' ? '/dashboard/rankrewards' : '/dashboard/bonus',
      );
      expect(push.message.title).toMatch(/income received|New rank/);
      expect(push.vapidKey).toBe(key);
      expect(push.claims.aud).toBe(service.origin);
      expect(push.claims.sub).toMatch(/^(mailto:|https:)/);
    }
    // Small, and no secrets: the payload is the four fields.
    for (const push of got) expect(Object.keys(push.message).sort()).toEqual(['body', 'tag', 'title', 'url']);
    const rows = t.services.sqlite
      .prepare("select delivery, status, attempts from push_outbox where member_id = ? and event = 'payouts'")
      .all(demo);
    expect(rows).toEqual(payouts.map(() => ({ delivery: 'sent', status: 201, attempts: 1 })));
  });

  it('a P2P transfer is pushed to the recipient only; a deposit paid and withdrawals decided to the member', async () => {
    const mark = service.received.length;
    const transId = sendP2p(
      t.services,
      demo,
      'gonzalo_001',
      Math.min(amountToMicros(5), walletBalance(t.services, demo, 'Deposit')),
    );
    // The deposit of gonzalo, paid by QA.
    const opened = await t.post<{ Success: { TransID: string } }>(
      '/deposit/make_payment',
      { amount_usdt: 50, currency: 'USDT.BEP20' },
      { token: tokens.gonzalo_001 },
    );
    expect(opened.status).toBe(200);
    expect((await t.post(`/__qa/deposits/${opened.body.Success.TransID}/pay`, {})).status).toBe(200);
    // Two withdrawals of demo: the requests are not pushed, the decisions are.
    const address = t.services.sqlite
      .prepare('select wallet_address from members where id = ?')
      .pluck()
      .get(demo) as string;
    const approved = requestWithdrawal(t.services, demo, amountToMicros(20), address);
    const rejected = requestWithdrawal(t.services, demo, amountToMicros(20), address);
    expect((await t.post(`/__qa/withdrawals/${approved.transId}/approve`, {})).status).toBe(200);
    expect(
      (await t.post(`/__qa/withdrawals/${rejected.transId}/reject`, { reason: 'Test hold' })).status,
    ).toBe(200);
    await settled();

    const fresh = service.received.slice(mark);
    expect(service.refused).toEqual([]);
    const toGonzalo = fresh.filter((r) => gonzaloPhone.endpoint.endsWith(r.path)).map((r) => r.message);
    const toDemo = fresh.filter((r) => demoPhone.endpoint.endsWith(r.path)).map((r) => r.message);
    expect(toGonzalo).toEqual([
      {
        title: 'P2P transfer received',
        body: expect.stringMatching(/^You received \$5\.00 from demo in your P2P wallet\.$/),
        url: '/dashboard/wallets',
        tag: transId,
      },
      {
        title: 'Deposit received',
        body: 'Your deposit of $50.00 was received and credited to your Deposit wallet.',
        url: '/dashboard/wallets',
        tag: opened.body.Success.TransID,
      },
    ]);
    expect(toDemo).toEqual([
      expect.objectContaining({
        title: 'Withdrawal approved',
        url: '/dashboard/history',
        tag: approved.transId,
      }),
      expect.objectContaining({
        title: 'Withdrawal rejected',
        body: expect.stringContaining('Reason: Test hold.'),
        url: '/dashboard/history',
        tag: rejected.transId,
      }),
    ]);
    await expectLedgerSound(t);
  });

  it('nothing is pushed for an event whose phone choice is off; the preferences say so', async () => {
    await setPhone('demo', 'payouts', false);
    await setPhone('demo', 'withdrawals', false);
    await setPhone('gonzalo_001', 'transfers', false);
    const prefs = await t.post<{ Success: { Event: string; Phone?: boolean; Phone_Offered?: boolean }[] }>(
      '/notification/view_preferences',
      {},
      { token: tokens.demo },
    );
    const byEvent = Object.fromEntries(prefs.body.Success.map((p) => [p.Event, p]));
    expect(byEvent.payouts).toMatchObject({ Phone: false, Phone_Offered: true });
    expect(byEvent.deposits).toMatchObject({ Phone: true, Phone_Offered: true });
    expect(byEvent.team).toMatchObject({ Phone: false, Phone_Offered: false });
    expect(byEvent.security).toMatchObject({ Phone: false, Phone_Offered: false });
    // An event that is never pushed cannot be turned on.
    const refused = await t.post<Answer>(
      '/notification/update_preferences',
      { event: 'team', phone: true },
      { token: tokens.demo },
    );
    expect(refused.status).toBe(400);
    expect(refused.body.Error).toBe(PUSH_MESSAGES.notPushed);

    const mark = service.received.length;
    let payouts: unknown[] = [];
    for (let day = 0; day < 4 && payouts.length === 0; day++) payouts = await advanceDay();
    expect(payouts.length).toBeGreaterThan(0);
    sendP2p(
      t.services,
      demo,
      'gonzalo_001',
      Math.min(amountToMicros(1), walletBalance(t.services, demo, 'Deposit')),
    );
    const address = t.services.sqlite
      .prepare('select wallet_address from members where id = ?')
      .pluck()
      .get(demo) as string;
    const w = requestWithdrawal(t.services, demo, amountToMicros(20), address);
    expect((await t.post(`/__qa/withdrawals/${w.transId}/approve`, {})).status).toBe(200);
    await settled();
    const fresh = service.received.slice(mark);
    expect(fresh.filter((r) => demoPhone.endpoint.endsWith(r.path))).toEqual([]);
    // gonzalo's payouts are still pushed, its transfer received no longer.
    expect(
      fresh.filter((r) => gonzaloPhone.endpoint.endsWith(r.path)).map((r) => r.message.title),
    ).not.toContain('P2P transfer received');
    // The in-app notices were written all the same.
    expect(
      t.services.sqlite
        .prepare('select count(*) from notifications where trans_id = ?')
        .pluck()
        .get(w.transId),
    ).toBe(2);
    await setPhone('demo', 'payouts', true);
    await setPhone('demo', 'withdrawals', true);
  });

  it('a subscription the push service answers 410 for is dropped, its push marked gone', async () => {
    const expired = service.device({ gone: true });
    expect((await subscribe('demo', expired)).status).toBe(200);
    const before = service.received.length;
    const address = t.services.sqlite
      .prepare('select wallet_address from members where id = ?')
      .pluck()
      .get(demo) as string;
    const w = requestWithdrawal(t.services, demo, amountToMicros(20), address);
    expect((await t.post(`/__qa/withdrawals/${w.transId}/reject`, {})).status).toBe(200);
    await settled();
    const fresh = service.received.slice(before);
    // Both devices got it once: the live one accepted it, the expired one answered 410.
    expect(fresh.map((r) => r.status).sort()).toEqual([201, 410]);
    expect(
      t.services.sqlite
        .prepare('select count(*) from push_subscriptions where endpoint = ?')
        .pluck()
        .get(expired.endpoint),
    ).toBe(0);
    expect(
      t.services.sqlite
        .prepare('select delivery, status from push_outbox where trans_id = ? order by id')
        .all(w.transId),
    ).toEqual([
      { delivery: 'sent', status: 201 },
      { delivery: 'gone', status: 410 },
    ]);
  });

  it('QA sees what was pushed to a member, newest first', async () => {
    const reply =
      await t.get<{ to: string; title: string; url: string; delivery: string }[]>('/__qa/pushes?to=demo');
    expect(reply.status).toBe(200);
    expect(reply.body.length).toBeGreaterThan(3);
    expect(reply.body[0]).toMatchObject({
      to: 'demo',
      title: 'Withdrawal rejected',
      url: '/dashboard/history',
    });
    expect(new Set(reply.body.map((p) => p.delivery))).toEqual(new Set(['sent', 'gone']));
    // The same through the typed QA client.
    const qa = createQaClient({ baseUrl: 'http://localhost', fetch: injectFetch(t.fastify) });
    expect(await qa.defaultWorld.pushes('demo')).toEqual(reply.body);
  });
});

describe('a daily run in the worker thread (a database file)', () => {
  it('queues its payouts’ pushes in the worker’s chunks; they are sent once the run has answered', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'md-web-push-'));
    const onFile = await createTestApp({
      seed: 'demo',
      databasePath: join(dir, 'world.sqlite'),
      config: { pushLoopback: true },
      pushRetryDelaysMs: [20, 40],
    });
    try {
      const phone = service.device();
      const token = await onFile.login('demo');
      const reply = await onFile.post<Answer>(
        '/notification/subscribe_push',
        { endpoint: phone.endpoint, keys: phone.keys },
        { token },
      );
      expect(reply.status).toBe(200);
      const demo = memberIdOf(onFile, 'demo');
      const payoutNotices = () =>
        memberNotices(onFile.services, demo, 1e9)
          .filter((n) => ['ROI_Income', 'Binary_Income', 'Rank_Achieved'].includes(n.type))
          .map((n) => n.transId);
      const before = new Set(payoutNotices());
      let payouts: string[] = [];
      for (let day = 0; day < 4 && payouts.length === 0; day++) {
        expect((await onFile.post('/__qa/clock?wait=true', { advance: 'P1D' })).status).toBe(200);
        payouts = payoutNotices().filter((transId) => !before.has(transId));
      }
      expect(payouts.length).toBeGreaterThan(0);
      const pusher = pusherOf(onFile.services)!;
      for (let i = 0; i < 200 && receivedBy(phone).length < payouts.length; i++) {
        await pusher.idle();
        await new Promise((next) => setTimeout(next, 25));
      }
      expect(
        receivedBy(phone)
          .map((r) => r.message.tag)
          .sort(),
      ).toEqual([...payouts].sort());
    } finally {
      await onFile.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
