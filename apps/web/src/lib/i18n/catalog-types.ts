/**
 * The message ids the code may use, read from the English catalogs: a typo or a key missing from
 * English fails typechecking. A new namespace (a new file in locales/en) is added here too (a test checks).
 */
import type appCatalog from '../../locales/en/app.json';
import type authCatalog from '../../locales/en/auth.json';
import type commonCatalog from '../../locales/en/common.json';
import type depositCatalog from '../../locales/en/deposit.json';
import type earningsCatalog from '../../locales/en/earnings.json';
import type historyCatalog from '../../locales/en/history.json';
import type homeCatalog from '../../locales/en/home.json';
import type msgCatalog from '../../locales/en/msg.json';
import type navCatalog from '../../locales/en/nav.json';
import type networkCatalog from '../../locales/en/network.json';
import type notificationsCatalog from '../../locales/en/notifications.json';
import type p2pCatalog from '../../locales/en/p2p.json';
import type packagesCatalog from '../../locales/en/packages.json';
import type pushCatalog from '../../locales/en/push.json';
import type settingsCatalog from '../../locales/en/settings.json';
import type shellCatalog from '../../locales/en/shell.json';
import type supportCatalog from '../../locales/en/support.json';
import type tablesCatalog from '../../locales/en/tables.json';
import type walletsCatalog from '../../locales/en/wallets.json';

interface EnglishCatalogs {
  app: typeof appCatalog;
  auth: typeof authCatalog;
  common: typeof commonCatalog;
  deposit: typeof depositCatalog;
  earnings: typeof earningsCatalog;
  history: typeof historyCatalog;
  home: typeof homeCatalog;
  msg: typeof msgCatalog;
  nav: typeof navCatalog;
  network: typeof networkCatalog;
  notifications: typeof notificationsCatalog;
  p2p: typeof p2pCatalog;
  packages: typeof packagesCatalog;
  push: typeof pushCatalog;
  settings: typeof settingsCatalog;
  shell: typeof shellCatalog;
  support: typeof supportCatalog;
  tables: typeof tablesCatalog;
  wallets: typeof walletsCatalog;
}

export type Namespace = keyof EnglishCatalogs;
export const NAMESPACES = [
  'app',
  'auth',
  'common',
  'deposit',
  'earnings',
  'history',
  'home',
  'msg',
  'nav',
  'network',
  'notifications',
  'p2p',
  'packages',
  'push',
  'settings',
  'shell',
  'support',
  'tables',
  'wallets',
] as const satisfies readonly Namespace[];

export type MessageId = {
  [N in Namespace]: `${N}.${keyof EnglishCatalogs[N] & string}`;
}[Namespace];
