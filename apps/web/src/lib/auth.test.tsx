/** Spec §8 session rules that need no browser: the missing-token log and the missing profile. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, Outlet, RouterProvider } from 'react-router';
import { MSG } from '@md/shared';
import { TestProviders } from '@/testing/providers.tsx';
import { createMockClient } from '@/testing/mock-link.ts';
import { renderSignedIn } from '@/testing/member.ts';
import { testConfig } from '@/testing/render.tsx';
import { AuthProvider, useAuth, type AuthContextValue } from './auth.tsx';

/** Renders the auth provider alone and hands its value out. */
function renderAuth(handlers: Parameters<typeof createMockClient>[0]) {
  const calls: { path: string; input: unknown }[] = [];
  const auth: { current?: AuthContextValue } = {};
  function Probe() {
    auth.current = useAuth();
    return <p>probe</p>;
  }
  const routes = [
    {
      element: (
        <AuthProvider>
          <Outlet />
        </AuthProvider>
      ),
      children: [{ path: '/', element: <Probe /> }],
    },
  ];
  render(
    <TestProviders config={testConfig} trpcClient={createMockClient(handlers, calls)}>
      <RouterProvider router={createMemoryRouter(routes)} />
    </TestProviders>,
  );
  return { auth, calls };
}

describe('auth under faults', () => {
  afterEach(() => vi.restoreAllMocks());

  it("logs 'Session expired. Please log in again.' when the profile refresh finds no token, and calls nothing", async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { auth, calls } = renderAuth({});
    await screen.findByText('probe');
    expect(await auth.current!.refreshProfile()).toBeNull();
    expect(warn).toHaveBeenCalledWith(MSG.sessionExpiredLog);
    expect(calls).toEqual([]);
  });

  it("a profile without a username is 'User profile not found. Please log in again.'", async () => {
    renderSignedIn('/dashboard/notification', {
      'user.view_profile': () => ({ Success: [{ Name: 'No Username' }] }),
    });
    expect(await screen.findByText(MSG.profileNotFound)).toBeInTheDocument();
    // Not a session error: the member stays signed in.
    expect(localStorage.getItem('jwt')).toBe('jwt-1');
  });

  it('a profile that arrives after the session ended does not store the user again', async () => {
    let answer: ((value: unknown) => void) | undefined;
    localStorage.setItem('jwt', 'jwt-1');
    const { auth } = renderAuth({ 'user.view_profile': () => new Promise((resolve) => (answer = resolve)) });
    await screen.findByText('probe');
    const refreshed = auth.current!.refreshProfile();
    await waitFor(() => expect(answer).toBeDefined());
    // A 401 elsewhere removes the token while the profile is on its way.
    localStorage.removeItem('jwt');
    answer!({ Success: [{ Username: 'demo', Name: 'Demo' }] });
    expect(await refreshed).toBeNull();
    await waitFor(() => expect(auth.current!.profile).toBeNull());
    expect(localStorage.getItem('user')).toBeNull();
  });

  it('using the auth context outside its provider throws (spec §8)', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    function Outside() {
      useAuth();
      return null;
    }
    expect(() => render(<Outside />)).toThrow('useAuth must be used within an AuthProvider');
  });
});
