/**
 * Dashboard home (/dashboard): overview, earnings, wallets, latest activity and the summary card.
 * While a read is under way its cards show skeletons; a read that failed shows 'Unavailable' with a
 * Retry, never a 0 or $0.00 that looks like a figure. The failures stay silent (§8).
 */
import {
  lazy,
  Suspense,
  useCallback,
  useDeferredValue,
  useEffect,
  useId,
  useState,
  type ReactNode,
} from 'react';
import { Box, Card, SimpleGrid, Skeleton, Stack, Text } from '@chakra-ui/react';
import { useQuery } from '@tanstack/react-query';
import {
  DASHBOARD_NOTIFICATIONS,
  DEFAULT_RANK,
  HOME_WALLET_NAMES,
  MSG,
  formatDateTime,
  formatMoney,
  formatNumber,
  type Notification,
} from '@md/shared';
import { AsOf } from '@/components/as-of.tsx';
import { PageHeader } from '@/components/page-header.tsx';
import { headingFor, navItemByPath } from '@/components/shell/nav-items.ts';
import { StatCard } from '@/components/stat-card.tsx';
import { RetryButton, Unavailable, UnavailableText } from '@/components/unavailable.tsx';
import { ChoosePackage, ShareYourLink, useStartingPoint } from '@/components/next-step.tsx';
import { useAfterFirstPaint } from '@/lib/use-after-first-paint.ts';
import { useNearViewport } from '@/lib/use-near-viewport.ts';
import { useAuth } from '@/lib/auth.tsx';
import { errorMessage } from '@/lib/errors.ts';
import { listOf, recordOf, textOf } from '@/lib/guards.ts';
import { notify } from '@/lib/toaster.ts';
import { useTRPC } from '@/lib/trpc.ts';
import { availableOf, useWallets } from '@/lib/wallets.ts';
import { Section } from './section.tsx';

/** The insight sections (next steps, earnings over time, the next rank's meters): their own chunk, fetched after the first paint. */
const HomeInsights = lazy(() => import('./home-insights.tsx'));
/** The team in numbers and the next binary run: their own chunk, after the first paint. */
const TeamGlance = lazy(() => import('./team-glance.tsx'));
/**
 * How long the lower sections wait at most for the team glance and the analytics to settle: a read
 * that hangs must not keep the wallets off the screen until the request's 20 s deadline (they then
 * appear, and the glance may still push them down when it answers).
 */
const LOWER_SECTIONS_MAX_WAIT_MS = 5000;

/** Analytics fill the cards where the server answers (a field it leaves out reads 0); a failure is silent (§8). */
function useAnalytics() {
  const trpc = useTRPC();
  const query = useQuery(trpc['user_analytics.view_user_analytics'].queryOptions({}));
  return { ...query, analytics: recordOf(recordOf(query.data)?.Success) };
}

/** Two to a row on a phone, four from lg. */
const CARD_COLUMNS = { base: 2, lg: 4 } as const;

/**
 * The member's rank from /rank/current_rank (as the Ranks page reads it). A failure is toasted with
 * the server's text or 'Failed to get current rank' (spec §8); the card then reads the analytics.
 */
function useCurrentRank() {
  const trpc = useTRPC();
  const query = useQuery(trpc['rank.current_rank'].queryOptions({}));
  const { error } = query;
  useEffect(() => {
    // Toasts leave the render cycle first (the toaster flushes synchronously).
    if (error) queueMicrotask(() => notify.error(errorMessage(error, MSG.failedCurrentRank)));
  }, [error]);
  // An answer without a rank is a member without one yet: a Starter (spec §3).
  const rank = query.data ? textOf(recordOf(recordOf(query.data)?.Success)?.Rank) || DEFAULT_RANK : undefined;
  return { rank, isPending: query.isPending };
}

