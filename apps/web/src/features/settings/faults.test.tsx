/**
 * Spec §8 fallbacks of Settings → Security that the browser suite does not reach (the email change
 * needs a member without a subscription, the OTP request's two messages). MockFailure('', 500) is
 * an answer without the server's words; status 0 is a request that got no answer.
 */
import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MSG } from '@md/shared';
import { MockFailure, type MockHandlers } from '@/testing/mock-link.ts';
import { renderSignedIn } from '@/testing/member.ts';

const failing = (status: number) => () => {
  throw new MockFailure('', status);
};

async function security(handlers: MockHandlers) {
  renderSignedIn('/dashboard/settings', handlers, { Subscription: false });
  await userEvent.click(await screen.findByRole('tab', { name: 'Security' }, { timeout: 5000 }));
}

async function requestPasswordChange() {
  await userEvent.type(screen.getByLabelText('Current Password'), 'Demo@1234');
  await userEvent.type(screen.getByLabelText('New Password'), 'Brand#New99');
  await userEvent.type(screen.getByLabelText('Confirm New Password'), 'Brand#New99');
  await userEvent.click(screen.getByRole('button', { name: 'Change Password' }));
}

describe('Settings → Security under faults', () => {
  it("the password-change OTP request: 'OTP verification failed' without words, 'Failed to send OTP' with no answer", async () => {
    let status = 500;
    await security({ 'user.verify_otp': () => failing(status)() });
    await requestPasswordChange();
    expect(await screen.findByText(MSG.otpVerificationFailed)).toBeInTheDocument();
    status = 0;
    await userEvent.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(await screen.findByText(MSG.failedSendOtp)).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it("the password change itself: 'Password change failed' without words, the longer message with no answer", async () => {
    let status = 500;
    await security({
      'user.verify_otp': () => ({ Success: MSG.otpSent }),
      'user.change_password': () => failing(status)(),
    });
    await requestPasswordChange();
    await userEvent.type(await screen.findByLabelText('OTP'), '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText(MSG.passwordChangeFailed)).toBeInTheDocument();
    status = 0;
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText(MSG.passwordChangeError)).toBeInTheDocument();
    // Still signed in: only a successful change signs out.
    expect(localStorage.getItem('jwt')).toBe('jwt-1');
  });

  it("the email change: 'Failed to send OTP' for the request, 'Verification failed' for the code", async () => {
    let requestFails = true;
    await security({
      'user.change_email_request': () => (requestFails ? failing(500)() : { Success: MSG.otpSent }),
      'user.change_email': failing(500),
    });
    await userEvent.type(screen.getByLabelText('New Email'), 'new@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Send OTP' }));
    expect(await screen.findByText(MSG.failedSendOtp)).toBeInTheDocument();
    requestFails = false;
    await userEvent.click(screen.getByRole('button', { name: 'Send OTP' }));
    await userEvent.type(await screen.findByLabelText('OTP'), '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Verify Email' }));
    expect(await screen.findByText(MSG.verificationFailed)).toBeInTheDocument();
  });
});
