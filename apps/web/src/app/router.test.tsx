/** Route guards of spec §2, and `/` is the sign-in form for visitors only (a signed-in member goes to /dashboard). */
import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { renderApp } from '@/testing/render.tsx';
import { renderSignedIn } from '@/testing/member.ts';

describe('the sign-in route', () => {
  it('sends a signed-in member opening / to /dashboard instead of showing the form again', async () => {
    const { router } = renderSignedIn('/');
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(screen.queryByRole('button', { name: 'Sign In' })).toBeNull();
    expect(await screen.findByRole('button', { name: 'Logout' })).toBeInTheDocument();
  });

  it('shows the form to a visitor without a session', async () => {
    const { router } = renderApp('/');
    expect(await screen.findByRole('button', { name: 'Sign In' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
  });

  it('shows the form when the stored session has no user (a token alone is not a session)', async () => {
    localStorage.setItem('jwt', 'jwt-1');
    const { router } = renderApp('/');
    expect(await screen.findByRole('button', { name: 'Sign In' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
  });
});
