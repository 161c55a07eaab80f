/**
 * The network end to end, in both client modes: the binary tree three levels down with the hover
 * panel, the level chart, and the Bonus, Volume and Ranks pages showing what the engine paid
 * after the QA clock moved on; in mock mode, the level chart's directs a page at a time (the
 * downline_pages extension) behind 'Show more', by keyboard.
 */
import { describe, expect, inject, it } from 'vitest';
import { LEVEL_PAGE_SIZE } from '@md/shared';
import type { Page } from 'playwright-core';
import { api, freshPagePerTest, registerMember, signInWithToken, uniqueName } from './support.ts';
import { openRoute } from './screens.ts';

const servers = inject('e2eServers');
describe.each(servers)('network in $mode mode', (server) => {
  let page!: Page;
  const token = () => page.evaluate(() => localStorage.getItem('jwt') ?? '');

  freshPagePerTest(server, { width: 1280, height: 900 }, (fresh) => (page = fresh));

  /** Expands the first collapsed node at `level` and waits for the level below to appear. */
  async function expandAt(tree: ReturnType<Page['getByRole']>, level: number) {
    const collapsed = tree.locator(`[role="treeitem"][aria-level="${level}"][aria-expanded="false"]`).first();
    const name = await collapsed.getAttribute('data-name');
    await collapsed.click();
    await expect
      .poll(() => tree.locator(`[role="treeitem"][aria-level="${level + 1}"]`).count(), { timeout: 10_000 })
      .toBeGreaterThan(0);
    return name!;
  }

  it('expands the binary tree three levels and shows the hover panel', async () => {
    await signInWithToken(page, server, 'demo', 'Demo@1234');
    await openRoute(page, '/dashboard/binarychart', server.url);
    const tree = page.getByRole('tree', { name: 'Binary tree' });
    await tree.locator('[role="treeitem"][aria-level="1"]').first().waitFor();
    expect(await tree.locator('[role="treeitem"][aria-level="1"]').first().getAttribute('data-name')).toBe(
      'demo',
    );
    if ((await tree.locator('[role="treeitem"][aria-level="2"]').count()) === 0) await expandAt(tree, 1);
    await expandAt(tree, 2);
    await expandAt(tree, 3);
    const deepName = await expandAt(tree, 4);
    expect(deepName).toBeTruthy();

    const row = tree.locator('[role="treeitem"][aria-level="5"]').first();
    const username = (await row.getAttribute('data-name'))!;
    await row.hover();
    const panel = page.getByTestId('node-details');
    await expect.poll(() => panel.isVisible()).toBe(true);
    await expect.poll(() => panel.innerText()).toContain('Current Binary');
    expect(await panel.innerText()).toContain(username);
    // The row shows the sponsor and the side the server answers.
    const details = await api<{ Success: { Sponsor: string | null; Side: string | null } }>(
      server,
      '/binary/view_binary_downline_details',
      { username },
      await token(),
    );
    const rowText = await row.innerText();
    if (details.Success.Sponsor) expect(rowText).toContain(details.Success.Sponsor);
    expect(rowText).toContain(details.Success.Side === '0' ? 'Left' : 'Right');
  });

  it('opens the level chart one level at a time', async () => {
    await signInWithToken(page, server, 'demo', 'Demo@1234');
    await openRoute(page, '/dashboard/levelchart', server.url);
    const tree = page.getByRole('tree', { name: 'Level tree' });
    await tree.locator('[role="treeitem"]').first().waitFor();
    const directs = await api<{ Success: { Downline: { Username: string }[] } }>(
      server,
      '/level/view_downline',
      { username: 'demo' },
      await token(),
    );
    const levelOne = tree.locator('[role="treeitem"][aria-level="1"]');
    const rootExpanded = (await levelOne.first().getAttribute('data-name')) === 'demo';
    // Members only (a 'Show more' row has no data-name): the first page of directs, whatever other
    // files of the suite registered under demo before this one ran.
    const firstLevel = tree.locator(`[role="treeitem"][aria-level="${rootExpanded ? 2 : 1}"][data-name]`);
    await expect
      .poll(() => firstLevel.count())
      .toBe(Math.min(directs.Success.Downline.length, LEVEL_PAGE_SIZE));
    await expandAt(tree, rootExpanded ? 2 : 1);
  });

  it('shows on Bonus, Volume and Ranks what the engine paid for a purchase in the team once the clock moved on', async () => {
    // A direct of demo on the left leg buys a Starter: demo's level income is paid at once, the
    // volume at the next 11:00 run.
    const direct = 'gonzalo_001';
    const buyer = (
      await api<{ JWT: string }>(server, '/user/login', { username: direct, password: 'Demo@1234' })
    ).JWT;
    const deposit = (
      await api<{ Success: { TransID: string } }>(
        server,
        '/deposit/make_payment',
        { amount_usdt: 100, currency: 'USDT.BEP20' },
        buyer,
      )
    ).Success;
    await api(server, `/__qa/deposits/${deposit.TransID}/pay`, {});
    await api(server, '/subscription/buy_subscription_packages', { plan: 'Starter' }, buyer);
    const boughtAt = Date.parse((await api<{ now: string }>(server, '/__qa/clock')).now);
    await api(server, '/__qa/clock?wait=true', { advance: 'P1D' });

    await signInWithToken(page, server, 'demo', 'Demo@1234');
    const jwt = await token();
    const firstRow = async (path: string) =>
      (await api<{ Success: Record<string, unknown>[] }>(server, path, { pageNo: 1, pageSize: 10 }, jwt))
        .Success[0]!;

    const level = await firstRow('/level/level_earning_transaction');
    expect(level).toMatchObject({ From: direct, Level: 1, Subs_Amount: 100, Received_Amount: 10 });
    await openRoute(page, '/dashboard/bonus', server.url);
    await page.getByRole('tab', { name: 'Level Bonus' }).click();
    await expect.poll(() => page.getByTestId('data-table').innerText()).toContain(String(level.TransID));

    // The run writes a row per leg that received volume: the left leg's names the purchase's volume.
    const volumes = (
      await api<{ Success: Record<string, unknown>[] }>(
        server,
        '/binary/view_binary_transaction',
        { pageNo: 1, pageSize: 10 },
        jwt,
      )
    ).Success;
    const volume = volumes.find((row) => row.Side === '0')!;
    expect(volume).toBeDefined();
    expect(Date.parse(String(volume.DateTime))).toBeGreaterThan(boughtAt);
    expect(volume.Left_Volume).toBeGreaterThanOrEqual(100);
    await openRoute(page, '/dashboard/volume', server.url);
    await expect.poll(() => page.getByTestId('data-table').innerText()).toContain(String(volume.TransID));

    const current = (await api<{ Success: { Rank: string } }>(server, '/rank/current_rank', {}, jwt)).Success
      .Rank;
    expect(current).not.toBe('Starter');
    await openRoute(page, '/dashboard/rankrewards', server.url);
    await expect.poll(() => page.getByTestId(`rank-${current}`).innerText()).toContain('Current');
  });
});

