/** "How it works": the plan text of spec §1. */
import { List, Text } from '@chakra-ui/react';
import { nextUkBinaryRun } from '@md/shared';
import { SectionCard } from '@/components/section-card.tsx';
import { useFormat, useT } from '@/lib/i18n/i18n.tsx';
import type { MessageId } from '@/lib/i18n/catalog-types.ts';

const PLAN_TEXT: readonly MessageId[] = [
  'packages.plan.roi',
  'packages.plan.cap',
  'packages.plan.binary',
  'packages.plan.level',
  'packages.plan.deposits',
  'packages.plan.noCancel',
];

export function InvestmentDetails() {
  const t = useT();
  const f = useFormat();
  // The run's UK time on the member's clock: the next run's, so a daylight-saving change is followed.
  const binaryRunHere = f.time(nextUkBinaryRun(Date.now()));
  return (
    <SectionCard title={t('packages.details.title')} description={t('packages.details.howItWorks')}>
      <List.Root gap="2" ps="5">
        {PLAN_TEXT.map((id) => (
          <List.Item key={id}>
            <span>{t(id)}</span>
            {id === 'packages.plan.binary' && (
              <Text as="span" color="fg.muted" ms="1" data-testid="binary-run-your-time">
                {t('packages.plan.binaryYourTime', { time: binaryRunHere })}
              </Text>
            )}
          </List.Item>
        ))}
      </List.Root>
    </SectionCard>
  );
}
