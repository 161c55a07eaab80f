/** The package list (table.view_subscription); a failure is toasted once ('Failed to load packages'). */
import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { MSG } from '@md/shared';
import { errorMessage } from '@/lib/errors.ts';
import { useMessageText } from '@/lib/i18n/i18n.tsx';
import { notify } from '@/lib/toaster.ts';
import { useTRPC } from '@/lib/trpc.ts';

export function usePackages() {
  const trpc = useTRPC();
  const query = useQuery(trpc['table.view_subscription'].queryOptions({}));
  const { error } = query;
  const messageText = useMessageText();
  useEffect(() => {
    // Toasts leave the render cycle first (the toaster flushes synchronously).
    if (error) queueMicrotask(() => notify.error(messageText(errorMessage(error, MSG.failedLoadPackages))));
  }, [error, messageText]);
  return query;
}
