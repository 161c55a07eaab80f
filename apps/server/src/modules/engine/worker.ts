/**
 * The daily runs' thread (runner.ts starts it): its own connection to the database file, the same
 * code as in process (jobs.ts), one request at a time. Between two chunks it gives way to the
 * request thread when that thread's heartbeat is stale (runner.ts explains why), and stops when
 * asked to (what is left of the run resumes at the next start).
 *
 * Test seams, from the environment (the crash test sets them on a real server):
 * - ENGINE_CHUNK_SIZE=n: fixed chunks of n members (no adaptation), so chunk numbers mean the same
 *   place on every try;
 * - ENGINE_TRACE_CHUNKS=1: a line on stderr after each chunk (job, date, phase, cursor, time since
 *   the previous one);
 * - ENGINE_PAUSE_AFTER_CHUNK=n: after the n-th chunk this thread commits, print
 *   `engine paused after chunk n: <job> <date> <phase> <cursor>` and block, to be killed there;
 *   with ENGINE_PAUSE_RELEASE=FILE it also writes that line to FILE.paused and goes on once FILE
 *   exists (a test sends requests meanwhile);
 * - ENGINE_PAUSE_INSIDE_CHUNK=n: inside the n-th chunk's transaction, its writes done and not yet
 *   committed, print `engine paused inside chunk n: <job> <date> <phase>` and block, holding the
 *   write lock, to be killed there; with ENGINE_PAUSE_RELEASE=FILE, as above (a test sends
 *   requests while the lock is held).
 */
