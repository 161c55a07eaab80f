/**
 * Work done after the answer has left: what a known name costs and an unknown one must not (issuing
 * and mailing a code), so both answer in the same time (a faster answer would tell who exists). Jobs run in order a moment after
 * the answer, or sooner when something needs what they write: `runAfterAnswerJobs` runs the waiting
 * ones at once (the QA mailbox before it reads, a new or checked OTP before it touches the table),
 * so the writes land in the order the requests came in.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Services } from './services.ts';

/**
 * Why not setImmediate: the answer is written by then, but a job's disk sync started right after it
 * still delayed its arrival by 0.3-0.5 ms on loopback (measured: scripts/bench/auth-timing.ts);
 * 20 ms later it no longer does.
 */
export const AFTER_ANSWER_DELAY_MS = 20;

interface Queue {
  jobs: (() => void)[];
  /** A job is running: one that asks for the queue to run (issueOtp does) must not overtake it. */
  running: boolean;
}
const queues = new WeakMap<object, Queue>();
/** The app's logger per connection (buildApp registers it); a bare connection (seed, scripts) logs to stderr. */
const logs = new WeakMap<object, Pick<FastifyBaseLogger, 'error'>>();

export function logAfterAnswerFailures(
  services: Pick<Services, 'sqlite'>,
  log: Pick<FastifyBaseLogger, 'error'>,
): void {
  logs.set(services.sqlite, log);
}

export function afterAnswer(services: Pick<Services, 'sqlite'>, job: () => void): void {
  let queue = queues.get(services.sqlite);
  if (!queue) queues.set(services.sqlite, (queue = { jobs: [], running: false }));
  queue.jobs.push(job);
  if (queue.jobs.length === 1) setTimeout(() => runAfterAnswerJobs(services), AFTER_ANSWER_DELAY_MS);
}

/** Runs the waiting jobs now. A job that fails is reported, not thrown into the request that ran it. */
export function runAfterAnswerJobs(services: Pick<Services, 'sqlite'>): void {
  const queue = queues.get(services.sqlite);
  if (!queue || queue.running) return;
  queue.running = true;
  try {
    while (queue.jobs.length > 0) {
      const job = queue.jobs.shift()!;
      try {
        job();
      } catch (error) {
        // A server closed before its jobs ran has nothing left to write to.
        if (!services.sqlite.open) continue;
        const log = logs.get(services.sqlite);
        if (log)
          log.error({ err: error }, 'A job after an answer failed (its request was answered before it ran)');
        else console.error('A job after an answer failed:', error);
      }
    }
  } finally {
    queue.running = false;
  }
}
