/** A dashboard route's name, heading and description in the member's language (catalog `nav`). */
import { useMemo } from 'react';
import { useT } from '@/lib/i18n/i18n.tsx';
import type { MessageId } from '@/lib/i18n/catalog-types.ts';
import type { NavRoute } from './nav-routes.ts';

/** '/dashboard' → 'dashboard', '/dashboard/p2pTransfer' → 'p2pTransfer': the route's catalog key. */
export const routeKey = (route: Pick<NavRoute, 'path'>) => route.path.split('/').pop() ?? 'dashboard';

export function useNavText() {
  const t = useT();
  return useMemo(
    () => ({
      name: (route: Pick<NavRoute, 'path'>) => t(`nav.${routeKey(route)}.name` as MessageId),
      heading: (route: Pick<NavRoute, 'path'>, username = '') =>
        t(`nav.${routeKey(route)}.heading` as MessageId, { username }),
      description: (route: Pick<NavRoute, 'path' | 'description'>) =>
        route.description ? t(`nav.${routeKey(route)}.description` as MessageId) : undefined,
    }),
    [t],
  );
}
