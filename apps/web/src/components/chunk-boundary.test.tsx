import { Suspense } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ThemeProvider } from '@/components/ui/theme-provider.tsx';
import { ChunkLoadError, loadChunk } from '@/lib/chunk-load.ts';
import { I18nProvider } from '@/lib/i18n/i18n.tsx';
import { englishI18n } from '@/testing/i18n.ts';
import { ChunkBoundary, CHUNK_ERROR_TITLE, retryingLazy } from './chunk-boundary.tsx';

const loaded = { default: () => <p>The screen</p> };
const failure = () => new TypeError('Failed to fetch dynamically imported module: /assets/x.js');

describe('loading a lazy chunk', () => {
  it('tries again after each pause, then fails with a ChunkLoadError', async () => {
    const load = vi.fn(() => Promise.reject(failure()));
    const error = await loadChunk(load, [1, 1]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChunkLoadError);
    expect(load).toHaveBeenCalledTimes(3);
  });

  it('answers with the first try that loads', async () => {
    const load = vi.fn().mockRejectedValueOnce(failure()).mockResolvedValue(loaded);
    expect(await loadChunk(load, [1, 1])).toBe(loaded);
    expect(load).toHaveBeenCalledTimes(2);
  });
});

describe('a screen whose chunk cannot be loaded', () => {
  it('shows the message with Retry and Reload after its tries, and Retry loads it once it can', async () => {
    let online = false;
    const load = vi.fn(() => (online ? Promise.resolve(loaded) : Promise.reject(failure())));
    const Screen = retryingLazy(load, 'page');
    render(
      <I18nProvider initial={englishI18n}>
        <ThemeProvider>
          <Suspense fallback={<p>Loading</p>}>
            <Screen />
          </Suspense>
        </ThemeProvider>
      </I18nProvider>,
    );
    expect(await screen.findByRole('heading', { name: CHUNK_ERROR_TITLE })).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(3);
    expect(screen.getByRole('button', { name: 'Reload' })).toBeInTheDocument();
    online = true;
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('The screen')).toBeInTheDocument();
    expect(screen.queryByTestId('chunk-error')).toBeNull();
  });

  it('leaves any other error to the boundary above: a bug is not a connection problem', () => {
    const Broken = () => {
      throw new Error('a bug');
    };
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(() =>
      render(
        <ChunkBoundary fallback={<p>chunk failed</p>}>
          <Broken />
        </ChunkBoundary>,
      ),
    ).toThrow('a bug');
    vi.mocked(console.error).mockRestore();
  });
});
