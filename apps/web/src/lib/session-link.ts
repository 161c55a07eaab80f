/** Global 401 handling for both modes (spec §8): a 401 on a call made with a token ends the session. */
import type { TRPCLink } from '@trpc/client';
import { observable } from '@trpc/server/observable';
import { httpStatusOf } from './errors.ts';
import type { ContractRouter as AppRouter } from '@md/shared';

export function sessionLink({
  getToken,
  onUnauthorized,
}: {
  getToken: () => string | null;
  onUnauthorized: () => void;
}): TRPCLink<AppRouter> {
  return () =>
    ({ next, op }) =>
      observable((observer) => {
        // Only a call that carried a token can have its session expire; a failed sign-in is not a logout.
        const hadToken = Boolean(getToken());
        return next(op).subscribe({
          next: (value) => observer.next(value),
          complete: () => observer.complete(),
          error: (error) => {
            if (hadToken && httpStatusOf(error) === 401) onUnauthorized();
            observer.error(error);
          },
        });
      });
}
