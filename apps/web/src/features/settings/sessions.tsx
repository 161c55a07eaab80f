/**
 * Security → Signed-in devices. With the server's `sessions` capability (an extension: the real
 * provider has no such calls) it lists the member's sessions (device, address, last seen) with
 * "Sign out" on each other one and "Sign out all other devices"; without it, it says plainly that
 * the list is not offered. A failed read shows Unavailable with Retry, never an empty list.
 */
import { useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { Badge, Box, Button, HStack, Stack, Text } from '@chakra-ui/react';
import { useQuery } from '@tanstack/react-query';
import { MSG, type Session } from '@md/shared';
import { SectionCard } from '@/components/section-card.tsx';
import { Unavailable } from '@/components/unavailable.tsx';
import { hasCapability, useConfig } from '@/lib/config.tsx';
import { errorMessage } from '@/lib/errors.ts';
import { recordOf, textOf } from '@/lib/guards.ts';
import { useFormat, useMessageText, useT } from '@/lib/i18n/i18n.tsx';
import { notify } from '@/lib/toaster.ts';
import { useTRPC, useTRPCClient } from '@/lib/trpc.ts';

/** The fragment the avatar menu's Sessions links to (Settings opens Security for it). */
export const SESSIONS_ANCHOR = 'sessions';

function SessionRow({
  session,
  busy,
  onSignOut,
}: {
  session: Session;
  busy: boolean;
  onSignOut: () => void;
}) {
  const t = useT();
  const f = useFormat();
  // Times in the member's zone, the zone named.
  const lastSeen = f.dateTime(session.Last_Seen);
  return (
    <HStack
      as="li"
      justify="space-between"
      align="flex-start"
      gap="3"
      py="3"
      borderBottomWidth="1px"
      _last={{ borderBottomWidth: 0 }}
      flexWrap="wrap"
    >
      <Box minW="0" flex="1">
        <HStack gap="2" flexWrap="wrap">
          <Text fontWeight="medium" overflowWrap="anywhere" data-provider-text>
            {session.Device}
          </Text>
          {session.Current && (
            <Badge colorPalette="teal" variant="subtle">
              {t('settings.sessions.thisDevice')}
            </Badge>
          )}
        </HStack>
        <Text color="fg.muted" fontSize="sm" overflowWrap="anywhere">
          {t('settings.sessions.details', {
            address: session.Address ?? t('settings.sessions.unknownAddress'),
            lastSeen,
            signedIn: f.dateTime(session.Created_On),
          })}
        </Text>
      </Box>
      {!session.Current && (
        <Button
          size="sm"
          variant="outline"
          colorPalette="red"
          loading={busy}
          onClick={onSignOut}
          aria-label={t('settings.sessions.signOutDevice', { device: session.Device, lastSeen })}
        >
          {t('settings.sessions.signOut')}
        </Button>
      )}
    </HStack>
  );
}

function SessionList() {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const sessions = useQuery(trpc['user.view_sessions'].queryOptions({}));
  const [busy, setBusy] = useState<string | null>(null);
  const t = useT();
  const messageText = useMessageText();

  const run = async (key: string, action: () => Promise<unknown>) => {
    setBusy(key);
    try {
      notify.success(
        messageText(textOf(recordOf(await action())?.Success)) || t('settings.sessions.signedOut'),
      );
    } catch (error) {
      notify.error(messageText(errorMessage(error, t('settings.sessions.signOutFailed'))));
    } finally {
      setBusy(null);
      void sessions.refetch();
    }
  };

  if (sessions.isPending) return <Text color="fg.muted">{messageText(MSG.loading)}</Text>;
  if (sessions.isError)
    return (
      <Unavailable
        what={t('settings.sessions.what')}
        retrying={sessions.isFetching}
        onRetry={() => void sessions.refetch()}
      />
    );
  const list = sessions.data.Success;
  const others = list.filter((s) => !s.Current).length;
  return (
    <Stack gap="3">
      <Box as="ul" listStyleType="none" m="0" p="0" aria-label={t('settings.sessions.title')}>
        {list.map((session) => (
          <SessionRow
            key={session.ID}
            session={session}
            busy={busy === session.ID}
            onSignOut={() =>
              void run(session.ID, () => client['user.end_session'].mutate({ session: session.ID }))
            }
          />
        ))}
      </Box>
      <Button
        alignSelf="start"
        variant="outline"
        colorPalette="red"
        disabled={others === 0}
        loading={busy === 'others'}
        onClick={() => void run('others', () => client['user.end_other_sessions'].mutate({}))}
      >
        {t('settings.sessions.signOutOthers')}
      </Button>
    </Stack>
  );
}

export function SessionsSection() {
  const config = useConfig();
  const offered = hasCapability(config, 'sessions');
  const t = useT();
  // Opened at #sessions, the page lands here: last of Security's sections, on a phone the devices
  // sat screens below its top. Each visit to the link (a new location key) lands again.
  const { hash, key } = useLocation();
  useEffect(() => {
    if (hash === `#${SESSIONS_ANCHOR}`)
      document.getElementById(SESSIONS_ANCHOR)?.scrollIntoView({ block: 'start' });
  }, [hash, key]);
  return (
    <SectionCard
      id={SESSIONS_ANCHOR}
      title={t('settings.sessions.title')}
      description={offered ? t('settings.sessions.description') : undefined}
    >
      {offered ? (
        <SessionList />
      ) : (
        <Text color="fg.muted" data-testid="sessions-not-offered">
          {t('settings.sessions.notOffered')}
        </Text>
      )}
    </SectionCard>
  );
}
