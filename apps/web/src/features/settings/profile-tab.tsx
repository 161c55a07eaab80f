/** Settings → Profile: read-only member details (spec §2, §3). */
import { DataList } from '@chakra-ui/react';
import { formatDateTime, maskEmail, sideLabel, type Profile } from '@md/shared';
import { SectionCard } from '@/components/section-card.tsx';

export function ProfileTab({ profile }: { profile: Profile }) {
  const rows: [string, string][] = [
    ['Username', profile.Username],
    ['Name', profile.Name || '-'],
    ['Email', maskEmail(profile.Email)],
    ['Side', sideLabel(profile.Side)],
    ['Country', profile.Country || '-'],
    ['Member since', formatDateTime(profile.Created_On)],
    ['Subscription', profile.Subscription ? 'Active' : 'Inactive'],
    ['Sponsor', profile.Sponsor || '-'],
  ];
  return (
    <SectionCard title="Profile">
      <DataList.Root orientation="horizontal" gap="3">
        {rows.map(([label, value]) => (
          <DataList.Item key={label}>
            <DataList.ItemLabel minW="8rem">{label}</DataList.ItemLabel>
            <DataList.ItemValue fontWeight="medium" wordBreak="break-all">
              {value}
            </DataList.ItemValue>
          </DataList.Item>
        ))}
      </DataList.Root>
    </SectionCard>
  );
}
