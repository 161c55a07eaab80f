/** The Wallets page's tabs, and the address that opens it at one (`?tab=withdrawal`). */
export const WALLETS_TABS = ['swap', 'withdrawal'] as const;
export type WalletsTab = (typeof WALLETS_TABS)[number];
export const WITHDRAWAL_TAB_LINK = '/dashboard/wallets?tab=withdrawal';
/** The tab a `tab` search parameter names; Wallet Swap otherwise. */
export const tabOf = (value: string | null): WalletsTab =>
  (WALLETS_TABS as readonly string[]).includes(value ?? '') ? (value as WalletsTab) : 'swap';
