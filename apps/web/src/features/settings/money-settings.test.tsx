import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MSG } from '@md/shared';
import { MockFailure, type MockHandlers } from '@/testing/mock-link.ts';
import { callsTo, renderSignedIn } from '@/testing/member.ts';

const ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';

async function openTab(name: string, handlers: MockHandlers, profile = {}) {
  const utils = renderSignedIn('/dashboard/settings', handlers, profile);
  await userEvent.click(await screen.findByRole('tab', { name }, { timeout: 5000 }));
  return utils;
}

describe('Settings → transaction password', () => {
  it('validates the password with the spec messages', async () => {
    await openTab('Security', {});
    await userEvent.click(screen.getByRole('button', { name: 'Set Transaction Password' }));
    expect(await screen.findByText(MSG.enterTransactionPassword)).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Transaction Password'), 'abcdef');
    await userEvent.click(screen.getByRole('button', { name: 'Set Transaction Password' }));
    expect(await screen.findByText(MSG.transactionPasswordCriteria)).toBeInTheDocument();
  });

  it('a first-time create completes at step 0 and refreshes the profile', async () => {
    const { calls } = await openTab('Security', {
      'user.reset_transaction_password': () => ({ Success: 'Transaction password set', OTP_Sent: false }),
    });
    const profileLoads = callsTo(calls, 'user.view_profile').length;
    await userEvent.type(screen.getByLabelText('Transaction Password'), 'Txn@123');
    await userEvent.click(screen.getByRole('button', { name: 'Set Transaction Password' }));
    expect(await screen.findByText('Transaction password set')).toBeInTheDocument();
    expect(screen.queryByLabelText('OTP')).toBeNull();
    await waitFor(() => expect(callsTo(calls, 'user.view_profile').length).toBeGreaterThan(profileLoads));
  });

  it('a reset sends an OTP, asks for 6 digits and verifies', async () => {
    const { calls } = await openTab(
      'Security',
      {
        'user.reset_transaction_password': () => ({ Success: 'OTP sent to your email', OTP_Sent: true }),
        'user.verify_transaction_password': (input) => {
          if (input.otp !== '123456') throw new MockFailure('');
          return { Success: 'Transaction password updated' };
        },
      },
      { Transaction_Password: true },
    );
    await userEvent.type(screen.getByLabelText('Transaction Password'), 'New@456');
    await userEvent.click(screen.getByRole('button', { name: 'Reset Transaction Password' }));
    const otp = await screen.findByLabelText('OTP');
    await userEvent.type(otp, '123');
    await userEvent.click(screen.getByRole('button', { name: 'Verify OTP' }));
    expect(await screen.findByText(MSG.enterOtp6)).toBeInTheDocument();
    await userEvent.type(otp, '999');
    await userEvent.click(screen.getByRole('button', { name: 'Verify OTP' }));
    expect(await screen.findByText(MSG.failedVerifyTransactionPassword)).toBeInTheDocument();
    await userEvent.clear(otp);
    await userEvent.type(otp, '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Verify OTP' }));
    expect(await screen.findByText('Transaction password updated')).toBeInTheDocument();
    expect(callsTo(calls, 'user.verify_transaction_password').at(-1)?.input).toEqual({
      password: 'New@456',
      otp: '123456',
    });
  });

  it("toasts 'Failed to send OTP' when step 0 fails without a message", async () => {
    await openTab('Security', {
      'user.reset_transaction_password': () => {
        throw new MockFailure('');
      },
    });
    await userEvent.type(screen.getByLabelText('Transaction Password'), 'Txn@123');
    await userEvent.click(screen.getByRole('button', { name: 'Set Transaction Password' }));
    expect(await screen.findByText(MSG.failedSendOtp)).toBeInTheDocument();
  });
});

describe('Settings → wallet address', () => {
  afterEach(() => vi.unstubAllGlobals());
  const stubCheck = (status: number) => {
    const fetchMock = vi.fn(async () => new Response('{}', { status }));
    vi.stubGlobal('fetch', fetchMock);
    return fetchMock;
  };

  it('requires an address in BEP.20 format and blocks spaces', async () => {
    await openTab('Wallet Address', {}, { Wallet_Details: { Wallet_Address: ADDRESS, Network: 'BEP.20' } });
    expect(screen.getByTestId('wallet-address')).toHaveTextContent('0x5290...9EE7');
    await userEvent.click(screen.getByRole('button', { name: 'Save Address' }));
    expect(await screen.findByText(MSG.enterWalletAddress)).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Wallet Address'), '0x12 34');
    expect(screen.getByLabelText('Wallet Address')).toHaveValue('0x1234');
    await userEvent.click(screen.getByRole('button', { name: 'Save Address' }));
    expect(await screen.findByText(MSG.invalidWalletAddress)).toBeInTheDocument();
    expect(screen.getByLabelText('Network')).toHaveValue('BEP.20');
  });

  it("a 500 from the address check says 'Please try again later'; other failures say invalid", async () => {
    const fetchMock = stubCheck(500);
    const { calls } = await openTab('Wallet Address', {});
    await userEvent.type(screen.getByLabelText('Wallet Address'), ADDRESS);
    await userEvent.click(screen.getByRole('button', { name: 'Save Address' }));
    expect(await screen.findByText(MSG.tryAgainLater)).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledWith(expect.stringContaining(ADDRESS), expect.anything());
    stubCheck(404);
    await userEvent.click(screen.getByRole('button', { name: 'Save Address' }));
    expect(await screen.findByText(MSG.invalidWalletAddress)).toBeInTheDocument();
    expect(callsTo(calls, 'wallet.update_wallet_address')).toHaveLength(0);
  });

  it('shows the server error from update_wallet_address as a toast', async () => {
    stubCheck(200);
    await openTab('Wallet Address', {
      'wallet.update_wallet_address': () => {
        throw new MockFailure('Address checksum is invalid');
      },
    });
    await userEvent.type(screen.getByLabelText('Wallet Address'), ADDRESS);
    await userEvent.click(screen.getByRole('button', { name: 'Save Address' }));
    expect(await screen.findByText('Address checksum is invalid')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('saves through the OTP dialog, which stays open on failure', async () => {
    stubCheck(200);
    let attempts = 0;
    const { calls } = await openTab('Wallet Address', {
      'wallet.update_wallet_address': () => ({ Success: 'OTP sent to your email' }),
      'wallet.wallet_address_verification': () => {
        attempts += 1;
        if (attempts === 1) throw new MockFailure('');
        return { Success: 'Wallet address updated' };
      },
    });
    await userEvent.type(screen.getByLabelText('Wallet Address'), ADDRESS);
    await userEvent.click(screen.getByRole('button', { name: 'Save Address' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText('OTP'), '12345');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Verify' }));
    expect(await within(dialog).findByText(MSG.enterOtp6)).toBeInTheDocument();
    await userEvent.type(within(dialog).getByLabelText('OTP'), '6');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Verify' }));
    expect(await within(dialog).findByText(MSG.somethingWentWrong)).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Wallet address updated')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(callsTo(calls, 'wallet.wallet_address_verification').at(-1)?.input).toEqual({
      address: ADDRESS,
      network: 'BEP.20',
      otp: '123456',
    });
  });
});
