/** Sidebar items of spec §2: name, path, heading and description. */
import type { IconType } from 'react-icons';
import {
  LuActivity,
  LuArrowLeftRight,
  LuBell,
  LuChartColumn,
  LuBanknote,
  LuGift,
  LuHistory,
  LuLifeBuoy,
  LuLayoutDashboard,
  LuNetwork,
  LuPackage,
  LuReceipt,
  LuSettings,
  LuTrophy,
  LuWallet,
  LuWalletCards,
  LuWorkflow,
} from 'react-icons/lu';

export interface NavItem {
  name: string;
  path: string;
  /** Page heading; '{username}' is replaced with the member's name. */
  heading: string;
  description?: string;
  icon: IconType;
  /** Dashboard is matched exactly; the others also match their sub-paths. */
  end?: boolean;
}

export const NAV_ITEMS: readonly NavItem[] = [
  { name: 'Dashboard', path: '/dashboard', heading: 'Welcome, {username}', description: 'Investment dashboard and performance overview', icon: LuLayoutDashboard, end: true },
  { name: 'Package', path: '/dashboard/package', heading: 'Investment Packages', description: 'Select a package to start or upgrade', icon: LuPackage },
  { name: 'Wallets', path: '/dashboard/wallets', heading: 'Wallets', description: 'Wallet overview and balances', icon: LuWallet },
  { name: 'Transaction', path: '/dashboard/transactions', heading: 'Package Transactions', icon: LuReceipt },
  { name: 'Deposit', path: '/dashboard/deposit', heading: 'Deposit Funds', description: 'Add funds using USDT BEP20', icon: LuWalletCards },
  { name: 'Bonus', path: '/dashboard/bonus', heading: 'Bonus', description: 'Earned bonuses and rewards', icon: LuGift },
  { name: 'Volume', path: '/dashboard/volume', heading: 'Volume', description: 'Team volume and progress', icon: LuChartColumn },
  { name: 'Binary Chart', path: '/dashboard/binarychart', heading: 'Binary Chart', description: 'Binary tree and team performance', icon: LuWorkflow },
  { name: 'Level Chart', path: '/dashboard/levelchart', heading: 'Level Chart', description: 'Referral network across 5 levels', icon: LuNetwork },
  { name: 'Ranks & Rewards', path: '/dashboard/rankrewards', heading: 'Ranks & Rewards', icon: LuTrophy },
  { name: 'History', path: '/dashboard/history', heading: 'History', description: 'All transactions and status', icon: LuHistory },
  { name: 'Notification', path: '/dashboard/notification', heading: 'Notification', description: 'Notification history', icon: LuBell },
  { name: 'Settings', path: '/dashboard/settings', heading: 'Settings', description: 'Profile, password, wallet address', icon: LuSettings },
];

/**
 * Routes the spec lists beside the sidebar's items without saying whether the sidebar shows them
 * (§2). Every route must be reachable, so the sidebar shows them as a second group under the
 * spec's thirteen items (order and names of those unchanged).
 */
export const EXTRA_ROUTES = [
  { name: 'P2P Transfer', path: '/dashboard/p2pTransfer', heading: 'P2P Transfer', description: 'Send funds to a member of your downline', icon: LuArrowLeftRight },
  { name: 'Withdraw', path: '/dashboard/withdraw', heading: 'Withdraw', icon: LuBanknote },
  { name: 'Timeline', path: '/dashboard/timeline', heading: 'Timeline', description: 'Your account activities', icon: LuActivity },
  { name: 'Support', path: '/dashboard/support', heading: 'Support', description: 'FAQ and contact support', icon: LuLifeBuoy },
] as const satisfies readonly NavItem[];

export const P2P_ICON = LuArrowLeftRight;

export const headingFor = (item: Pick<NavItem, 'heading'>, username: string) => item.heading.replace('{username}', username);
export const navItemByPath = (path: string) => NAV_ITEMS.find((item) => item.path === path);
