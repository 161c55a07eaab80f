/**
 * The member's business at a glance in the browser, in both client modes at 1280 and 375 px:
 * the team in numbers and the next binary run on the home, rank history under Ranks & Rewards,
 * notification preferences under Settings, and the header's avatar menu. Mock mode: the
 * extensions' figures are what the screens show. Provider mode: the page is told the provider
 * offers none of them, so the fallbacks run (directs counted per leg, the device's clock, the
 * rank rewards table) or the screen says the provider does not offer it.
 */
import { describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { api, expectToast, freshPagePerTest, signIn } from './support.ts';

const servers = inject('e2eServers');
const GLANCE_CAPABILITIES = ['team_summary', 'binary_next_run', 'rank_history', 'notification_preferences'];
const VIEWPORTS = [
  { width: 1280, height: 900 },
  { width: 375, height: 800 },
] as const;
const cases = servers.flatMap((server) =>
  VIEWPORTS.map((viewport) => ({ server, viewport, label: `${server.mode} mode at ${viewport.width} px` })),
);
type Leg = {
  Members: number;
  Active: number;
  Inactive: number;
  New_This_Week: number;
  New_This_Month: number;
};

describe.each(cases)('the business at a glance in $label', ({ server, viewport }) => {
  let page!: Page;
  freshPagePerTest(server, viewport, (fresh) => (page = fresh));
  const extensions = server.mode === 'mock';

  async function openAs(username = 'demo') {
    if (!extensions) {
      await page.route('**/config.json', async (route) => {
        const response = await route.fetch();
        const config = (await response.json()) as { capabilities: string[] };
        await route.fulfill({
          response,
          json: {
            ...config,
            capabilities: config.capabilities.filter((name) => !GLANCE_CAPABILITIES.includes(name)),
          },
        });
      });
    }
    await signIn(page, server, username, 'Demo@1234');
    return page.evaluate(() => localStorage.getItem('jwt') ?? '');
  }

  const legFigures = async (leg: 'left' | 'right') => {
    const card = page.getByTestId(`team-leg-${leg}`);
    const read = async (name: string) =>
      Number((await card.getByTestId(`leg-${name}`).innerText()).replace(/,/g, ''));
    return {
      members: await read(extensions ? 'members' : 'directs'),
      active: await read('active'),
      inactive: await read('inactive'),
      week: await read('new-this-week'),
      month: await read('new-this-month'),
    };
  };

  it('home: the team per leg and the directs, the countdown to 11:00 UK time and the weaker-leg hint; Ranks & Rewards: the rank history', async () => {
    const token = await openAs();
    await page.goto(`${server.url}/dashboard`);
    const team = page.getByTestId('team-numbers');
    await team.waitFor({ timeout: 30_000 });
    expect(await team.getAttribute('data-scope')).toBe(extensions ? 'legs' : 'directs');
    const directs = await api<{
      Success: { Username: string; Side: string; Status: boolean; Created_On: string }[];
    }>(server, '/direct/view_direct_team_details', {}, token);
    if (extensions) {
      const summary = await api<{
        Success: { Left: Leg; Right: Leg; Directs: { Count: number; Rows: { Username: string }[] } };
      }>(server, '/team/view_team_summary', {}, token);
      for (const [leg, figures] of [
        ['left', summary.Success.Left],
        ['right', summary.Success.Right],
      ] as const)
        expect(await legFigures(leg)).toEqual({
          members: figures.Members,
          active: figures.Active,
          inactive: figures.Inactive,
          week: figures.New_This_Week,
          month: figures.New_This_Month,
        });
      expect(summary.Success.Left.Members).toBeGreaterThan(
        directs.Success.filter((d) => d.Side === '0').length,
      );
      // The newest direct first, with its package.
      const first = page.getByTestId('team-directs').locator('li').first();
      expect(await first.innerText()).toContain(summary.Success.Directs.Rows[0]!.Username);
      expect(await first.innerText()).toMatch(/joined .* · /);
      expect(await page.getByTestId('team-fallback-note').count()).toBe(0);
    } else {
      // The directs, counted per leg: what the spec's direct team call gives.
      const left = directs.Success.filter((d) => d.Side === '0');
      expect(await legFigures('left')).toMatchObject({
        members: left.length,
        active: left.filter((d) => d.Status).length,
        inactive: left.filter((d) => !d.Status).length,
      });
      expect(await page.getByTestId('team-fallback-note').innerText()).toContain(
        'the provider does not count whole legs',
      );
    }
    expect(await page.getByTestId('team-directs').locator('li').count()).toBeGreaterThan(0);
    // More directs than the home lists: it says how many it shows and leads to them all.
    const directCount = directs.Success.length;
    expect(directCount).toBeGreaterThan(8);
    expect(await page.getByTestId('team-directs').locator('li').count()).toBe(8);
    expect(await page.getByTestId('team-directs-shown').innerText()).toBe(
      `Showing the 8 newest of ${directCount}.`,
    );
    expect(
      await page.getByRole('link', { name: `View all ${directCount} directs` }).getAttribute('href'),
    ).toBe('/dashboard/levelchart');

    // The countdown and the run's time, and the hint from the carry.
    const run = page.getByTestId('next-binary-run');
    const countdown = run.getByRole('timer', { name: 'Time to the next binary run' });
    await expect
      .poll(() => countdown.innerText(), { timeout: 15_000 })
      .toMatch(/^in (\d+ h \d\d min|\d+ min \d\d s)$/);
    const runTime = await run.getByTestId('run-time').innerText();
    // The member's date and time, their zone named, then the run's UK time.
    expect(runTime).toMatch(/^[A-Z][a-z]{2} \d{2}, \d{4} \d{2}:\d{2} \S+ \(11:00 UK time\)/);
    expect(runTime.includes('this device’s clock')).toBe(!extensions);
    const hint = run.getByTestId('weaker-leg-hint');
    await hint.waitFor();
    const carry = extensions
      ? (
          await api<{ Success: { Left_Carry: number; Right_Carry: number } }>(
            server,
            '/binary/view_next_run',
            {},
            token,
          )
        ).Success
      : await api<{ Success: { Current_Binary: [number, number] } }>(
          server,
          '/binary/view_binary_downline_details',
          { username: 'demo' },
          token,
        ).then((d) => ({
          Left_Carry: d.Success.Current_Binary[0],
          Right_Carry: d.Success.Current_Binary[1],
        }));
    const gap = Math.abs(carry.Left_Carry - carry.Right_Carry);
    const money = `$${gap.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
    if (carry.Left_Carry < carry.Right_Carry)
      expect(await hint.innerText()).toBe(`${money} more on the LEFT matches today’s RIGHT carry.`);
    else if (carry.Right_Carry < carry.Left_Carry)
      expect(await hint.innerText()).toBe(`${money} more on the RIGHT matches today’s LEFT carry.`);
    else expect(await hint.innerText()).toMatch(/carry/);
    // Nothing overflows the phone's width.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      viewport.width,
    );

    // Ranks & Rewards: Starter from joining, then each rank reached, the last one current.
    await page.goto(`${server.url}/dashboard/rankrewards`);
    const history = page.getByTestId('rank-history');
    await history.waitFor({ timeout: 30_000 });
    const steps = await history.locator('li').allInnerTexts();
    expect(steps[0]).toMatch(/^Starter\s+joined /);
    const current = (await api<{ Success: { Rank: string } }>(server, '/rank/current_rank', {}, token))
      .Success.Rank;
    expect(steps.length).toBeGreaterThan(1);
    expect(steps.at(-1)).toMatch(new RegExp(`^${current}\\s.*Current\\s+reached `, 's'));
    expect(await page.getByTestId('rank-history-note').count()).toBe(extensions ? 0 : 1);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      viewport.width,
    );
  });

  it('the avatar menu opens Security and Sessions in Settings, switches the theme and signs out; Settings → Notifications saves preferences or says the provider does not offer them', async () => {
    const token = await openAs('gonzalo_001');
    await page.goto(`${server.url}/dashboard`);
    // The trigger is named by its visible text, the member's name and email.
    const avatar = page.getByRole('button', { name: /^gonzalo_001\b/ });
    // An item is chosen by the keyboard, as a member may (Down to it, Enter): on a busy phone the menu
    // may still be moving into place when a pointer click lands, which then closes it instead.
    const choose = async (name: string | RegExp) => {
      await avatar.click();
      const item = page.getByRole('menuitem', { name });
      await item.waitFor();
      for (let i = 0; i < 10 && (await item.getAttribute('data-highlighted')) === null; i++)
        await page.keyboard.press('ArrowDown');
      await expect.poll(() => item.getAttribute('data-highlighted')).not.toBeNull();
      await page.keyboard.press('Enter');
    };
    await avatar.click();
    const menu = page.getByRole('menu');
    await expect
      .poll(() => menu.getByRole('menuitem').allInnerTexts())
      .toEqual([
        'Profile',
        'Security',
        'Sessions',
        expect.stringMatching(/^(Dark|Light) theme$/),
        // Below 1024 px the languages are here (the header has its own menu from 1024 px).
        ...(viewport.width < 1024 ? ['English', 'Español', 'Português (Brasil)', 'العربية'] : []),
        'Sign out',
      ]);
    await page.keyboard.press('Escape');
    await choose('Security');
    await expect.poll(() => new URL(page.url()).hash, { timeout: 15_000 }).toBe('#security');
    await expect
      .poll(() => page.getByRole('tab', { name: 'Security' }).getAttribute('aria-selected'))
      .toBe('true');
    await choose('Sessions');
    await expect.poll(() => new URL(page.url()).hash, { timeout: 15_000 }).toBe('#sessions');
    // It lands on the devices, below the sticky header: on a phone they sat screens below the tab's top.
    const devices = page.getByRole('region', { name: 'Signed-in devices' });
    const header = await page.locator('header').first().boundingBox();
    await expect
      .poll(
        async () => {
          const box = await devices.boundingBox();
          return (
            box !== null &&
            box.y >= (header?.height ?? 0) &&
            box.y + Math.min(box.height, 150) <= viewport.height
          );
        },
        { timeout: 15_000 },
      )
      .toBe(true);
    await choose('Profile');
    await expect
      .poll(() => page.getByRole('tab', { name: 'Profile' }).getAttribute('aria-selected'))
      .toBe('true');
    const dark = () => page.evaluate(() => document.documentElement.classList.contains('dark'));
    const wasDark = await dark();
    await choose(/theme$/);
    await expect.poll(dark).toBe(!wasDark);

    await page.getByRole('tab', { name: 'Notifications' }).click();
    if (!extensions) {
      expect(await page.getByTestId('preferences-not-offered').innerText()).toContain(
        'The provider does not offer notification preferences',
      );
      expect(await page.getByTestId('notification-preferences').count()).toBe(0);
    } else {
      const list = page.getByTestId('notification-preferences');
      await list.waitFor();
      const security = page.getByTestId('preference-security');
      for (const name of ['In-app', 'Email'])
        expect(await security.getByRole('checkbox', { name }).isDisabled()).toBe(true);
      expect(
        await page.getByTestId('preference-payouts').getByRole('checkbox', { name: 'Email' }).isDisabled(),
      ).toBe(true);
      const email = page.getByTestId('preference-withdrawals').getByRole('checkbox', { name: 'Email' });
      expect(await email.isChecked()).toBe(false);
      await page.getByTestId('preference-withdrawals').getByText('Email').click();
      await expectToast(page, 'Notification preferences saved');
      await expect.poll(() => email.isChecked()).toBe(true);
      const saved = await api<{ Success: { Event: string; Email: boolean }[] }>(
        server,
        '/notification/view_preferences',
        {},
        token,
      );
      expect(saved.Success.find((p) => p.Event === 'withdrawals')?.Email).toBe(true);
      // Back as it was, for the other viewport's run on the same database.
      await api(server, '/notification/update_preferences', { event: 'withdrawals', email: false }, token);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      viewport.width,
    );

    await choose('Sign out');
    await expect.poll(() => new URL(page.url()).pathname).toBe('/');
  });
});
