/** Every module's handlers, merged into the one table the transports serve. */
import type { Handlers } from '../transport/handlers.ts';
import { analyticsHandlers } from './analytics/handlers.ts';
import { authHandlers } from './auth/handlers.ts';
import { directHandlers } from './direct/handlers.ts';
import { notificationHandlers } from './notifications/handlers.ts';
import { profileHandlers } from './profile/handlers.ts';

export const handlers: Handlers = {
  ...authHandlers,
  ...profileHandlers,
  ...notificationHandlers,
  ...analyticsHandlers,
  ...directHandlers,
};
