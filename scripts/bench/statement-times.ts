/**
 * Where a call's SQLite time goes, statement by statement: better-sqlite3's run, get and all are
 * wrapped (every connection of the process, BEGIN and COMMIT included when they are prepared
 * statements, triggers counted in the statement that fires them) and timed while a label is set.
 * `iterate` is not wrapped. The wrapper costs ~0.1 µs a statement.
 */
import Database from 'better-sqlite3';

interface Sample {
  calls: number;
  ns: bigint;
}

export function statementTimes() {
  const byLabel = new Map<string, Map<string, Sample>>();
  let current: Map<string, Sample> | undefined;
  const probe = new Database(':memory:');
  const proto = Object.getPrototypeOf(probe.prepare('select 1')) as Record<
    string,
    (this: { source: string }, ...args: unknown[]) => unknown
  >;
  probe.close();
  for (const method of ['run', 'get', 'all'] as const) {
    const original = proto[method]!;
    proto[method] = function (this: { source: string }, ...args: unknown[]) {
      if (!current) return original.apply(this, args);
      const samples = current;
      const started = process.hrtime.bigint();
      try {
        return original.apply(this, args);
      } finally {
        const sample = samples.get(this.source) ?? { calls: 0, ns: 0n };
        sample.calls++;
        sample.ns += process.hrtime.bigint() - started;
        samples.set(this.source, sample);
      }
    };
  }
  return {
    /** Runs `work` with its statements counted under `label`. */
    async during<T>(label: string, work: () => Promise<T>): Promise<T> {
      current = byLabel.get(label) ?? new Map();
      byLabel.set(label, current);
      try {
        return await work();
      } finally {
        current = undefined;
      }
    },
    /** The `top` dearest statements of `label`, as µs per operation given `operations` counted. */
    report(label: string, operations: number, top = 15): string {
      const samples = [...(byLabel.get(label) ?? new Map<string, Sample>())];
      const total = samples.reduce((sum, [, s]) => sum + Number(s.ns), 0);
      const perOperation = (ns: number) => (ns / 1000 / operations).toFixed(1).padStart(7);
      const lines = samples
        .sort((a, b) => Number(b[1].ns - a[1].ns))
        .slice(0, top)
        .map(
          ([sql, s]) =>
            `${perOperation(Number(s.ns))} µs ${(s.calls / operations).toFixed(2).padStart(5)}× ${sql.replace(/\s+/g, ' ').slice(0, 110)}`,
        );
      return [`${label}: ${perOperation(total).trim()} µs in SQLite statements per call`, ...lines].join(
        '\n',
      );
    },
  };
}
