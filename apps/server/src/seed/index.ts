/**
 * Named seed scenarios (DESIGN §5). `demo` is what a new database gets: a deterministic team
 * around the member `demo`; `empty` has no members at all (registration needs a sponsor, so
 * QA usually starts from `demo`).
 */
import { meta } from '@md/db';
import { badRequest } from '../core/errors.ts';
import { immediateTransaction, quoteIdentifier } from '../core/prepared.ts';
import { rewriteAll } from '../core/read-cache.ts';
import type { Services } from '../core/services.ts';
import { backfillBinaryStats } from '../modules/engine/stats.ts';
import { seedDemo, type DemoFacts } from './demo.ts';
import { DEFAULT_SCALE_MEMBERS, SCALE_HISTORY_DAYS, seedScale, type ScaleFacts } from './scale.ts';

export interface ScenarioInfo {
  name: string;
  description: string;
}

export const SCENARIOS: readonly ScenarioInfo[] = [
  {
    name: 'demo',
    description:
      '91 simulated days played through the real engine: demo / Demo@1234 (transaction password Txn@123) with a team of 120 members on both legs (many levels deep in the sponsor and binary trees) who deposit, buy, swap, send P2P and withdraw, and the ROI, level, binary and rank income the engine paid; demo2fa / Demo@1234 with TOTP on.',
  },
  { name: 'empty', description: 'No members, no data: only the schema.' },
  {
    name: 'scale',
    description: `${DEFAULT_SCALE_MEMBERS.toLocaleString('en-US')} members (demo / Demo@1234 at the root, m0000002… with the same password) in realistic, very deep spillover trees, for load tests; about half (demo too) bought a package with a deposit over a year, paying their sponsors level income, then the engine ran the last ${SCALE_HISTORY_DAYS} days: binary volume folded up both legs and matched, ranks above Starter, daily ROI.`,
  },
];

export interface SeedSummary {
  scenario: string;
  members: number;
  notifications: number;
  demo?: DemoFacts;
  scale?: ScaleFacts;
}

export const isScenario = (name: string) => SCENARIOS.some((s) => s.name === name);

/** Seeds `name` into an empty database, in one transaction. */
export function seedScenario(
  services: Services,
  name: string,
  options: {
    members?: number;
    /** `scale`: days of runs after the joining year (SCALE_HISTORY_DAYS by default; 0 leaves every run owed). */
    historyDays?: number;
    onProgress?: (done: number, total: number) => void;
  } = {},
): SeedSummary {
  if (!isScenario(name))
    throw badRequest(`Unknown scenario '${name}'. Known: ${SCENARIOS.map((s) => s.name).join(', ')}`);
  return immediateTransaction(services.sqlite, (): SeedSummary => {
    const summary: SeedSummary =
      name === 'demo'
        ? seedDemo(services)
        : name === 'scale'
          ? scaleSummary(seedScale(services, { historyDays: SCALE_HISTORY_DAYS, ...options }))
          : { scenario: 'empty', members: 0, notifications: 0 };
    // Members without complete binary_stats are filled now, and the mark that spares the next
    // start a pass over them is set (the scale seed sets it itself: every row it writes is complete).
    backfillBinaryStats(services);
    const now = String(services.clock.now());
    for (const [key, value] of [
      ['scenario', name],
      ['seeded_at', now],
    ] as const)
      services.db
        .insert(meta)
        .values({ key, value })
        .onConflictDoUpdate({ target: meta.key, set: { value } })
        .run();
    return summary;
  });
}

const scaleSummary = (facts: ScaleFacts): SeedSummary => ({
  scenario: 'scale',
  members: facts.members,
  notifications: 0,
  scale: facts,
});

/**
 * Wipes every table but the migrations' bookkeeping and seeds `name`, in one transaction; the
 * clock goes back to real time (offset 0) first so the scenario's dates are relative to it.
 */
export function resetDatabase(services: Services, name: string): SeedSummary {
  if (!isScenario(name))
    throw badRequest(`Unknown scenario '${name}'. Known: ${SCENARIOS.map((s) => s.name).join(', ')}`);
  const tables = services.sqlite
    .prepare<[], { name: string }>(
      "select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like '__drizzle%'",
    )
    .all()
    .map((t) => t.name);
  const hasSequence = Boolean(
    services.sqlite.prepare("select 1 from sqlite_master where name = 'sqlite_sequence'").get(),
  );
  // Every row is rewritten: the read cache's per-row triggers stand aside and all its answers go.
  return rewriteAll(services.sqlite, () =>
    services.sqlite.transaction(() => {
      for (const table of tables) services.sqlite.prepare(`delete from ${quoteIdentifier(table)}`).run();
      // Ids start at 1 again so a scenario is the same after every reset.
      if (hasSequence) services.sqlite.prepare('delete from sqlite_sequence').run();
      services.clock.reset();
      return seedScenario(services, name);
    })(),
  );
}
