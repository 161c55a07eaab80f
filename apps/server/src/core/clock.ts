/**
 * The one clock everything time-based reads (OTP expiry, TOTP, JWT expiry, jobs). It runs at
 * real speed from an offset that QA can set or advance; the offset lives in the database so
 * every process on one file agrees.
 */
export interface Clock {
  now(): number;
  /** Move the clock to an absolute time (epoch ms). */
  set(epochMs: number): void;
  advance(ms: number): void;
  /** Back to real time (offset 0), or to the start of a manual clock: QA reset does this. */
  reset(): void;
  /** Read the stored offset again: the database was replaced under the clock (QA restore). */
  reload(): void;
}

export function offsetClock(
  load: () => number,
  save: (offsetMs: number) => void,
  realNow = () => Date.now(),
): Clock {
  let offset = load();
  return {
    now: () => realNow() + offset,
    // Saved first: a write the database refuses (disk full, read-only) leaves the clock as it was.
    set(epochMs) {
      const next = epochMs - realNow();
      save(next);
      offset = next;
    },
    advance(ms) {
      save(offset + ms);
      offset += ms;
    },
    reset() {
      save(0);
      offset = 0;
    },
    reload() {
      offset = load();
    },
  };
}

/** A frozen clock for tests: time moves only when told. */
export function manualClock(start = Date.UTC(2026, 10, 2, 9, 0, 0)): Clock {
  let t = start;
  return {
    now: () => t,
    set(epochMs) {
      t = epochMs;
    },
    advance(ms) {
      t += ms;
    },
    reset() {
      t = start;
    },
    // Nothing is stored: a test's clock stays where the test put it.
    reload() {},
  };
}
