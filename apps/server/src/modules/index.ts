/** Every module's handlers, merged into the one table the transports serve. */
import type { Handlers } from '../transport/handlers.ts';
import { activityHandlers } from './activity/handlers.ts';
import { analyticsHandlers } from './analytics/handlers.ts';
import { authHandlers } from './auth/handlers.ts';
import { insightHandlers } from './insights/handlers.ts';
import { directHandlers } from './direct/handlers.ts';
import { networkHandlers } from './network/handlers.ts';
import { rankHandlers } from './engine/handlers.ts';
import { notificationHandlers } from './notifications/handlers.ts';
import { profileHandlers } from './profile/handlers.ts';
import { reportHandlers } from './reports/handlers.ts';
import { depositHandlers } from './deposits/deposits.ts';
import { packageHandlers } from './packages/packages.ts';
import { securityHandlers } from './security/security.ts';
import { sessionHandlers } from './sessions/handlers.ts';
import { supportHandlers } from './support/handlers.ts';
import { tableHandlers } from './tables/handlers.ts';
import { teamHandlers } from './team/handlers.ts';
import { p2pHandlers } from './transfers/p2p.ts';
import { walletHandlers } from './wallets/wallets.ts';
import { withdrawalHandlers } from './withdrawals/withdrawals.ts';

export const handlers: Handlers = {
  ...authHandlers,
  ...profileHandlers,
  ...notificationHandlers,
  ...analyticsHandlers,
  ...directHandlers,
  ...walletHandlers,
  ...depositHandlers,
  ...packageHandlers,
  ...p2pHandlers,
  ...securityHandlers,
  ...withdrawalHandlers,
  ...tableHandlers,
  ...networkHandlers,
  ...rankHandlers,
  // Extensions of this stand-in (advertised in /config.json capabilities), not provider endpoints.
  ...supportHandlers,
  ...activityHandlers,
  ...insightHandlers,
  ...reportHandlers,
  ...teamHandlers,
  ...sessionHandlers,
};
