/**
 * Signed-in devices (Settings → Security), in both client modes, at 1280 and 375 px: the list shows
 * this browser and a session signed in elsewhere (device, address, last seen); "Sign out" ends the
 * other one at the server, "Sign out all other devices" then has nothing left to do; Logout ends
 * this browser's token at the server too. Screenshots land in the system temp folder.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { expectToast, fetchIn, freshPagePerTest, registerMember, signIn } from './support.ts';
import type { E2eServer } from './global-setup.ts';

const servers = inject('e2eServers');
const PASSWORD = 'Start#1234';

/** A member of its own (the list is per member), registered through the API: that token is the "other device". */
const memberWithOtherSession = async (server: E2eServer, username: string) =>
  (await registerMember(server, username, PASSWORD)).token;

/** The answer status of a profile read with `token`, straight at the server. */
async function profileStatus(server: E2eServer, token: string) {
  const response = await fetchIn(server, '/user/view_profile', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: '{}',
  });
  return response.status;
}

async function openSecurity(page: Page, server: E2eServer) {
  await page.goto(`${server.url}/dashboard/settings`);
  await page.getByRole('tab', { name: 'Security' }).click();
  await page.getByRole('region', { name: 'Signed-in devices' }).scrollIntoViewIfNeeded();
}

describe.each(servers)('$mode mode', (server) => {
  for (const viewport of [
    { width: 1280, height: 900 },
    { width: 375, height: 812 },
  ]) {
    describe(`at ${viewport.width} px`, () => {
      let page: Page;
      freshPagePerTest(server, viewport, (p) => (page = p));

      it('lists this browser and the other session; signs the other out at the server; Logout ends this one', async () => {
        const capabilities = (
          (await (await fetchIn(server, '/config.json')).json()) as { capabilities: string[] }
        ).capabilities;
        expect(capabilities).toContain('sessions');
        const username = `sess${viewport.width}${server.mode[0]}${Date.now().toString(36)}`;
        const other = await memberWithOtherSession(server, username);
        await signIn(page, server, username, PASSWORD);
        await openSecurity(page, server);

        const region = page.getByRole('region', { name: 'Signed-in devices' });
        const rows = region.getByRole('listitem');
        await expect.poll(() => rows.count()).toBe(2);
        const current = rows.filter({ hasText: 'This device' });
        expect(await current.count()).toBe(1);
        expect(await current.innerText()).toMatch(/Chrom/);
        expect(await current.innerText()).toMatch(/Last seen \w{3} \d{2}, \d{4}/);
        // Nothing wider than the screen.
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(
          true,
        );
        await page.screenshot({
          path: join(tmpdir(), `sessions-${server.mode}-${viewport.width}.png`),
          fullPage: false,
        });

        expect(await profileStatus(server, other)).toBe(200);
        await region.getByRole('button', { name: /^Sign out .*last seen/ }).click();
        await expectToast(page, 'Session signed out');
        await expect.poll(() => rows.count()).toBe(1);
        expect(await profileStatus(server, other)).toBe(401);
        expect(await region.getByRole('button', { name: 'Sign out all other devices' }).isDisabled()).toBe(
          true,
        );

        const mine = await page.evaluate(() => localStorage.getItem('jwt'));
        expect(await profileStatus(server, mine!)).toBe(200);
        await page.getByRole('button', { name: 'Logout' }).first().click();
        await page.waitForURL(`${server.url}/`);
        await expect.poll(() => profileStatus(server, mine!)).toBe(401);
      });
    });
  }
});
