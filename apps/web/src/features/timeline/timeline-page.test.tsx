import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { ACTIVITY_LIMIT, MSG, createFormatters, deviceTimeZone, type Activity } from '@md/shared';
import { TestProviders } from '@/testing/providers.tsx';
import { callsTo, renderSignedIn } from '@/testing/member.ts';
import { createMockClient, MockFailure, type MockHandlers } from '@/testing/mock-link.ts';
import { testConfig } from '@/testing/render.tsx';
import { englishI18n } from '@/testing/i18n.ts';
import type { MessageId } from '@/lib/i18n/catalog-types.ts';
import { ActivityList } from './activity-list.tsx';
import { SAMPLE_ACTIVITIES } from './sample-activities.ts';
import TimelinePage from './timeline-page.tsx';

function renderTimeline(capabilities: string[], handlers: MockHandlers = {}) {
  const calls: { path: string; input: unknown }[] = [];
  render(
    <TestProviders config={{ ...testConfig, capabilities }} trpcClient={createMockClient(handlers, calls)}>
      <MemoryRouter>
        <TimelinePage />
      </MemoryRouter>
    </TestProviders>,
  );
  return { calls };
}

/** Times as the member reads them: in their zone, the zone named. */
const formatDateTime = createFormatters('en', deviceTimeZone()).dateTime;
const english = (id: MessageId) => englishI18n.messages[id] as string;

const entries = () => within(screen.getByRole('list', { name: 'Activities' })).getAllByRole('listitem');
const expectEmptyState = async () => {
  expect(await screen.findByRole('heading', { name: MSG.noActivities })).toBeInTheDocument();
  expect(screen.getByText(MSG.activitiesAppearHere)).toBeInTheDocument();
};

describe('Timeline page', () => {
  it('is the /dashboard/timeline route and shows the five sample activities without the activity capability', async () => {
    const { calls } = renderSignedIn('/dashboard/timeline');
    expect(await screen.findByRole('heading', { name: 'Timeline', level: 1 })).toBeInTheDocument();
    const items = entries();
    expect(SAMPLE_ACTIVITIES).toHaveLength(5);
    expect(items).toHaveLength(5);
    SAMPLE_ACTIVITIES.forEach((sample, i) => {
      const item = items[i]!;
      expect(within(item).getByRole('heading', { name: english(sample.title) })).toBeInTheDocument();
      expect(item).toHaveTextContent(english(sample.description));
      // Date and time, in the spec's format.
      expect(item.querySelector('time')).toHaveTextContent(formatDateTime(sample.dateTime));
      expect(item.querySelector('time')!.textContent).toMatch(/^[A-Z][a-z]{2} \d{2}, \d{4} \d{2}:\d{2} \S+$/);
    });
    expect(callsTo(calls, 'activity.view_recent')).toEqual([]);
  });

  it("shows the member's real activity with the activity capability", async () => {
    const activities: Activity[] = [
      {
        Title: 'Support message sent',
        Description: '"Upgrade" (reference SP1). We will reply to demo@example.com.',
        DateTime: '2026-11-02T10:00:00.000Z',
        Type: 'Support_Message',
        TransID: 'SP1',
      },
      {
        Title: 'Wallet swap',
        Description: 'You moved $1.00 from your ROI wallet to your Withdrawal wallet.',
        DateTime: '2026-11-01T09:00:00.000Z',
        Type: 'swap',
        TransID: 'SW1',
      },
    ];
    const { calls } = renderTimeline(['activity'], {
      'activity.view_recent': () => ({ Success: activities }),
    });
    expect(await screen.findByRole('heading', { name: 'Support message sent' })).toBeInTheDocument();
    const items = entries();
    expect(items).toHaveLength(2);
    expect(items[1]).toHaveTextContent('You moved $1.00 from your ROI wallet to your Withdrawal wallet.');
    expect(items[1]!.querySelector('time')).toHaveTextContent(formatDateTime(activities[1]!.DateTime));
    expect(screen.queryByText(english(SAMPLE_ACTIVITIES[0]!.title))).toBeNull();
    expect(callsTo(calls, 'activity.view_recent').map((call) => call.input)).toEqual([
      { limit: ACTIVITY_LIMIT },
    ]);
  });

  it('shows the empty state when the member has no activity yet', async () => {
    renderTimeline(['activity'], { 'activity.view_recent': () => ({ Success: [] }) });
    await expectEmptyState();
  });

  it('keeps a failed activity fetch quiet: the empty state, no sample data', async () => {
    renderTimeline(['activity'], {
      'activity.view_recent': () => {
        throw new MockFailure('Internal error', 500);
      },
    });
    await expectEmptyState();
    expect(screen.queryByText(english(SAMPLE_ACTIVITIES[0]!.title))).toBeNull();
  });

  it('the list alone shows the empty state for no items', async () => {
    render(
      <TestProviders config={testConfig}>
        <ActivityList items={[]} />
      </TestProviders>,
    );
    await expectEmptyState();
  });
});
