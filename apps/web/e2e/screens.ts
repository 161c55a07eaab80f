/**
 * The screens the accessibility and layout files visit (a11y.e2e.ts, layout.e2e.ts), in mock mode
 * (the QA panel exists only there; both modes render the same screens): every route of the router,
 * every tab on it, and one dialog of each kind; how a screen is opened and waited for; and the
 * shared page, signed in as demo in its block's world, that each of their blocks drives.
 */
import { afterAll, beforeAll, expect, inject } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { launchBrowser, newTestContext } from './browser.ts';
import { endWorld, newWorld, signInWithToken } from './support.ts';

export const server = inject('e2eServers').find((s) => s.mode === 'mock')!;

export interface Screen {
  /** Route path as the router has it. */
  route: string;
  /** What is shown, in test names. */
  name: string;
  /** Brings the page into the state to check (a dialog open); runs after the route settled. */
  open?: (page: Page) => Promise<void>;
  /** Only at these widths (the phone menu exists below 768 px). */
  widths?: number[];
}

export const PUBLIC_ROUTES = ['/', '/register', '/forgot-password', '/forgot-username'];
export const DASHBOARD_ROUTES = [
  '/dashboard',
  '/dashboard/package',
  '/dashboard/wallets',
  '/dashboard/transactions',
  '/dashboard/deposit',
  '/dashboard/bonus',
  '/dashboard/volume',
  '/dashboard/binarychart',
  '/dashboard/levelchart',
  '/dashboard/rankrewards',
  '/dashboard/history',
  '/dashboard/notification',
  '/dashboard/settings',
  '/dashboard/withdraw',
  '/dashboard/p2pTransfer',
  '/dashboard/timeline',
  '/dashboard/support',
];

const qaPanel = (page: Page) => page.getByRole('dialog', { name: 'QA panel' });

