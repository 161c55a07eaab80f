import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { routes } from '@/app/router.tsx';
import { renderApp } from '@/testing/render.tsx';
import { routerPaths } from '@/testing/router-paths.ts';
import { EXTRA_ROUTES, NAV_ITEMS } from './nav-items.ts';

const mainNav = () => document.querySelector<HTMLElement>('nav[aria-label="Main"]')!;

const profile = {
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
};

function signedIn(path: string) {
  localStorage.setItem('jwt', 'jwt-1');
  localStorage.setItem(
    'user',
    JSON.stringify({ username: 'demo', avatar: 'Default', name: 'Demo Member', email: 'demo@example.com' }),
  );
  return renderApp(path, { 'user.view_profile': () => ({ Success: [profile] }) });
}

describe('sidebar and shell', () => {
  it('lists the spec items in order with their paths, then the other routes under More; Dashboard matched exactly', async () => {
    signedIn('/dashboard/notification');
    await screen.findByText('Member Dashboard', {}, { timeout: 5000 });
    // The column is shown by CSS from 768 px up (jsdom computes it hidden), so find it by its label.
    const links = [...mainNav().querySelectorAll('a')];
    const items = [...NAV_ITEMS, ...EXTRA_ROUTES];
    expect(links.map((link) => link.textContent)).toEqual(items.map((item) => item.name));
    expect(links.map((link) => link.getAttribute('href'))).toEqual(items.map((item) => item.path));
    expect(EXTRA_ROUTES.map((item) => item.name)).toEqual([
      'P2P Transfer',
      'Withdraw',
      'Timeline',
      'Support',
    ]);
    expect(mainNav().querySelector('section')).toHaveAccessibleName('More');
    const linkNamed = (name: string) => links.find((link) => link.textContent === name)!;
    expect(linkNamed('Dashboard')).not.toHaveAttribute('aria-current');
    expect(linkNamed('Notification')).toHaveAttribute('aria-current', 'page');
    expect(NAV_ITEMS.map((item) => item.name)).toEqual([
      'Dashboard',
      'Package',
      'Wallets',
      'Transaction',
      'Deposit',
      'Bonus',
      'Volume',
      'Binary Chart',
      'Level Chart',
      'Ranks & Rewards',
      'History',
      'Notification',
      'Settings',
    ]);
  });

  it('reaches every dashboard route of the router from the navigation', async () => {
    signedIn('/dashboard');
    await screen.findByText('Member Dashboard', {}, { timeout: 5000 });
    const linked = new Set([...mainNav().querySelectorAll('a')].map((link) => link.getAttribute('href')));
    const paths = routerPaths(routes);
    const dashboardPaths = [...new Set(paths.filter((path) => path.startsWith('/dashboard')))];
    // 17 = the spec's /dashboard children and the index (§2): a route left out of the menu fails here.
    expect(dashboardPaths).toHaveLength(17);
    expect(dashboardPaths.filter((path) => !linked.has(path))).toEqual([]);
    expect(dashboardPaths).toEqual(expect.arrayContaining(['/dashboard/support', '/dashboard/timeline']));
  });

  it('links every public route from sign-in', async () => {
    renderApp('/');
    await screen.findByRole('button', { name: 'Sign In' });
    const linked = new Set([...document.querySelectorAll('a')].map((link) => link.getAttribute('href')));
    const publicPaths = routerPaths(routes).filter((path) => !path.startsWith('/dashboard') && path !== '/');
    expect(publicPaths).toEqual(['/register', '/forgot-password', '/forgot-username']);
    expect(publicPaths.filter((path) => !linked.has(path))).toEqual([]);
  });

  it('opens Support and Timeline from the sidebar', async () => {
    const { router } = signedIn('/dashboard');
    await screen.findByText('Member Dashboard', {}, { timeout: 5000 });
    const link = (name: string) => [...mainNav().querySelectorAll('a')].find((a) => a.textContent === name)!;
    await userEvent.click(link('Support'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/support'));
    expect(
      await screen.findByRole('heading', { name: 'Support', level: 1 }, { timeout: 5000 }),
    ).toBeInTheDocument();
    await userEvent.click(link('Timeline'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/timeline'));
    expect(
      await screen.findByRole('heading', { name: 'Timeline', level: 1 }, { timeout: 5000 }),
    ).toBeInTheDocument();
  });

  it('renders stub pages with the sidebar heading, and the withdraw page as just "Withdraw"', async () => {
    const { router } = signedIn('/dashboard/package');
    expect(await screen.findByRole('heading', { name: 'Investment Packages' })).toBeInTheDocument();
    expect(screen.getByText('Select a package to start or upgrade')).toBeInTheDocument();
    await router.navigate('/dashboard/withdraw');
    expect(await screen.findByRole('heading', { name: 'Withdraw' })).toBeInTheDocument();
  });

  it('sends visitors without a session to sign-in, and unknown paths to /', async () => {
    const { router } = renderApp('/dashboard/settings');
    expect(await screen.findByRole('button', { name: 'Sign In' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    await router.navigate('/no/such/page');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it('logout clears local storage and returns to /', async () => {
    const { router } = signedIn('/dashboard');
    await userEvent.click(await screen.findByRole('button', { name: 'Logout' }));
    expect(router.state.location.pathname).toBe('/');
    expect(localStorage.getItem('jwt')).toBeNull();
    expect(localStorage.getItem('user')).toBeNull();
  });

  it('refreshes the profile on mount and on every path change', async () => {
    const { router, calls } = signedIn('/dashboard');
    const profileCalls = () => calls.filter((call) => call.path === 'user.view_profile').length;
    await waitFor(() => expect(profileCalls()).toBe(1));
    await router.navigate('/dashboard/notification');
    await waitFor(() => expect(profileCalls()).toBe(2));
  });
});
