/** Settings → Profile: read-only member details (spec §2, §3), and this browser's language. */
import { DataList, HStack, Stack, Text } from '@chakra-ui/react';
import { maskEmail, sideOf, type Profile } from '@md/shared';
import { LanguageSelect } from '@/components/language-select.tsx';
import { SectionCard } from '@/components/section-card.tsx';
import { useFormat, useT } from '@/lib/i18n/i18n.tsx';

export function ProfileTab({ profile }: { profile: Profile }) {
  const t = useT();
  const f = useFormat();
  const side = sideOf(profile.Side);
  // The member's own details as the provider holds them (names, the country as registered) are
  // data, shown as sent: marked so, never a text the app forgot to translate.
  const rows: [string, string, data?: true][] = [
    [t('settings.profile.username'), profile.Username, true],
    [t('settings.profile.name'), profile.Name || '-', true],
    [t('settings.profile.email'), maskEmail(profile.Email), true],
    [
      t('settings.profile.side'),
      side === null ? '-' : t('settings.profile.sideName', { side: side === '0' ? 'left' : 'right' }),
    ],
    [t('settings.profile.country'), profile.Country || '-', true],
    [t('settings.profile.memberSince'), f.dateTime(profile.Created_On)],
    [
      t('settings.profile.subscription'),
      profile.Subscription ? t('settings.profile.active') : t('settings.profile.inactive'),
    ],
    [t('settings.profile.sponsor'), profile.Sponsor || '-', true],
  ];
  return (
    <SectionCard title={t('settings.profile.title')}>
      <DataList.Root orientation="horizontal" gap="3">
        {rows.map(([label, value, data]) => (
          <DataList.Item key={label}>
            <DataList.ItemLabel minW="8rem">{label}</DataList.ItemLabel>
            <DataList.ItemValue fontWeight="medium" wordBreak="break-all" data-provider-text={data}>
              {value}
            </DataList.ItemValue>
          </DataList.Item>
        ))}
      </DataList.Root>
    </SectionCard>
  );
}

/**
 * The language this browser shows the app in (the header's menu too), and the zone its times are
 * read in (the device's).
 */
export function PreferencesSection() {
  const t = useT();
  const f = useFormat();
  return (
    <SectionCard title={t('settings.preferences.title')}>
      <Stack gap="3">
        <HStack gap="4" flexWrap="wrap">
          <Text minW="8rem" color="fg.muted" aria-hidden>
            {t('common.language')}
          </Text>
          <LanguageSelect width="14rem" />
        </HStack>
        <Text fontSize="sm" color="fg.muted" data-testid="settings-time-zone">
          {t('settings.preferences.timeZone', { zone: f.zoneName(), id: f.timeZone })}
        </Text>
      </Stack>
    </SectionCard>
  );
}
