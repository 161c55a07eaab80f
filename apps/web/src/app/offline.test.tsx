import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClientProvider } from '@tanstack/react-query';
import { ThemeProvider } from '@/components/ui/theme-provider.tsx';
import { OnlineOnly } from './offline.tsx';
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
      <ThemeProvider>
        <QueryClientProvider client={queryClient}>
          <OnlineOnly>
            <label>
              Amount
              <input />
            </label>
          </OnlineOnly>
        </QueryClientProvider>
      </ThemeProvider>,
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
});
