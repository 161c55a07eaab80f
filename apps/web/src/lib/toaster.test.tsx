import { describe, expect, it } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import { Toaster } from '@/components/ui/toaster.tsx';
import { I18nProvider } from '@/lib/i18n/i18n.tsx';
import { englishI18n } from '@/testing/i18n.ts';
import { toaster } from './toast-store.ts';
import { notify, SERVER_UNREACHABLE_TITLE, toastsShown } from './toaster.ts';

const errorTitles = () =>
  toaster
    .getVisibleToasts()
    .filter((toast) => toast.type === 'error')
    .map((toast) => toast.title);

describe('error toasts, once per cause', () => {
  it('does not stack the same words again while they are on screen', async () => {
    render(
      <I18nProvider initial={englishI18n}>
        <Toaster />
      </I18nProvider>,
    );
    notify.error('Failed to get profile');
    notify.error('Failed to get profile');
    await toastsShown();
    expect(errorTitles()).toEqual(['Failed to get profile']);
  });

  it('says once that the server cannot be reached, carrying the calls’ own messages before and after it', async () => {
    render(
      <I18nProvider initial={englishI18n}>
        <Toaster />
      </I18nProvider>,
    );
    notify.error('Failed to fetch from-wallets');
    notify.serverUnreachable();
    notify.error('Failed to fetch to-wallets');
    notify.serverUnreachable();
    notify.error('Failed to fetch to-wallets');
    await toastsShown();
    expect(errorTitles()).toEqual([SERVER_UNREACHABLE_TITLE]);
    await waitFor(() =>
      expect(screen.getByTestId('toast-details')).toHaveTextContent(
        'Failed to fetch from-walletsFailed to fetch to-wallets',
      ),
    );
    expect(screen.getByText(/Check your connection/)).toBeInTheDocument();
  });
});
