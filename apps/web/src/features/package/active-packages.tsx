/**
 * The member's ACTIVE packages, one card each: what it has earned against its 3x cap
 * and what remains (the spec's Max Earnings, Total Earnings and Remaining Earnings, per package).
 * Without one, the next step: choosing a package.
 */
import { Card, HStack, Heading, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { ChoosePackage } from '@/components/next-step.tsx';
import { ProgressMeter } from '@/components/progress/progress-meter.tsx';
import { Unavailable } from '@/components/unavailable.tsx';
import { useFormat, useT } from '@/lib/i18n/i18n.tsx';
import type { ActiveSubscription } from './use-active-plans.ts';

interface ActivePackagesProps {
  subscriptions: ActiveSubscription[] | undefined;
  profilePackage: string | null | undefined;
  /** The read failed (silent, spec §8): Unavailable with a Retry. */
  failed: boolean;
  retrying: boolean;
  onRetry: () => void;
}

export function ActivePackages({
  subscriptions,
  profilePackage,
  failed,
  retrying,
  onRetry,
}: ActivePackagesProps) {
  const t = useT();
  const f = useFormat();
  const title = t('packages.active.title');
  if (failed)
    return (
      <Stack as="section" aria-labelledby="active-packages" gap="3">
        <Heading as="h2" size="lg" id="active-packages">
          {title}
        </Heading>
        <Unavailable what={title} onRetry={onRetry} retrying={retrying} />
      </Stack>
    );
  // While the table loads nothing is claimed either way.
  if (!subscriptions) return null;
  // The profile names a package the table does not list as ACTIVE: nothing to measure, nothing to suggest.
  if (subscriptions.length === 0 && profilePackage) return null;
  return (
    <Stack as="section" aria-labelledby="active-packages" gap="3">
      <Heading as="h2" size="lg" id="active-packages">
        {title}
      </Heading>
      {subscriptions.length === 0 ? (
        <ChoosePackage text={t('packages.active.none')} />
      ) : (
        <SimpleGrid columns={{ base: 1, md: 2, xl: 3 }} gap="4">
          {subscriptions.map((subscription) => (
            <Card.Root
              key={subscription.transId || subscription.dateTime}
              variant="outline"
              size="sm"
              data-testid={`active-package-${subscription.transId}`}
            >
              <Card.Body gap="3">
                <HStack justify="space-between" wrap="wrap">
                  <Heading as="h3" size="md">
                    {subscription.name}
                  </Heading>
                  <Text fontSize="xs" color="fg.muted">
                    {t('packages.active.since', { date: f.dateTime(subscription.dateTime) })}
                  </Text>
                </HStack>
                <ProgressMeter
                  label={t('packages.active.earnedOfCap')}
                  value={subscription.totalEarnings}
                  max={subscription.maxEarnings}
                  format={f.money}
                  help={t('packages.active.remaining', {
                    amount: f.money(Math.max(0, subscription.maxEarnings - subscription.totalEarnings)),
                  })}
                />
              </Card.Body>
            </Card.Root>
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}