const mock = servers.find((s) => s.mode === 'mock')!;
describe('level chart pages in mock mode', () => {
  let page!: Page;
  freshPagePerTest(mock, { width: 1280, height: 900 }, (fresh) => (page = fresh));

  it("loads demo's directs a page at a time: 'Show more (N left)' is reached and used with the keyboard", async () => {
    type Directs = { Success: { CountUser: number; Downline: { Username: string }[] } };
    const demoToken = (
      await api<{ JWT: string }>(mock, '/user/login', { username: 'demo', password: 'Demo@1234' })
    ).JWT;
    const before = (await api<Directs>(mock, '/level/view_downline', { username: 'demo' }, demoToken)).Success
      .CountUser;
    // More directs than a page, and a few over.
    for (let i = before; i < LEVEL_PAGE_SIZE + 3; i++) await registerMember(mock, uniqueName('lvl'));
    const whole = (await api<Directs>(mock, '/level/view_downline', { username: 'demo' }, demoToken)).Success;
    expect(whole.CountUser).toBeGreaterThan(LEVEL_PAGE_SIZE);

    await signInWithToken(page, mock, 'demo', 'Demo@1234');
    await openRoute(page, '/dashboard/levelchart', mock.url);
    const tree = page.getByRole('tree', { name: 'Level tree' });
    const root = tree.locator('[role="treeitem"][aria-level="1"]');
    await expect.poll(() => root.getAttribute('data-name')).toBe('demo');
    // The first page only, in view_downline's order.
    await expect
      .poll(() =>
        tree.locator('[role="treeitem"][aria-level="2"][data-name]').first().getAttribute('data-name'),
      )
      .toBe(whole.Downline[0]!.Username);

    // The tree's one tab stop, then End: the last row is the control.
    await root.focus();
    await page.keyboard.press('End');
    const focused = page.locator(':focus');
    await expect.poll(() => focused.getAttribute('role')).toBe('treeitem');
    await expect
      .poll(() => focused.innerText())
      .toBe(`Show more (${whole.CountUser - LEVEL_PAGE_SIZE} left)`);
    await page.keyboard.press('Enter');
    // Focus moves to the first member of the next page.
    await expect
      .poll(() => focused.getAttribute('data-name'))
      .toBe(whole.Downline[LEVEL_PAGE_SIZE]!.Username);
    const left = whole.CountUser - 2 * LEVEL_PAGE_SIZE;
    if (left > 0)
      expect(await tree.getByRole('treeitem', { name: `Show more (${left} left)` }).count()).toBe(1);
    else {
      await page.keyboard.press('End');
      await expect.poll(() => focused.getAttribute('data-name')).toBe(whole.Downline.at(-1)!.Username);
      expect(await tree.getByRole('treeitem', { name: /^Show more/ }).count()).toBe(0);
    }
  });
});

