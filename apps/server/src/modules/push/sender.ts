/**
 * Sends what push_outbox holds, after the transactions that wrote it (push.ts). One sender per
 * database connection (each world has its own): kicked after a notice is queued (notify()), after
 * the daily runs' executor answers (engine/runner.ts), and at start for what a stopped server left.
 *
 * web-push (the maintained library) signs the VAPID token (RFC 8292) and encrypts the payload
 * (aes128gcm, RFC 8291); this module POSTs it (RFC 8030) itself, so the connection goes through
 * the endpoint rules' own DNS lookup (endpoints.ts) and plain http reaches a loopback push
 * service when the rules allow one. Outcomes: 2xx 'sent'; 404 or 410 'gone', and the subscription
 * is dropped; 429, 5xx or no answer retried after RETRY_DELAYS_MS, then 'failed'; another status
 * 'failed' at once. Each attempt is written to the row.
 */
import http from 'node:http';
import https from 'node:https';
import webpush from 'web-push';
import type { FastifyBaseLogger } from 'fastify';
import type { Services } from '../../core/services.ts';
import { prepared } from '../../core/prepared.ts';
import { endpointRefusal, guardedLookup } from './endpoints.ts';
import { registerSender, senderOf } from './kick.ts';
import { dropSubscription, endpointPolicy, vapidKeys } from './push.ts';

/** Waits before the second and third attempts: three in all. */
export const DEFAULT_PUSH_RETRY_DELAYS_MS: readonly number[] = [2_000, 10_000];
/** A push service that does not answer within this long is retried. */
const REQUEST_TIMEOUT_MS = 10_000;
/** How long a push service keeps a message for a device that is offline (seconds). */
const TTL_SECONDS = 24 * 3600;
/** Rows sent at once per pass. */
const BATCH = 50;

export interface Pusher {
  /** Sends what is pending, soon (after the current transaction, if any). */
  kick(): void;
  /** Settles when nothing is pending or in flight but rows waiting for a retry (tests). */
  idle(): Promise<void>;
  close(): void;
}

interface Row {
  id: number;
  subscriptionId: number;
  title: string;
  body: string;
  url: string;
  transId: string | null;
  attempts: number;
}

export interface PusherOptions {
  retryDelaysMs?: readonly number[] | undefined;
  log?: Pick<FastifyBaseLogger, 'warn' | 'error' | 'debug'> | undefined;
}

/** The sender of a connection (tests wait on it). */
export const pusherOf = (ctx: Pick<Services, 'sqlite'>): Pusher | undefined => senderOf<Pusher>(ctx);

/** What the push service answered, or the failure to reach it. */
type Outcome = { status: number; text: string } | { error: string };

function post(
  endpoint: string,
  details: { method: string; headers: Record<string, string | number>; body: Buffer | null },
  lookup: ReturnType<typeof guardedLookup>,
): Promise<Outcome> {
  return new Promise((resolve) => {
    const url = new URL(endpoint);
    const client = url.protocol === 'http:' ? http : https;
    const request = client.request(
      url,
      { method: details.method, headers: details.headers, lookup, timeout: REQUEST_TIMEOUT_MS, agent: false },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          if (text.length < 1000) text += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text: text.slice(0, 300) }));
        response.on('error', (error) => resolve({ error: error.message }));
      },
    );
    request.on('timeout', () => request.destroy(new Error(`No answer within ${REQUEST_TIMEOUT_MS} ms`)));
    request.on('error', (error) => resolve({ error: error.message }));
    request.end(details.body ?? undefined);
  });
}

