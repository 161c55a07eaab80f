/**
 * The QA panel's chunk, loaded when QA is first pressed: when it cannot be fetched (after the
 * chunk loader's own tries) the page stays as it was, a toast says so, and the next press loads it.
 */
import { expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { TestProviders } from '@/testing/providers.tsx';
import { createMockClient } from '@/testing/mock-link.ts';
import { testConfig } from '@/testing/render.tsx';
import { QA_PANEL_LOAD_FAILED } from './index.tsx';

const chunk = vi.hoisted(() => ({ reachable: false, loads: 0 }));
vi.mock('./qa-panel.tsx', () => {
  chunk.loads += 1;
  if (!chunk.reachable) throw new TypeError('Failed to fetch dynamically imported module');
  return {
    default: ({ open }: { open: boolean }) => (open ? <div role="dialog" aria-label="QA panel" /> : null),
  };
});

it('a panel chunk that cannot be fetched leaves the page, says so, and the next press loads it', async () => {
  const user = userEvent.setup();
  render(
    <TestProviders config={{ ...testConfig, capabilities: ['qa'] }} trpcClient={createMockClient({}, [])}>
      <p>Member page</p>
    </TestProviders>,
  );
  await user.click(await screen.findByRole('button', { name: 'QA panel' }));
  expect(await screen.findByText(QA_PANEL_LOAD_FAILED, {}, { timeout: 5_000 })).toBeInTheDocument();
  // The loader's tries, then nothing more until the member asks again.
  expect(chunk.loads).toBeGreaterThanOrEqual(1);
  expect(screen.getByText('Member page')).toBeInTheDocument();
  expect(screen.queryByRole('dialog', { name: 'QA panel' })).toBeNull();

  chunk.reachable = true;
  await user.click(screen.getByRole('button', { name: 'QA panel' }));
  expect(await screen.findByRole('dialog', { name: 'QA panel' })).toBeInTheDocument();
});
