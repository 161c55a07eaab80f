/**
 * The Content-Security-Policy in a real browser, in both client modes: signing in, the dashboard
 * and a few pages, and the forgot-username captcha (its proof-of-work worker) raise no violation;
 * provider strings carrying HTML are shown as text and run nothing.
 */
import { describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { addFault, api, freshPagePerTest, signIn, signInWithToken } from './support.ts';

const servers = inject('e2eServers');
const PASSWORD = 'Demo@1234';
const PAYLOAD = '<img src=x onerror="window.__xss=(window.__xss||0)+1"><script>window.__xss=1</script>';

/** Collects the page's securitypolicyviolation events (from its first script on) in window.__csp. */
async function watchViolations(page: Page) {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __csp: string[] }).__csp = seen;
    document.addEventListener('securitypolicyviolation', (e) =>
      seen.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`),
    );
  });
}
const violations = (page: Page) => page.evaluate(() => (window as unknown as { __csp: string[] }).__csp);

describe.each(servers)('$mode mode', (server) => {
  let page: Page;
  freshPagePerTest(server, { width: 1280, height: 900 }, (p) => (page = p));

  it('signing in and visiting the dashboard raise no CSP violation', async () => {
    await watchViolations(page);
    await signIn(page, server, 'demo', PASSWORD);
    for (const path of [
      '/dashboard/wallets',
      '/dashboard/deposit',
      '/dashboard/binarychart',
      '/dashboard/settings',
      '/dashboard',
    ]) {
      await page.goto(`${server.url}${path}`);
      await expect
        .poll(() => page.locator('main h1, [data-testid="dashboard-home"]').count())
        .toBeGreaterThan(0);
    }
    expect(await violations(page)).toEqual([]);
    // The listener does hear the policy: an injected inline script is refused, and reported.
    expect(
      await page.evaluate(() => {
        const script = document.createElement('script');
        script.textContent = 'window.__inline = true';
        document.head.append(script);
        return (window as unknown as { __inline?: boolean }).__inline ?? false;
      }),
    ).toBe(false);
    await expect
      .poll(async () => (await violations(page)).some((v) => v.startsWith('script-src-elem')))
      .toBe(true);
  });

  it('the forgot-username captcha solves in its worker under the policy', async () => {
    await watchViolations(page);
    await page.goto(`${server.url}/forgot-username`);
    await page.locator('altcha-widget input[type="checkbox"]').click();
    await expect
      .poll(
        () =>
          page
            .locator('altcha-widget [data-state="verified"], altcha-widget .altcha[data-state="verified"]')
            .count(),
        { timeout: 20_000 },
      )
      .toBeGreaterThan(0);
    expect(await violations(page)).toEqual([]);
  });

  it('a provider username and notification carrying HTML show as text and run nothing', async () => {
    await watchViolations(page);
    const token = await signInWithToken(page, server, 'demo', PASSWORD);
    const profile = await api<{ Success: Record<string, unknown>[] }>(
      server,
      '/user/view_profile',
      {},
      token,
    );
    await addFault(server, {
      path: '/user/view_profile',
      body: { Success: [{ ...profile.Success[0], Username: PAYLOAD, Name: PAYLOAD }] },
    });
    const notifications = await api<{ Success: Record<string, unknown>[] }>(
      server,
      '/notification/view_notification',
      {},
      token,
    );
    expect(notifications.Success.length).toBeGreaterThan(0);
    await addFault(server, {
      path: '/notification/view_notification',
      body: { Success: [{ ...notifications.Success[0], Message: PAYLOAD }] },
    });

    await page.goto(`${server.url}/dashboard/notification`);
    await expect.poll(() => page.getByText(PAYLOAD, { exact: true }).count()).toBeGreaterThanOrEqual(2);
    expect(await page.locator('img[src="x"]').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    expect(await violations(page)).toEqual([]);
  });
});
