/**
 * Timeline (/dashboard/timeline, spec §2). With the server's `activity` capability it shows the
 * member's real recent activity; otherwise (the real provider has no such call) the spec's five
 * static sample activities.
 */
import { useMemo } from 'react';
import { Stack, Text } from '@chakra-ui/react';
import { useQuery } from '@tanstack/react-query';
import { ACTIVITY_LIMIT, MSG, type Activity } from '@md/shared';
import { PageHeader } from '@/components/page-header.tsx';
import { EXTRA_ROUTES } from '@/components/shell/nav-items.ts';
import { hasCapability, useConfig } from '@/lib/config.tsx';
import { useMessageText, useT } from '@/lib/i18n/i18n.tsx';
import { useTRPC } from '@/lib/trpc.ts';
import { ActivityList, type ActivityItem } from './activity-list.tsx';
import { SAMPLE_ACTIVITIES } from './sample-activities.ts';

const route = EXTRA_ROUTES.find((r) => r.path === '/dashboard/timeline')!;

const toItem = (activity: Activity, index: number): ActivityItem => ({
  // TransIDs repeat (a withdrawal's request and approval), so the position keeps keys unique.
  id: `${activity.TransID ?? activity.Type}-${index}`,
  title: activity.Title,
  description: activity.Description,
  dateTime: activity.DateTime,
});

function RecentActivity() {
  const messageText = useMessageText();
  const trpc = useTRPC();
  const recent = useQuery(trpc['activity.view_recent'].queryOptions({ limit: ACTIVITY_LIMIT }));
  // The server writes each activity's words (in English): shown as sent.
  if (recent.isPending) return <Text color="fg.muted">{messageText(MSG.loading)}</Text>;
  // A failed fetch is silent like the spec's other activity fetches (§8): the empty state shows.
  return <ActivityList items={(recent.data?.Success ?? []).map(toItem)} />;
}

function SampleActivities() {
  const t = useT();
  const items = useMemo<ActivityItem[]>(
    () =>
      SAMPLE_ACTIVITIES.map((sample) => ({
        ...sample,
        title: t(sample.title),
        description: t(sample.description),
      })),
    [t],
  );
  return <ActivityList items={items} />;
}

export default function TimelinePage() {
  const served = hasCapability(useConfig(), 'activity');
  return (
    <Stack gap="6">
      <PageHeader route={route} />
      {served ? <RecentActivity /> : <SampleActivities />}
    </Stack>
  );
}
