/**
 * Where the daily runs execute: off the request path (DESIGN §5), so a run never stalls a request.
 *
 * On a database file they run in a worker thread (worker.ts) with its own better-sqlite3
 * connection to the same file, the same code as anywhere (jobs.ts runDueJobs), committing chunk
 * by chunk. The request thread never runs a chunk; a request that writes while a chunk holds
 * the write lock waits for that one commit (the connection's busy timeout covers it; chunks aim
 * at engineHooks.chunkMs). Reads never wait (WAL), and the read caches see the worker's commits
 * at once: the worker counts them in the shared COMMITS cell (core/read-cache.ts watchCommitCounter).
 *
 * SQLite's busy wait polls (sleeps of 1 ms growing to 100 ms) and blocks this thread, every read
 * queued behind the writer included. So a call that writes takes a turn first (WriteTurns, through
 * Services.writeTurns in transport/call.ts): while the worker is inside a chunk (the CHUNK cell) it
 * waits for the chunk's end with Atomics.waitAsync, the thread answering reads meanwhile, and the
 * worker, between chunks, lets the waiting calls (the WRITERS cell) through their transactions
 * before it takes the lock again (at most YIELD_MS). A write that reaches the lock some other way
 * (a handler whose transaction comes after an await, a QA call) still finds SQLite's busy wait:
 * for it, this thread beats a shared heartbeat every few milliseconds while the worker has work;
 * between chunks the worker looks at it, and when the beat is stale (this thread is blocked, most
 * likely waiting for the lock) it waits, without the lock, until the next beat (at most YIELD_MS:
 * longer than SQLite's longest poll), so the waiting writer goes first.
 *
 * While the worker has work, the request connection's automatic checkpoints are off: a request's
 * commit finding the WAL long (the worker's chunks) would copy it into the database on the request
 * thread. The worker's connection checkpoints as it goes, and once more before each answer.
 *
 * A ':memory:' database cannot be opened by a second connection: there the runs execute in
 * process, synchronously, with the same code and the same chunks (most tests use it).
 *
 * Requests are answered in order. Start-up does not wait for a resume: the server listens while
 * the worker finishes what a killed process left (app.ts). POST /__qa/clock waits for its answer.
 */
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import type { Services, WriteTurns } from '../../core/services.ts';
import { watchCommitCounter } from '../../core/read-cache.ts';
import { storageRefusal } from '../../core/storage.ts';
import { workerEntry } from '../../core/worker-module.ts';
import { kickPushes } from '../push/kick.ts';
import { prepared, type EngineCtx } from './income.ts';
import {
  pendingRuns,
  registerDailyRuns,
  resumeUnfinishedRuns,
  runDueJobs,
  RunsStoppedError,
  type DailyRuns,
  type JobRunReport,
} from './jobs.ts';

/** The shared cells between this thread and the worker: the heartbeat (ms since `base`, masked) and the stop flag. */
export const BEAT = 0;
export const STOP = 1;
/** Counts the worker's commits (Atomics.add after each): the read caches drop their answers when it moves. */
export const COMMITS = 2;
/** 1 while the worker is inside a chunk's transaction (it holds, or is taking, the write lock). */
export const CHUNK = 3;
/** This thread's calls waiting for their turn at the write lock (WriteTurns): the worker lets them go first. */
export const WRITERS = 4;
/** The longest a call waits for a chunk to end before going on to SQLite's own busy wait. */
const TURN_WAIT_MS = 1_000;
const CELLS = 5;
export const BEAT_MASK = 0x3fff_ffff;
const BEAT_EVERY_MS = 4;
/**
 * A worker with nothing to do ends after this long (tests shorten it): a thread holds ~10 file
 * descriptors (its event loop's, its connection's) and ~13 MB, so a hundred QA worlds that each
 * once ran a day would otherwise keep ~1,000 descriptors for good, and new connections past the
 * process's limit are accepted and closed at once (EMFILE). The next run owed starts one again.
 */
export const workerIdle = { ms: 10_000 };

export interface WorkerInit {
  databasePath: string;
  plan: Services['plan'];
  control: SharedArrayBuffer;
  /** Date.now() the heartbeat counts from. */
  base: number;
}
export type WorkerRequest =
  | { id: number; kind: 'run'; from: number; to: number; now: number }
  | { id: number; kind: 'resume'; now: number };
/** An error crosses the thread as its fields; `code` is SQLite's (SQLITE_FULL…) or a file problem's (FILE_GONE…), for storageFaultOf. */
export type WorkerReply =
  | { id: number; ran: JobRunReport[] }
  | { id: number; error: { name: string; message: string; stack?: string; code?: string } };

/** The executor for this app's database: a worker on a file, in process on ':memory:'. */
export function createDailyRuns(
  services: Pick<Services, 'sqlite' | 'db' | 'clock' | 'plan' | 'storage'>,
  databasePath: string,
): DailyRuns {
  const executor = databasePath === ':memory:' ? inProcess(services) : inWorker(services, databasePath);
  // The pushes a run queued (its payouts' notices) go once it has answered: its chunks are committed.
  const pushAfter = <T>(answer: Promise<T>) =>
    answer.finally(() => {
      if (services.sqlite.open) kickPushes(services);
    });
  const runs: DailyRuns = {
    ...executor,
    runDue: (from, to) => pushAfter(executor.runDue(from, to)),
    resume: () => pushAfter(executor.resume()),
  };
  registerDailyRuns(services, runs);
  return runs;
}

