/**
 * Timeline (/dashboard/timeline, spec §2). With the server's `activity` capability it shows the
 * member's real recent activity; otherwise (the real provider has no such call) the spec's five
 * static sample activities.
 */
import { Stack, Text } from '@chakra-ui/react';
import { useQuery } from '@tanstack/react-query';
import { ACTIVITY_LIMIT, MSG, type Activity } from '@md/shared';
import { PageHeader } from '@/components/page-header.tsx';
import { EXTRA_ROUTES } from '@/components/shell/nav-items.ts';
import { hasCapability, useConfig } from '@/lib/config.tsx';
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
  const trpc = useTRPC();
  const recent = useQuery(trpc['activity.view_recent'].queryOptions({ limit: ACTIVITY_LIMIT }));
  if (recent.isPending) return <Text color="fg.muted">{MSG.loading}</Text>;
  // A failed fetch is silent like the spec's other activity fetches (§8): the empty state shows.
  return <ActivityList items={(recent.data?.Success ?? []).map(toItem)} />;
}

export default function TimelinePage() {
  const config = useConfig();
  return (
    <Stack gap="6">
      <PageHeader route={route} />
      {hasCapability(config, 'activity') ? <RecentActivity /> : <ActivityList items={SAMPLE_ACTIVITIES} />}
    </Stack>
  );
}
