/**
 * What each route of the production build costs in JavaScript, read from Vite's manifest
 * (apps/web/dist/.vite/manifest.json) and gzipped the way the server sends it.
 * - Sign-in (`/`): the entry chunk and everything it imports statically, plus the sign-in
 *   page's own chunk and its imports when it is lazy.
 * - Every other route (each lazily loaded chunk): its own chunk, and for information what
 *   navigating to it from sign-in downloads (the chunk and its imports not loaded yet).
 * Used by scripts/bench/bundle.ts and by the budget test (apps/web/e2e/bundle.e2e.ts).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/**
/**
 * Budgets, gzipped, in kB of 1,000 bytes (Vite's unit): the sign-in route's goal (near the floor
 * page, scripts/bench/floor-page.ts; it was 150, and 200 before that; 120 until the app spoke four
 * languages: FormatJS's message runtime, without its parser, costs sign-in 15 kB, and sign-in's own
 * English messages 5.5 kB, carried in its file rather than fetched beside it), every other route's own
 * chunk, and what only a member's explicit request loads (below).
 */
export const BUDGETS = { signInKb: 140, dashboardKb: 170, routeChunkKb: 60, onDemandKb: 140 } as const;
/**
 * The dashboard home's first load with a stored session (what it runs before the home paints):
 * sign-in's JavaScript, the English catalogs (read at boot) and the dashboard group (frame and
 * home), without Chakra's runtime since the frame and home are drawn with the first screen's
 * classes. Its budget, `dashboardKb`, is the 161 kB it weighed then (2026-11-30; 255 kB with
 * Chakra the day before), with a little room: every kB is parsed and run on a phone before the
 * home appears.
 */
export const DASHBOARD_FIRST_LOAD = ['catalog-en', 'dashboard'] as const;
/**
 * Libraries no route loads, only a member's explicit request (the statement's PDF: jsPDF, and the
 * optional helpers it imports lazily itself): held to their own budget instead of a route's.
 */
export const ON_DEMAND = /node_modules\/(jspdf|html2canvas|canvg|dompurify)\//;
/**
 * Chunks apps/web/vite.config.ts groups by name that routes load lazily: the dashboard's frame and
 * home with what they import (their source modules have no chunk of their own then).
 */
export const ROUTE_GROUPS: Record<string, string> = { dashboard: 'dashboard frame and home (group chunk)' };
export const SIGN_IN_SOURCE = 'src/features/auth/sign-in.tsx';

