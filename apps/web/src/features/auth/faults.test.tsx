/**
 * Spec §8 fallbacks of the public screens that the browser suite does not reach: a failure
 * without the server's words shows the call's fallback, no answer at all the screen's own message.
 * MockFailure('', 500) is an answer without words; status 0 is a request that got no answer.
 */
import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MSG } from '@md/shared';
import { MockFailure } from '@/testing/mock-link.ts';
import { renderApp } from '@/testing/render.tsx';

const NO_WORDS = () => {
  throw new MockFailure('', 500);
};
const NO_ANSWER = () => {
  throw new MockFailure('', 0);
};

const registration = {
  'user.view_country': () => ({ Success: ['United Kingdom'] }),
  'user.check_username_available': (input: Record<string, unknown>) => ({
    Status: input.username !== 'demo',
  }),
};

async function fillRegistration() {
  await userEvent.type(await screen.findByLabelText('Username'), 'newbie');
  await userEvent.type(screen.getByLabelText('Full Name'), 'New Member');
  await userEvent.type(screen.getByLabelText('Email'), 'new@example.com');
  await userEvent.type(screen.getByLabelText('Password'), 'Secret@123');
  await userEvent.type(screen.getByLabelText('Confirm Password'), 'Secret@123');
  const submit = screen.getByRole('button', { name: 'Create Account' });
  await waitFor(() => expect(submit).toBeEnabled(), { timeout: 3000 });
  return submit;
}

describe('public screens under faults', () => {
  it("registration: the OTP request without words is 'OTP verification failed', with no answer 'Failed to send OTP'", async () => {
    let answer = NO_WORDS;
    renderApp('/register?sponsor=demo&side=left', { ...registration, 'user.verify_otp': () => answer() });
    const submit = await fillRegistration();
    await userEvent.click(submit);
    expect(await screen.findByText(MSG.otpVerificationFailed)).toBeInTheDocument();
    answer = NO_ANSWER;
    await userEvent.click(submit);
    expect(await screen.findByText(MSG.failedSendOtp)).toBeInTheDocument();
    // Still on step 1.
    expect(screen.getByLabelText('Full Name')).toHaveValue('New Member');
  });

  it("an invalid sponsor link toasts 'Invalid sponsor' beside the long message", async () => {
    renderApp('/register?sponsor=demo&side=left', {
      ...registration,
      'user.check_username_available': () => ({ Status: true }),
    });
    expect(await screen.findByText(MSG.invalidSponsorLong)).toBeInTheDocument();
    expect(await screen.findByText(MSG.invalidSponsor)).toBeInTheDocument();
  });

  it("an answer without a boolean Status is 'Username check failed' (and the sponsor cannot be validated)", async () => {
    renderApp('/register?sponsor=demo&side=left', {
      ...registration,
      'user.check_username_available': () => ({ Success: null }),
    });
    expect(await screen.findByText(MSG.failedValidateSponsor)).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Username'), 'newbie');
    expect(await screen.findByText(MSG.usernameCheckFailed, {}, { timeout: 3000 })).toBeInTheDocument();
  });

  it("a sign-in answer whose JWT is not text is 'Invalid response'", async () => {
    renderApp('/', {
      'user.view_country': () => ({ Success: false }),
      'user.login': () => ({ Success: 'Login successful!', JWT: 42 }),
    });
    await userEvent.type(await screen.findByLabelText('Username'), 'demo');
    await userEvent.type(screen.getByLabelText('Password'), 'Demo@1234');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText(MSG.invalidResponse)).toBeInTheDocument();
    expect(localStorage.getItem('jwt')).toBeNull();
  });

  it("password reset: 'Failed to get OTP' without words; 'An unexpected error occurred' with no answer", async () => {
    let answer = NO_WORDS;
    renderApp('/forgot-password', { 'user.reset_password_email': () => answer() });
    await userEvent.type(await screen.findByLabelText('Username'), 'demo');
    await userEvent.click(screen.getByRole('button', { name: 'Send OTP' }));
    expect(await screen.findByText(MSG.failedGetOtp)).toBeInTheDocument();
    answer = NO_ANSWER;
    await userEvent.click(screen.getByRole('button', { name: 'Send OTP' }));
    expect(await screen.findByText(MSG.unexpectedError)).toBeInTheDocument();
  });

  it("forgot username: 'An error occurred' without words", async () => {
    renderApp('/forgot-username', { 'user.forgot_username': NO_WORDS });
    await userEvent.type(await screen.findByLabelText('Email'), 'demo@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Request Username' }));
    expect(await screen.findByText(MSG.anErrorOccurred)).toBeInTheDocument();
  });
});
