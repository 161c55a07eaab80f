import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MSG, PASSWORD_CHECKLIST } from '@md/shared';
import { renderApp } from '@/testing/render.tsx';

const TAKEN = new Set(['demo', 'alice']);
const handlers = {
  'user.view_country': () => ({ Success: ['United Kingdom', 'France'] }),
  // Status true = the name is free; a sponsor is valid when it exists (Status false).
  'user.check_username_available': (input: Record<string, unknown>) => {
    const name = String(input.username);
    return TAKEN.has(name)
      ? { Status: false, Success: 'Username already taken' }
      : { Status: true, Success: 'Username available' };
  },
};

describe('registration', () => {
  it('locks a valid sponsor from the query and loads countries with the first as default', async () => {
    renderApp('/register?sponsor=demo&side=left', handlers);
    const sponsor = await screen.findByLabelText('Sponsor');
    expect(sponsor).toHaveValue('demo');
    expect(sponsor).toHaveAttribute('readonly');
    await waitFor(() =>
      expect(screen.getByRole('combobox', { name: 'Country' })).toHaveValue('United Kingdom'),
    );
    // side comes from the query: no Side choice
    expect(screen.queryByLabelText('Side')).not.toBeInTheDocument();
  });

  it('replaces the form when the sponsor from the query does not exist', async () => {
    renderApp('/register?sponsor=nobody&side=right', handlers);
    expect(await screen.findByText(MSG.invalidSponsorLong)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Back to Login' })).toBeInTheDocument();
    expect(screen.queryByLabelText('Username')).not.toBeInTheDocument();
  });

  it('shows live availability, red when taken, and keeps submit disabled', async () => {
    renderApp('/register?sponsor=demo&side=left', handlers);
    await userEvent.type(await screen.findByLabelText('Username'), 'Alice');
    // On a loaded machine the typing outlasts the debounce: a prefix ('ali') may be answered
    // available first; the name as typed must end up taken.
    // Read again at each try: the hint is drawn anew after each check ('Checking…' in between).
    const hint = () => screen.getByTestId('username-availability');
    await waitFor(() => expect(hint()).toHaveTextContent('Username already taken'), { timeout: 5000 });
    expect(hint().className).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Create Account' })).toBeDisabled();
  });

  it('ticks the password checklist as rules are met, and enables submit when everything holds', async () => {
    renderApp('/register?sponsor=demo&side=left', handlers);
    const checklist = await screen.findByRole('list', { name: 'Password requirements' });
    const items = within(checklist).getAllByRole('listitem');
    expect(items).toHaveLength(PASSWORD_CHECKLIST.length);
    expect(items.every((item) => item.dataset.met === 'false')).toBe(true);

    await userEvent.type(screen.getByLabelText('Password'), 'abcdefgh');
    const after = within(screen.getByRole('list', { name: 'Password requirements' })).getAllByRole(
      'listitem',
    );
    expect(after[0]).toHaveAttribute('data-met', 'true');
    expect(after[1]).toHaveAttribute('data-met', 'false');
    await userEvent.type(screen.getByLabelText('Password'), 'A1!');
    expect(
      within(screen.getByRole('list', { name: 'Password requirements' }))
        .getAllByRole('listitem')
        .every((item) => item.dataset.met === 'true'),
    ).toBe(true);

    await userEvent.type(screen.getByLabelText('Username'), 'newbie');
    await userEvent.type(screen.getByLabelText('Full Name'), 'New Member');
    await userEvent.type(screen.getByLabelText('Email'), 'new@example.com');
    await userEvent.type(screen.getByLabelText('Confirm Password'), 'abcdefghA1!');
    expect(await screen.findByText('Username available', {}, { timeout: 2000 })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Create Account' })).toBeEnabled());
  });

  it('rejects a username made only of digits', async () => {
    renderApp('/register?sponsor=demo&side=left', handlers);
    await userEvent.type(await screen.findByLabelText('Username'), '12345');
    expect(await screen.findByText(MSG.usernameOnlyNumbers)).toBeInTheDocument();
  });

  it('sends the OTP, then registers with every field and goes back keeping values', async () => {
    const { calls } = renderApp('/register?sponsor=demo&side=left', {
      ...handlers,
      'user.verify_otp': () => ({ Success: 'OTP sent' }),
    });
    await userEvent.type(await screen.findByLabelText('Username'), 'Newbie');
    await userEvent.type(screen.getByLabelText('Full Name'), 'New Member');
    await userEvent.type(screen.getByLabelText('Email'), 'new@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'Secret@123');
    await userEvent.type(screen.getByLabelText('Confirm Password'), 'Secret@123');
    const submit = screen.getByRole('button', { name: 'Create Account' });
    await waitFor(() => expect(submit).toBeEnabled(), { timeout: 2000 });
    await userEvent.click(submit);
    expect(await screen.findByLabelText('OTP')).toBeInTheDocument();
    expect(calls.find((c) => c.path === 'user.verify_otp')?.input).toEqual({
      page: 'Email Verification',
      username: 'newbie',
      email: 'new@example.com',
      project: 'Pro',
    });
    await userEvent.click(screen.getByRole('button', { name: 'Verify & Register' }));
    expect(await screen.findByText(MSG.otpRequired)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(await screen.findByLabelText('Full Name')).toHaveValue('New Member');
  });

  it("registers with the OTP, toasts 'Registration successful' and opens the dashboard", async () => {
    const { router } = renderApp('/register?sponsor=demo&side=left', {
      ...handlers,
      'user.verify_otp': () => ({ Success: 'OTP sent' }),
      'user.register': () => ({ Success: 'Registered', JWT: 'jwt-new' }),
      'user.view_profile': () => ({
        Success: [{ Username: 'newbie', Name: 'New Member', Email: 'new@example.com' }],
      }),
    });
    await userEvent.type(await screen.findByLabelText('Username'), 'newbie');
    await userEvent.type(screen.getByLabelText('Full Name'), 'New Member');
    await userEvent.type(screen.getByLabelText('Email'), 'new@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'Secret@123');
    await userEvent.type(screen.getByLabelText('Confirm Password'), 'Secret@123');
    const submit = screen.getByRole('button', { name: 'Create Account' });
    await waitFor(() => expect(submit).toBeEnabled(), { timeout: 3000 });
    await userEvent.click(submit);
    await userEvent.type(await screen.findByLabelText('OTP'), '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Verify & Register' }));
    expect(await screen.findByText(MSG.registrationSuccessful)).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(localStorage.getItem('jwt')).toBe('jwt-new');
  });
});

describe('registration fields', () => {
  afterEach(() => vi.restoreAllMocks());
  const countries = ['Afghanistan', 'France', 'Germany', 'United Kingdom', 'United States'];
  const withCountries = { ...handlers, 'user.view_country': () => ({ Success: countries }) };

  it("says 'Sponsor is required' without a sponsor in the link, once the member starts on the form", async () => {
    renderApp('/register', handlers);
    const sponsor = await screen.findByLabelText('Sponsor');
    expect(sponsor).not.toHaveAttribute('readonly');
    // Nothing is shouted at a member who has not begun.
    expect(screen.queryByText(MSG.sponsorRequired)).toBeNull();
    await userEvent.type(screen.getByLabelText('Full Name'), 'New Member');
    expect(await screen.findByText(MSG.sponsorRequired)).toBeInTheDocument();
    expect(sponsor).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('button', { name: 'Create Account' })).toBeDisabled();
    await userEvent.type(sponsor, 'demo');
    await waitFor(() => expect(screen.queryByText(MSG.sponsorRequired)).toBeNull());
  });

  it("says 'Sponsor is required' when the member leaves the empty sponsor field", async () => {
    renderApp('/register', handlers);
    await userEvent.click(await screen.findByLabelText('Sponsor'));
    await userEvent.tab();
    expect(await screen.findByText(MSG.sponsorRequired)).toBeInTheDocument();
  });

  it('shows a sponsor from the link as read-only, and says where it comes from', async () => {
    renderApp('/register?sponsor=demo&side=right', handlers);
    const sponsor = await screen.findByLabelText('Sponsor');
    expect(sponsor).toHaveAttribute('readonly');
    expect(sponsor).toHaveAccessibleDescription(expect.stringContaining('Set by your invitation link'));
    // Typing changes nothing.
    await userEvent.type(sponsor, 'x');
    expect(sponsor).toHaveValue('demo');
    expect(screen.queryByText(MSG.sponsorRequired)).toBeNull();
  });

  it('names only the rules the registration password has (no lowercase letter)', async () => {
    renderApp('/register?sponsor=demo&side=left', handlers);
    const password = await screen.findByLabelText('Password');
    await userEvent.type(password, 'short');
    await userEvent.tab();
    const message = await screen.findByText(MSG.registrationPasswordCriteria);
    expect(message.textContent).not.toMatch(/lowercase/i);
    // Every rule it names is a checklist rule: an all-uppercase password that meets them passes.
    await userEvent.clear(password);
    await userEvent.type(password, 'SECRET@123');
    await waitFor(() => expect(screen.queryByText(MSG.registrationPasswordCriteria)).toBeNull());
  });

  it("defaults the country to the browser's region when the list has it", async () => {
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['de-DE', 'en']);
    renderApp('/register?sponsor=demo&side=left', withCountries);
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Country' })).toHaveValue('Germany'));
  });

  it('defaults to the first country when the browser names no region', async () => {
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['en']);
    renderApp('/register?sponsor=demo&side=left', withCountries);
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Country' })).toHaveValue('Afghanistan'));
  });

  it('finds a country by typing part of its name and registers with it', async () => {
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['en']);
    const { calls } = renderApp('/register?sponsor=demo&side=left', {
      ...withCountries,
      'user.verify_otp': () => ({ Success: 'OTP sent' }),
      'user.register': () => ({ Success: 'Registered', JWT: 'jwt-new' }),
      'user.view_profile': () => ({
        Success: [{ Username: 'newbie', Name: 'New Member', Email: 'new@example.com' }],
      }),
    });
    const country = await screen.findByRole('combobox', { name: 'Country' });
    await waitFor(() => expect(country).toHaveValue('Afghanistan'));
    await userEvent.clear(country);
    // A key at a time, each landing before the next (the combobox writes the input after an event).
    let typed = '';
    for (const key of 'king') {
      await userEvent.keyboard(key);
      typed += key;
      await waitFor(() => expect(country).toHaveValue(typed));
    }
    const listbox = await screen.findByRole('listbox', { name: 'Country' });
    await waitFor(() =>
      expect(
        within(listbox)
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual(['United Kingdom']),
    );
    await userEvent.click(within(listbox).getByRole('option', { name: 'United Kingdom' }));
    await waitFor(() => expect(country).toHaveValue('United Kingdom'));

    await userEvent.type(screen.getByLabelText('Username'), 'newbie');
    await userEvent.type(screen.getByLabelText('Full Name'), 'New Member');
    await userEvent.type(screen.getByLabelText('Email'), 'new@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'Secret@123');
    await userEvent.type(screen.getByLabelText('Confirm Password'), 'Secret@123');
    const submit = screen.getByRole('button', { name: 'Create Account' });
    await waitFor(() => expect(submit).toBeEnabled(), { timeout: 3000 });
    await userEvent.click(submit);
    await userEvent.type(await screen.findByLabelText('OTP'), '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Verify & Register' }));
    await waitFor(() =>
      expect(calls.find((c) => c.path === 'user.register')?.input).toMatchObject({
        country: 'United Kingdom',
      }),
    );
  }, 40_000);
});
