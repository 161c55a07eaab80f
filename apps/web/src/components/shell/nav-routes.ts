/**
 * The dashboard's routes of spec §2: name, path, heading and description, without icons, so the
 * router (in the sign-in route's first chunk) does not carry the sidebar's icon set; the sidebar's
 * items add them (nav-items.ts).
 */
export interface NavRoute {
  name: string;
  path: string;
  /** Page heading; '{username}' is replaced with the member's name. */
  heading: string;
  description?: string;
  /** Dashboard is matched exactly; the others also match their sub-paths. */
  end?: boolean;
}

export const NAV_ROUTES: readonly NavRoute[] = [
  {
    name: 'Dashboard',
    path: '/dashboard',
    heading: 'Welcome, {username}',
    description: 'Investment dashboard and performance overview',
    end: true,
  },
  {
    name: 'Package',
    path: '/dashboard/package',
    heading: 'Investment Packages',
    description: 'Select a package to start or upgrade',
  },
  {
    name: 'Wallets',
    path: '/dashboard/wallets',
    heading: 'Wallets',
    description: 'Wallet overview and balances',
  },
  { name: 'Transaction', path: '/dashboard/transactions', heading: 'Package Transactions' },
  {
    name: 'Deposit',
    path: '/dashboard/deposit',
    heading: 'Deposit Funds',
    description: 'Add funds using USDT BEP20',
  },
  { name: 'Bonus', path: '/dashboard/bonus', heading: 'Bonus', description: 'Earned bonuses and rewards' },
  { name: 'Volume', path: '/dashboard/volume', heading: 'Volume', description: 'Team volume and progress' },
  {
    name: 'Binary Chart',
    path: '/dashboard/binarychart',
    heading: 'Binary Chart',
    description: 'Binary tree and team performance',
  },
  {
    name: 'Level Chart',
    path: '/dashboard/levelchart',
    heading: 'Level Chart',
    description: 'Referral network across 5 levels',
  },
  { name: 'Ranks & Rewards', path: '/dashboard/rankrewards', heading: 'Ranks & Rewards' },
  {
    name: 'History',
    path: '/dashboard/history',
    heading: 'History',
    description: 'All transactions and status',
  },
  {
    name: 'Notification',
    path: '/dashboard/notification',
    heading: 'Notification',
    description: 'Notification history',
  },
  {
    name: 'Settings',
    path: '/dashboard/settings',
    heading: 'Settings',
    description: 'Profile, password, wallet address',
  },
];

/**
 * Routes the spec lists beside the sidebar's items without saying whether the sidebar shows them
 * (§2). Every route must be reachable, so the sidebar shows them as a second group under the
 * spec's thirteen items (order and names of those unchanged).
 */
export const EXTRA_NAV_ROUTES = [
  {
    name: 'P2P Transfer',
    path: '/dashboard/p2pTransfer',
    heading: 'P2P Transfer',
    description: 'Send funds to a member of your downline',
  },
  { name: 'Withdraw', path: '/dashboard/withdraw', heading: 'Withdraw' },
  {
    name: 'Timeline',
    path: '/dashboard/timeline',
    heading: 'Timeline',
    description: 'Your account activities',
  },
  { name: 'Support', path: '/dashboard/support', heading: 'Support', description: 'FAQ and contact support' },
] as const satisfies readonly NavRoute[];
