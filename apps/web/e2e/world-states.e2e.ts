/**
 * Every example state in world-states/ built into a world of its own (POST /__qa/worlds { state }),
 * and the member's screens showing what the file declares: a member one step from each rank, a
 * package at 99 % of its cap, withdrawals in each status, 2FA with its own secret, a leg 5,000 deep.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { WorldState } from '@md/qa-client';
import { endWorld, freshPagePerTest, newWorldFrom, signIn, signInWithToken, totpCode } from './support.ts';
import type { E2eServer } from './global-setup.ts';

const EXAMPLES = join(import.meta.dirname, '../../../world-states');
const servers = inject('e2eServers');
const example = (file: string) => JSON.parse(readFileSync(join(EXAMPLES, file), 'utf8')) as WorldState;

/** The running test's world, built from `file`, entered by the page's context. */
const worldOf = (server: E2eServer, page: Page, file: string) =>
  newWorldFrom(server, { state: example(file) }, page.context());

const RANKS = ['Bronze', 'Silver', 'Gold', 'Platinum', 'Diamond'] as const;

describe.each(servers)('declared states in $mode mode', (server) => {
  let page!: Page;
  // No world before the test: each test builds its own from a file.
  freshPagePerTest(null, { width: 1280, height: 900 }, (fresh) => (page = fresh));
  const run = (name: string, test: () => Promise<void>) =>
    it(name, async () => {
      try {
        await test();
      } finally {
        await endWorld(server);
      }
    });

  for (const rank of RANKS)
    run(`near-${rank.toLowerCase()}: the member's next rank is ${rank}`, async () => {
      await worldOf(server, page, `near-${rank.toLowerCase()}.json`);
      await signInWithToken(page, server, `near_${rank.toLowerCase()}`, 'Demo@1234');
      await page.goto(`${server.url}/dashboard/rankrewards`);
      const progress = page.getByTestId('next-rank-progress');
      await expect.poll(() => progress.innerText()).toMatch(new RegExp(`Progress to ${rank}`, 'i'));
      expect(await page.getByTestId(`rank-${rank}`).innerText()).not.toContain('Current');
    });

  run('package-at-99-percent: a Gold package, still ACTIVE', async () => {
    await worldOf(server, page, 'package-at-99-percent.json');
    await signInWithToken(page, server, 'nearly_capped', 'Demo@1234');
    await page.goto(`${server.url}/dashboard/transactions`);
    const table = page.getByTestId('data-table');
    await expect.poll(() => table.innerText()).toContain('Gold');
    expect(await table.innerText()).toContain('ACTIVE');
  });

  run(
    'pending-withdrawal: History shows the pending request, the rejected one refunded, the approved one paid',
    async () => {
      await worldOf(server, page, 'pending-withdrawal.json');
      await signInWithToken(page, server, 'withdrawer', 'Demo@1234');
      await page.goto(`${server.url}/dashboard/history`);
      const table = page.getByTestId('data-table');
      await expect.poll(() => table.innerText()).toContain('Withdrawal Request');
      const rows = await table.locator('tbody tr').allInnerTexts();
      const row = (text: string) => rows.filter((r) => r.includes(text));
      expect(row('$50.00').filter((r) => r.includes('Withdrawal Request'))[0]).toContain('Pending');
      expect(row('$40.00').filter((r) => r.includes('Withdrawal Request'))[0]).toContain('Rejected');
      expect(row('Withdrawal Refund')[0]).toContain('$40.00');
      expect(row('Withdrawal Paid')[0]).toContain('$95.00');
      expect(row('Withdrawal Fee')[0]).toContain('$5.00');
    },
  );

  run('two-factor: the member signs in with its TOTP, and Security says it is on', async () => {
    await worldOf(server, page, 'two-factor.json');
    await signIn(page, server, 'secured', 'Secure@2026', () => totpCode(server, 'secured'));
    await page.goto(`${server.url}/dashboard/settings#security`);
    await expect.poll(() => page.getByText('Enabled', { exact: true }).first().isVisible()).toBe(true);
  });

  run('deep-leg: the team counts 5,000 members on the left', async () => {
    await worldOf(server, page, 'deep-leg.json');
    await signIn(page, server, 'deep_root', 'Demo@1234');
    const left = page.getByTestId('team-leg-left');
    await expect.poll(() => left.innerText(), { timeout: 20_000 }).toContain('5,000');
  });
});
