/** Every module's handlers, merged into the one table the transports serve. */
import type { Handlers } from '../transport/handlers.ts';

export const handlers: Handlers = {};
