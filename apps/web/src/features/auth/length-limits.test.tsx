/**
 * The forms show the shared length limits with the server's own words, before any call:
 * sign-in, registration and the password reset. The rules come from packages/shared, so a form and
 * the server cannot disagree on a limit.
 */
import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MSG, TEXT_MAX } from '@md/shared';
import { renderApp } from '@/testing/render.tsx';

const countries = { 'user.view_country': () => ({ Success: ['United Kingdom'] }) };
// One call checks both: a new name is free (Status true), the sponsor 'demo' exists (Status false).
const available = {
  'user.check_username_available': (input: Record<string, unknown>) =>
    input.username === 'demo'
      ? { Status: false, Success: 'Username already taken' }
      : { Status: true, Success: 'Username available' },
};

/** Types a long value at once (typing 100+ characters key by key is slow and adds nothing). */
async function paste(label: string, text: string) {
  const input = await screen.findByLabelText(label);
  await userEvent.click(input);
  await userEvent.paste(text);
}

describe('length limits in the forms', () => {
  it('sign-in: an over-long username shows the limit, and no TOTP lookup or sign-in is sent for it', async () => {
    const { calls } = renderApp('/', { 'user.view_country': () => ({ Success: false }) });
    await paste('Username', 'd'.repeat(TEXT_MAX.username + 1));
    await paste('Password', 'Demo@1234');
    // Past the lookup's debounce: the name was never sent.
    await new Promise((resolve) => setTimeout(resolve, 700));
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText(MSG.usernameTooLong)).toBeInTheDocument();
    expect(calls.map((c) => c.path)).not.toContain('user.login');
    expect(calls.filter((c) => c.path === 'user.view_country')).toEqual([]);
  });

  it('registration: the username, name and email show their limits as they are typed, and submit stays disabled', async () => {
    const { calls } = renderApp('/register?sponsor=demo&side=left', { ...countries, ...available });
    await paste('Username', 'a'.repeat(TEXT_MAX.username + 1));
    expect(await screen.findByText(MSG.usernameTooLong)).toBeInTheDocument();
    await paste('Full Name', 'N'.repeat(TEXT_MAX.name + 1));
    expect(await screen.findByText(MSG.nameTooLong)).toBeInTheDocument();
    await paste('Email', `${'e'.repeat(TEXT_MAX.email)}@example.com`);
    expect(await screen.findByText(MSG.emailTooLong)).toBeInTheDocument();
    await paste('Password', 'Secret@123');
    await paste('Confirm Password', 'Secret@123');
    expect(screen.getByRole('button', { name: 'Create Account' })).toBeDisabled();
    // The availability check is not asked about a name the server would refuse.
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(
      calls
        .filter((c) => c.path === 'user.check_username_available')
        .map((c) => (c.input as { username: string }).username),
    ).not.toContain('a'.repeat(TEXT_MAX.username + 1));
  });

  it('registration: at the limit the name is accepted (no message)', async () => {
    renderApp('/register?sponsor=demo&side=left', { ...countries, ...available });
    await paste('Username', 'a'.repeat(TEXT_MAX.username));
    await paste('Full Name', 'N'.repeat(TEXT_MAX.name));
    await waitFor(() => expect(screen.getByLabelText('Full Name')).toHaveValue('N'.repeat(TEXT_MAX.name)));
    expect(screen.queryByText(MSG.usernameTooLong)).not.toBeInTheDocument();
    expect(screen.queryByText(MSG.nameTooLong)).not.toBeInTheDocument();
  });

  it('password reset: an over-long username shows the limit and mails nothing', async () => {
    const { calls } = renderApp('/forgot-password', {
      'user.reset_password_email': () => ({ Success: 'sent' }),
    });
    await paste('Username', 'u'.repeat(TEXT_MAX.username + 1));
    await userEvent.keyboard('{Enter}');
    expect(await screen.findByText(MSG.usernameTooLong)).toBeInTheDocument();
    expect(calls.map((c) => c.path)).not.toContain('user.reset_password_email');
  });
});
