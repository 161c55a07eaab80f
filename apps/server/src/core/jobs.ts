/**
 * Long operations as jobs (DESIGN §10): building a world from a declared state, a clock advance
 * that owes daily runs. The call that starts one answers at once, 202 with the job's URL; the
 * job says its state and progress (`GET /__qa/jobs/:id`), can be cancelled (`DELETE`), and keeps
 * its result or error for a while after it ends. A caller that would rather wait asks to
 * (`?wait=true`), for a bounded time, and gets the job instead when that runs out.
 *
 * One registry per server, shared by the default world and every QA world (their `Services`
 * hold the same one): the API and the QA panel read the same jobs. Jobs live in memory: a job
 * cut by a restart is gone, and what it did is in the world's own files (a build leaves no world;
 * an advance leaves the clock at its last finished step, its runs resume when the world opens).
 */
import { randomBytes } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { AppError, sendError } from './errors.ts';
import { toStorageError } from './storage.ts';

export type JobState = 'running' | 'done' | 'failed' | 'cancelled';
/** Counts of done and total by unit (members built, runs paid), as the work reports them. */
export type JobProgress = Record<string, { done: number; total: number }>;

export interface JobView {
  id: string;
  /** 'world' (a world built from a declared state) or 'clock' (an advance that owes runs). */
  kind: string;
  /** The world the job works on (null: the default world, or a world not made yet). */
  world: string | null;
  /** Who started it (the QA token's label or the caller's address). */
  client: string;
  state: JobState;
  progress: JobProgress;
  createdAt: string;
  finishedAt: string | null;
  /** What the call would have answered, once done. */
  result?: unknown;
  /** Why it failed: the status and `Error` text the call would have answered. */
  error?: { status: number; Error: string };
  url: string;
}

/** What a job's work gets: its cancellation and a way to report progress. */
export interface JobControl {
  readonly signal: AbortSignal;
  progress(progress: JobProgress): void;
  /** Names the world the job works on once it is known (a build's new world). */
  inWorld(world: string): void;
}

/** How long an ended job is kept, and how many at most. */
export const JOB_KEPT_MINUTES = 60;
const JOBS_KEPT = 500;
/** The longest a call waits for its job (below the 300 s after which Node's fetch gives up on headers). */
export const MAX_WAIT_SECONDS = 240;
export const JOBS_PATH = '/__qa/jobs';

export const JOB_MESSAGES = {
  unknown: (id: string) =>
    `Job '${id}' is unknown: it ended more than ${JOB_KEPT_MINUTES} minutes ago, the server restarted, or the id is wrong (GET /__qa/jobs lists them)`,
  finished: (id: string, state: JobState) => `Job '${id}' has already ended (${state}): nothing to cancel`,
  cancelled: (id: string) => `Job '${id}' was cancelled`,
  wait: `wait is 'true' (up to ${MAX_WAIT_SECONDS} s) or a number of seconds from 1 to ${MAX_WAIT_SECONDS}`,
} as const;

interface Job {
  view: Omit<JobView, 'progress'> & { progress: JobProgress };
  controller: AbortController;
  ended: Promise<void>;
  endedAt: number;
  /** What a failed job threw: a call that waited for it answers it as it would have (app.ts's error handler). */
  cause?: unknown;
}

/** The status and message a call answers for `error` (a storage fault as the error handler answers it). */
function answerOf(error: unknown): { status: number; Error: string } {
  const storage = toStorageError(error);
  if (storage) return { status: storage.status, Error: storage.message };
  if (error instanceof AppError) return { status: error.status, Error: error.message };
  return { status: 500, Error: error instanceof Error ? error.message : String(error) };
}

