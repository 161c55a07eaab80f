/**
 * The tree views on a phone and a desktop, in both client modes: the Binary Chart's graph keeps
 * every slot it draws inside its box (the phone's third row too), names every member in full
 * (a tooltip, and the member opened at the top is drawn wide enough for its whole name), shows the
 * status of the member it is opened at like the others'; the Level Chart finds directs by name.
 */
import { describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { api, freshPagePerTest, registerMember, signInWithToken, uniqueName } from './support.ts';

const servers = inject('e2eServers');
const WIDTHS = [
  { width: 1280, height: 900 },
  { width: 375, height: 812 },
];
type Downline = { Success: { Downline: { Username: string; Side: string }[] } };

describe.each(servers)('tree views in $mode mode', (server) => {
  describe.each(WIDTHS)('at $width px', (viewport) => {
    let page!: Page;
    freshPagePerTest(server, viewport, (fresh) => (page = fresh));

    it('draws every slot of the graph inside its box, names members in full and shows the status of the member it is opened at', async () => {
      const token = (
        await api<{ JWT: string }>(server, '/user/login', { username: 'demo', password: 'Demo@1234' })
      ).JWT;
      const left = (
        await api<Downline>(server, '/binary/view_binary_downline', { username: 'demo' }, token)
      ).Success.Downline.find((child) => child.Side === '0')!;
      await signInWithToken(page, server, 'demo', 'Demo@1234');
      await page.goto(`${server.url}/dashboard/binarychart`);
      await page.getByRole('tab', { name: 'Tree' }).click();
      const graph = page.getByRole('tree', { name: 'Binary tree graph' });
      const lowest = viewport.width < 600 ? 2 : 3;
      // Loaded down to the lowest level drawn (demo's tree is that deep).
      await expect
        .poll(
          () =>
            graph
              .locator('[data-key]')
              .evaluateAll(
                (slots, depth) =>
                  slots.filter((slot) => slot.getAttribute('data-key')!.length === depth).length,
                lowest,
              ),
          { timeout: 15_000 },
        )
        .toBeGreaterThan(0);
      await expect.poll(() => graph.locator('[aria-label^="Loading"]').count(), { timeout: 15_000 }).toBe(0);
      const box = (await graph.boundingBox())!;
      const outside = await graph.locator('[data-key]').evaluateAll(
        (slots, frame) =>
          slots
            .map((slot) => ({ key: slot.getAttribute('data-key'), rect: slot.getBoundingClientRect() }))
            .filter(
              ({ rect }) =>
                rect.left < frame.x - 0.5 ||
                rect.right > frame.x + frame.width + 0.5 ||
                rect.bottom > frame.y + frame.height + 0.5,
            )
            .map(({ key }) => key),
        box,
      );
      expect(outside).toEqual([]);
      // Every member carries its whole name as a tooltip; the top shows it untruncated.
      const members = graph.locator('[data-slot="member"]');
      for (const member of await members.all())
        expect(await member.locator('[data-part="name"]').getAttribute('title')).toBe(
          await member.getAttribute('data-name'),
        );
      // And every name is drawn whole (on two lines if need be), not cut to its first letters.
      const cut = await members
        .locator('[data-part="name"]')
        .evaluateAll((names) =>
          names
            .filter(
              (name) => name.scrollWidth > name.clientWidth + 1 || name.scrollHeight > name.clientHeight + 1,
            )
            .map((name) => name.textContent),
        );
      expect(cut).toEqual([]);
      const top = graph.locator('[data-slot="member"][aria-level="1"]');
      await expect.poll(() => top.innerText()).toMatch(/Active|Inactive/);

      // Opened at the left child (a tap): its status shows as the others' do, and its name whole.
      await graph.locator(`[data-slot="member"][data-key="0"]`).click();
      await expect.poll(() => top.getAttribute('data-name')).toBe(left.Username);
      await expect.poll(() => top.innerText(), { timeout: 10_000 }).toMatch(/Left\s+(Active|Inactive)/);
      expect(
        await top.locator('[data-part="name"]').evaluate((name) => name.scrollWidth <= name.clientWidth + 1),
      ).toBe(true);
      await page.screenshot({ path: `/tmp/shots-tree/e2e-graph-${server.mode}-${viewport.width}.png` });
    });

    it('finds directs by name in the Level Chart and says how many match', async () => {
      // A direct with a long name: found by part of it, and readable whole.
      const long = uniqueName('longname_abcdefghij');
      if (viewport.width === 1280) await registerMember(server, long);
      const token = (
        await api<{ JWT: string }>(server, '/user/login', { username: 'demo', password: 'Demo@1234' })
      ).JWT;
      await signInWithToken(page, server, 'demo', 'Demo@1234');
      await page.goto(`${server.url}/dashboard/levelchart`);
      const tree = page.getByRole('tree', { name: 'Level tree' });
      await tree.locator('[role="treeitem"]').first().waitFor();
      const directs = (
        await api<Downline>(server, '/level/view_downline', { username: 'demo' }, token)
      ).Success.Downline.map((entry) => entry.Username);
      const query = 'GONZALO_00';
      const expected = directs.filter((name) => name.toLowerCase().includes(query.toLowerCase()));
      expect(expected.length).toBeGreaterThan(0);
      await page.getByRole('searchbox', { name: 'Find a direct by username' }).fill(query);
      const summary = page.getByTestId('level-search-summary');
      await expect
        .poll(() => summary.innerText(), { timeout: 10_000 })
        .toBe(`${expected.length} of ${directs.length} directs match “${query}”.`);
      // Only matches are listed below demo (as many as the window draws).
      const found = tree.locator('[role="treeitem"][aria-level="2"][data-name]');
      await expect.poll(() => found.count()).toBeGreaterThan(0);
      expect(
        (await found.evaluateAll((rows) => rows.map((row) => row.getAttribute('data-name')))).filter(
          (name) => !expected.includes(name!),
        ),
      ).toEqual([]);
      expect(await tree.locator('[data-more-of]').count()).toBe(0);
      await page.getByRole('searchbox', { name: 'Find a direct by username' }).fill('no-such-member-here');
      await expect.poll(() => summary.innerText()).toBe(`No direct's name contains “no-such-member-here”.`);
      const longNames = directs.filter((name) => name.startsWith('longname_abcdefghij'));
      if (longNames.length > 0) {
        await page
          .getByRole('searchbox', { name: 'Find a direct by username' })
          .fill(longNames[0]!.slice(0, 24));
        const row = tree.locator(`[role="treeitem"][data-name="${longNames[0]}"]`);
        await row.waitFor();
        // The whole name: a tooltip, and wrapped (not cut) in the row.
        const name = row.locator('[data-part="name"]');
        expect(await name.getAttribute('title')).toBe(longNames[0]);
        expect(
          await name.evaluate(
            (element) =>
              element.scrollWidth <= element.clientWidth + 1 &&
              element.scrollHeight <= element.clientHeight + 1,
          ),
        ).toBe(true);
      }
      await page.screenshot({ path: `/tmp/shots-tree/e2e-level-${server.mode}-${viewport.width}.png` });
      // Clearing the search brings the whole level back.
      await page.getByRole('searchbox', { name: 'Find a direct by username' }).fill('');
      await expect.poll(() => summary.count()).toBe(0);
    });
  });
});
