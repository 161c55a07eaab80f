/**
 * Routes of spec §2. Sign-in loads eagerly (it is light, and drawn without Chakra); everything else
 * is split per route and renders inside one Chakra root (`ChakraOutlet`), whose chunk (Chakra's
 * runtime and the app's system) loads beside the route's own (`withChakra`).
 */
import { lazy, Suspense, type ReactNode } from 'react';
import { Navigate, Outlet, type RouteObject } from 'react-router';
import { FullScreenSpinner } from '../components/full-screen-spinner.tsx';
import { EXTRA_NAV_ROUTES, NAV_ROUTES } from '../components/shell/nav-routes.ts';
import { SignInPage } from '../features/auth/sign-in.tsx';
import { AuthProvider } from '../lib/auth.tsx';
import { RedirectSignedIn, RequireAuth } from './require-auth.tsx';
import { loadChakraRoot, withChakra } from './chakra-loader.ts';

const RegisterPage = lazy(withChakra(() => import('../features/auth/register.tsx')));
const ForgotPasswordPage = lazy(withChakra(() => import('../features/auth/forgot-password.tsx')));
const ForgotUsernamePage = lazy(withChakra(() => import('../features/auth/forgot-username.tsx')));
const loadDashboardLayout = () => import('../components/shell/dashboard-layout.tsx');
const loadDashboardHome = () => import('../features/dashboard-home/dashboard-home.tsx');
const DashboardLayout = lazy(withChakra(loadDashboardLayout));
const DashboardHomePage = lazy(withChakra(loadDashboardHome));

/**
 * A stored session opens the app on the dashboard: its chunks start loading at boot, beside
 * /config.json, instead of one after another once the routes render.
 */
export function preloadSessionRoutes(path: string) {
  if (!path.startsWith('/dashboard')) return;
  // A failed load is not an error here: the route's own lazy() load reports it.
  const quiet = () => undefined;
  loadChakraRoot().catch(quiet);
  loadDashboardLayout().catch(quiet);
  if (path.replace(/\/$/, '') === '/dashboard') loadDashboardHome().catch(quiet);
}
const ComingLaterPage = lazy(
  withChakra(() =>
    import('../components/coming-later-page.tsx').then(({ ComingLaterPage }) => ({
      default: ComingLaterPage,
    })),
  ),
);
const NotificationsPage = lazy(withChakra(() => import('../features/notifications/notifications.tsx')));
const SettingsPage = lazy(withChakra(() => import('../features/settings/settings.tsx')));
const TransactionsPage = lazy(withChakra(() => import('../features/transactions/transactions.tsx')));
const HistoryPage = lazy(withChakra(() => import('../features/history/history.tsx')));
const DepositPage = lazy(withChakra(() => import('../features/deposit/deposit.tsx')));
const PackagePage = lazy(withChakra(() => import('../features/package/package-page.tsx')));
const WalletsPage = lazy(withChakra(() => import('../features/wallets/wallets-page.tsx')));
const WithdrawPage = lazy(withChakra(() => import('../features/wallets/withdraw-page.tsx')));
const P2PPage = lazy(withChakra(() => import('../features/p2p/p2p-page.tsx')));
const BinaryChartPage = lazy(withChakra(() => import('../features/binary-chart/binary-chart.tsx')));
const LevelChartPage = lazy(withChakra(() => import('../features/level-chart/level-chart.tsx')));
const BonusPage = lazy(withChakra(() => import('../features/bonus/bonus-page.tsx')));
const VolumePage = lazy(withChakra(() => import('../features/volume/volume-page.tsx')));
const RankRewardsPage = lazy(withChakra(() => import('../features/rank-rewards/rank-rewards-page.tsx')));
const TimelinePage = lazy(withChakra(() => import('../features/timeline/timeline-page.tsx')));
const SupportPage = lazy(withChakra(() => import('../features/support/support-page.tsx')));

const withSuspense = (element: ReactNode) => <Suspense fallback={<FullScreenSpinner />}>{element}</Suspense>;

/** The routes drawn with Chakra, inside one Chakra root that stays mounted as the member moves between them. */
const ChakraOutlet = lazy(() =>
  loadChakraRoot().then(({ ChakraRoot }) => ({
    default: () => (
      <ChakraRoot>
        <Outlet />
      </ChakraRoot>
    ),
  })),
);

/** Pages built in this release; the other dashboard children are stubs until their page is built. */
const BUILT_PAGES: Record<string, ReactNode> = {
  '/dashboard/notification': <NotificationsPage />,
  '/dashboard/settings': <SettingsPage />,
  '/dashboard/transactions': <TransactionsPage />,
  '/dashboard/history': <HistoryPage />,
  '/dashboard/deposit': <DepositPage />,
  '/dashboard/package': <PackagePage />,
  '/dashboard/wallets': <WalletsPage />,
  '/dashboard/withdraw': <WithdrawPage />,
  '/dashboard/p2pTransfer': <P2PPage />,
  '/dashboard/binarychart': <BinaryChartPage />,
  '/dashboard/levelchart': <LevelChartPage />,
  '/dashboard/bonus': <BonusPage />,
  '/dashboard/volume': <VolumePage />,
  '/dashboard/rankrewards': <RankRewardsPage />,
  '/dashboard/timeline': <TimelinePage />,
  '/dashboard/support': <SupportPage />,
};

const childPath = (path: string) => path.replace('/dashboard/', '');

const dashboardChildren: RouteObject[] = [
  { index: true, element: <DashboardHomePage /> },
  ...NAV_ROUTES.filter((item) => item.path !== '/dashboard').map((item) => ({
    path: childPath(item.path),
    element: BUILT_PAGES[item.path] ?? (
      <ComingLaterPage heading={item.heading} description={item.description} />
    ),
  })),
  ...EXTRA_NAV_ROUTES.map((route) => ({
    path: childPath(route.path),
    element: BUILT_PAGES[route.path] ?? (
      <ComingLaterPage
        heading={route.heading}
        description={'description' in route ? route.description : undefined}
      />
    ),
  })),
];

export const routes: RouteObject[] = [
  {
    element: (
      <AuthProvider>
        <Outlet />
      </AuthProvider>
    ),
    children: [
      {
        path: '/',
        element: (
          <RedirectSignedIn>
            <SignInPage />
          </RedirectSignedIn>
        ),
      },
      {
        element: withSuspense(<ChakraOutlet />),
        children: [
          { path: '/register', element: withSuspense(<RegisterPage />) },
          { path: '/forgot-password', element: withSuspense(<ForgotPasswordPage />) },
          { path: '/forgot-username', element: withSuspense(<ForgotUsernamePage />) },
          {
            path: '/dashboard',
            element: <RequireAuth>{withSuspense(<DashboardLayout />)}</RequireAuth>,
            children: dashboardChildren,
          },
        ],
      },
      { path: '*', element: <Navigate to="/" replace /> },
    ],
  },
];