export function createJobs(options: { now?: () => number } = {}) {
  const now = options.now ?? Date.now;
  const jobs = new Map<string, Job>();

  const prune = () => {
    const before = now() - JOB_KEPT_MINUTES * 60_000;
    for (const [id, job] of jobs)
      if (job.view.state !== 'running' && (job.endedAt < before || jobs.size > JOBS_KEPT)) jobs.delete(id);
  };
  const view = (job: Job): JobView => ({ ...job.view, progress: structuredClone(job.view.progress) });

  return {
    /**
     * Starts `work` on the next turn of the event loop (the call that starts it answers first) and
     * answers the job. A throw fails it (an AppError keeps its status); an abort cancels it.
     */
    start<T>(
      kind: string,
      who: { world: string | null; client: string },
      work: (control: JobControl) => Promise<T>,
      /** What is known to be owed before the work starts (a clock move's runs). */
      progress: JobProgress = {},
    ): JobView {
      prune();
      const id = `j-${randomBytes(12).toString('base64url')}`;
      const controller = new AbortController();
      const job: Job = {
        view: {
          id,
          kind,
          world: who.world,
          client: who.client,
          state: 'running',
          progress: structuredClone(progress),
          createdAt: new Date(now()).toISOString(),
          finishedAt: null,
          url: `${JOBS_PATH}/${id}`,
        },
        controller,
        ended: Promise.resolve(),
        endedAt: 0,
      };
      const end = (state: JobState, fields: Pick<JobView, 'result' | 'error'>) => {
        if (job.view.state !== 'running') return;
        job.endedAt = now();
        Object.assign(job.view, { state, finishedAt: new Date(job.endedAt).toISOString(), ...fields });
      };
      job.ended = new Promise<void>((ready) => setImmediate(ready))
        .then(() =>
          work({
            signal: controller.signal,
            progress: (progress) => Object.assign(job.view.progress, progress),
            inWorld: (world) => (job.view.world = world),
          }),
        )
        .then(
          (result) => end(controller.signal.aborted ? 'cancelled' : 'done', { result }),
          (error: unknown) => {
            if (controller.signal.aborted) return end('cancelled', {});
            job.cause = error;
            end('failed', { error: answerOf(error) });
          },
        );
      jobs.set(id, job);
      return view(job);
    },

    /** What a failed job threw (undefined once it is pruned, or for another state). */
    causeOf: (id: string): unknown => jobs.get(id)?.cause,

    get(id: string): JobView {
      prune();
      const job = jobs.get(id);
      if (!job) throw new AppError(404, JOB_MESSAGES.unknown(id));
      return view(job);
    },

    /** Whether a job is running in `world` (a world does not expire under one). */
    running: (world: string) =>
      [...jobs.values()].some((job) => job.view.state === 'running' && job.view.world === world),

    /** Every job kept, newest first; those of one world when `world` is given (null: the default world's). */
    list(world?: string | null): JobView[] {
      prune();
      return [...jobs.values()]
        .filter((job) => world === undefined || job.view.world === world)
        .reverse()
        .map(view);
    },

    /** Asks the job to stop: answers it as it is once stopped (a build ends at once, an advance after its run in progress). */
    async cancel(id: string): Promise<JobView> {
      const job = jobs.get(id);
      if (!job) throw new AppError(404, JOB_MESSAGES.unknown(id));
      if (job.view.state !== 'running') throw new AppError(409, JOB_MESSAGES.finished(id, job.view.state));
      job.controller.abort();
      await job.ended;
      return view(job);
    },

    /** The job once it has ended, or as it is after `seconds`. */
    async wait(id: string, seconds: number): Promise<JobView> {
      const job = jobs.get(id);
      if (!job) throw new AppError(404, JOB_MESSAGES.unknown(id));
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        job.ended,
        new Promise<void>((done) => (timer = setTimeout(done, seconds * 1000))),
      ]);
      clearTimeout(timer);
      return view(job);
    },

    /** Cancels every running job (the server is closing) and waits for them to stop. */
    async close(): Promise<void> {
      const running = [...jobs.values()].filter((job) => job.view.state === 'running');
      for (const job of running) job.controller.abort();
      await Promise.all(running.map((job) => job.ended));
    },
  };
}
export type Jobs = ReturnType<typeof createJobs>;

/** `?wait=true` or `?wait=<seconds>`: how long the call waits for its job (0: answer at once). */
export function waitSecondsOf(query: unknown): number {
  const wait = (query as { wait?: unknown } | undefined)?.wait;
  if (wait === undefined || wait === 'false') return 0;
  if (wait === 'true' || wait === '') return MAX_WAIT_SECONDS;
  const seconds = typeof wait === 'string' && /^\d+$/.test(wait) ? Number(wait) : NaN;
  if (!(seconds >= 1 && seconds <= MAX_WAIT_SECONDS)) throw new AppError(400, JOB_MESSAGES.wait);
  return seconds;
}

/**
 * Answers the call that started `job`: after waiting `seconds` for it (waitSecondsOf), with what
 * the call answers when it is done (`done`), its error when it failed, 409 when it was
 * cancelled; still running, 202 with the job and its URL in Location.
 */
export async function answerJob(
  reply: FastifyReply,
  jobs: Jobs,
  job: JobView,
  seconds: number,
  done: (result: unknown) => { status: number; body: unknown },
) {
  const now = seconds > 0 ? await jobs.wait(job.id, seconds) : job;
  if (now.state === 'done') {
    const answer = done(now.result);
    return reply.code(answer.status).send(answer.body);
  }
  // Thrown: the app's error handler answers and logs it as it would have had the call not been a job.
  if (now.state === 'failed') throw jobs.causeOf(now.id) ?? new AppError(now.error!.status, now.error!.Error);
  if (now.state === 'cancelled') return sendError(reply, 409, JOB_MESSAGES.cancelled(now.id));
  return reply.code(202).header('location', now.url).send(now);
}
