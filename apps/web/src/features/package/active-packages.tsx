/**
 * The member's ACTIVE packages, one card each: what it has earned against its 3x cap
 * and what remains (the spec's Max Earnings, Total Earnings and Remaining Earnings, per package).
 * Without one, the next step: choosing a package.
 */
import { Card, HStack, Heading, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { formatDateTime, formatMoney } from '@md/shared';
import { ChoosePackage } from '@/components/next-step.tsx';
import { ProgressMeter } from '@/components/progress/progress-meter.tsx';
import { Unavailable } from '@/components/unavailable.tsx';
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
  if (failed)
    return (
      <Stack as="section" aria-labelledby="active-packages" gap="3">
        <Heading as="h2" size="lg" id="active-packages">
          Your active packages
        </Heading>
        <Unavailable what="Your active packages" onRetry={onRetry} retrying={retrying} />
      </Stack>
    );
  // While the table loads nothing is claimed either way.
  if (!subscriptions) return null;
  // The profile names a package the table does not list as ACTIVE: nothing to measure, nothing to suggest.
  if (subscriptions.length === 0 && profilePackage) return null;
  return (
    <Stack as="section" aria-labelledby="active-packages" gap="3">
      <Heading as="h2" size="lg" id="active-packages">
        Your active packages
      </Heading>
      {subscriptions.length === 0 ? (
        <ChoosePackage text="You have no active package yet: choose one below to start earning." />
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
                    Since {formatDateTime(subscription.dateTime)}
                  </Text>
                </HStack>
                <ProgressMeter
                  label="Earned of the 3x cap"
                  value={subscription.totalEarnings}
                  max={subscription.maxEarnings}
                  format={formatMoney}
                  help={`Remaining Earnings ${formatMoney(Math.max(0, subscription.maxEarnings - subscription.totalEarnings))}`}
                />
              </Card.Body>
            </Card.Root>
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}