/**
 * Whether the database at `databasePath` owes daily runs by its own clock: one a killed process
 * left unfinished, or one due and never claimed. Read on a short read-only connection, before
 * anything opens the database (a QA world after a restart: opened at once when it owes).
 */
export function owesRuns(databasePath: string): boolean {
  const sqlite = new Database(databasePath, { readonly: true, fileMustExist: true });
  try {
    const offset =
      (
        sqlite.prepare('select offset_ms as offset from clock_state where id = 1').get() as
          { offset: number } | undefined
      )?.offset ?? 0;
    const now = Date.now() + offset;
    // pendingRuns reads job_runs only.
    return hasUnfinishedRuns({ sqlite }) || pendingRuns({ sqlite } as EngineCtx, now, now).length > 0;
  } finally {
    sqlite.close();
  }
}

/** Whether a killed process left a run unfinished (one indexed read). */
export const hasUnfinishedRuns = (ctx: Pick<Services, 'sqlite'>) =>
  prepared(ctx.sqlite, "select 1 from job_runs where status = 'running' limit 1").get() !== undefined;

/**
 * buildApp's part: the executor of this app's database, the start-up resume of what a killed
 * process left (in the worker on a file, not awaited: the server listens meanwhile; in process
 * on ':memory:'), and its stop when the app closes.
 */
export function startDailyRuns(
  fastify: FastifyInstance,
  services: Pick<Services, 'sqlite' | 'db' | 'clock' | 'plan' | 'storage'>,
  databasePath: string,
): DailyRuns {
  const runs = createDailyRuns(services, databasePath);
  if (!runs.inWorker) resumeUnfinishedRuns(services);
  else if (hasUnfinishedRuns(services))
    runs.resume().catch((error: unknown) => {
      if (!(error instanceof RunsStoppedError))
        fastify.log.error({ err: error }, 'Resuming the daily runs failed (the timer tries again)');
    });
  // Before the server waits for the requests in flight: a QA clock call waiting for a long run is
  // answered (the run stopped between two chunks) instead of holding the close up.
  fastify.addHook('preClose', () => runs.close());
  return runs;
}

interface AtomicsWaitAsync {
  waitAsync(
    array: Int32Array,
    index: number,
    value: number,
    timeout: number,
  ): { async: false; value: string } | { async: true; value: Promise<string> };
}

function inProcess(services: Pick<Services, 'sqlite' | 'db' | 'clock' | 'plan'>): DailyRuns {
  const settle = <T>(work: () => T) => new Promise<T>((resolve) => resolve(work()));
  return {
    inWorker: false,
    runDue: (from, to) => settle(() => runDueJobs(services, from, to)),
    resume: () => settle(() => resumeUnfinishedRuns(services)),
    idle: () => Promise.resolve(),
    close: () => Promise.resolve(),
  };
}

/** The worker's module: worker.ts through tsx, or dist/engine-worker.js (core/worker-module.ts). */
const workerModule = () => workerEntry(new URL('./worker.ts', import.meta.url), 'engine-worker.js');