function WalletsOverview() {
  const {
    wallets: details,
    isPending,
    isError,
    isFetching,
    refetch,
    isRefetchError,
    dataUpdatedAt,
  } = useWallets();
  if (isPending) {
    return (
      <SimpleGrid columns={CARD_COLUMNS} gap="4" aria-busy>
        {HOME_WALLET_NAMES.map((name) => (
          <StatCard key={name} label={`${name} Wallet`} value={null} help="Available" loading />
        ))}
      </SimpleGrid>
    );
  }
  if (isError && !details)
    return (
      <Unavailable what="Wallets Overview" onRetry={() => void refetch()} retrying={isFetching} size="md" />
    );
  if (!details || Object.keys(details).length === 0) return <Text color="fg.muted">{MSG.noWalletData}</Text>;
  return (
    <SimpleGrid columns={CARD_COLUMNS} gap="4">
      {HOME_WALLET_NAMES.map((name) => (
        <StatCard
          key={name}
          label={`${name} Wallet`}
          value={formatMoney(availableOf(details, name))}
          // The latest refresh failed: the figure is from then, and says so.
          help={isRefetchError ? <AsOf updatedAt={dataUpdatedAt} prefix="Available" /> : 'Available'}
        />
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
  const items = listOf<Partial<Notification>>(recordOf(query.data)?.Success).slice(
    0,
    DASHBOARD_NOTIFICATIONS,
  );
  return (
    <Card.Root variant="outline">
      <Card.Body>
        {query.isError && items.length === 0 ? (
          <Unavailable
            what="Latest Activity"
            onRetry={() => void query.refetch()}
            retrying={query.isFetching}
          />
        ) : items.length === 0 ? (
          <Text color="fg.muted">{query.isPending ? MSG.loading : MSG.noActivity}</Text>
        ) : (
          <Stack as="ul" gap="3" listStyleType="none" m="0" p="0">
            {items.map((item, index) => (
              <Box
                as="li"
                key={`${textOf(item.TransID)}-${index}`}
                borderBottomWidth={index < items.length - 1 ? '1px' : '0'}
                pb="2"
              >
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

/**
 * The summary card is all placeholder zeros in the spec (§2), but Total users is the member's team
 * (the analytics' Team_Size): a 0 beside a team of a hundred read as a fault. The other rows stay
 * the spec's placeholders.
 */
function SummaryCard({ teamSize }: { teamSize: ReactNode }) {
  const targetLabel = useId();
  const rows = [
    ['Total users', teamSize],
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
          {/* A fixed 0 % (spec §2): a plain bar, not a progress machine in the home's chunk. */}
          <Box mt="2">
            <Text id={targetLabel} textStyle="sm" fontWeight="medium">
              0% achieved
            </Text>
            <Box
              role="progressbar"
              aria-labelledby={targetLabel}
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={0}
              mt="1.5"
              h="2"
              borderRadius="l1"
              bg="bg.muted"
            />
          </Box>
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}

export default function DashboardHomePage() {
  const { user } = useAuth();
  const { analytics, isPending, isError, isFetching, refetch } = useAnalytics();
  const currentRank = useCurrentRank();
  const home = navItemByPath('/dashboard')!;
  // One state for every analytics card: loading, failed or its figure; a failed read has one Retry per section.
  const figureCard = (label: string, value: () => ReactNode, help?: ReactNode) => (
    <StatCard label={label} loading={isPending} help={help} value={isError ? <UnavailableText /> : value()} />
  );
  const retry = (section: string) =>
    isError ? <RetryButton what={section} onRetry={() => void refetch()} retrying={isFetching} /> : undefined;
  // An absent or unreadable figure shows '-' (the formatters' own reading), never 0.
  const money = (value: unknown) => formatMoney(value);
  // Wallets, activity and the summary sit below the fold on a phone: they render after the first paint.
  const belowFold = useAfterFirstPaint();
  // The next steps, wallets, activity and summary appear once the team glance and the analytics
  // (which decide the next steps) have answered: inserted or grown above what was already shown,
  // those pushed it down the screen (desktop CLS 0.10). Appended last, they move nothing.
  const [glanceSettled, setGlanceSettled] = useState(false);
  const onGlanceSettled = useCallback(() => setGlanceSettled(true), []);
  const [waitedLongEnough, setWaitedLongEnough] = useState(false);
  useEffect(() => {
    if (!belowFold) return;
    const timer = setTimeout(() => setWaitedLongEnough(true), LOWER_SECTIONS_MAX_WAIT_MS);
    return () => clearTimeout(timer);
  }, [belowFold]);
  // Rendered in the background, in slices, as the first-paint step is (a transition): rendered at
  // once, they were one long task on a phone's CPU (Lighthouse mobile TBT 163 -> 330 ms).
  const lowerShown = useDeferredValue(belowFold && ((glanceSettled && !isPending) || waitedLongEnough));

  return (
    <Stack gap="8" data-testid="dashboard-home">
      <PageHeader route={home} username={user?.username ?? ''} />
      <Section title="Overview" action={retry('Overview')}>
        <SimpleGrid columns={CARD_COLUMNS} gap="4">
          {figureCard('Current Level', () => formatNumber(analytics?.Current_Level))}
          {/* The rank call first, then the analytics; a member without a rank yet is a Starter (spec §3). */}
          {currentRank.rank !== undefined ? (
            <StatCard label="Current Rank" value={currentRank.rank} />
          ) : currentRank.isPending ? (
            <StatCard label="Current Rank" value={null} loading />
          ) : (
            figureCard('Current Rank', () => textOf(analytics?.Current_Rank) || DEFAULT_RANK)
          )}
          {/* Binary leg volumes are USDT, as in the Volume table's Left and Right Total. */}
          {figureCard('Binary Left', () => money(analytics?.Binary_Left))}
          {figureCard('Binary Right', () => money(analytics?.Binary_Right))}
        </SimpleGrid>
      </Section>
      <Section title="Earnings Overview" action={retry('Earnings Overview')}>
        <SimpleGrid columns={CARD_COLUMNS} gap="4">
          {figureCard('Active Subscriptions', () => formatNumber(analytics?.Active_Subscriptions))}
          {figureCard(
            'Max Earnings',
            () => money(analytics?.Max_Earnings),
            'The 3x cap of your active packages',
          )}
          {/* Not the Wallets page's Total Earnings (lifetime Binary + Direct + Upline_Bonus + Level wallet totals). */}
          {figureCard('Total Earnings', () => money(analytics?.Total_Earnings), TOTAL_EARNINGS_HELP)}
          {figureCard(
            'Remaining Earnings',
            () => money(analytics?.Remaining_Earnings),
            'Left before the cap',
          )}
        </SimpleGrid>
      </Section>
      {belowFold && (
        <Suspense fallback={null}>
          <TeamGlance onSettled={onGlanceSettled} />
        </Suspense>
      )}
      {lowerShown && (
        <>
          <NextSteps />
          <Section title="Wallets Overview">
            <WalletsOverview />
          </Section>
          <SimpleGrid columns={{ base: 1, lg: 2 }} gap="6">
            <Section title="Latest Activity">
              <LatestActivity />
            </Section>
            <Section title="Summary">
              <SummaryCard
                teamSize={
                  isPending ? (
                    <Skeleton as="span" display="inline-block" h="1em" w="3ch" aria-label="Loading" />
                  ) : isError ? (
                    <UnavailableText />
                  ) : (
                    formatNumber(analytics?.Team_Size)
                  )
                }
              />
            </Section>
          </SimpleGrid>
          <InsightsWhenNear />
        </>
      )}
    </Stack>
  );
}

/**
 * The insight sections (earnings over time, the next rank's meters) come last and load
 * when the member scrolls near them: appended below what is already shown they move nothing (no
 * layout shift), and their chunk, chart library, queries and drawing stay out of the first seconds.
 */
function InsightsWhenNear() {
  const [anchor, near] = useNearViewport<HTMLDivElement>();
  return (
    <div ref={anchor} data-testid="home-insights-anchor">
      {near && (
        <Suspense fallback={null}>
          <HomeInsights />
        </Suspense>
      )}
    </div>
  );
}

/** A member without a package or a team is shown the next step; nothing until the analytics answer. */
function NextSteps() {
  const { hasPackage, hasTeam } = useStartingPoint();
  if (hasPackage !== false && hasTeam !== false) return null;
  return (
    <Section title="Next steps">
      <SimpleGrid columns={{ base: 1, lg: 2 }} gap="4">
        {hasPackage === false && <ChoosePackage />}
        {hasTeam === false && <ShareYourLink />}
      </SimpleGrid>
    </Section>
  );
}

/** What the home Total Earnings counts: the income paid against the caps of the member's ACTIVE packages. */
const TOTAL_EARNINGS_HELP = 'ROI, binary and level income on your active packages';
