import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MSG } from '@md/shared';
import { MockFailure } from '@/testing/mock-link.ts';
import { callsTo, loadPageBeforeTests, renderSignedIn } from '@/testing/member.ts';

const LIST = 'notification.view_notification';
const notices = (page: number) =>
  Array.from({ length: 20 }, (_, i) => ({
    Message: `Notice ${page}-${i + 1}`,
    DateTime: '2026-03-05T10:20:00',
    TransID: `N${page}-${i + 1}`,
    Type: 'ROI',
  }));
/** Two frames and a task: the header's bell, which reads the same first page, has woken by then. */
const afterBellWakes = () =>
  new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 50))));
const pager = () => screen.queryByRole('navigation', { name: 'Pagination' });

describe('Notifications page', () => {
  loadPageBeforeTests(() => import('./notifications.tsx'));

  it('a failed read stays Unavailable with no pager: the bell waking does not ask it again', async () => {
    const { calls } = renderSignedIn('/dashboard/notification', {
      [LIST]: () => {
        throw new MockFailure('Bad gateway', 502);
      },
      'notification.total_view_notification': () => ({ Success: 45 }),
    });
    await screen.findByRole('button', { name: 'Retry: Notifications' });
    const asked = callsTo(calls, LIST).length;
    await afterBellWakes();
    expect(callsTo(calls, LIST)).toHaveLength(asked);
    expect(screen.getByRole('button', { name: 'Retry: Notifications' })).toBeInTheDocument();
    expect(screen.queryByText(MSG.loading)).toBeNull();
    expect(pager()).toBeNull();
  });

  it('the pager waits for the list, and stays with the page shown while the next one loads', async () => {
    let answerPage2!: () => void;
    renderSignedIn('/dashboard/notification', {
      [LIST]: (input) => {
        const page = Number(input.page_no);
        if (page === 1) return { Success: notices(1) };
        return new Promise((resolve) => (answerPage2 = () => resolve({ Success: notices(page) })));
      },
      'notification.total_view_notification': () => ({ Success: 45 }),
    });
    await screen.findByText('Notice 1-1');
    const nav = pager()!;
    expect(
      within(nav)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Previous', '1', '2', '3', 'Next']);
    fireEvent.click(within(nav).getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(answerPage2).toBeTypeOf('function'));
    // Page 1 and the pager stay while page 2 is asked for; no Loading… in between.
    expect(screen.getByText('Notice 1-1')).toBeInTheDocument();
    expect(pager()).not.toBeNull();
    expect(screen.queryByText(MSG.loading)).toBeNull();
    answerPage2();
    await screen.findByText('Notice 2-1');
    expect(screen.queryByText('Notice 1-1')).toBeNull();
    expect(within(pager()!).getByRole('button', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');
  });
});
