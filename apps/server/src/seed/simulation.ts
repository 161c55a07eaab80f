/**
 * A small discrete-event simulation for seeds: actions run in time order on a simulated clock,
 * and before each one the daily runs that fell due run exactly as on a live server
 * (runDueJobs), so every ROI, binary, level and rank payout in a seeded history is the real
 * engine's, never a row written by hand.
 */
import { manualClock } from '../core/clock.ts';
import type { Services } from '../core/services.ts';
import { runDueJobs } from '../modules/engine/jobs.ts';
import { dueRuns } from '../modules/engine/schedule.ts';

export type SimAction = (at: number) => void;

export interface Simulation {
  /** The services with the simulated clock: actions use these, so "now" is the action's time. */
  readonly services: Services;
  /** Schedules `action` at `time`; actions on one instant run in the order scheduled. Actions may schedule more. */
  at(time: number, action: SimAction): void;
  /** Runs every action up to `until` (and the daily runs between them); answers how many runs were paid. */
  run(until: number): { actions: number; runs: number };
}

/** `onStep`, after each action and each batch of runs, with the runs paid so far (a build's progress). */
export function createSimulation(
  services: Services,
  start: number,
  onStep?: (runs: number) => void,
): Simulation {
  const clock = manualClock(start);
  const sim: Services = { ...services, clock };
  const queue: { time: number; seq: number; action: SimAction }[] = [];
  let seq = 0;
  let cursor = start;

  return {
    services: sim,
    at(time, action) {
      if (time < cursor)
        throw new Error(`simulation: an action at ${new Date(time).toISOString()} is in the simulated past`);
      const item = { time, seq: seq++, action };
      // Binary search for the insertion point keeps the queue sorted by (time, seq).
      let lo = 0;
      let hi = queue.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (queue[mid]!.time <= time) lo = mid + 1;
        else hi = mid;
      }
      queue.splice(lo, 0, item);
    },
    run(until) {
      let actions = 0;
      let runs = 0;
      // The engine is asked only when a run falls due before the next action (most actions have none).
      const dueAt = [...new Set(dueRuns(cursor, until).map((r) => r.at))];
      let nextDue = 0;
      const advanceTo = (time: number) => {
        if (time <= cursor) return;
        clock.set(time);
        if (nextDue < dueAt.length && dueAt[nextDue]! <= time) {
          runs += runDueJobs(sim, cursor, time).length;
          onStep?.(runs);
          while (nextDue < dueAt.length && dueAt[nextDue]! <= time) nextDue++;
        }
        cursor = time;
      };
      while (queue.length > 0 && queue[0]!.time <= until) {
        const { time, action } = queue.shift()!;
        advanceTo(time);
        action(time);
        actions++;
        onStep?.(runs);
      }
      advanceTo(until);
      return { actions, runs };
    },
  };
}
