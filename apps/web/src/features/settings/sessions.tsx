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
import { formatDateTime, MSG, type Session } from '@md/shared';
import { SectionCard } from '@/components/section-card.tsx';
import { Unavailable } from '@/components/unavailable.tsx';
import { hasCapability, useConfig } from '@/lib/config.tsx';
import { errorMessage } from '@/lib/errors.ts';
import { recordOf, textOf } from '@/lib/guards.ts';
import { notify } from '@/lib/toaster.ts';
import { useTRPC, useTRPCClient } from '@/lib/trpc.ts';

const TITLE = 'Signed-in devices';
/** The fragment the avatar menu's Sessions links to (Settings opens Security for it). */
export const SESSIONS_ANCHOR = 'sessions';
const SIGN_OUT_FAILED = 'Could not sign that device out. Please try again.';

function SessionRow({
  session,
  busy,
  onSignOut,
}: {
  session: Session;
  busy: boolean;
  onSignOut: () => void;
}) {
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
          <Text fontWeight="medium" overflowWrap="anywhere">
            {session.Device}
          </Text>
          {session.Current && (
            <Badge colorPalette="teal" variant="subtle">
              This device
            </Badge>
          )}
        </HStack>
        <Text color="fg.muted" fontSize="sm" overflowWrap="anywhere">
          {session.Address ?? 'Unknown address'} · Last seen {formatDateTime(session.Last_Seen)} · Signed in{' '}
          {formatDateTime(session.Created_On)}
        </Text>
      </Box>
      {!session.Current && (
        <Button
          size="sm"
          variant="outline"
          colorPalette="red"
          loading={busy}
          onClick={onSignOut}
          aria-label={`Sign out ${session.Device}, last seen ${formatDateTime(session.Last_Seen)}`}
        >
          Sign out
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

  const run = async (key: string, action: () => Promise<unknown>) => {
    setBusy(key);
    try {
      notify.success(textOf(recordOf(await action())?.Success) || 'Signed out');
    } catch (error) {
      notify.error(errorMessage(error, SIGN_OUT_FAILED));
    } finally {
      setBusy(null);
      void sessions.refetch();
    }
  };

  if (sessions.isPending) return <Text color="fg.muted">{MSG.loading}</Text>;
  if (sessions.isError)
    return (
      <Unavailable
        what="signed-in devices"
        retrying={sessions.isFetching}
        onRetry={() => void sessions.refetch()}
      />
    );
  const list = sessions.data.Success;
  const others = list.filter((s) => !s.Current).length;
  return (
    <Stack gap="3">
      <Box as="ul" listStyleType="none" m="0" p="0" aria-label={TITLE}>
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
        Sign out all other devices
      </Button>
    </Stack>
  );
}

export function SessionsSection() {
  const config = useConfig();
  const offered = hasCapability(config, 'sessions');
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
      title={TITLE}
      description={
        offered ? 'Where your account is signed in. Sign out any device you do not recognise.' : undefined
      }
    >
      {offered ? (
        <SessionList />
      ) : (
        <Text color="fg.muted" data-testid="sessions-not-offered">
          This server does not offer a list of signed-in devices. Logout signs out this browser only.
        </Text>
      )}
    </SectionCard>
  );
}
