/**
 * Client bundle budgets on the build the global set-up made (scripts/bench/bundle-budget.ts reads its
 * Vite manifest). Every lazily loaded chunk stays within 60 kB gzipped; the sign-in route within
 * its budget, as one file; the dashboard home's first load within its own (a phone on slow 4G pays a round trip per wave of requests), and what was
 * moved off them stays off: Chakra's runtime and components (off both), the form library, the later screens.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyseBundle, BUDGETS, kb, ROUTE_GROUPS } from '../../../scripts/bench/bundle-budget.ts';

const dist = resolve(import.meta.dirname, '../dist');

/** The source modules of built files, from their source maps (the bundler's tiny runtime has none). */
const sourcesOf = (files: readonly string[]) =>
  files
    .map((file) => join(dist, `${file}.map`))
    .filter((map) => existsSync(map))
    .flatMap((map) => (JSON.parse(readFileSync(map, 'utf8')) as { sources: string[] }).sources);

/** Chakra: its components, its styling engine, its state machines and the app's system. */
const CHAKRA = [
  /node_modules\/@chakra-ui\//,
  /node_modules\/@emotion\//,
  /node_modules\/@zag-js\//,
  /components\/ui\/(system\.ts|chakra-root\.tsx)$/,
];

describe('bundle budgets', () => {
  const report = analyseBundle(dist);

  it('keeps every lazily loaded chunk within 60 kB gzipped', () => {
    expect(report.routes.length).toBeGreaterThan(15);
    const over = report.routes
      .filter((route) => kb(route.ownGzip) > BUDGETS.routeChunkKb)
      .map((route) => route.source);
    expect(over).toEqual([]);
  });

  it('loads the statement PDF library only on request: no route imports it, and it stays within its own budget', () => {
    expect(report.onDemand.map((chunk) => chunk.source)).toContain(
      '../../node_modules/jspdf/dist/jspdf.es.min.js',
    );
    expect(report.onDemand.filter((chunk) => kb(chunk.ownGzip) > BUDGETS.onDemandKb)).toEqual([]);
    expect(report.signIn.files.some((file) => /jspdf/i.test(file))).toBe(false);
  });

  it(`keeps the sign-in route within ${BUDGETS.signInKb} kB gzipped`, () => {
    expect(kb(report.signIn.gzip)).toBeGreaterThan(50); // the analysis found the entry and its imports
    expect(kb(report.signIn.gzip)).toBeLessThanOrEqual(BUDGETS.signInKb);
  });

  it(`keeps the dashboard home's first load within ${BUDGETS.dashboardKb} kB gzipped: sign-in's, the catalogs, the frame and home, without Chakra`, () => {
    expect(report.dashboard.files.length).toBeGreaterThan(report.signIn.files.length);
    expect(report.dashboard.files.some((file) => /catalog-en/.test(file))).toBe(true);
    expect(kb(report.dashboard.gzip)).toBeGreaterThan(kb(report.signIn.gzip) + 15);
    expect(kb(report.dashboard.gzip)).toBeLessThanOrEqual(BUDGETS.dashboardKb);
    // The frame's menus, drawer and package balance, and the home's insights, load Chakra when used.
    const sources = sourcesOf(report.dashboard.files);
    expect(sources.some((source) => source.includes('components/shell/dashboard-layout.tsx'))).toBe(true);
    expect(sources.filter((source) => CHAKRA.some((pattern) => pattern.test(source)))).toEqual([]);
  });

  it('sends the first screen as one file and the dashboard’s frame and home as one more', () => {
    // The entry and, at most, the bundler's tiny runtime.
    expect(report.signIn.files.length).toBeLessThanOrEqual(2);
    const dashboard = report.routes.find((route) => route.source === ROUTE_GROUPS.dashboard);
    expect(dashboard).toBeDefined();
    expect(
      report.routes.some((route) =>
        /shell\/dashboard-layout|dashboard-home\/dashboard-home/.test(route.source),
      ),
    ).toBe(false);
  });

  it('leaves the dashboard frame, the contract, the form rules, zod, date-fns, the QA panel, the toasts, the icon set, Chakra, the form library, the service worker’s client and the page chunks off the sign-in route', () => {
    // Every chunk has a source map except the bundler's tiny runtime.
    const maps = report.signIn.files.filter((file) => existsSync(join(dist, `${file}.map`)));
    expect(maps.length).toBeGreaterThan(report.signIn.files.length - 2);
    const sources = sourcesOf(report.signIn.files);
    expect(sources.some((source) => source.includes('features/auth/sign-in.tsx'))).toBe(true);
    const unwanted = [
      /components\/shell\/dashboard-layout\.tsx$/,
      /shared\/src\/contract\.ts$/,
      /shared\/src\/rules\.ts$/,
      /zod\/v4\/classic\//,
      // zod's core: the runtime config is parsed with valibot.
      /zod\/v4\/core\/schemas\.js$/,
      /node_modules\/date-fns\//,
      /features\/dashboard-home\//,
      // The QA panel (its button alone is on the first screen), the toasts' UI, the update prompt.
      /features\/qa-panel\/qa-panel\.tsx$/,
      /components\/ui\/toaster\.tsx$/,
      /app\/app-update\.tsx$/,
      /node_modules\/workbox-window\//,
      // The toast store and Zag's toast machines (they load with the first toast).
      /lib\/toast-store\.ts$/,
      // react-icons' Lucide set is one module of every icon: the first screen draws its own few.
      /react-icons\/lu\//,
      // Chakra: sign-in draws with the first screen's classes (components/first-screen).
      ...CHAKRA,
      // The form library: sign-in's form is React state checked against the shared rules.
      /node_modules\/react-hook-form\//,
    ];
    expect(sources.filter((source) => unwanted.some((pattern) => pattern.test(source)))).toEqual([]);
  });
});
