/**
 * Dashboard home (/dashboard): overview, earnings, wallets, latest activity and the summary card.
 * While a read is under way its cards show skeletons; a read that failed shows 'Unavailable' with a
 * Retry, never a 0 or $0.00 that looks like a figure. The failures stay silent (§8). Drawn with the
 * first screen's classes (components/first-screen): Chakra's looks without resolving style props
 * at run time, which was most of a phone's work as each of the home's reads answered.
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
import { useQuery } from '@tanstack/react-query';
import {
  DASHBOARD_NOTIFICATIONS,
  DEFAULT_RANK,
  HOME_WALLET_NAMES,
  localizeNoticeTimes,
  MSG,
  type Notification,
  type WalletName,
} from '@md/shared';
import { AsOf } from '@/components/as-of.tsx';
import { PageHeader } from '@/components/page-header.tsx';
import { navItemByPath } from '@/components/shell/nav-items.ts';
import { StatCard } from '@/components/stat-card.tsx';
import { RetryButton, Unavailable, UnavailableText } from '@/components/unavailable.tsx';
import { ChoosePackage, ShareYourLink, useStartingPoint } from '@/components/next-step.tsx';
import { useAfterFirstPaint } from '@/lib/use-after-first-paint.ts';
import { useNearViewport } from '@/lib/use-near-viewport.ts';
import { useAuth } from '@/lib/auth.tsx';
import { errorMessage } from '@/lib/errors.ts';
import { useFormat, useMessageText, useT } from '@/lib/i18n/i18n.tsx';
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

/**
 * The member's rank from /rank/current_rank (as the Ranks page reads it). A failure is toasted with
 * the server's text or 'Failed to get current rank' (spec §8); the card then reads the analytics.
 */
function useCurrentRank() {
  const trpc = useTRPC();
  const query = useQuery(trpc['rank.current_rank'].queryOptions({}));
  const { error } = query;
  const messageText = useMessageText();
  useEffect(() => {
    // Toasts leave the render cycle first (the toaster flushes synchronously).
    if (error) queueMicrotask(() => notify.error(messageText(errorMessage(error, MSG.failedCurrentRank))));
  }, [error, messageText]);
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
  const t = useT();
  const f = useFormat();
  const messageText = useMessageText();
  const walletLabel = (wallet: WalletName) => t('home.wallet', { wallet });
  const available = t('home.available');
  if (isPending) {
    return (
      <div className="fs-card-grid" aria-busy>
        {HOME_WALLET_NAMES.map((name) => (
          <StatCard key={name} label={walletLabel(name)} value={null} help={available} loading />
        ))}
      </div>
    );
  }
  if (isError && !details)
    return (
      <Unavailable
        what={t('home.walletsOverview')}
        onRetry={() => void refetch()}
        retrying={isFetching}
        size="md"
      />
    );
  if (!details || Object.keys(details).length === 0)
    return <p className="fs-muted">{messageText(MSG.noWalletData)}</p>;
  return (
    <div className="fs-card-grid">
      {HOME_WALLET_NAMES.map((name) => (
        <StatCard
          key={name}
          label={walletLabel(name)}
          value={f.money(availableOf(details, name))}
          // The latest refresh failed: the figure is from then, and says so.
          help={isRefetchError ? <AsOf updatedAt={dataUpdatedAt} prefix={available} /> : available}
        />
      ))}
    </div>
  );
}

