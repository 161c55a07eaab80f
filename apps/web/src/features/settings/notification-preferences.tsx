/**
 * Notification preferences (Settings, Notifications): in-app and email per event type, saved as
 * each switch is flipped. Served by the `notification_preferences` capability; the server honours
 * them (an email off sends no such mail). Security notices are always on, their switches locked;
 * payouts offer no email. Without the capability (the provider), the tab says so and shows no
 * switch that would change nothing.
 */
import { useState } from 'react';
import { Badge, Box, HStack, Stack, Switch, Text } from '@chakra-ui/react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { MSG } from '@md/shared';
import { SectionCard } from '@/components/section-card.tsx';
import { Unavailable } from '@/components/unavailable.tsx';
import { hasCapability, useConfig } from '@/lib/config.tsx';
import { errorMessage } from '@/lib/errors.ts';
import { listOf, recordOf, textOf } from '@/lib/guards.ts';
import { notify } from '@/lib/toaster.ts';
import { useTRPC, useTRPCClient } from '@/lib/trpc.ts';

const EVENT_LABEL: Record<string, { title: string; about: string }> = {
  payouts: { title: 'Payouts', about: 'ROI, binary, direct, level income and rank rewards' },
  team: { title: 'Team', about: 'A new member joins your team' },
  deposits: { title: 'Deposits', about: 'A deposit is credited' },
  packages: { title: 'Packages', about: 'You buy a package' },
  withdrawals: { title: 'Withdrawals', about: 'A withdrawal is requested, paid or refunded' },
  transfers: { title: 'P2P transfers', about: 'You send or receive a transfer' },
  security: { title: 'Security', about: 'Password, email, 2FA and withdrawal address changes' },
};

interface Preference {
  event: string;
  inApp: boolean;
  email: boolean;
  emailOffered: boolean;
  locked: boolean;
}

const preferencesOf = (value: unknown): Preference[] =>
  listOf(value).map((row) => ({
    event: textOf(row.Event),
    inApp: row.In_App === true,
    email: row.Email === true,
    emailOffered: row.Email_Offered === true,
    locked: row.Locked === true,
  }));

function PreferenceSwitch({
  label,
  checked,
  disabled,
  onChange,
}: {
  label: string;
  checked: boolean;
  disabled: boolean;
  onChange: (on: boolean) => void;
}) {
  return (
    <Switch.Root
      checked={checked}
      disabled={disabled}
      onCheckedChange={({ checked: on }) => onChange(on)}
      colorPalette="teal"
      size="sm"
    >
      <Switch.HiddenInput />
      <Switch.Control />
      <Switch.Label>{label}</Switch.Label>
    </Switch.Root>
  );
}

export function NotificationPreferences() {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const served = hasCapability(useConfig(), 'notification_preferences');
  const options = trpc['notification.view_preferences'].queryOptions({});
  const query = useQuery({ ...options, enabled: served, retry: false });
  const [saving, setSaving] = useState<string>();

  if (!served)
    return (
      <SectionCard title="Notifications">
        <Text data-testid="preferences-not-offered">
          The provider does not offer notification preferences: notices follow its own rules. Security notices
          are always sent.
        </Text>
      </SectionCard>
    );

  const save = async (event: string, change: { in_app?: boolean; email?: boolean }) => {
    setSaving(event);
    try {
      const answer = recordOf(
        await client['notification.update_preferences'].mutate({ event: event as never, ...change }),
      );
      queryClient.setQueryData(options.queryKey, { Success: answer?.Preferences } as never);
      notify.success(textOf(answer?.Success) || 'Preferences saved');
    } catch (failure) {
      notify.error(errorMessage(failure, 'Could not save the preference'));
    } finally {
      setSaving(undefined);
    }
  };

  const preferences = preferencesOf(recordOf(query.data)?.Success);
  return (
    <SectionCard title="Notifications">
      {query.isPending ? (
        <Text color="fg.muted">{MSG.loading}</Text>
      ) : query.isError ? (
        <Unavailable
          what="Notification preferences"
          onRetry={() => void query.refetch()}
          retrying={query.isFetching}
        />
      ) : (
        <Stack gap="0" data-testid="notification-preferences">
          {preferences.map((p, index) => {
            const label = EVENT_LABEL[p.event] ?? { title: p.event, about: '' };
            return (
              <Box
                key={p.event}
                role="group"
                aria-label={label.title}
                data-testid={`preference-${p.event}`}
                display="flex"
                flexWrap="wrap"
                alignItems="center"
                columnGap="4"
                rowGap="2"
                py="3"
                borderBottomWidth={index < preferences.length - 1 ? '1px' : '0'}
              >
                <Box flex="1" minW="12rem">
                  <HStack gap="2">
                    <Text fontWeight="semibold">{label.title}</Text>
                    {p.locked && (
                      <Badge size="sm" variant="subtle">
                        Always on
                      </Badge>
                    )}
                  </HStack>
                  <Text fontSize="sm" color="fg.muted">
                    {label.about}
                    {!p.emailOffered && ' · not sent by email'}
                  </Text>
                </Box>
                <HStack gap="5">
                  <PreferenceSwitch
                    label="In-app"
                    checked={p.inApp}
                    disabled={p.locked || saving === p.event}
                    onChange={(on) => void save(p.event, { in_app: on })}
                  />
                  <PreferenceSwitch
                    label="Email"
                    checked={p.email}
                    disabled={p.locked || !p.emailOffered || saving === p.event}
                    onChange={(on) => void save(p.event, { email: on })}
                  />
                </HStack>
              </Box>
            );
          })}
        </Stack>
      )}
    </SectionCard>
  );
}
