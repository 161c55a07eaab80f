/**
 * Notification preferences (Settings, Notifications): in-app, email and, with the `web_push`
 * capability, phone (Web Push) per event type, saved as each switch is flipped. Served by the
 * `notification_preferences` capability; the server honours them (an email off sends no such mail).
 * Security notices are always on, their switches locked; payouts offer no email; only payouts,
 * transfers, deposits and withdrawals are pushed. Without the capability (the provider), the tab says
 * so and shows no switch that would change nothing. Words from the `push` catalog.
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
import type { MessageId } from '@/lib/i18n/catalog-types.ts';
import { useMessageText, useT } from '@/lib/i18n/i18n.tsx';
import { notify } from '@/lib/toaster.ts';
import { useTRPC, useTRPCClient } from '@/lib/trpc.ts';
import { PushDevice } from './push-device.tsx';

const EVENTS = ['payouts', 'team', 'deposits', 'packages', 'withdrawals', 'transfers', 'security'] as const;
const isKnownEvent = (event: string): event is (typeof EVENTS)[number] =>
  (EVENTS as readonly string[]).includes(event);

interface Preference {
  event: string;
  inApp: boolean;
  email: boolean;
  emailOffered: boolean;
  locked: boolean;
  /** Absent from a server without Web Push. */
  phone?: boolean;
  phoneOffered?: boolean;
}

const preferencesOf = (value: unknown): Preference[] =>
  listOf(value).map((row) => ({
    event: textOf(row.Event),
    inApp: row.In_App === true,
    email: row.Email === true,
    emailOffered: row.Email_Offered === true,
    locked: row.Locked === true,
    ...(typeof row.Phone === 'boolean' ? { phone: row.Phone } : {}),
    ...(typeof row.Phone_Offered === 'boolean' ? { phoneOffered: row.Phone_Offered } : {}),
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
  const t = useT();
  const messageText = useMessageText();
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const config = useConfig();
  const served = hasCapability(config, 'notification_preferences');
  const pushServed = hasCapability(config, 'web_push');
  const options = trpc['notification.view_preferences'].queryOptions({});
  const query = useQuery({ ...options, enabled: served, retry: false });
  const [saving, setSaving] = useState<string>();

  if (!served)
    return (
      <SectionCard title={t('push.prefs.title')}>
        <Text data-testid="preferences-not-offered">{t('push.prefs.notOffered')}</Text>
      </SectionCard>
    );

  const save = async (event: string, change: { in_app?: boolean; email?: boolean; phone?: boolean }) => {
    setSaving(event);
    try {
      const answer = recordOf(
        await client['notification.update_preferences'].mutate({ event: event as never, ...change }),
      );
      queryClient.setQueryData(options.queryKey, { Success: answer?.Preferences } as never);
      notify.success(t('push.prefs.saved'));
    } catch (failure) {
      notify.error(
        messageText(errorMessage(failure, t('push.prefs.saveFailed'))) ?? t('push.prefs.saveFailed'),
      );
    } finally {
      setSaving(undefined);
    }
  };

  const preferences = preferencesOf(recordOf(query.data)?.Success);
  return (
    <SectionCard title={t('push.prefs.title')}>
      {pushServed && <PushDevice />}
      {query.isPending ? (
        <Text color="fg.muted">{messageText(MSG.loading)}</Text>
      ) : query.isError ? (
        <Unavailable
          what={t('push.prefs.what')}
          onRetry={() => void query.refetch()}
          retrying={query.isFetching}
        />
      ) : (
        <Stack gap="0" data-testid="notification-preferences">
          {preferences.map((p, index) => {
            const title = isKnownEvent(p.event) ? t(`push.event.${p.event}` as MessageId) : p.event;
            const about = isKnownEvent(p.event) ? t(`push.event.${p.event}.about` as MessageId) : '';
            // The Phone switch: only where the server offers Web Push and answers the field.
            const phone = pushServed && p.phone !== undefined;
            return (
              <Box
                key={p.event}
                role="group"
                aria-label={title}
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
                    <Text fontWeight="semibold">{title}</Text>
                    {p.locked && (
                      <Badge size="sm" variant="subtle">
                        {t('push.prefs.alwaysOn')}
                      </Badge>
                    )}
                  </HStack>
                  <Text fontSize="sm" color="fg.muted">
                    {about}
                    {!p.emailOffered && ` · ${t('push.prefs.notMailed')}`}
                  </Text>
                </Box>
                <HStack gap="5" flexWrap="wrap">
                  <PreferenceSwitch
                    label={t('push.prefs.inApp')}
                    checked={p.inApp}
                    disabled={p.locked || saving === p.event}
                    onChange={(on) => void save(p.event, { in_app: on })}
                  />
                  <PreferenceSwitch
                    label={t('push.prefs.email')}
                    checked={p.email}
                    disabled={p.locked || !p.emailOffered || saving === p.event}
                    onChange={(on) => void save(p.event, { email: on })}
                  />
                  {phone && (
                    <PreferenceSwitch
                      label={t('push.prefs.phone')}
                      checked={p.phone === true}
                      disabled={p.phoneOffered !== true || saving === p.event}
                      onChange={(on) => void save(p.event, { phone: on })}
                    />
                  )}
                </HStack>
              </Box>
            );
          })}
        </Stack>
      )}
    </SectionCard>
  );
}
