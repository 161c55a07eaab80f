import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MSG, RESET_THROTTLE_MS } from '@md/shared';
import { MockFailure } from '@/testing/mock-link.ts';
import { renderApp } from '@/testing/render.tsx';

const sent = { Success: 'If the username exists, a code was sent to its email' };

async function reachCodeStep(handlers: Parameters<typeof renderApp>[1]) {
  const result = renderApp('/forgot-password', handlers);
  await userEvent.type(await screen.findByLabelText('Username'), ' Demo ');
  await userEvent.click(screen.getByRole('button', { name: 'Send OTP' }));
  await screen.findByLabelText('OTP');
  return result;
}

describe('forgot password: the code step', () => {
  afterEach(() => vi.restoreAllMocks());

  it('has Back, which returns to the username step with the name kept', async () => {
    await reachCodeStep({ 'user.reset_password_email': () => sent });
    await userEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(await screen.findByLabelText('Username')).toHaveValue('demo');
    expect(screen.queryByLabelText('OTP')).toBeNull();
  });

  it("has Resend, held for the server's 10 s throttle, then sending the same name again", async () => {
    const { calls } = await reachCodeStep({ 'user.reset_password_email': () => sent });
    const sends = () => calls.filter((c) => c.path === 'user.reset_password_email');
    expect(sends()).toHaveLength(1);
    const resend = screen.getByRole('button', { name: /^Resend code in \d+ s$/ });
    expect(resend).toBeDisabled();
    // The throttle has passed (the clock moves on; the button follows at its next tick).
    const now = Date.now();
    vi.spyOn(Date, 'now').mockReturnValue(now + RESET_THROTTLE_MS + 1);
    const ready = await screen.findByRole('button', { name: 'Resend code' }, { timeout: 3000 });
    await userEvent.click(ready);
    await waitFor(() => expect(sends()).toHaveLength(2));
    expect(sends()[1]!.input).toEqual({ username: 'demo' });
    // Sent again: held again.
    expect(await screen.findByRole('button', { name: /^Resend code in \d+ s$/ })).toBeDisabled();
    expect(screen.getByLabelText('OTP')).toBeInTheDocument();
  });

  it("shows the server's throttle warning when a resend is refused", async () => {
    let refuse = false;
    await reachCodeStep({
      'user.reset_password_email': () => {
        if (refuse) throw new MockFailure(MSG.resetThrottle, 429);
        return sent;
      },
    });
    refuse = true;
    vi.spyOn(Date, 'now').mockReturnValue(Date.now() + RESET_THROTTLE_MS + 1);
    await userEvent.click(await screen.findByRole('button', { name: 'Resend code' }, { timeout: 3000 }));
    expect(await screen.findByText(MSG.resetThrottle)).toBeInTheDocument();
    // Still on the code step.
    expect(screen.getByLabelText('OTP')).toBeInTheDocument();
  });
});
