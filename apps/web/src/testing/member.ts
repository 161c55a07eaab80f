/** A signed-in demo member for page tests: stored session, a profile, and wallets. */
import { beforeAll } from 'vitest';
import type { Profile } from '@md/shared';
import type { LoadedLocale } from '@/lib/i18n/i18n.tsx';
import type { MockHandlers } from './mock-link.ts';
import { renderApp } from './render.tsx';

export const memberProfile = (overrides: Partial<Profile> = {}): Profile => ({
  Username: 'demo',
  Name: 'Demo Member',
  Email: 'demo@example.com',
  Side: '0',
  Sponsor: null,
  Country: 'UK',
  Created_On: '2025-01-01T00:00:00Z',
  Subscription: false,
  package: null,
  Transaction_Password: false,
  TOTP_Enabled: false,
  Wallet_Details: { Wallet_Address: null, Network: 'BEP.20' },
  ...overrides,
});

export const wallet = (Available: number, Total = Available) => ({
  Available,
  Total,
  This_Month: 0,
  Last_Month: 0,
  User: 'demo',
});

/**
 * Renders `path` signed in as demo; `handlers` add to (or replace) the profile handler; `i18n`: the
 * language (testI18n('ar') from testing/i18n.ts), English unless given.
 */
export function renderSignedIn(
  path: string,
  handlers: MockHandlers = {},
  profile: Partial<Profile> = {},
  options: { i18n?: LoadedLocale } = {},
) {
  localStorage.setItem('jwt', 'jwt-1');
  localStorage.setItem(
    'user',
    JSON.stringify({ username: 'demo', avatar: 'Default', name: 'Demo Member', email: 'demo@example.com' }),
  );
  return renderApp(
    path,
    { 'user.view_profile': () => ({ Success: [memberProfile(profile)] }), ...handlers },
    options,
  );
}

/** How many times a procedure was called so far. */
export const callsTo = (calls: { path: string; input: unknown }[], path: string) =>
  calls.filter((call) => call.path === path);

/**
 * Imports the dashboard shell and a page before a file's tests: both are lazy routes, and their
 * first import (a cold transform of their modules, seconds on a busy machine) would otherwise fall
 * inside the first test's waits for the page, which are meant for the page's own calls.
 */
export function loadPageBeforeTests(page: () => Promise<unknown>) {
  beforeAll(async () => {
    await Promise.all([import('@/components/shell/dashboard-layout.tsx'), page()]);
  }, 120_000);
}