function LatestActivity() {
  const trpc = useTRPC();
  const t = useT();
  const f = useFormat();
  const messageText = useMessageText();
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
    <div className="fs-card-md">
      <div className="fs-card-md-body">
        {query.isError && items.length === 0 ? (
          <Unavailable
            what={t('home.latestActivity')}
            onRetry={() => void query.refetch()}
            retrying={query.isFetching}
          />
        ) : items.length === 0 ? (
          <p className="fs-muted">{messageText(query.isPending ? MSG.loading : MSG.noActivity)}</p>
        ) : (
          <ul className="fs-stack-3 fs-flush">
            {items.map((item, index) => (
              <li key={`${textOf(item.TransID)}-${index}`} className="fs-activity-item">
                <p data-provider-text>{localizeNoticeTimes(messageText(textOf(item.Message)), f)}</p>
                <p className="fs-small fs-muted">{f.dateTime(item.DateTime)}</p>
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}

/**
 * The summary card is all placeholder zeros in the spec (§2), but Total users is the member's team
 * (the analytics' Team_Size): a 0 beside a team of a hundred read as a fault. The other rows stay
 * the spec's placeholders.
 */
function SummaryCard({ teamSize }: { teamSize: ReactNode }) {
  const targetLabel = useId();
  const t = useT();
  const f = useFormat();
  const rows = [
    [t('home.summaryRow.totalUsers'), teamSize],
    [t('home.summaryRow.activePackages'), f.number(0)],
    [t('home.summaryRow.pendingPackages'), f.number(0)],
    [t('home.summaryRow.completedPackages'), f.number(0)],
    [t('home.summaryRow.revenueThisMonth'), f.money(0)],
    [t('home.summaryRow.target'), f.money(0)],
  ] as const;
  return (
    <div className="fs-card-md">
      <div className="fs-card-md-body">
        <div className="fs-stack-2">
          {rows.map(([label, value]) => (
            <div key={label} className="fs-spread-row">
              <p className="fs-muted">{label}</p>
              <p className="fs-strong">{value}</p>
            </div>
          ))}
          {/* A fixed 0 % (spec §2): a plain bar, not a progress machine in the home's chunk. */}
          <div className="fs-summary-target">
            <p id={targetLabel} className="fs-summary-target-label">
              {t('home.achieved', { percent: f.percent(0) })}
            </p>
            <div
              role="progressbar"
              aria-labelledby={targetLabel}
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={0}
              className="fs-summary-bar"
            />
          </div>
        </div>
      </div>
    </div>
  );
}

export default function DashboardHomePage() {
  const { user } = useAuth();
  const { analytics, isPending, isError, isFetching, refetch } = useAnalytics();
  const currentRank = useCurrentRank();
  const t = useT();
  const f = useFormat();
  const home = navItemByPath('/dashboard')!;
  // One state for every analytics card: loading, failed or its figure; a failed read has one Retry per section.
  const figureCard = (label: string, value: () => ReactNode, help?: ReactNode) => (
    <StatCard label={label} loading={isPending} help={help} value={isError ? <UnavailableText /> : value()} />
  );
  const retry = (section: string) =>
    isError ? <RetryButton what={section} onRetry={() => void refetch()} retrying={isFetching} /> : undefined;
  // An absent or unreadable figure shows '-' (the formatters' own reading), never 0.
  const money = (value: unknown) => f.money(value);
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
    <div className="fs-home" data-testid="dashboard-home">
      <PageHeader route={home} username={user?.username ?? ''} />
      <Section title={t('home.overview')} action={retry(t('home.overview'))}>
        <div className="fs-card-grid">
          {figureCard(t('home.currentLevel'), () => f.number(analytics?.Current_Level))}
          {/* The rank call first, then the analytics; a member without a rank yet is a Starter (spec §3). */}
          {currentRank.rank !== undefined ? (
            <StatCard label={t('home.currentRank')} value={currentRank.rank} />
          ) : currentRank.isPending ? (
            <StatCard label={t('home.currentRank')} value={null} loading />
          ) : (
            figureCard(t('home.currentRank'), () => textOf(analytics?.Current_Rank) || DEFAULT_RANK)
          )}
          {/* Binary leg volumes are USDT, as in the Volume table's Left and Right Total. */}
          {figureCard(t('home.binaryLeft'), () => money(analytics?.Binary_Left))}
          {figureCard(t('home.binaryRight'), () => money(analytics?.Binary_Right))}
        </div>
      </Section>
      <Section title={t('home.earningsOverview')} action={retry(t('home.earningsOverview'))}>
        <div className="fs-card-grid">
          {figureCard(t('home.activeSubscriptions'), () => f.number(analytics?.Active_Subscriptions))}
          {figureCard(t('home.maxEarnings'), () => money(analytics?.Max_Earnings), t('home.maxEarningsHelp'))}
          {/* Not the Wallets page's Total Earnings (lifetime Binary + Direct + Upline_Bonus + Level wallet
              totals): the income paid against the caps of the member's ACTIVE packages. */}
          {figureCard(
            t('home.totalEarnings'),
            () => money(analytics?.Total_Earnings),
            t('home.totalEarningsHelp'),
          )}
          {figureCard(
            t('home.remainingEarnings'),
            () => money(analytics?.Remaining_Earnings),
            t('home.remainingEarningsHelp'),
          )}
        </div>
      </Section>
      {belowFold && (
        <Suspense fallback={null}>
          <TeamGlance onSettled={onGlanceSettled} />
        </Suspense>
      )}
      {lowerShown && (
        <>
          <NextSteps />
          <Section title={t('home.walletsOverview')}>
            <WalletsOverview />
          </Section>
          <div className="fs-halves">
            <Section title={t('home.latestActivity')}>
              <LatestActivity />
            </Section>
            <Section title={t('home.summary')}>
              <SummaryCard
                teamSize={
                  isPending ? (
                    <span
                      className="fs-skeleton fs-skeleton-figure"
                      role="status"
                      aria-label={t('common.loadingLabel')}
                    />
                  ) : isError ? (
                    <UnavailableText />
                  ) : (
                    f.number(analytics?.Team_Size)
                  )
                }
              />
            </Section>
          </div>
          <InsightsWhenNear />
        </>
      )}
    </div>
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
  const t = useT();
  if (hasPackage !== false && hasTeam !== false) return null;
  return (
    <Section title={t('home.nextSteps')}>
      <div className="fs-halves-narrow">
        {hasPackage === false && <ChoosePackage />}
        {hasTeam === false && <ShareYourLink />}
      </div>
    </Section>
  );
}