export function createPusher(
  services: Pick<Services, 'sqlite' | 'clock' | 'config'>,
  options: PusherOptions = {},
): Pusher {
  const { sqlite, clock, config } = services;
  const retryDelays = options.retryDelaysMs ?? DEFAULT_PUSH_RETRY_DELAYS_MS;
  const log = options.log;
  const subject = config.publicUrl.startsWith('https://') ? config.publicUrl : 'mailto:no-reply@localhost';
  /** Rows waiting for a retry: not before this time (ms, real time). */
  const notBefore = new Map<number, number>();
  const timers = new Set<ReturnType<typeof setTimeout>>();
  let closed = false;
  let scheduled = false;
  let running: Promise<void> | null = null;
  let again = false;

  const write = (sql: string, ...params: unknown[]) => {
    if (!closed && sqlite.open) prepared(sqlite, sql).run(...params);
  };

  async function send(row: Row): Promise<void> {
    const attempt = row.attempts + 1;
    const subscription = prepared(
      sqlite,
      'select endpoint, p256dh, auth from push_subscriptions where id = ?',
    ).get(row.subscriptionId) as { endpoint: string; p256dh: string; auth: string } | undefined;
    if (!subscription) {
      write(
        "update push_outbox set delivery = 'gone', last_error = ? where id = ?",
        'No such subscription',
        row.id,
      );
      return;
    }
    const policy = endpointPolicy(services);
    const refusal = endpointRefusal(subscription.endpoint, policy);
    if (refusal) {
      write(
        "update push_outbox set delivery = 'failed', attempts = ?, last_error = ? where id = ?",
        attempt,
        refusal,
        row.id,
      );
      return;
    }
    const keys = vapidKeys(services);
    const payload = JSON.stringify({ title: row.title, body: row.body, url: row.url, tag: row.transId });
    const details = webpush.generateRequestDetails(
      { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
      payload,
      {
        vapidDetails: { subject, publicKey: keys.publicKey, privateKey: keys.privateKey },
        TTL: TTL_SECONDS,
        contentEncoding: 'aes128gcm',
        urgency: 'normal',
      },
    );
    const outcome = await post(
      subscription.endpoint,
      details as unknown as { method: string; headers: Record<string, string | number>; body: Buffer | null },
      guardedLookup(policy),
    );
    if (closed || !sqlite.open) return;
    if ('status' in outcome && outcome.status >= 200 && outcome.status < 300) {
      write(
        "update push_outbox set delivery = 'sent', attempts = ?, status = ?, last_error = null, sent_at = ? where id = ?",
        attempt,
        outcome.status,
        clock.now(),
        row.id,
      );
      log?.debug({ push: { id: row.id, attempt } }, `Push ${row.id} delivered`);
      return;
    }
    const status = 'status' in outcome ? outcome.status : null;
    const reason = 'status' in outcome ? `${outcome.status} ${outcome.text}`.trim() : outcome.error;
    if (status === 404 || status === 410) {
      write(
        "update push_outbox set delivery = 'gone', attempts = ?, status = ?, last_error = ? where id = ?",
        attempt,
        status,
        reason,
        row.id,
      );
      if (sqlite.open && !closed)
        sqlite
          .transaction(() =>
            dropSubscription(
              services,
              row.subscriptionId,
              `The push service answered ${status}: the subscription is gone`,
            ),
          )
          .immediate();
      return;
    }
    const retryable = status === null || status === 429 || status >= 500;
    const delay = retryable ? retryDelays[attempt - 1] : undefined;
    write(
      `update push_outbox set attempts = ?, status = ?, last_error = ?${delay === undefined ? ", delivery = 'failed'" : ''} where id = ?`,
      attempt,
      status,
      reason,
      row.id,
    );
    if (delay === undefined) {
      log?.warn(
        { push: { id: row.id, attempts: attempt, error: reason } },
        `Push ${row.id} was not delivered: ${reason}`,
      );
      return;
    }
    notBefore.set(row.id, Date.now() + delay);
    const timer = setTimeout(() => {
      timers.delete(timer);
      kick();
    }, delay);
    timer.unref();
    timers.add(timer);
  }

  async function drain(): Promise<void> {
    // Bounded: each pass sends rows not sent before in it; a row waiting for a retry is left for its timer.
    const tried = new Set<number>();
    for (let waits = 0; ;) {
      again = false;
      if (closed || !sqlite.open) return;
      // A transaction still open on this connection (one that awaits): its rows are not ours yet.
      if (sqlite.inTransaction && waits++ < 1000) {
        again = true;
        await new Promise((next) => setTimeout(next, 5));
        continue;
      }
      const now = Date.now();
      const rows = (
        prepared(
          sqlite,
          `select id, subscription_id as subscriptionId, title, body, url, trans_id as transId, attempts
             from push_outbox where delivery = 'pending' order by id limit ${BATCH * 4}`,
        ).all() as Row[]
      )
        .filter((row) => !tried.has(row.id) && (notBefore.get(row.id) ?? 0) <= now)
        .slice(0, BATCH);
      if (rows.length === 0 && !again) return;
      for (const row of rows) {
        tried.add(row.id);
        notBefore.delete(row.id);
      }
      await Promise.all(
        rows.map((row) =>
          send(row).catch((error: unknown) => {
            const reason = error instanceof Error ? error.message : String(error);
            write(
              "update push_outbox set delivery = 'failed', attempts = attempts + 1, last_error = ? where id = ?",
              reason.slice(0, 300),
              row.id,
            );
            log?.error(
              { push: { id: row.id, error: reason } },
              `Push ${row.id} could not be sent: ${reason}`,
            );
          }),
        ),
      );
    }
  }

  function kick(): void {
    if (closed) return;
    if (running) {
      again = true;
      return;
    }
    if (scheduled) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      if (closed) return;
      running = drain()
        .catch((error: unknown) => log?.error({ err: error }, 'Sending pushes failed'))
        .finally(() => {
          running = null;
          if (again) kick();
        });
    });
  }

  const pusher: Pusher = {
    kick,
    async idle() {
      for (let i = 0; i < 1000 && (scheduled || running); i++) {
        if (running) await running;
        else await new Promise((next) => setImmediate(next));
      }
    },
    close() {
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
  registerSender(services, pusher);
  kick();
  return pusher;
}
