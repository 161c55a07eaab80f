/** Dashboard home (/dashboard): overview, earnings, wallets, latest activity and the summary card. */
import { useEffect, type ReactNode } from 'react';
import { Box, Card, Heading, Progress, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { useQuery } from '@tanstack/react-query';
import {
  DASHBOARD_NOTIFICATIONS,
  DEFAULT_RANK,
  HOME_WALLET_NAMES,
  MSG,
  formatDateTime,
  formatMoney,
  type Notification,
} from '@md/shared';
import { PageHeader } from '@/components/page-header.tsx';
import { headingFor, navItemByPath } from '@/components/shell/nav-items.ts';
import { StatCard } from '@/components/stat-card.tsx';
import { useAuth } from '@/lib/auth.tsx';
import { errorMessage } from '@/lib/errors.ts';
import { listOf, numberOf, recordOf, textOf } from '@/lib/guards.ts';
import { notify } from '@/lib/toaster.ts';
import { useTRPC } from '@/lib/trpc.ts';
import { availableOf, useWallets } from '@/lib/wallets.ts';

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box as="section" aria-label={title}>
      <Heading as="h2" size="lg" mb="3">
        {title}
      </Heading>
      {children}
    </Box>
  );
}

/** Analytics fill the cards where the server answers; the cards read 0 otherwise (silent failure, §8). */
function useAnalytics() {
  const trpc = useTRPC();
  return recordOf(recordOf(useQuery(trpc['user_analytics.view_user_analytics'].queryOptions({})).data)?.Success);
}

/**
 * The member's rank from /rank/current_rank (as the Ranks page reads it). A failure is toasted with
 * the server's text or 'Failed to get current rank' (spec §8); the card then reads the analytics.
 */
function useCurrentRank(): string | undefined {
  const trpc = useTRPC();
  const query = useQuery(trpc['rank.current_rank'].queryOptions({}));
  const { error } = query;
  useEffect(() => {
    // Toasts leave the render cycle first (the toaster flushes synchronously).
    if (error) queueMicrotask(() => notify.error(errorMessage(error, MSG.failedCurrentRank)));
  }, [error]);
  if (!query.data) return undefined;
  // An answer without a rank is a member without one yet: a Starter (spec §3).
  return textOf(recordOf(recordOf(query.data)?.Success)?.Rank) || DEFAULT_RANK;
}

function WalletsOverview() {
  const { wallets: details, isPending } = useWallets();
  if (!details || Object.keys(details).length === 0) return <Text color="fg.muted">{isPending ? MSG.loading : MSG.noWalletData}</Text>;
  return (
    <SimpleGrid columns={{ base: 1, sm: 2, lg: 4 }} gap="4">
      {HOME_WALLET_NAMES.map((name) => (
        <StatCard key={name} label={`${name} Wallet`} value={formatMoney(availableOf(details, name))} help="Available" />
      ))}
    </SimpleGrid>
  );
}

function LatestActivity() {
  const trpc = useTRPC();
  const query = useQuery(
    trpc['notification.view_notification'].queryOptions({
      page_no: 1,
      page_size: DASHBOARD_NOTIFICATIONS,
      pageNo: 1,
      pageSize: DASHBOARD_NOTIFICATIONS,
    }),
  );
  // The fetch fails silently (spec §8); only entries that are objects are listed.
  const items = listOf<Partial<Notification>>(recordOf(query.data)?.Success).slice(0, DASHBOARD_NOTIFICATIONS);
  return (
    <Card.Root variant="outline">
      <Card.Body>
        {items.length === 0 ? (
          <Text color="fg.muted">{query.isPending ? MSG.loading : MSG.noActivity}</Text>
        ) : (
          <Stack as="ul" gap="3" listStyleType="none" m="0" p="0">
            {items.map((item, index) => (
              <Box as="li" key={`${textOf(item.TransID)}-${index}`} borderBottomWidth={index < items.length - 1 ? '1px' : '0'} pb="2">
                <Text>{textOf(item.Message)}</Text>
                <Text fontSize="sm" color="fg.muted">
                  {formatDateTime(item.DateTime)}
                </Text>
              </Box>
            ))}
          </Stack>
        )}
      </Card.Body>
    </Card.Root>
  );
}

/** The summary card is all placeholder zeros in the spec (§2). */
function SummaryCard() {
  const rows = [
    ['Total users', '0'],
    ['Active packages', '0'],
    ['Pending packages', '0'],
    ['Completed packages', '0'],
    ['Revenue this month', formatMoney(0)],
    ['Target', formatMoney(0)],
  ] as const;
  return (
    <Card.Root variant="outline">
      <Card.Body>
        <Stack gap="2">
          {rows.map(([label, value]) => (
            <Box key={label} display="flex" justifyContent="space-between">
              <Text color="fg.muted">{label}</Text>
              <Text fontWeight="semibold">{value}</Text>
            </Box>
          ))}
          <Progress.Root value={0} size="sm" colorPalette="teal" mt="2">
            <Progress.Label>0% achieved</Progress.Label>
            <Progress.Track>
              <Progress.Range />
            </Progress.Track>
          </Progress.Root>
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}

export default function DashboardHomePage() {
  const { user } = useAuth();
  const analytics = useAnalytics();
  const currentRank = useCurrentRank();
  const home = navItemByPath('/dashboard')!;
  const figure = (value: unknown) => numberOf(value) ?? 0;
  const analyticsRank = analytics ? textOf(analytics.Current_Rank) || DEFAULT_RANK : 0;

  return (
    <Stack gap="8" data-testid="dashboard-home">
      <PageHeader heading={headingFor(home, user?.username ?? '')} description={home.description} />
      <Section title="Overview">
        <SimpleGrid columns={{ base: 1, sm: 2, lg: 4 }} gap="4">
          <StatCard label="Current Level" value={figure(analytics?.Current_Level)} />
          {/* The rank call first, then the analytics; with neither the card reads 0. A member without a rank yet is a Starter (spec §3). */}
          <StatCard label="Current Rank" value={currentRank ?? analyticsRank} />
          <StatCard label="Binary Left" value={figure(analytics?.Binary_Left)} />
          <StatCard label="Binary Right" value={figure(analytics?.Binary_Right)} />
        </SimpleGrid>
      </Section>
      <Section title="Earnings Overview">
        <SimpleGrid columns={{ base: 1, sm: 2, lg: 4 }} gap="4">
          <StatCard label="Active Subscriptions" value={figure(analytics?.Active_Subscriptions)} />
          <StatCard label="Max Earnings" value={formatMoney(figure(analytics?.Max_Earnings))} />
          <StatCard label="Total Earnings" value={formatMoney(figure(analytics?.Total_Earnings))} />
          <StatCard label="Remaining Earnings" value={formatMoney(figure(analytics?.Remaining_Earnings))} />
        </SimpleGrid>
      </Section>
      <Section title="Wallets Overview">
        <WalletsOverview />
      </Section>
      <SimpleGrid columns={{ base: 1, lg: 2 }} gap="6">
        <Section title="Latest Activity">
          <LatestActivity />
        </Section>
        <Section title="Summary">
          <SummaryCard />
        </Section>
      </SimpleGrid>
    </Stack>
  );
}