/** One dialog of each kind: the confirm shell, the OTP modal, the export dialog, the bell's menu, the phone menu drawer, the QA panel. */
export const DIALOGS: Screen[] = [
  {
    route: '/dashboard/package',
    name: 'purchase confirm dialog',
    open: async (page) => {
      await page.getByTestId('package-card-Starter').click();
      await page.getByRole('button', { name: 'Select Starter' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Confirm Purchase' }).waitFor();
    },
  },
  {
    // Asking for the code mails one and changes nothing until it is confirmed.
    route: '/dashboard/settings',
    name: 'OTP dialog (password change)',
    open: async (page) => {
      await page.getByRole('tab', { name: 'Security' }).click();
      await page.getByLabel('Current Password', { exact: true }).fill('Demo@1234');
      await page.getByLabel('New Password', { exact: true }).fill('Other#5678');
      await page.getByLabel('Confirm New Password', { exact: true }).fill('Other#5678');
      await page.getByRole('button', { name: 'Change Password' }).click();
      await page.getByRole('dialog', { name: 'Confirm password change' }).waitFor();
    },
  },
  {
    route: '/dashboard',
    name: 'phone menu drawer',
    widths: [375],
    open: async (page) => {
      await page.getByRole('button', { name: 'Open menu' }).click();
      await page.getByRole('dialog').getByRole('navigation').waitFor();
    },
  },
  {
    route: '/dashboard/history',
    name: 'table export dialog',
    open: async (page) => {
      await page.getByRole('button', { name: 'Export', exact: true }).click();
      await page
        .getByRole('dialog', { name: 'Export Earning history' })
        .getByRole('checkbox')
        .first()
        .waitFor({ state: 'attached' });
    },
  },
  {
    route: '/dashboard/wallets',
    name: 'notifications bell menu',
    open: async (page) => {
      await page.getByTestId('notification-bell').click();
      await page.getByRole('menuitem', { name: 'View all notifications' }).waitFor();
    },
  },
  {
    // Its tabs are visited like a page's (see check below).
    route: '/dashboard',
    name: 'QA panel',
    open: async (page) => {
      await page.getByRole('button', { name: 'QA panel' }).click();
      await qaPanel(page).getByRole('tablist').waitFor();
    },
  },
];

/** Forms after a submit with nothing filled in: their field errors, drawn by the first screen's classes and by Chakra. */
export const FORM_ERRORS: Screen[] = [
  {
    route: '/',
    name: 'sign-in form errors',
    open: async (page) => {
      await page.getByRole('button', { name: 'Sign In' }).click();
      await page.getByText('Username is required').waitFor();
    },
  },
  {
    route: '/dashboard/support',
    name: 'support form errors',
    open: async (page) => {
      await page.getByRole('button', { name: 'Send Message' }).click();
      await page.getByText('Subject is required').waitFor();
    },
  },
];

export const SCREENS: Screen[] = [
  ...[...PUBLIC_ROUTES, ...DASHBOARD_ROUTES].map((route) => ({ route, name: route })),
  ...DIALOGS,
  ...FORM_ERRORS,
];

/**
 * Waits until the page shows its data: its h1, no request in flight, no spinner, and no finite
 * animation running (axe reads colours mid-fade otherwise).
 */
export async function settle(page: Page) {
  await page
    .locator('h1')
    .first()
    .waitFor({ timeout: 20_000 })
    .catch(async () => {
      const shown = await page.evaluate(() => document.body.innerText.slice(0, 200));
      throw new Error(`No h1 on ${page.url()} after 20 s; the page shows: ${JSON.stringify(shown)}`);
    });
  await page.waitForLoadState('networkidle');
  await expect
    .poll(() =>
      page.evaluate(() => {
        const spinning = [...document.querySelectorAll('.chakra-spinner, [aria-busy="true"]')].some(
          (el) => el.getBoundingClientRect().width > 0,
        );
        const moving = document
          .getAnimations()
          .some((a) => a.playState === 'running' && a.effect?.getComputedTiming().iterations !== Infinity);
        return !spinning && !moving;
      }),
    )
    .toBe(true);
}

/**
 * The tabs to visit: a page's own, or the QA panel's. Behind any other dialog or menu the page's tabs
 * are the page's screen's to visit: a click there first dismisses the non-modal bell menu, so its
 * tab may never turn selected (seen under load).
 */
function tabsOf(page: Page, screen: Screen): Locator | null {
  if (screen.name === 'QA panel') return qaPanel(page).getByRole('tab');
  return screen.open ? null : page.locator('main').getByRole('tab');
}

/** Pages whose last screen opened a dialog or menu: their next screen is loaded afresh, with nothing left over. */
const dialogLeftOpen = new WeakSet<Page>();

/**
 * Brings `route` of the app at `origin` up. A dashboard route reached from another one, signed in, is navigated to inside
 * the running app (as its links do): the sweeps check what each screen draws, and a first load of
 * the app per screen cost most of their time. Anything else is a page load. The navigation has
 * landed once a heading stands that was not there before it, or the headings read otherwise.
 */
export async function openRoute(page: Page, route: string, origin = server.url) {
  const here = page.url().startsWith(origin) ? new URL(page.url()) : undefined;
  const inApp =
    here !== undefined &&
    !dialogLeftOpen.has(page) &&
    here.pathname.startsWith('/dashboard') &&
    route.startsWith('/dashboard') &&
    here.pathname + here.search !== route &&
    (await page.evaluate(() => localStorage.getItem('jwt') !== null));
  dialogLeftOpen.delete(page);
  if (!inApp) {
    await page.goto(`${origin}${route}`);
    return;
  }
  const before = await page.evaluate((path) => {
    const headings = [...document.querySelectorAll('h1')];
    for (const heading of headings) heading.setAttribute('data-e2e-before', '');
    window.history.pushState(null, '', path);
    window.dispatchEvent(new PopStateEvent('popstate', { state: null }));
    return headings.map((heading) => heading.textContent).join('|');
  }, route);
  await expect
    .poll(() =>
      page.evaluate((previous) => {
        const headings = [...document.querySelectorAll('h1')];
        return (
          headings.length > 0 &&
          (headings.some((heading) => !heading.hasAttribute('data-e2e-before')) ||
            headings.map((heading) => heading.textContent).join('|') !== previous)
        );
      }, before),
    )
    .toBe(true);
}

/** Opens the screen, then runs `check` on it and on each of its other tabs, labelled by tab name. */
export async function visit(page: Page, screen: Screen, check: (label: string) => Promise<string[]>) {
  await openRoute(page, screen.route);
  await settle(page);
  if (screen.open) {
    dialogLeftOpen.add(page);
    await screen.open(page);
    await settle(page);
  }
  const problems = await check('');
  const tabs = tabsOf(page, screen);
  const count = tabs ? await tabs.count() : 0;
  for (let i = 1; tabs && i < count; i++) {
    const tab = tabs.nth(i);
    const name = (await tab.innerText()).trim();
    await tab.click();
    await expect.poll(() => tab.getAttribute('aria-selected')).toBe('true');
    await settle(page);
    problems.push(...(await check(`[tab ${name}] `)));
  }
  return problems;
}

/** In the calling describe block: one context (viewport, theme), one page and one world, signed in as demo. */
export function sharedPage(options: { width: number; theme: 'light' | 'dark' }, use: (page: Page) => void) {
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;
  let page: Page | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
    context = await newTestContext(browser, {
      viewport: { width: options.width, height: options.width < 768 ? 812 : 900 },
      colorScheme: options.theme,
    });
    await context.addInitScript((theme) => localStorage.setItem('theme', theme), options.theme);
    page = await context.newPage();
    use(page);
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
  });
  // One world for the block: its screens are read, never changed (a dialog is opened, never
  // confirmed), so the app stays booted from one screen to the next (openRoute).
  beforeAll(async () => {
    await newWorld(server, context!);
    await signInWithToken(page!, server, 'demo', 'Demo@1234');
  });
  afterAll(() => endWorld(server));
}