import { existsSync, readlinkSync, writeFileSync, writeSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import type { Clock } from '../../core/clock.ts';
import { fileProblem, filesOf } from '../../core/storage.ts';
import { engineHooks, resumeUnfinishedRuns, runDueJobs, RunsStoppedError } from './jobs.ts';
import { openRunConnection } from './run-connection.ts';
import {
  BEAT,
  BEAT_MASK,
  CHUNK,
  COMMITS,
  STOP,
  WRITERS,
  type WorkerInit,
  type WorkerReply,
  type WorkerRequest,
} from './runner.ts';

/** A heartbeat older than this means the request thread is blocked (most likely waiting for the lock). */
const STALE_MS = 12;
/** The longest the worker waits for a beat between two chunks: above SQLite's longest busy-wait sleep (100 ms). */
const YIELD_MS = 120;
/** The first size of a pay chunk (jobs.ts scales it per phase), and the time chunks aim at. */
const FIRST_CHUNK = 25;
const CHUNK_MS = 40;

/** This thread's nice value (ENGINE_NICE): above 0, the request thread gets a CPU first when both want one (Linux). */
const NICE = Number(process.env.ENGINE_NICE ?? 10);

const init = workerData as WorkerInit;
try {
  // /proc/thread-self names this thread ('<pid>/task/<tid>'); setpriority on a thread id sets that thread only.
  const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
  if (Number.isInteger(tid) && tid > 0 && NICE > 0) setPriority(tid, Math.max(getPriority(tid), NICE));
} catch {
  // not Linux, or not allowed: the run competes for CPUs on equal terms
}
const control = new Int32Array(init.control);
/** After a commit: the request thread's read caches drop their answers at their next get. */
const signalCommit = () => Atomics.add(control, COMMITS, 1);

/** The request thread's clock as of the request being worked on, running on from there. */
let offset = 0;
const clock: Clock = {
  now: () => Date.now() + offset,
  set: () => {
    throw new Error('the daily runs worker does not move the clock');
  },
  advance: () => {
    throw new Error('the daily runs worker does not move the clock');
  },
  reset: () => {},
  reload: () => {},
};
const ctx = openRunConnection(init.databasePath, clock, init.plan);
const { sqlite } = ctx;

/** The files as this connection opened them: a run stops when one is deleted, replaced or made read-only. */
const watched = filesOf(init.databasePath);

engineHooks.betweenChunks = () => {
  if (Atomics.load(control, STOP))
    throw new RunsStoppedError('The daily runs were stopped between two chunks');
  // A few stat calls: the next chunk would otherwise commit into a deleted file (lost) or fault.
  const problem = fileProblem(watched);
  if (problem)
    throw Object.assign(new Error(`The daily runs stopped: ${problem.reason}`), {
      name: 'StorageFileError',
      code: `FILE_${problem.kind.toUpperCase()}`,
    });
  // Calls that waited for this chunk's end go first (WriteTurns): until they are through their
  // transactions, or YIELD_MS.
  const until = Date.now() + YIELD_MS;
  for (let writers = Atomics.load(control, WRITERS); writers > 0 && Date.now() < until;) {
    Atomics.wait(control, WRITERS, writers, until - Date.now());
    writers = Atomics.load(control, WRITERS);
  }
  const last = Atomics.load(control, BEAT);
  // Both counted in ms since init.base, modulo BEAT_MASK + 1.
  const age = (Date.now() - init.base - last) & BEAT_MASK;
  if (age > STALE_MS) Atomics.wait(control, BEAT, last, YIELD_MS);
  if (Atomics.load(control, STOP))
    throw new RunsStoppedError('The daily runs were stopped between two chunks');
};

// Chunks start small and adapt towards CHUNK_MS, the longest a request that writes should wait
// for the lock (give or take SQLite's polling): members differ (at 1,000,000 members the first
// 100 rank evaluations, the biggest sponsors, took 325 ms). Smaller chunks cost run time.
const fixedChunk = Number(process.env.ENGINE_CHUNK_SIZE);
if (Number.isInteger(fixedChunk) && fixedChunk > 0) {
  engineHooks.chunkSize = fixedChunk;
  engineHooks.chunkMs = undefined;
} else {
  engineHooks.chunkSize = FIRST_CHUNK;
  engineHooks.chunkMs = CHUNK_MS;
}
// First, so the trace and pause hooks below wrap it: every chunk's commit is signalled before anything waits.
engineHooks.afterChunk = signalCommit;
// The request thread's writers wait for CHUNK to fall (runner.ts WriteTurns) instead of polling the lock.
engineHooks.holdingLock = (held) => {
  Atomics.store(control, CHUNK, held ? 1 : 0);
  if (!held) Atomics.notify(control, CHUNK);
};
if (process.env.ENGINE_TRACE_CHUNKS === '1') {
  let chunks = 0;
  let last = performance.now();
  const previous = engineHooks.afterChunk;
  engineHooks.afterChunk = (job, date, cursor, phase) => {
    const now = performance.now();
    writeSync(
      2,
      `engine chunk ${++chunks}: ${job} ${date} ${phase} ${cursor} ${(now - last).toFixed(1)} ms at ${Date.now()}\n`,
    );
    last = now;
    previous?.(job, date, cursor, phase);
  };
}
const pauseAfter = Number(process.env.ENGINE_PAUSE_AFTER_CHUNK);
if (Number.isInteger(pauseAfter) && pauseAfter > 0) {
  const release = process.env.ENGINE_PAUSE_RELEASE;
  const traced = engineHooks.afterChunk;
  let chunks = 0;
  engineHooks.afterChunk = (job, date, cursor, phase) => {
    traced?.(job, date, cursor, phase);
    if (++chunks !== pauseAfter) return;
    const where = `engine paused after chunk ${chunks}: ${job} ${date} ${phase} ${cursor}\n`;
    writeSync(1, where);
    if (release) writeFileSync(`${release}.paused`, where);
    // Between two chunks: no lock is held while paused.
    const sleep = new Int32Array(new SharedArrayBuffer(4));
    while (!release || !existsSync(release)) {
      if (Atomics.load(control, STOP)) throw new RunsStoppedError('The daily runs were stopped while paused');
      Atomics.wait(sleep, 0, 0, 10);
    }
  };
}

const pauseInside = Number(process.env.ENGINE_PAUSE_INSIDE_CHUNK);
if (Number.isInteger(pauseInside) && pauseInside > 0) {
  const release = process.env.ENGINE_PAUSE_RELEASE;
  let chunks = 0;
  engineHooks.insideChunk = (job, date, phase) => {
    if (++chunks !== pauseInside) return;
    const where = `engine paused inside chunk ${chunks}: ${job} ${date} ${phase}\n`;
    writeSync(1, where);
    if (release) writeFileSync(`${release}.paused`, where);
    // Holding the write lock, until killed, stopped, or (with a release file) let go on.
    const sleep = new Int32Array(new SharedArrayBuffer(4));
    while (!Atomics.load(control, STOP)) {
      if (release && existsSync(release)) return;
      Atomics.wait(sleep, 0, 0, 10);
    }
    throw new RunsStoppedError('The daily runs were stopped inside a chunk');
  };
}

parentPort!.on('message', (request: WorkerRequest) => {
  offset = request.now - Date.now();
  let reply: WorkerReply;
  try {
    const ran =
      request.kind === 'resume' ? resumeUnfinishedRuns(ctx) : runDueJobs(ctx, request.from, request.to);
    // Synced before answering: a checkpoint syncs the WAL first (whatever it then copies).
    if (ran.length > 0) sqlite.pragma('wal_checkpoint(PASSIVE)');
    reply = { id: request.id, ran };
  } catch (error) {
    const { name, message, stack } = error instanceof Error ? error : new Error(String(error));
    const code = (error as { code?: unknown }).code;
    reply = {
      id: request.id,
      error: { name, message, ...(stack ? { stack } : {}), ...(typeof code === 'string' ? { code } : {}) },
    };
  }
  // Whatever else committed (run rows, the last chunk), before the answer is seen.
  signalCommit();
  parentPort!.postMessage(reply);
});
