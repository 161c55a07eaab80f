/**
 * The header's notifications bell: how many came since the member last opened the
 * list (a marker on this device: lib/notifications-seen.ts), and a menu with the latest few and a
 * link to the Notifications page. Opening it clears the count. Its call starts after the header's
 * first paint, so no page waits for it.
 */
import { useEffect, useState } from 'react';
import { Badge, Float, IconButton, Menu, Portal, Stack, Text } from '@chakra-ui/react';
import { Link } from 'react-router';
import { LuBell } from 'react-icons/lu';
import { localizeNoticeTimes, MSG } from '@md/shared';
import { textOf } from '@/lib/guards.ts';
import { useFormat, useMessageText, useT } from '@/lib/i18n/i18n.tsx';
import {
  countUnread,
  markNotificationsSeen,
  useLatestNotifications,
  useSeenMarker,
} from '@/lib/notifications-seen.ts';
import { useAfterFirstPaint } from '@/lib/use-after-first-paint.ts';
import { capitalizeUnknown, useNotificationType } from './notification-type.ts';

/** How many the popover lists; the rest are on the Notifications page. */
export const BELL_LATEST = 5;
export const NOTIFICATIONS_PATH = '/dashboard/notification';

/** The bell's name: how many are unread ('5+' when more may have come than the latest read). */
export const bellLabel = (t: ReturnType<typeof useT>, count: number, more: boolean) =>
  count > 0 ? t('shell.bell.unread', { count, more: String(more) }) : t('shell.bell.title');

export function NotificationBell({ username }: { username: string }) {
  const t = useT();
  const f = useFormat();
  const messageText = useMessageText();
  const typeName = useNotificationType();
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

  const label = bellLabel(t, count, more);
  const latest = entries.slice(0, BELL_LATEST);
  return (
    // A menu (its recipe is in the trimmed system; a popover's would add to the sign-in route): Enter
    // opens it, arrows walk the latest ones, Escape closes and focus goes back to the bell.
    <Menu.Root
      open={open}
      onOpenChange={(details) => {
        if (details.open) setNewOnOpen(count);
        setOpen(details.open);
      }}
      positioning={{ placement: 'bottom-end' }}
      lazyMount
      unmountOnExit
    >
      <Menu.Trigger asChild>
        <IconButton
          aria-label={label}
          title={label}
          variant="ghost"
          size="sm"
          position="relative"
          data-testid="notification-bell"
        >
          <LuBell />
          {count > 0 && (
            <Float placement="top-end" offset="1.5">
              <Badge
                size="xs"
                variant="solid"
                colorPalette="red"
                borderRadius="full"
                minW="4"
                justifyContent="center"
                px="1"
                aria-hidden="true"
              >
                {count > 99 ? '99+' : `${count}${more ? '+' : ''}`}
              </Badge>
            </Float>
          )}
        </IconButton>
      </Menu.Trigger>
      <Portal>
        <Menu.Positioner>
          <Menu.Content
            w={{ base: 'calc(100vw - 1rem)', sm: 'sm' }}
            maxW="sm"
            aria-label={t('shell.bell.title')}
            data-testid="bell-latest"
          >
            <Menu.ItemGroup>
              <Menu.ItemGroupLabel fontSize="sm">{t('shell.bell.title')}</Menu.ItemGroupLabel>
              {latest.length === 0 && (
                <Text px="2" py="1.5" fontSize="sm" color="fg.muted">
                  {messageText(loading ? MSG.loading : MSG.noNotifications)}
                </Text>
              )}
              {latest.map((entry, index) => (
                <Menu.Item
                  key={`${textOf(entry.TransID)}-${index}`}
                  value={`notification-${index}`}
                  asChild
                  display="block"
                  py="2"
                >
                  <Link to={NOTIFICATIONS_PATH}>
                    <Stack direction="row" gap="2" align="center" mb="0.5" flexWrap="wrap">
                      <Badge
                        colorPalette="teal"
                        size="sm"
                        textTransform={capitalizeUnknown(textOf(entry.Type))}
                      >
                        {typeName(textOf(entry.Type))}
                      </Badge>
                      {index < newOnOpen && (
                        <Badge colorPalette="red" variant="subtle" size="sm">
                          {t('shell.bell.new')}
                        </Badge>
                      )}
                      <Text as="span" fontSize="xs" color="fg.muted" ms="auto" whiteSpace="nowrap">
                        {f.dateTime(entry.DateTime)}
                      </Text>
                    </Stack>
                    <Text fontSize="sm" lineClamp={2} whiteSpace="normal" data-provider-text>
                      {localizeNoticeTimes(textOf(entry.Message), f)}
                    </Text>
                  </Link>
                </Menu.Item>
              ))}
            </Menu.ItemGroup>
            <Menu.Separator />
            <Menu.Item value="all" asChild justifyContent="center" fontWeight="medium" color="teal.fg">
              <Link to={NOTIFICATIONS_PATH}>{t('shell.bell.viewAll')}</Link>
            </Menu.Item>
          </Menu.Content>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  );
}