/** Public routes are visited signed out: a signed-in member is sent on to the dashboard. */
export async function signedOutFor(page: Page, screen: Screen, visitIt: () => Promise<string[]>) {
  if (!PUBLIC_ROUTES.includes(screen.route)) return visitIt();
  const saved = await page.evaluate(() => ({
    jwt: localStorage.getItem('jwt'),
    user: localStorage.getItem('user'),
  }));
  await page.evaluate(() => {
    localStorage.removeItem('jwt');
    localStorage.removeItem('user');
  });
  try {
    return await visitIt();
  } finally {
    await page.evaluate(({ jwt, user }) => {
      localStorage.setItem('jwt', jwt ?? '');
      localStorage.setItem('user', user ?? '');
    }, saved);
  }
}

/** The page's sideways scroll and the visible elements that cross the viewport's edges unheld. */
export function layoutProblems(page: Page, label: string): Promise<string[]> {
  return page.evaluate((prefix) => {
    const root = document.documentElement;
    const width = root.clientWidth;
    const problems: string[] = [];
    if (root.scrollWidth > width)
      problems.push(`${prefix}the page scrolls sideways: ${root.scrollWidth} px wide in ${width}`);
    const reported = new Set<Element>();
    const name = (el: Element) => {
      const testId = el.getAttribute('data-testid');
      const text = (el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40);
      return `<${el.tagName.toLowerCase()}${testId ? ` data-testid="${testId}"` : ''}${el.getAttribute('role') ? ` role="${el.getAttribute('role')}"` : ''}> "${text}"`;
    };
    for (const el of document.body.querySelectorAll('*')) {
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.height === 0 || (box.left >= -1 && box.right <= width + 1)) continue;
      if (getComputedStyle(el).visibility === 'hidden') continue;
      let held = false;
      for (let up = el.parentElement; up && up !== document.body && !held; up = up.parentElement) {
        held = reported.has(up) || getComputedStyle(up).overflowX !== 'visible';
      }
      if (held) continue;
      reported.add(el);
      problems.push(
        `${prefix}${name(el)} spans ${Math.round(box.left)}..${Math.round(box.right)} px of ${width}`,
      );
    }
    return problems;
  }, label);
}
