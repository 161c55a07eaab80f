/**
 * Lighthouse performance on sign-in (`/`) and the dashboard home (`/dashboard`), in the mobile
 * preset (Lighthouse's default: a Moto G class CPU, slow 4G, simulated) and the desktop preset,
 * each beside the floor page (scripts/bench/floor-page.ts: a minimal Vite + React page with one
 * form) audited in the same run, each with QA control off (as members get it) and on (every
 * development and QA start: the QA button on every page, its panel fetched only when pressed).
 *   node --import tsx scripts/bench/lighthouse.ts [--runs 3] [--preset mobile|desktop] [--qa off|on|both] [--dist DIR] [--baseline DIR] [--no-build] [--details] [--save DIR]
 * Goals: mobile sign-in ≥ 98 and dashboard ≥ 95 with QA control off, ≥ 95 and ≥ 90 with it on
 * (LCP ≤ 2.5 s and TBT ≤ 200 ms on each); desktop 100 on all four.
 * Lighthouse clears the origin's storage before each audit, the service worker and its caches
 * included: every audit is a first visit, the worker registering after the page's load.
 * Builds apps/web into --dist DIR (default apps/web/dist; unless --no-build), starts a server per QA setting on a free port with a new demo database,
 * starts the system Chromium (CHROME_PATH or /usr/bin/chromium; headless, no sandbox, no GPU) with
 * chrome-launcher, audits through Lighthouse's Node API and signs in with playwright-core over CDP. Each run and preset: the floor
 * page; sign-in audited with no session; then the page signs in as the demo member (the token stays
 * in localStorage, which Lighthouse's storage reset leaves alone while it clears the HTTP cache) and
 * the dashboard is audited. Prints each run, the load average before and after (simulated
 * throttling scales what it observes: a loaded CPU lowers every page, the floor's included) and the
 * median score and metrics (FCP, LCP, TBT, CLS, SI); exits 1 when a median misses its goal.
 * --baseline DIR: also audits another build (e.g. one of the previous main) served by a second server,
 * interleaved in the same runs, so a change is compared under the same machine load.
 * --details: the audits that lose points, and where the main thread goes (bootup time per script,
 * the longest tasks).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { launch } from 'chrome-launcher';
import lighthouse, { type Config } from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { chromium } from 'playwright-core';
import { buildApp } from '../../apps/server/src/app.ts';
import { DEMO_PASSWORD } from '../../apps/server/src/core/passwords.ts';
import { browserPath } from '../../apps/web/e2e/browser.ts';
import { buildWeb, webDist } from './build-web.ts';
import { median, numberArg, stringArg } from './cli.ts';
import { startFloorPage } from './floor-page.ts';

const RUNS = numberArg('runs', 3);
type Preset = 'mobile' | 'desktop';
type PageName =
  | 'floor'
  | 'sign-in'
  | 'dashboard'
  | 'qa-sign-in'
  | 'qa-dashboard'
  | 'baseline-sign-in'
  | 'baseline-dashboard';
const PRESETS: Preset[] =
  stringArg('preset') === 'mobile'
    ? ['mobile']
    : stringArg('preset') === 'desktop'
      ? ['desktop']
      : ['mobile', 'desktop'];
/** Lighthouse's default configuration is the mobile preset. */
const CONFIGS: Record<Preset, Config> = { mobile: { extends: 'lighthouse:default' }, desktop: desktopConfig };
/** Goals: the smallest median score, and on mobile the largest LCP and TBT (ms). The floor has none. */
const GOALS: Record<Preset, Partial<Record<PageName, { score: number; lcp?: number; tbt?: number }>>> = {
  mobile: {
    'sign-in': { score: 98, lcp: 2500, tbt: 200 },
    dashboard: { score: 95, lcp: 2500, tbt: 200 },
    'qa-sign-in': { score: 95, lcp: 2500, tbt: 200 },
    'qa-dashboard': { score: 90, lcp: 2500, tbt: 200 },
  },
  desktop: {
    'sign-in': { score: 100 },
    dashboard: { score: 100 },
    'qa-sign-in': { score: 100 },
    'qa-dashboard': { score: 100 },
  },
};
/** --qa off|on|both (default both): which servers are audited. */
const QA = stringArg('qa') ?? 'both';
if (!['off', 'on', 'both'].includes(QA)) throw new Error('--qa takes off, on or both');
const DETAILS = process.argv.includes('--details');
/** --save DIR: keep each run's Lighthouse report (JSON) there. */
const SAVE = stringArg('save');