// The Tree view of the Binary Chart, in both modes: in mock mode the binary_paths
// extension answers; in provider mode the page is told no provider offers it (whatever the gateway
// advertises), so the client walks the tree itself within its bound.
describe.each(servers)('binary chart Tree view in $mode mode', (server) => {
  let page!: Page;
  freshPagePerTest(server, { width: 1280, height: 900 }, (fresh) => (page = fresh));
  type Downline = { Success: { Downline: { Username: string; Side: string }[] } };

  it('draws the tree from demo with two slots per member, moves by keyboard, jumps to the bottom of the left leg and finds a member by name, with breadcrumbs', async () => {
    const token = (
      await api<{ JWT: string }>(server, '/user/login', { username: 'demo', password: 'Demo@1234' })
    ).JWT;
    const withPaths = server.mode === 'mock';
    if (withPaths)
      expect((await api<{ capabilities: string[] }>(server, '/config.json')).capabilities).toContain(
        'binary_paths',
      );
    else {
      await page.route('**/config.json', async (route) => {
        const response = await route.fetch();
        const config = (await response.json()) as { capabilities: string[] };
        await route.fulfill({
          response,
          json: { ...config, capabilities: config.capabilities.filter((name) => name !== 'binary_paths') },
        });
      });
    }
    const childrenOf = async (username: string) =>
      (await api<Downline>(server, '/binary/view_binary_downline', { username }, token)).Success.Downline;
    const demoChildren = await childrenOf('demo');
    const left = demoChildren.find((child) => child.Side === '0')!;
    expect(left).toBeTruthy();
    // The left leg's outer edge as the client's bounded walk sees it (100 levels at most).
    const edge = ['demo'];
    for (let i = 0; i < 100; i++) {
      const next = (await childrenOf(edge.at(-1)!)).find((child) => child.Side === '0');
      if (!next) break;
      edge.push(next.Username);
    }
    const bottom = withPaths
      ? (
          await api<{ Success: { Username: string; Levels: number } }>(
            server,
            '/binary/view_leg_bottom',
            { side: '0' },
            token,
          )
        ).Success
      : { Username: edge.at(-1)!, Levels: edge.length - 1 };
    if (bottom.Levels <= 100) expect(bottom.Username).toBe(edge[bottom.Levels]);
    const grandchild = (await childrenOf(left.Username))[0]!;

    await signInWithToken(page, server, 'demo', 'Demo@1234');
    await openRoute(page, '/dashboard/binarychart', server.url);
    await page.getByRole('tab', { name: 'Tree' }).click();
    const graph = page.getByRole('tree', { name: 'Binary tree graph' });
    const top = graph.locator('[data-slot="member"][aria-level="1"]');
    await expect.poll(() => top.getAttribute('data-name')).toBe('demo');
    // Two slots below demo, a member or an empty one on each side, and the same below its left child.
    await expect
      .poll(() => graph.locator('[data-slot="member"][aria-level="2"]').count())
      .toBe(demoChildren.length);
    for (const key of ['0', '1', '00', '01'])
      await expect.poll(() => graph.locator(`[data-key="${key}"]`).count(), { message: key }).toBe(1);
    expect(await graph.locator('[data-key="0"]').getAttribute('data-name')).toBe(left.Username);

    // Keyboard: the tab stop is the top; Down goes to the left child, with the hover panel; Enter opens it.
    await top.focus();
    await page.keyboard.press('ArrowDown');
    const focused = page.locator(':focus');
    await expect.poll(() => focused.getAttribute('data-name')).toBe(left.Username);
    await expect.poll(() => page.getByTestId('node-details').innerText()).toContain(left.Username);
    await page.keyboard.press('Enter');
    const crumbs = page.getByRole('navigation', { name: 'Path from you' });
    await expect.poll(() => crumbs.getByRole('listitem').allInnerTexts()).toEqual(['demo', left.Username]);
    await expect.poll(() => top.getAttribute('data-name')).toBe(left.Username);
    // Up from the top goes back to demo.
    await top.focus();
    await page.keyboard.press('ArrowUp');
    await expect.poll(() => top.getAttribute('data-name')).toBe('demo');

    // The bottom of the left leg, with the path as breadcrumbs (both ends only when long).
    await page.getByRole('button', { name: 'Bottom of left leg' }).click();
    await expect
      .poll(() => crumbs.locator('[aria-current="location"]').innerText(), { timeout: 20_000 })
      .toBe(crumbsLast(bottom, edge, withPaths));
    expect(await page.getByTestId('tree-notice').innerText()).toMatch(
      bottom.Levels === 0 ? /left leg is empty/ : /Bottom of your left leg|Stopped after/,
    );
    expect(await crumbs.getByRole('listitem').count()).toBeLessThanOrEqual(11);
    await expect.poll(() => top.getAttribute('data-name')).toBe(crumbsLast(bottom, edge, withPaths));
    // A crumb opens that member: demo again.
    await crumbs.getByRole('button', { name: 'demo', exact: true }).click();
    await expect.poll(() => top.getAttribute('data-name')).toBe('demo');

    // Search by name (typed in capitals): the tree opens at the member, the path from demo above it.
    await page
      .getByRole('textbox', { name: 'Find a member by username' })
      .fill(grandchild.Username.toUpperCase());
    await page.keyboard.press('Enter');
    await expect
      .poll(() => crumbs.getByRole('listitem').allInnerTexts(), { timeout: 20_000 })
      .toEqual(['demo', left.Username, grandchild.Username]);
    await expect.poll(() => top.getAttribute('data-name')).toBe(grandchild.Username);
    expect(await page.getByTestId('tree-walk-note').count()).toBe(withPaths ? 0 : 1);
  });
});

/** The member the graph opens at after the jump: the bottom, or without the extension the walk's last past its bound. */
function crumbsLast(bottom: { Username: string; Levels: number }, edge: string[], withPaths: boolean) {
  return bottom.Levels > 100 && !withPaths ? edge[100]! : bottom.Username;
}
