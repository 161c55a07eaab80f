import { useCallback, useSyncExternalStore } from 'react';
import { SIDEBAR_BREAKPOINT_PX } from '@md/shared';

/** Whether a media query matches now, following its changes. */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const list = window.matchMedia(query);
      list.addEventListener?.('change', onChange);
      return () => list.removeEventListener?.('change', onChange);
    },
    [query],
  );
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia(query).matches,
    () => false,
  );
}

/** Below 768 px (spec §2): the tables show cards and a Filters panel, the shell its drawer only; one element tree, not two hidden by CSS. */
export const useIsMobile = () => useMediaQuery(`(max-width: ${SIDEBAR_BREAKPOINT_PX - 0.02}px)`);