const dist = stringArg('dist') ?? webDist;
if (!process.argv.includes('--no-build')) buildWeb(dist);
const floor = await startFloorPage();

const dir = mkdtempSync(join(tmpdir(), 'md-bench-lighthouse-'));
const startServer = async (webDist: string, name: string, qaControl = false) => {
  const app = await buildApp({
    databasePath: join(dir, `${name}.sqlite`),
    clientMode: 'mock',
    webDist,
    jwtSecret: 'bench-lighthouse',
    // QA control is off in production (NODE_ENV=production), as members get it; on, the QA button shows.
    config: { rateLimits: false, qaControl },
  });
  return { app, origin: await app.fastify.listen({ port: 0, host: '127.0.0.1' }) };
};
const members = QA === 'on' ? undefined : await startServer(dist, 'members');
const qa = QA === 'off' ? undefined : await startServer(dist, 'qa', true);
const BASELINE = stringArg('baseline');
const baseline = BASELINE ? await startServer(BASELINE, 'baseline') : undefined;

// Chromium started the way Lighthouse's CLI starts it; playwright-core attaches over CDP to sign in
// through the page, in the browser's default context (the one Lighthouse opens its tab in).
const chrome = await launch({
  chromePath: browserPath(),
  chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu'],
});
const debuggingPort = chrome.port;
const browser = await chromium.connectOverCDP(`http://127.0.0.1:${debuggingPort}`);
const context = browser.contexts()[0]!;
const page = await context.newPage();

interface Result {
  score: number;
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
  si: number;
}

/** Lighthouse now and then loses the trace (NO_NAVSTART) or a metric on this loaded machine: such a run is redone. */
async function audit(url: string, preset: Preset, name: PageName, attempts = 3): Promise<Result> {
  for (let attempt = 1; ; attempt++) {
    try {
      const result = await auditOnce(url, preset, name);
      if (Object.values(result).every(Number.isFinite)) return result;
      throw new Error(`a metric is missing: ${JSON.stringify(result)}`);
    } catch (error) {
      if (attempt >= attempts) throw error;
      console.log(`    ${url}: run again (${error instanceof Error ? error.message : String(error)})`);
    }
  }
}

interface TableAudit {
  details?: { items?: Array<Record<string, unknown>> };
}