function inWorker(
  services: Pick<Services, 'sqlite' | 'db' | 'clock' | 'plan' | 'storage'>,
  databasePath: string,
): DailyRuns {
  const control = new Int32Array(new SharedArrayBuffer(CELLS * Int32Array.BYTES_PER_ELEMENT));
  const base = Date.now();
  watchCommitCounter(services.sqlite, control, COMMITS);
  const pending = new Map<
    number,
    { resolve: (ran: JobRunReport[]) => void; reject: (error: Error) => void }
  >();
  let worker: Worker | undefined;
  // Threads ended for idleness: their exit is no failure of the requests of the thread after them.
  const retired = new WeakSet<Worker>();
  let retireTimer: ReturnType<typeof setTimeout> | undefined;
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  let nextId = 1;
  let closed = false;
  let last: Promise<unknown> = Promise.resolve();

  const beat = () => {
    Atomics.store(control, BEAT, (Date.now() - base) & BEAT_MASK);
    Atomics.notify(control, BEAT);
  };
  // While the worker writes, this connection leaves checkpoints to it: a commit here finding the
  // WAL past 1,000 pages (the worker's chunks) would copy them into the database on this thread.
  let autocheckpoint: number | undefined;
  const busy = () => {
    if (autocheckpoint !== undefined) return;
    autocheckpoint = services.sqlite.pragma('wal_autocheckpoint', { simple: true }) as number;
    services.sqlite.pragma('wal_autocheckpoint = 0');
  };
  // Every answer is in (the worker checkpointed before each): ending the thread loses nothing.
  const retire = () => {
    retireTimer = undefined;
    const thread = worker;
    if (!thread || pending.size > 0) return;
    worker = undefined;
    retired.add(thread);
    void thread.terminate();
  };
  const settled = () => {
    if (pending.size > 0) return;
    clearInterval(heartbeat);
    heartbeat = undefined;
    worker?.unref();
    if (autocheckpoint !== undefined && services.sqlite.open)
      services.sqlite.pragma(`wal_autocheckpoint = ${autocheckpoint}`);
    autocheckpoint = undefined;
    clearTimeout(retireTimer);
    retireTimer = worker && !closed ? setTimeout(retire, workerIdle.ms).unref() : undefined;
  };
  const failAll = (error: Error) => {
    for (const { reject } of pending.values()) reject(error);
    pending.clear();
    settled();
  };

  const spawn = (): Worker => {
    const init: WorkerInit = {
      databasePath,
      plan: services.plan,
      control: control.buffer as SharedArrayBuffer,
      base,
    };
    const entry = workerModule();
    const thread = new Worker(entry.url, { workerData: init, argv: entry.argv });
    thread.on('message', (reply: WorkerReply) => {
      const waiting = pending.get(reply.id);
      if (!waiting) return;
      pending.delete(reply.id);
      if ('ran' in reply) waiting.resolve(reply.ran);
      else {
        const { name, message, stack, code } = reply.error;
        const error =
          name === 'RunsStoppedError'
            ? new RunsStoppedError(message)
            : Object.assign(new Error(message), { name });
        waiting.reject(Object.assign(error, { stack }, code === undefined ? {} : { code }));
      }
      settled();
    });
    // A thread that died (an uncaught error, out of memory) is replaced at the next request; its run resumes there.
    thread.on('error', (error) => {
      if (retired.has(thread)) return;
      if (worker === thread) worker = undefined;
      failAll(error);
    });
    thread.on('exit', (code) => {
      if (retired.has(thread)) return;
      if (worker === thread) worker = undefined;
      // A thread that ended inside a chunk (terminated, out of memory) never lowered CHUNK: calls
      // that write would each wait a turn's full second for it, and last-seen writes would stop.
      Atomics.store(control, CHUNK, 0);
      Atomics.notify(control, CHUNK);
      failAll(
        closed
          ? new RunsStoppedError('The daily runs were stopped')
          : new Error(`The daily runs' worker exited (code ${code})`),
      );
    });
    return thread;
  };

  const send = (
    request: { kind: 'run'; from: number; to: number } | { kind: 'resume' },
  ): Promise<JobRunReport[]> => {
    if (closed) return Promise.reject(new RunsStoppedError('The daily runs were stopped'));
    // Not while the database files are gone or cannot be written (core/storage.ts): the worker's
    // own connection would write to a lost file, or die of SIGBUS on an immutable WAL index.
    const refused = storageRefusal(services.storage);
    if (refused) return Promise.reject(refused);
    clearTimeout(retireTimer);
    retireTimer = undefined;
    worker ??= spawn();
    worker.ref();
    const id = nextId++;
    const answer = new Promise<JobRunReport[]>((resolve, reject) => pending.set(id, { resolve, reject }));
    beat();
    heartbeat ??= setInterval(beat, BEAT_EVERY_MS);
    busy();
    worker.postMessage({ ...request, id, now: services.clock.now() } satisfies WorkerRequest);
    last = answer.catch(() => undefined);
    return answer;
  };

  const writeTurns: WriteTurns = {
    take() {
      Atomics.add(control, WRITERS, 1);
      if (Atomics.load(control, CHUNK) === 0) return undefined;
      // (ES2024's Atomics.waitAsync: Node has it, the project's TypeScript library does not yet.)
      const waited = (Atomics as unknown as AtomicsWaitAsync).waitAsync(control, CHUNK, 1, TURN_WAIT_MS);
      return waited.async ? waited.value.then(() => undefined) : undefined;
    },
    release() {
      Atomics.sub(control, WRITERS, 1);
      Atomics.notify(control, WRITERS);
    },
    held: () => Atomics.load(control, CHUNK) === 1,
  };

  return {
    inWorker: true,
    writeTurns,
    // Nothing owed and nothing half done before the worker ever started: none is started (an idle
    // server or QA world keeps no thread for a timer tick that finds no run).
    runDue: (from, to) =>
      !worker && !hasUnfinishedRuns(services) && pendingRuns(services, from, to).length === 0
        ? Promise.resolve([])
        : send({ kind: 'run', from, to }),
    resume: () => send({ kind: 'resume' }),
    idle: async () => {
      // Requests are answered in order: the last one settles after all before it.
      for (let seen; seen !== last;) {
        seen = last;
        await seen;
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      clearTimeout(retireTimer);
      Atomics.store(control, STOP, 1);
      Atomics.notify(control, BEAT);
      const thread = worker;
      if (!thread) return;
      // The worker stops between two chunks; a chunk stuck longer than this is cut (rolled back, like a crash).
      const stopped = Promise.race([last, new Promise((done) => setTimeout(done, 5_000).unref())]);
      await stopped;
      await thread.terminate();
      failAll(new RunsStoppedError('The daily runs were stopped'));
    },
  };
}
