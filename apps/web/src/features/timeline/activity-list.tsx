/** A list of account activities on a timeline, or the spec's empty state when there are none. */
import { EmptyState, Text, Timeline } from '@chakra-ui/react';
import { LuActivity, LuInbox } from 'react-icons/lu';
import { MSG, formatDateTime } from '@md/shared';

export interface ActivityItem {
  id: string;
  title: string;
  description: string;
  /** ISO-8601 date-time. */
  dateTime: string;
}

export function ActivityList({ items }: { items: readonly ActivityItem[] }) {
  if (items.length === 0) {
    return (
      <EmptyState.Root borderWidth="1px" borderRadius="md" bg="bg.panel">
        <EmptyState.Content>
          <EmptyState.Indicator>
            <LuInbox />
          </EmptyState.Indicator>
          <EmptyState.Title as="h2">{MSG.noActivities}</EmptyState.Title>
          <EmptyState.Description>{MSG.activitiesAppearHere}</EmptyState.Description>
        </EmptyState.Content>
      </EmptyState.Root>
    );
  }
  return (
    <Timeline.Root
      as="ol"
      aria-label="Activities"
      size="lg"
      variant="subtle"
      listStyleType="none"
      m="0"
      p="0"
    >
      {items.map((item) => (
        <Timeline.Item as="li" key={item.id}>
          <Timeline.Connector>
            <Timeline.Separator />
            <Timeline.Indicator colorPalette="teal">
              <LuActivity />
            </Timeline.Indicator>
          </Timeline.Connector>
          <Timeline.Content pb="6" minW="0">
            <Timeline.Title as="h2" fontSize="md" fontWeight="semibold">
              {item.title}
            </Timeline.Title>
            <Timeline.Description as="div">
              <time dateTime={item.dateTime}>{formatDateTime(item.dateTime)}</time>
            </Timeline.Description>
            <Text color="fg" overflowWrap="anywhere">
              {item.description}
            </Text>
          </Timeline.Content>
        </Timeline.Item>
      ))}
    </Timeline.Root>
  );
}
