import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MSG } from '@md/shared';
import { MockFailure } from '@/testing/mock-link.ts';
import { renderApp } from '@/testing/render.tsx';

describe('sign-in form', () => {
  it('shows the spec messages for empty fields and toasts the form error', async () => {
    renderApp('/', { 'user.view_country': () => ({ Success: false }) });
    await userEvent.click(await screen.findByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText(MSG.usernameRequired)).toBeInTheDocument();
    expect(screen.getByText(MSG.passwordRequired)).toBeInTheDocument();
    expect(await screen.findByText(MSG.fixFormErrors)).toBeInTheDocument();
  });

  it('rejects short passwords and invalid characters', async () => {
    renderApp('/', { 'user.view_country': () => ({ Success: false }) });
    await userEvent.type(await screen.findByLabelText('Username'), 'bad name!');
    await userEvent.type(screen.getByLabelText('Password'), '12345');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText(MSG.invalidCharacters)).toBeInTheDocument();
    expect(screen.getByText(MSG.passwordMin6)).toBeInTheDocument();
  });

  it('blocks cut on the login inputs', async () => {
    renderApp('/');
    const username = await screen.findByLabelText('Username');
    const allowed = fireEvent.cut(username);
    expect(allowed).toBe(false);
  });

  it('asks for TOTP only when the server says the member has it on', async () => {
    renderApp('/', { 'user.view_country': (input) => ({ Success: input.username === 'demo2fa' }) });
    const username = await screen.findByLabelText('Username');
    await userEvent.type(username, 'demo');
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(screen.queryByLabelText('TOTP')).not.toBeInTheDocument();
    await userEvent.type(username, '2fa');
    expect(await screen.findByLabelText('TOTP', {}, { timeout: 2000 })).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Password'), 'Demo@1234');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText(MSG.totpRequired)).toBeInTheDocument();
  });

  it("shows the TOTP field when sign-in answers 'TOTP is required' although the lookup failed, then sends the code", async () => {
    const logins: Record<string, unknown>[] = [];
    renderApp('/', {
      'user.view_country': () => {
        throw new MockFailure('Server down', 500);
      },
      'user.login': (input) => {
        logins.push(input);
        if (!input.totp) throw new MockFailure(MSG.totpRequired, 401);
        return { Success: 'Login successful!', JWT: 'jwt-1' };
      },
    });
    await userEvent.type(await screen.findByLabelText('Username'), 'demo2fa');
    await userEvent.type(screen.getByLabelText('Password'), 'Demo@1234');
    // The lookup's failure is toasted in the server's words.
    expect(await screen.findByText('Server down', {}, { timeout: 3000 })).toBeInTheDocument();
    expect(screen.queryByLabelText('TOTP')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    const totp = await screen.findByLabelText('TOTP');
    await waitFor(() => expect(totp).toHaveFocus());
    // The field is required now: an empty submit says so and sends nothing.
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findAllByText(MSG.totpRequired)).not.toHaveLength(0);
    expect(logins).toHaveLength(1);
    await userEvent.type(totp, '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    await waitFor(() => expect(logins).toHaveLength(2));
    expect(logins[1]).toMatchObject({ username: 'demo2fa', totp: '123456' });
    // Another name is another member: the field goes until the server asks again.
    await userEvent.type(screen.getByLabelText('Username'), 'x');
    await waitFor(() => expect(screen.queryByLabelText('TOTP')).not.toBeInTheDocument());
  });

  it("a lookup failing with only its status line is toasted as 'Failed to check TOTP status'; the server's 'TOTP is required' then shows at the field, not as a second toast", async () => {
    renderApp('/', {
      'user.view_country': () => {
        throw new MockFailure('Internal Server Error', 500);
      },
      'user.login': () => {
        throw new MockFailure(MSG.totpRequired, 401);
      },
    });
    const toasts = () =>
      Array.from(document.querySelectorAll('[data-scope="toast"][data-part="root"]')).map(
        (toast) => toast.textContent ?? '',
      );
    await userEvent.type(await screen.findByLabelText('Username'), 'demo2fa');
    await userEvent.type(screen.getByLabelText('Password'), 'Demo@1234');
    expect(await screen.findByText(MSG.failedCheckTotp, {}, { timeout: 3000 })).toBeInTheDocument();
    expect(screen.queryByText('Internal Server Error')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    await screen.findByLabelText('TOTP');
    const said = await screen.findByText(MSG.totpRequired);
    expect(said.closest('[data-scope="toast"]')).toBeNull();
    expect(toasts().join('\n')).not.toContain(MSG.totpRequired);
  });

  it('signs in, stores the session and opens the dashboard', async () => {
    const { router } = renderApp('/', {
      'user.view_country': () => ({ Success: false }),
      'user.login': () => ({ Success: 'Login successful!', JWT: 'jwt-1' }),
      'user.view_profile': () => ({
        Success: [
          {
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
          },
        ],
      }),
    });
    await userEvent.type(await screen.findByLabelText('Username'), 'demo');
    await userEvent.type(screen.getByLabelText('Password'), 'Demo@1234');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(localStorage.getItem('jwt')).toBe('jwt-1');
    expect(JSON.parse(localStorage.getItem('user')!)).toEqual({
      username: 'demo',
      avatar: 'Default',
      name: 'Demo Member',
      email: 'demo@example.com',
    });
    expect(await screen.findByText(MSG.loginSuccessful)).toBeInTheDocument();
    expect(
      await screen.findByRole('heading', { name: 'Welcome, demo' }, { timeout: 5000 }),
    ).toBeInTheDocument();
  });

  it("toasts the server's error", async () => {
    renderApp('/', {
      'user.view_country': () => ({ Success: false }),
      'user.login': () => {
        throw new (class extends Error {})('Invalid username or password');
      },
    });
    await userEvent.type(await screen.findByLabelText('Username'), 'demo');
    await userEvent.type(screen.getByLabelText('Password'), 'Wrong@123');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText(/Invalid username or password/)).toBeInTheDocument();
  });

  it('sends one sign-in for a burst of submits in one frame (Enter twice, Enter and a click)', async () => {
    const { calls } = renderApp('/', {
      'user.view_country': () => ({ Success: false }),
      'user.login': () => {
        throw new (class extends Error {})('Invalid username or password');
      },
    });
    await userEvent.type(await screen.findByLabelText('Username'), 'demo');
    await userEvent.type(screen.getByLabelText('Password'), 'Wrong@123');
    const form = screen.getByRole('button', { name: 'Sign In' }).closest('form')!;
    // Before React renders the disabled button: five submits in one task.
    for (let i = 0; i < 5; i++) fireEvent.submit(form);
    expect(await screen.findByText(/Invalid username or password/)).toBeInTheDocument();
    expect(calls.filter((c) => c.path === 'user.login')).toHaveLength(1);
  });
});
