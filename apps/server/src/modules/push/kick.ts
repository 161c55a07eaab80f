/**
 * The push sender of each database connection (sender.ts registers it), kicked after a transaction
 * that queued pushes. Kept apart from sender.ts so that what queues pushes (notify(), the daily
 * runs' worker) does not load the sending library.
 */
import type { Services } from '../../core/services.ts';

export interface Kickable {
  /** Sends what is pending, soon (after the current transaction, if any). */
  kick(): void;
}

const senders = new WeakMap<object, Kickable>();

export const registerSender = (ctx: Pick<Services, 'sqlite'>, sender: Kickable) =>
  senders.set(ctx.sqlite, sender);

/** The sender of a connection, kicked: what the caller's transaction queued goes once it commits. */
export function kickPushes(ctx: Pick<Services, 'sqlite'>): void {
  senders.get(ctx.sqlite)?.kick();
}

/** The sender of a connection (tests wait on it). */
export const senderOf = <T extends Kickable>(ctx: Pick<Services, 'sqlite'>) =>
  senders.get(ctx.sqlite) as T | undefined;
