/** A list of account activities on a timeline, or the spec's empty state when there are none. */
import { EmptyState, Text, Timeline } from '@chakra-ui/react';
import { LuActivity, LuInbox } from 'react-icons/lu';
import { localizeNoticeTimes, MSG } from '@md/shared';
import { useFormat, useMessageText, useT } from '@/lib/i18n/i18n.tsx';

export interface ActivityItem {
  id: string;
  title: string;
  description: string;
  /** ISO-8601 date-time. */
  dateTime: string;
}

export function ActivityList({ items }: { items: readonly ActivityItem[] }) {
  const t = useT();
  const f = useFormat();
  const messageText = useMessageText();
  if (items.length === 0) {
    return (
      <EmptyState.Root borderWidth="1px" borderRadius="md" bg="bg.panel">
        <EmptyState.Content>
          <EmptyState.Indicator>
            <LuInbox />
          </EmptyState.Indicator>
          <EmptyState.Title as="h2">{messageText(MSG.noActivities)}</EmptyState.Title>
          <EmptyState.Description>{messageText(MSG.activitiesAppearHere)}</EmptyState.Description>
        </EmptyState.Content>
      </EmptyState.Root>
    );
  }
  return (
    <Timeline.Root
      as="ol"
      aria-label={t('history.timeline.activities')}
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
            <Timeline.Title as="h2" fontSize="md" fontWeight="semibold" data-provider-text>
              {item.title}
            </Timeline.Title>
            <Timeline.Description as="div">
              <time dateTime={item.dateTime}>{f.dateTime(item.dateTime)}</time>
            </Timeline.Description>
            <Text color="fg" overflowWrap="anywhere" data-provider-text>
              {localizeNoticeTimes(item.description, f)}
            </Text>
          </Timeline.Content>
        </Timeline.Item>
      ))}
    </Timeline.Root>
  );
}
