/**
 * Seeded databases as templates, the way QA worlds are made (modules/worlds): a scenario is
 * seeded once per run for a given clock and plan, kept as a file, and every later app that asks
 * for it starts from a copy (milliseconds instead of the demo's 91 simulated days). The seed is a
 * function of the clock's time and the plan alone, so the copy is the database seeding would make.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';
import { buildApp, type BuildOptions } from '../src/app.ts';
import { manualClock } from '../src/core/clock.ts';

/** Scenarios worth keeping: 'empty' and 'none' seed nothing, 'scale' is built by the tests that use it. */
const KEPT = new Set(['demo']);

/** Images this worker has read or seeded (its files share this module: isolate is off), by template file. */
const images = new Map<string, Buffer>();

/** The image of `scenario` seeded at `now` with `plan`: from this run's template folder, seeded there on first use. */
export async function seededImage(
  scenario: string,
  now: number,
  plan?: BuildOptions['plan'],
): Promise<Buffer> {
  const key = createHash('sha256')
    .update(JSON.stringify({ scenario, now, plan: plan ?? null }))
    .digest('hex')
    .slice(0, 16);
  const file = join(inject('templateDir'), `${scenario}-${key}.sqlite`);
  const kept = images.get(file) ?? (existsSync(file) ? readFileSync(file) : undefined);
  if (kept) {
    images.set(file, kept);
    return kept;
  }
  const app = await buildApp({ seed: scenario, clock: manualClock(now), standin: false, webDist: '', plan });
  try {
    const image = app.services.sqlite.serialize();
    // Written aside and renamed: a file seeded at the same moment by another test file is never read half written.
    const partial = `${file}.${process.pid}`;
    writeFileSync(partial, image);
    renameSync(partial, file);
    images.set(file, image);
    return image;
  } finally {
    await app.fastify.close();
  }
}

/**
 * `options` for an app that starts from the template of its seed, when there is one to keep and a
 * manual clock (a real clock's seed depends on the moment it runs): in memory, the template's
 * image; a file that does not exist yet is written from it. An existing file, an image of the
 * caller's or a real clock is left as it is (seeded by the app, as before).
 */
export async function fromTemplate<T extends BuildOptions>(options: T): Promise<T> {
  const scenario = options.seed ?? 'demo';
  if (!KEPT.has(scenario) || options.databaseImage || !options.clock) return options;
  const path = options.databasePath ?? ':memory:';
  if (path !== ':memory:' && existsSync(path)) return options;
  const image = await seededImage(scenario, options.clock.now(), options.plan);
  if (path === ':memory:') return { ...options, databaseImage: image, seed: 'none' };
  writeFileSync(path, image);
  return { ...options, seed: 'none' };
}
