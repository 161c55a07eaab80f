/**
 * A failed read's Unavailable and Retry, drawn with the first screen's classes: Retry names what it
 * asks again, and while that read is in flight it is disabled, marked loading (the spinner over its
 * hidden label, as Chakra's Button) and keeps its name.
 */
import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { TestProviders } from '@/testing/providers.tsx';
import { testConfig } from '@/testing/render.tsx';
import { Unavailable } from './unavailable.tsx';

const draw = (retrying: boolean, onRetry = vi.fn()) => {
  render(
    <TestProviders config={testConfig}>
      <Unavailable what="Wallets Overview" onRetry={onRetry} retrying={retrying} />
    </TestProviders>,
  );
  return onRetry;
};

describe('Unavailable', () => {
  it('says Unavailable, never a figure, and Retry asks the read again', async () => {
    const onRetry = draw(false);
    expect(screen.getByTestId('unavailable')).toHaveTextContent('Unavailable');
    const retry = screen.getByRole('button', { name: 'Retry: Wallets Overview' });
    expect(retry).toBeEnabled();
    expect(retry).not.toHaveAttribute('data-loading');
    expect(retry.querySelector('.fs-loading-spinner')).toBeNull();
    await userEvent.click(retry);
    expect(onRetry).toHaveBeenCalledTimes(1);
  });

  it('while retrying: disabled, marked loading with a spinner over its hidden label, its name kept', async () => {
    const onRetry = draw(true);
    const retry = screen.getByRole('button', { name: 'Retry: Wallets Overview' });
    expect(retry).toBeDisabled();
    expect(retry).toHaveAttribute('data-loading');
    expect(retry.querySelector('.fs-loading-centre .fs-loading-spinner')).not.toBeNull();
    expect(retry.querySelector('.fs-loading-label')).toHaveTextContent('Retry');
    await userEvent.click(retry);
    expect(onRetry).not.toHaveBeenCalled();
  });
});
