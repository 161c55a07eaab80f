/**
 * The header's notifications bell (issue 15 item 5): how many came since the member last opened the
 * list (a marker on this device: lib/notifications-seen.ts), and a popover with the latest few and a
 * link to the Notifications page. Opening it clears the count. Its call starts after the header's
 * first paint, so no page waits for it.
 */
import { useEffect, useState } from 'react';
import { Badge, Box, Button, Float, IconButton, Popover, Portal, Stack, Text } from '@chakra-ui/react';
import { Link } from 'react-router';
import { LuBell } from 'react-icons/lu';
import { MSG, formatDateTime, humanizeType } from '@md/shared';
import { textOf } from '@/lib/guards.ts';
import { countUnread, markNotificationsSeen, useLatestNotifications, useSeenMarker } from '@/lib/notifications-seen.ts';
import { useAfterFirstPaint } from '@/lib/use-after-first-paint.ts';

/** How many the popover lists; the rest are on the Notifications page. */
export const BELL_LATEST = 5;
export const NOTIFICATIONS_PATH = '/dashboard/notification';

export const bellLabel = (count: number, more: boolean) => (count > 0 ? `Notifications, ${count}${more ? '+' : ''} unread` : 'Notifications');

export function NotificationBell({ username }: { username: string }) {
  const painted = useAfterFirstPaint();
  const { entries, loading } = useLatestNotifications(painted && username !== '');
  const marker = useSeenMarker(username);
  const { count, more } = countUnread(entries, marker);
  const [open, setOpen] = useState(false);
  // How many were new when the member opened it: those stay marked "New" while it is open.
  const [newOnOpen, setNewOnOpen] = useState(0);
  const newest = entries[0];

  // Open means seen: the newest one becomes the marker (also when it arrives while open).
  useEffect(() => {
    if (open) markNotificationsSeen(username, newest);
  }, [open, newest, username]);

  const label = bellLabel(count, more);
  return (
    <Popover.Root
      open={open}
      onOpenChange={(details) => {
        if (details.open) setNewOnOpen(count);
        setOpen(details.open);
      }}
      positioning={{ placement: 'bottom-end' }}
      lazyMount
      unmountOnExit
    >
      <Popover.Trigger asChild>
        <IconButton aria-label={label} title={label} variant="ghost" size="sm" position="relative" data-testid="notification-bell">
          <LuBell />
          {count > 0 && (
            <Float placement="top-end" offset="1.5">
              <Badge size="xs" variant="solid" colorPalette="red" borderRadius="full" minW="4" justifyContent="center" px="1" aria-hidden="true">
                {count > 99 ? '99+' : `${count}${more ? '+' : ''}`}
              </Badge>
            </Float>
          )}
        </IconButton>
      </Popover.Trigger>
      <Portal>
        <Popover.Positioner>
          {/* Named outright: the title's aria-labelledby link did not reach axe (aria-dialog-name). */}
          <Popover.Content w={{ base: 'calc(100vw - 1rem)', sm: 'sm' }} maxW="sm" aria-label="Notifications">
            {/* Not Popover.Header: its <header> would be a second banner landmark on the page. */}
            <Box px="4" pt="3">
              <Popover.Title fontWeight="semibold">Notifications</Popover.Title>
            </Box>
            <Popover.Body py="2">
              {loading ? (
                <Text color="fg.muted">{MSG.loading}</Text>
              ) : entries.length === 0 ? (
                <Text color="fg.muted">{MSG.noNotifications}</Text>
              ) : (
                <Stack as="ul" gap="0" listStyleType="none" m="0" p="0" aria-label="Latest notifications" data-testid="bell-latest">
                  {entries.slice(0, BELL_LATEST).map((entry, index) => (
                    <Box as="li" key={`${textOf(entry.TransID)}-${index}`} py="2" borderBottomWidth={index < Math.min(entries.length, BELL_LATEST) - 1 ? '1px' : '0'}>
                      <Stack direction="row" gap="2" align="center" mb="0.5" flexWrap="wrap">
                        <Badge colorPalette="teal" textTransform="capitalize" size="sm">
                          {humanizeType(textOf(entry.Type))}
                        </Badge>
                        {index < newOnOpen && (
                          <Badge colorPalette="red" variant="subtle" size="sm">
                            New
                          </Badge>
                        )}
                        <Text fontSize="xs" color="fg.muted" ms="auto" whiteSpace="nowrap">
                          {formatDateTime(entry.DateTime)}
                        </Text>
                      </Stack>
                      <Text fontSize="sm" lineClamp={2}>
                        {textOf(entry.Message)}
                      </Text>
                    </Box>
                  ))}
                </Stack>
              )}
            </Popover.Body>
            <Popover.Footer>
              <Button asChild size="sm" variant="outline" w="full">
                <Link to={NOTIFICATIONS_PATH} onClick={() => setOpen(false)}>
                  View all notifications
                </Link>
              </Button>
            </Popover.Footer>
          </Popover.Content>
        </Popover.Positioner>
      </Portal>
    </Popover.Root>
  );
}
