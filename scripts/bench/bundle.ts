/**
 * Client bundle budgets: JavaScript loaded by the sign-in route ≤ 120 kB gzipped, every other
 * route's own chunk ≤ 60 kB gzipped.
 *   node --import tsx scripts/bench/bundle.ts [--no-build] [--dist DIR]
 * Builds apps/web into --dist (default apps/web/dist; unless --no-build and a build exists), prints the sign-in total, each lazy
 * chunk's own size and what navigating to it from sign-in downloads, and exits 1 when over.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { analyseBundle, BUDGETS, kb } from './bundle-budget.ts';
import { buildWeb, webDist } from './build-web.ts';
import { stringArg } from './cli.ts';

const dist = stringArg('dist') ?? webDist;
if (!process.argv.includes('--no-build') || !existsSync(join(dist, '.vite/manifest.json'))) buildWeb(dist);

const report = analyseBundle(dist);
const f = (bytes: number) => `${kb(bytes).toFixed(1).padStart(6)} kB`;
console.log(
  `sign-in route: ${report.signIn.files.length} JS files, ${f(report.signIn.gzip)} gzipped (${f(report.signIn.raw)} raw); budget ${BUDGETS.signInKb} kB`,
);
console.log(
  `dashboard home's first load: ${report.dashboard.files.length} JS files, ${f(report.dashboard.gzip)} gzipped; budget ${BUDGETS.dashboardKb} kB`,
);
console.log(
  `\nlazy chunks (budget ${BUDGETS.routeChunkKb} kB gzipped each)      own chunk   navigation from sign-in`,
);
for (const route of report.routes)
  console.log(`  ${route.source.padEnd(48)} ${f(route.ownGzip)}   ${f(route.navigationGzip)}`);
for (const chunk of report.onDemand)
  console.log(`  ${`${chunk.source} (on demand)`.padEnd(48)} ${f(chunk.ownGzip)}`);
if (report.overBudget.length > 0) {
  console.log(`\nOVER BUDGET:\n  ${report.overBudget.join('\n  ')}`);
  process.exit(1);
}
console.log('\nAll within budget.');
