/**
 * Accessibility of every screen (screens.ts: every route of the router, every tab on it, one dialog
 * of each kind), in mock mode: axe-core in the light and dark theme finds no violation of impact
 * serious or critical. A route added to the router without a screen there fails the first test.
 * Their layout at three widths is layout.e2e.ts's.
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { routes } from '../src/app/router.tsx';
import { routerPaths } from '../src/testing/router-paths.ts';
import { DIALOGS, SCREENS, settle, sharedPage, signedOutFor, visit } from './screens.ts';

const axeSource = (createRequire(import.meta.url)('axe-core') as { source: string }).source;

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[]; failureSummary?: string }[];
}

/** axe-core's serious and critical violations over the whole document. */
async function axeViolations(page: Page): Promise<AxeViolation[]> {
  // Evaluated over the DevTools protocol: the app's Content-Security-Policy refuses inline scripts.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run: (context: Document, options: object) => Promise<{ violations: AxeViolation[] }> };
      }
    ).axe;
    return (await axe.run(document, { resultTypes: ['violations'] })).violations;
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/**
 * What axe finds, one readable line per element. A finding is looked at again once the page has
 * settled anew, and only what stands then is reported: a control that a late answer enables fades in
 * over 0.2 s (the notices' Next button once their page count lands), and a colour read mid-fade
 * (4.46:1, seen under load) is not the screen's.
 */
async function axeProblems(page: Page, label: string): Promise<string[]> {
  let violations = await axeViolations(page);
  if (violations.length > 0) {
    await settle(page);
    violations = await axeViolations(page);
  }
  return violations.flatMap((v) =>
    v.nodes.map(
      (n) =>
        `${label}${v.id} (${v.impact}): ${v.help} at ${n.target.join(' ')}: ${(n.failureSummary ?? '').split('\n').slice(1).join(' ').trim()}`,
    ),
  );
}

/**
 * No problem found. Each one is in the failure's message, in full: a diff truncates a long string and
 * shows an array as `[ Array(1) ]`, and a retried test's summary reads only the message.
 */
function expectNone(problems: string[]) {
  expect(problems, `\n${problems.join('\n')}\n`).toEqual([]);
}

describe('accessibility of every route', () => {
  it('covers every route of the router', () => {
    const covered = [...new Set(SCREENS.map((s) => s.route))].sort();
    expect(covered).toEqual([...new Set(routerPaths(routes))].sort());
  });

  describe.each(['light', 'dark'] as const)('axe-core, %s theme', (theme) => {
    let page!: Page;
    sharedPage({ width: 1280, theme }, (shared) => (page = shared));
    const screens = SCREENS.filter((s) => !s.widths || s.widths.includes(1280));
    it.each(screens.map((s) => [s.name, s]))('%s: no serious or critical violations', async (_, screen) => {
      const problems = await signedOutFor(page, screen, () =>
        visit(page, screen, (label) => axeProblems(page, label)),
      );
      expectNone(problems);
    });
  });

  // The phone menu is checked by axe at its own width.
  describe('axe-core on a phone', () => {
    for (const theme of ['light', 'dark'] as const) {
      describe(`${theme} theme`, () => {
        let page!: Page;
        sharedPage({ width: 375, theme }, (shared) => (page = shared));
        it.each(DIALOGS.filter((s) => s.widths?.includes(375)).map((s) => [s.name, s]))(
          '%s: no serious or critical violations',
          async (_, screen) => {
            expectNone(await visit(page, screen, (label) => axeProblems(page, label)));
          },
        );
      });
    }
  });
});
