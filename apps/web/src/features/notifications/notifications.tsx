/** Notifications (/dashboard/notification): 20 per page with Previous, Next and numbered pages. */
import { useEffect, useState } from 'react';
import { Badge, Box, Button, Card, HStack, Stack, Text } from '@chakra-ui/react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { MSG, NOTIFICATIONS_PAGE_SIZE, clampPage, localizeNoticeTimes, type Notification } from '@md/shared';
import { PageHeader } from '@/components/page-header.tsx';
import { navItemByPath } from '@/components/shell/nav-items.ts';
import { capitalizeUnknown, useNotificationType } from '@/components/shell/notification-type.ts';
import { Unavailable } from '@/components/unavailable.tsx';
import { useAuth } from '@/lib/auth.tsx';
import { listOf, numberOf, recordOf, textOf } from '@/lib/guards.ts';
import { useFormat, useMessageText, useT } from '@/lib/i18n/i18n.tsx';
import { markNotificationsSeen } from '@/lib/notifications-seen.ts';
import { useTRPC } from '@/lib/trpc.ts';

/** Page numbers around the current one, so long histories stay one row wide. */
export function visiblePages(current: number, total: number, span = 2): number[] {
  const start = Math.max(1, Math.min(current - span, total - span * 2));
  const end = Math.min(total, start + span * 2);
  return Array.from({ length: end - start + 1 }, (_, i) => start + i);
}

export default function NotificationsPage() {
  const trpc = useTRPC();
  const t = useT();
  const f = useFormat();
  const messageText = useMessageText();
  const typeName = useNotificationType();
  const [page, setPage] = useState(1);
  const item = navItemByPath('/dashboard/notification')!;
  const list = useQuery({
    ...trpc['notification.view_notification'].queryOptions({
      page_no: page,
      page_size: NOTIFICATIONS_PAGE_SIZE,
      pageNo: page,
      pageSize: NOTIFICATIONS_PAGE_SIZE,
    }),
    // The page shown stays, pager included, while the next one loads.
    placeholderData: keepPreviousData,
  });
  const total = useQuery(trpc['notification.total_view_notification'].queryOptions({}));
  // Both fetches fail silently (spec §8): no entries, one page. Only numbers and object entries are read.
  const totalPages = Math.max(
    1,
    Math.ceil((numberOf(recordOf(total.data)?.Success) ?? 0) / NOTIFICATIONS_PAGE_SIZE),
  );
  const go = (target: number) => setPage(clampPage(target, totalPages));
  const entries = listOf<Partial<Notification>>(recordOf(list.data)?.Success);
  // A failed or unreadable answer (Success no list) is not an empty list: Unavailable and Retry, no pager.
  const failed = list.isError || (list.data !== undefined && !Array.isArray(recordOf(list.data)?.Success));
  // Seeing the first page clears the header bell's count: its first entry is the newest.
  const username = useAuth().user?.username ?? '';
  const newest = page === 1 && !list.isPlaceholderData ? entries[0] : undefined;
  useEffect(() => markNotificationsSeen(username, newest), [username, newest]);

  return (
    <Stack gap="6">
      <PageHeader route={item} />
      {failed ? (
        <Unavailable
          what={t('notifications.title')}
          onRetry={() => void list.refetch()}
          retrying={list.isFetching}
        />
      ) : list.isPending ? (
        <Text color="fg.muted">{messageText(MSG.loading)}</Text>
      ) : entries.length === 0 ? (
        <Text color="fg.muted">{messageText(MSG.noNotifications)}</Text>
      ) : (
        <Stack as="ul" gap="3" listStyleType="none" m="0" p="0" aria-label={t('notifications.title')}>
          {entries.map((entry, index) => (
            <Card.Root as="li" key={`${textOf(entry.TransID)}-${index}`} size="sm" variant="outline">
              <Card.Body>
                <HStack justify="space-between" align="start" gap="3" flexWrap="wrap">
                  <Box minW="0">
                    <Badge colorPalette="teal" mb="1" textTransform={capitalizeUnknown(textOf(entry.Type))}>
                      {typeName(textOf(entry.Type))}
                    </Badge>
                    {/* The notice's words are the server's (data): shown as sent. */}
                    <Text data-provider-text>{localizeNoticeTimes(textOf(entry.Message), f)}</Text>
                  </Box>
                  <Text fontSize="sm" color="fg.muted" whiteSpace="nowrap">
                    {f.dateTime(entry.DateTime)}
                  </Text>
                </HStack>
              </Card.Body>
            </Card.Root>
          ))}
        </Stack>
      )}
      {/* The pager goes with a list that came: not beside Loading… or Unavailable. */}
      {!failed && list.isSuccess && (
        <HStack as="nav" aria-label={t('notifications.pagination')} gap="2" flexWrap="wrap" justify="center">
          <Button size="sm" variant="outline" onClick={() => go(page - 1)} disabled={page <= 1}>
            {t('common.previous')}
          </Button>
          {visiblePages(page, totalPages).map((n) => (
            <Button
              key={n}
              size="sm"
              variant={n === page ? 'solid' : 'outline'}
              colorPalette={n === page ? 'teal' : 'gray'}
              aria-current={n === page ? 'page' : undefined}
              aria-label={t('notifications.page', { n })}
              onClick={() => go(n)}
            >
              {n}
            </Button>
          ))}
          <Button size="sm" variant="outline" onClick={() => go(page + 1)} disabled={page >= totalPages}>
            {t('common.next')}
          </Button>
        </HStack>
      )}
    </Stack>
  );
}
