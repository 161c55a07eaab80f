import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClientProvider } from '@tanstack/react-query';
import { ThemeProvider } from '@/components/ui/theme-provider.tsx';
import { I18nProvider } from '@/lib/i18n/i18n.tsx';
import { englishI18n, testI18n } from '@/testing/i18n.ts';
import { bootFallback } from './boot-messages.ts';
import { OfflineStart, OnlineOnly } from './offline.tsx';
import { createQueryClient } from './providers.tsx';

function setOnline(online: boolean) {
  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(online);
  act(() => void window.dispatchEvent(new Event(online ? 'online' : 'offline')));
}

describe('the offline screen while running', () => {
  afterEach(() => vi.restoreAllMocks());

  it('covers the routes without unmounting them: what was typed survives a blip, and the reads are fetched again', async () => {
    const queryClient = createQueryClient();
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    render(
      <I18nProvider initial={englishI18n}>
        <ThemeProvider>
          <QueryClientProvider client={queryClient}>
            <OnlineOnly>
              <label>
                Amount
                <input />
              </label>
            </OnlineOnly>
          </QueryClientProvider>
        </ThemeProvider>
      </I18nProvider>,
    );
    await userEvent.type(screen.getByRole('textbox', { name: 'Amount' }), '12.5');

    setOnline(false);
    expect(screen.getByTestId('offline-screen')).toBeInTheDocument();
    // Hidden and inert: neither seen nor reachable while offline.
    expect(screen.queryByRole('textbox', { name: 'Amount' })).toBeNull();
    expect(screen.getByTestId('routes')).toHaveAttribute('inert');

    setOnline(true);
    expect(screen.queryByTestId('offline-screen')).toBeNull();
    expect(screen.getByRole('textbox', { name: 'Amount' })).toHaveValue('12.5');
    expect(invalidate).toHaveBeenCalledTimes(1);
  });

  it('speaks the member’s language (Arabic), and is drawn before any catalog with English built in', () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    const { unmount } = render(
      <I18nProvider initial={testI18n('ar')}>
        <ThemeProvider>
          <OfflineStart retry={() => undefined} />
        </ThemeProvider>
      </I18nProvider>,
    );
    expect(screen.getByRole('heading', { name: 'أنت غير متصل بالإنترنت' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'إعادة المحاولة' })).toBeInTheDocument();
    // No language menu offline: another language's catalogs may not be reachable.
    expect(screen.queryByTestId('language-select')).toBeNull();
    unmount();

    render(
      <I18nProvider initial={bootFallback()}>
        <ThemeProvider>
          <OfflineStart retry={() => undefined} />
        </ThemeProvider>
      </I18nProvider>,
    );
    expect(screen.getByRole('heading', { name: 'You are offline' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Toggle theme' })).toBeInTheDocument();
  });
});
