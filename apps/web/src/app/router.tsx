/**
 * Routes of spec §2. Sign-in loads eagerly (it is light, and drawn without Chakra); everything else
 * is split per screen. The dashboard's frame and home are drawn without Chakra too (the first
 * screen's classes); every other screen renders inside a Chakra root (`chakraOutlet`), whose chunk
 * holds Chakra's runtime and the app's system. A screen's chunks (the Chakra root, the dashboard
 * frame, the page) start loading together when the first of them is asked for (`preloadScreen`):
 * rendered one inside the other, each lazy part would only start once its parent had arrived.
 */
import { Suspense, type ComponentType, type ReactNode } from 'react';
import { Navigate, Outlet, type RouteObject } from 'react-router';
import { retryingLazy } from '../components/chunk-boundary.tsx';
import { FullScreenSpinner } from '../components/full-screen-spinner.tsx';
import { EXTRA_NAV_ROUTES, NAV_ROUTES } from '../components/shell/nav-routes.ts';
import { SignInPage } from '../features/auth/sign-in.tsx';
import { AuthProvider } from '../lib/auth.tsx';
import { WholeCatalogs } from './whole-catalogs.tsx';
import { RedirectSignedIn, RequireAuth } from './require-auth.tsx';

type ScreenModule = Promise<{ default: ComponentType }>;
const loadChakraRoot = () => import('../components/ui/chakra-root.tsx');
const loadDashboardLayout = () => import('../components/shell/dashboard-layout.tsx');

/** Each screen's own chunk, by path. */
const SCREEN_LOADERS: Record<string, () => ScreenModule> = {
  '/register': () => import('../features/auth/register.tsx'),
  '/forgot-password': () => import('../features/auth/forgot-password.tsx'),
  '/forgot-username': () => import('../features/auth/forgot-username.tsx'),
  '/dashboard': () => import('../features/dashboard-home/dashboard-home.tsx'),
  '/dashboard/notification': () => import('../features/notifications/notifications.tsx'),
  '/dashboard/settings': () => import('../features/settings/settings.tsx'),
  '/dashboard/transactions': () => import('../features/transactions/transactions.tsx'),
  '/dashboard/history': () => import('../features/history/history.tsx'),
  '/dashboard/deposit': () => import('../features/deposit/deposit.tsx'),
  '/dashboard/package': () => import('../features/package/package-page.tsx'),
  '/dashboard/wallets': () => import('../features/wallets/wallets-page.tsx'),
  '/dashboard/withdraw': () => import('../features/wallets/withdraw-page.tsx'),
  '/dashboard/p2pTransfer': () => import('../features/p2p/p2p-page.tsx'),
  '/dashboard/binarychart': () => import('../features/binary-chart/binary-chart.tsx'),
  '/dashboard/levelchart': () => import('../features/level-chart/level-chart.tsx'),
  '/dashboard/bonus': () => import('../features/bonus/bonus-page.tsx'),
  '/dashboard/volume': () => import('../features/volume/volume-page.tsx'),
  '/dashboard/rankrewards': () => import('../features/rank-rewards/rank-rewards-page.tsx'),
  '/dashboard/timeline': () => import('../features/timeline/timeline-page.tsx'),
  '/dashboard/support': () => import('../features/support/support-page.tsx'),
};

/**
 * Starts loading the chunks the screen at `path` needs, all at once: the Chakra root (not for the
 * dashboard's home), the dashboard frame for a dashboard path, and the screen's own. Called when the Chakra root is first
 * asked for (a navigation from sign-in), and at boot for a stored session on a dashboard URL.
 */
export function preloadScreen(path: string) {
  // A failed load is not an error here: the route's own lazy() load reports it.
  const quiet = () => undefined;
  const screen = path.replace(/\/$/, '');
  if (screen !== '/dashboard') loadChakraRoot().catch(quiet);
  if (screen.startsWith('/dashboard')) loadDashboardLayout().catch(quiet);
  SCREEN_LOADERS[screen]?.().catch(quiet);
}

/**
 * The screen at `path`, rendered once its chunk has loaded; a chunk that cannot be loaded shows a
 * message with Retry in its place, inside the dashboard frame for a dashboard page.
 */
const screen = (path: string) => {
  const Screen = retryingLazy(SCREEN_LOADERS[path]!, path.startsWith('/dashboard') ? 'page' : 'screen');
  return <Screen />;
};
const DashboardLayout = retryingLazy(loadDashboardLayout, 'screen');
const ComingLaterPage = retryingLazy(
  () =>
    import('../components/coming-later-page.tsx').then(({ ComingLaterPage }) => ({
      default: ComingLaterPage,
    })),
  'page',
);

/**
 * The routes drawn with Chakra, inside one Chakra root that stays mounted as the member moves
 * between them. When its chunk cannot be loaded, the message is drawn without Chakra (`frame`: in
 * place of the whole screen, or of the page inside the dashboard frame).
 */
const chakraOutlet = (frame: 'screen' | 'page') => {
  const ChakraOutlet = retryingLazy(() => {
    preloadScreen(window.location.pathname);
    return loadChakraRoot().then(({ ChakraRoot }) => ({
      default: () => (
        <ChakraRoot>
          <Outlet />
        </ChakraRoot>
      ),
    }));
  }, frame);
  return <ChakraOutlet />;
};

/** The screens past sign-in that are not the dashboard's, drawn with Chakra. */
const AUTH_SCREENS_OUTLET = chakraOutlet('screen');

const withSuspense = (element: ReactNode) => <Suspense fallback={<FullScreenSpinner />}>{element}</Suspense>;

/** Pages built in this release; the other dashboard children are stubs until their page is built. */
const BUILT_PAGES: Record<string, ReactNode> = Object.fromEntries(
  Object.keys(SCREEN_LOADERS)
    .filter((path) => path.startsWith('/dashboard/'))
    .map((path) => [path, screen(path)]),
);

const childPath = (path: string) => path.replace('/dashboard/', '');

const dashboardChildren: RouteObject[] = [
  { index: true, element: screen('/dashboard') },
  {
    element: chakraOutlet('page'),
    children: [
      ...NAV_ROUTES.filter((item) => item.path !== '/dashboard').map((item) => ({
        path: childPath(item.path),
        element: BUILT_PAGES[item.path] ?? <ComingLaterPage route={item} />,
      })),
      ...EXTRA_NAV_ROUTES.map((route) => ({
        path: childPath(route.path),
        element: BUILT_PAGES[route.path] ?? <ComingLaterPage route={route} />,
      })),
    ],
  },
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
      // Every screen past sign-in waits for the language's whole catalogs (sign-in has its first part alone).
      {
        element: withSuspense(<WholeCatalogs>{AUTH_SCREENS_OUTLET}</WholeCatalogs>),
        children: [
          { path: '/register', element: withSuspense(screen('/register')) },
          { path: '/forgot-password', element: withSuspense(screen('/forgot-password')) },
          { path: '/forgot-username', element: withSuspense(screen('/forgot-username')) },
        ],
      },
      {
        path: '/dashboard',
        element: (
          <RequireAuth>
            {withSuspense(
              <WholeCatalogs>
                <DashboardLayout />
              </WholeCatalogs>,
            )}
          </RequireAuth>
        ),
        children: dashboardChildren,
      },
      { path: '*', element: <Navigate to="/" replace /> },
    ],
  },
];
