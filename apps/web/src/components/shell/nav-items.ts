/** Sidebar items of spec §2: the dashboard's routes (nav-routes.ts) with their icons. */
import type { IconType } from 'react-icons';
import {
  LuActivity,
  LuArrowLeftRight,
  LuBanknote,
  LuBell,
  LuChartColumn,
  LuGift,
  LuHistory,
  LuLayoutDashboard,
  LuLifeBuoy,
  LuNetwork,
  LuPackage,
  LuReceipt,
  LuSettings,
  LuTrophy,
  LuWallet,
  LuWalletCards,
  LuWorkflow,
} from 'react-icons/lu';
import { EXTRA_NAV_ROUTES, NAV_ROUTES, type NavRoute } from './nav-routes.ts';

export interface NavItem extends NavRoute {
  icon: IconType;
}

const ICONS: Record<string, IconType> = {
  '/dashboard': LuLayoutDashboard,
  '/dashboard/package': LuPackage,
  '/dashboard/wallets': LuWallet,
  '/dashboard/transactions': LuReceipt,
  '/dashboard/deposit': LuWalletCards,
  '/dashboard/bonus': LuGift,
  '/dashboard/volume': LuChartColumn,
  '/dashboard/binarychart': LuWorkflow,
  '/dashboard/levelchart': LuNetwork,
  '/dashboard/rankrewards': LuTrophy,
  '/dashboard/history': LuHistory,
  '/dashboard/notification': LuBell,
  '/dashboard/settings': LuSettings,
  '/dashboard/p2pTransfer': LuArrowLeftRight,
  '/dashboard/withdraw': LuBanknote,
  '/dashboard/timeline': LuActivity,
  '/dashboard/support': LuLifeBuoy,
};

const withIcon = <T extends NavRoute>(route: T): T & { icon: IconType } => ({
  ...route,
  icon: ICONS[route.path]!,
});

export const NAV_ITEMS: readonly NavItem[] = NAV_ROUTES.map(withIcon);
export const EXTRA_ROUTES = EXTRA_NAV_ROUTES.map(withIcon);

export const P2P_ICON = LuArrowLeftRight;

export const headingFor = (item: Pick<NavItem, 'heading'>, username: string) =>
  item.heading.replace('{username}', username);
export const navItemByPath = (path: string) => NAV_ITEMS.find((item) => item.path === path);