interface ManifestChunk {
  file: string;
  name?: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
type Manifest = Record<string, ManifestChunk>;

export interface RouteCost {
  /** Source module of the lazy chunk (e.g. src/features/wallets/wallets-page.tsx). */
  source: string;
  file: string;
  ownGzip: number;
  /** The chunk plus its static imports that sign-in has not loaded. */
  navigationGzip: number;
}

export interface BundleReport {
  signIn: { files: string[]; gzip: number; raw: number };
  /** DASHBOARD_FIRST_LOAD's chunks, their static imports and sign-in's. */
  dashboard: { files: string[]; gzip: number };
  routes: RouteCost[];
  /** Chunks of ON_DEMAND libraries (not routes). */
  onDemand: RouteCost[];
  overBudget: string[];
}

export const kb = (bytes: number) => bytes / 1000;

export function readManifest(dist: string): Manifest {
  const path = join(dist, '.vite/manifest.json');
  if (!existsSync(path))
    throw new Error(`${path} is missing: build the web app first (npm run build -w @md/web)`);
  return JSON.parse(readFileSync(path, 'utf8')) as Manifest;
}

/** Manifest keys of a chunk and every chunk it imports statically. */
function staticClosure(manifest: Manifest, key: string, into = new Set<string>()): Set<string> {
  if (into.has(key)) return into;
  into.add(key);
  for (const child of manifest[key]?.imports ?? []) staticClosure(manifest, child, into);
  return into;
}

export function analyseBundle(dist: string): BundleReport {
  const manifest = readManifest(dist);
  const sizes = new Map<string, { raw: number; gzip: number }>();
  const size = (file: string) => {
    let s = sizes.get(file);
    if (!s) {
      const bytes = readFileSync(join(dist, file));
      s = { raw: bytes.length, gzip: gzipSync(bytes).length };
      sizes.set(file, s);
    }
    return s;
  };
  const sum = (keys: Iterable<string>, field: 'raw' | 'gzip') =>
    [...keys].reduce((total, key) => total + size(manifest[key]!.file)[field], 0);

  const entry = Object.keys(manifest).find((key) => manifest[key]!.isEntry);
  if (!entry) throw new Error('The manifest has no entry chunk');
  const signInKeys = staticClosure(manifest, entry);
  if (manifest[SIGN_IN_SOURCE]?.isDynamicEntry) staticClosure(manifest, SIGN_IN_SOURCE, signInKeys);
  const signIn = {
    files: [...signInKeys].map((key) => manifest[key]!.file),
    gzip: sum(signInKeys, 'gzip'),
    raw: sum(signInKeys, 'raw'),
  };

  const dashboardKeys = new Set(signInKeys);
  for (const name of DASHBOARD_FIRST_LOAD) {
    const key = Object.keys(manifest).find((k) => manifest[k]!.name === name);
    if (!key) throw new Error(`The manifest has no chunk named ${name}`);
    staticClosure(manifest, key, dashboardKeys);
  }
  const dashboard = {
    files: [...dashboardKeys].map((key) => manifest[key]!.file),
    gzip: sum(dashboardKeys, 'gzip'),
  };

  const dynamicallyImported = new Set(Object.values(manifest).flatMap((chunk) => chunk.dynamicImports ?? []));
  const isRouteGroup = (key: string, chunk: ManifestChunk) =>
    chunk.name !== undefined && chunk.name in ROUTE_GROUPS && dynamicallyImported.has(key);
  const lazy = Object.entries(manifest)
    .filter(([key, chunk]) => (chunk.isDynamicEntry || isRouteGroup(key, chunk)) && key !== SIGN_IN_SOURCE)
    .map(([key, chunk]) => {
      const extra = [...staticClosure(manifest, key)].filter((k) => !signInKeys.has(k));
      const source = chunk.src ?? (isRouteGroup(key, chunk) ? ROUTE_GROUPS[chunk.name!]! : key);
      return { source, file: chunk.file, ownGzip: size(chunk.file).gzip, navigationGzip: sum(extra, 'gzip') };
    })
    .sort((a, b) => b.ownGzip - a.ownGzip);
  const routes = lazy.filter((r) => !ON_DEMAND.test(r.source));
  const onDemand = lazy.filter((r) => ON_DEMAND.test(r.source));

  const overBudget = [
    ...(kb(signIn.gzip) > BUDGETS.signInKb
      ? [`sign-in ${kb(signIn.gzip).toFixed(1)} kB > ${BUDGETS.signInKb} kB`]
      : []),
    ...(kb(dashboard.gzip) > BUDGETS.dashboardKb
      ? [`the dashboard's first load ${kb(dashboard.gzip).toFixed(1)} kB > ${BUDGETS.dashboardKb} kB`]
      : []),
    ...routes
      .filter((r) => kb(r.ownGzip) > BUDGETS.routeChunkKb)
      .map((r) => `${r.source} ${kb(r.ownGzip).toFixed(1)} kB > ${BUDGETS.routeChunkKb} kB`),
    ...onDemand
      .filter((r) => kb(r.ownGzip) > BUDGETS.onDemandKb)
      .map((r) => `${r.source} ${kb(r.ownGzip).toFixed(1)} kB > ${BUDGETS.onDemandKb} kB (on demand)`),
  ];
  return { signIn, dashboard, routes, onDemand, overBudget };
}
