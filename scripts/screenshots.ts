/**
 * Screenshots of the web app at 1280 and 375 px, light and dark, for a person to look at.
 * Usage: node --import tsx scripts/screenshots.ts [baseUrl] (default http://localhost:3000; the
 * server must be running with the web app built). Signs in as demo/Demo@1234 for the dashboard
 * pages. Output: screenshots/<page>-<width>-<theme>.png (git-ignored). Uses the system Chromium.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';

const baseUrl = process.argv[2] ?? process.env.BASE_URL ?? 'http://localhost:3000';
const outDir = join(process.cwd(), 'screenshots');
const executablePath = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const WIDTHS = [1280, 375] as const;
const THEMES = ['light', 'dark'] as const;
const PUBLIC_PAGES = [
  { name: 'sign-in', path: '/' },
  { name: 'register', path: '/register?sponsor=demo&side=left' },
  { name: 'register-open', path: '/register' },
  { name: 'forgot-password', path: '/forgot-password' },
  { name: 'forgot-username', path: '/forgot-username' },
];
const DASHBOARD_PAGES = [
  { name: 'dashboard', path: '/dashboard' },
  { name: 'notifications', path: '/dashboard/notification' },
  { name: 'settings', path: '/dashboard/settings' },
  { name: 'package', path: '/dashboard/package' },
  { name: 'transactions', path: '/dashboard/transactions' },
  { name: 'history', path: '/dashboard/history' },
  { name: 'deposit', path: '/dashboard/deposit' },
  { name: 'deposit-package-tab', path: '/dashboard/deposit#security' },
];

async function signIn(page: Page) {
  await page.goto(`${baseUrl}/`);
  await page.getByLabel('Username', { exact: true }).fill('demo');
  await page.getByLabel('Password', { exact: true }).fill('Demo@1234');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.getByTestId('dashboard-home').waitFor({ timeout: 15_000 });
}

async function main() {
  mkdirSync(outDir, { recursive: true });
  const browser = await chromium.launch({
    executablePath,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
  try {
    for (const width of WIDTHS) {
      for (const theme of THEMES) {
        const context = await browser.newContext({ viewport: { width, height: width < 768 ? 812 : 900 }, colorScheme: theme });
        await context.addInitScript((value) => localStorage.setItem('theme', value), theme);
        const page = await context.newPage();
        const shoot = async (name: string, path: string) => {
          await page.goto(`${baseUrl}${path}`);
          await page.waitForLoadState('networkidle');
          await page.waitForTimeout(400);
          const file = join(outDir, `${name}-${width}-${theme}.png`);
          await page.screenshot({ path: file, fullPage: true });
          console.log(file);
        };
        for (const { name, path } of PUBLIC_PAGES) await shoot(name, path);
        try {
          await signIn(page);
          for (const { name, path } of DASHBOARD_PAGES) await shoot(name, path);
        } catch (error) {
          console.warn(`Dashboard pages skipped (${width}px ${theme}): ${(error as Error).message.split('\n')[0]}`);
        }
        await context.close();
      }
    }
  } finally {
    await browser.close();
  }
}

await main();
