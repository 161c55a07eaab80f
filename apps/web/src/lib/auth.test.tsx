/** Spec §8 session rules that need no browser: the missing-token log and the missing profile. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { MSG } from '@md/shared';
import { renderSignedIn } from '@/testing/member.ts';

describe('auth under faults', () => {
  afterEach(() => vi.restoreAllMocks());

  it("logs 'Session expired. Please log in again.' when the profile refresh finds no token", async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { router, calls } = renderSignedIn('/dashboard/notification', { 'notification.view_notification': () => ({ Success: [] }) });
    await screen.findByRole('heading', { name: 'Notification' }, { timeout: 5000 });
    const profileCalls = calls.filter((call) => call.path === 'user.view_profile').length;
    localStorage.removeItem('jwt');
    // A path change refreshes the profile (spec §4): without a token it is only logged.
    await router.navigate('/dashboard/settings');
    await waitFor(() => expect(warn).toHaveBeenCalledWith(MSG.sessionExpiredLog));
    expect(calls.filter((call) => call.path === 'user.view_profile')).toHaveLength(profileCalls);
  });

  it("a profile without a username is 'User profile not found. Please log in again.'", async () => {
    renderSignedIn('/dashboard/notification', { 'user.view_profile': () => ({ Success: [{ Name: 'No Username' }] }) });
    expect(await screen.findByText(MSG.profileNotFound)).toBeInTheDocument();
    // Not a session error: the member stays signed in.
    expect(localStorage.getItem('jwt')).toBe('jwt-1');
  });
});
