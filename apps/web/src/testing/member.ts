/** A signed-in demo member for page tests: stored session, a profile, and wallets. */
import type { Profile } from '@md/shared';
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

export const wallet = (Available: number, Total = Available) => ({ Available, Total, This_Month: 0, Last_Month: 0, User: 'demo' });

/** Renders `path` signed in as demo; `handlers` add to (or replace) the profile handler. */
export function renderSignedIn(path: string, handlers: MockHandlers = {}, profile: Partial<Profile> = {}) {
  localStorage.setItem('jwt', 'jwt-1');
  localStorage.setItem('user', JSON.stringify({ username: 'demo', avatar: 'Default', name: 'Demo Member', email: 'demo@example.com' }));
  return renderApp(path, { 'user.view_profile': () => ({ Success: [memberProfile(profile)] }), ...handlers });
}

/** How many times a procedure was called so far. */
export const callsTo = (calls: { path: string; input: unknown }[], path: string) => calls.filter((call) => call.path === path);