async function auditOnce(url: string, preset: Preset, name: PageName): Promise<Result> {
  const runner = await lighthouse(
    url,
    { port: debuggingPort, output: 'json', logLevel: 'error', onlyCategories: ['performance'] },
    CONFIGS[preset],
  );
  if (!runner) throw new Error('Lighthouse returned no result');
  const { lhr } = runner;
  if (SAVE) writeFileSync(join(SAVE, `${name}-${preset}-${Date.now()}.json`), JSON.stringify(lhr));
  if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.message}`);
  const metric = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
  if (DETAILS) {
    const label = `    ${preset} ${name}:`;
    for (const a of Object.values(lhr.audits))
      if (a.score !== null && a.score < 0.9 && a.scoreDisplayMode !== 'informative')
        console.log(`${label} ${a.id} ${a.score} ${a.displayValue ?? ''}`);
    const items = (id: string) => (lhr.audits[id] as TableAudit | undefined)?.details?.items ?? [];
    const short = (u: unknown) => String(u).replace(/^https?:\/\/[^/]+/, '');
    for (const item of items('bootup-time').slice(0, 4))
      console.log(
        `${label} bootup ${short(item.url)}: script ${Number(item.scripting).toFixed(0)} ms, parse/compile ${Number(item.scriptParseCompile).toFixed(0)} ms`,
      );
    const tasks = items('long-tasks').map(
      (t) => `${Number(t.duration).toFixed(0)} ms @${Number(t.startTime).toFixed(0)} ${short(t.url)}`,
    );
    console.log(`${label} ${tasks.length} long tasks: ${tasks.slice(0, 6).join(', ')}`);
  }
  return {
    score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
    fcp: metric('first-contentful-paint'),
    lcp: metric('largest-contentful-paint'),
    tbt: metric('total-blocking-time'),
    cls: metric('cumulative-layout-shift'),
    si: metric('speed-index'),
  };
}

async function signIn(at: string) {
  await page.goto(`${at}/`);
  await page.getByLabel('Username').fill('demo');
  await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL('**/dashboard');
}

/** Sign-in audited with no session (a stored token opens the dashboard), then the dashboard signed in. */
async function auditApp(
  at: string,
  preset: Preset,
  run: number,
  names: { signIn: PageName; dashboard: PageName },
) {
  await page.goto(`${at}/`);
  await page.evaluate(() => localStorage.clear());
  const signInResult = await audit(`${at}/`, preset, names.signIn);
  record(preset, names.signIn, signInResult);
  console.log(`run ${run}: ${show(`${preset} ${names.signIn}`, signInResult)}`);
  await signIn(at);
  const dashboardResult = await audit(`${at}/dashboard`, preset, names.dashboard);
  record(preset, names.dashboard, dashboardResult);
  console.log(`run ${run}: ${show(`${preset} ${names.dashboard}`, dashboardResult)}`);
}

const results = new Map<string, Result[]>();
const record = (preset: Preset, name: PageName, result: Result) => {
  const key = `${preset} ${name}`;
  results.set(key, [...(results.get(key) ?? []), result]);
};
const show = (name: string, r: Result) =>
  `${name.padEnd(26)} score ${String(r.score).padStart(3)}  FCP ${r.fcp.toFixed(0).padStart(5)} ms  LCP ${r.lcp.toFixed(0).padStart(5)} ms  TBT ${r.tbt.toFixed(0).padStart(4)} ms  CLS ${r.cls.toFixed(3)}  SI ${r.si.toFixed(0).padStart(5)} ms`;
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const loadBefore = load();
try {
  for (let run = 1; run <= RUNS; run++) {
    for (const preset of PRESETS) {
      const floorResult = await audit(`${floor.origin}/`, preset, 'floor');
      record(preset, 'floor', floorResult);
      console.log(`run ${run}: ${show(`${preset} floor`, floorResult)}`);
      if (members) await auditApp(members.origin, preset, run, { signIn: 'sign-in', dashboard: 'dashboard' });
      if (qa) await auditApp(qa.origin, preset, run, { signIn: 'qa-sign-in', dashboard: 'qa-dashboard' });
      if (baseline)
        await auditApp(baseline.origin, preset, run, {
          signIn: 'baseline-sign-in',
          dashboard: 'baseline-dashboard',
        });
    }
  }
} finally {
  await browser.close();
  chrome.kill();
  await members?.app.fastify.close();
  await qa?.app.fastify.close();
  await baseline?.app.fastify.close();
  await floor.close();
  rmSync(dir, { recursive: true, force: true });
}

console.log(
  `\nmedian of ${RUNS} runs; load average (1, 5, 15 min) ${loadBefore} before, ${load()} after; floor page JS ${(floor.jsGzip / 1000).toFixed(1)} kB gzipped:`,
);
const missed: string[] = [];
for (const [key, rs] of results) {
  const m: Result = {
    score: median(rs.map((r) => r.score)),
    fcp: median(rs.map((r) => r.fcp)),
    lcp: median(rs.map((r) => r.lcp)),
    tbt: median(rs.map((r) => r.tbt)),
    cls: median(rs.map((r) => r.cls)),
    si: median(rs.map((r) => r.si)),
  };
  const [preset, name] = key.split(' ') as [Preset, PageName];
  const goal = GOALS[preset][name];
  const misses = goal
    ? [
        ...(m.score < goal.score ? [`score < ${goal.score}`] : []),
        ...(goal.lcp !== undefined && m.lcp > goal.lcp ? [`LCP > ${goal.lcp} ms`] : []),
        ...(goal.tbt !== undefined && m.tbt > goal.tbt ? [`TBT > ${goal.tbt} ms`] : []),
      ]
    : [];
  console.log(
    `  ${show(key, m)}${goal ? (misses.length ? `  MISSED: ${misses.join(', ')}` : '  goal met') : ''}`,
  );
  if (misses.length) missed.push(key);
}
process.exit(missed.length ? 1 : 0);
