import { useSyncExternalStore } from 'react';
import { SIDEBAR_BREAKPOINT_PX } from '@md/shared';

/** Below 768 px (spec §2): the tables show cards and a Filters panel, the shell its drawer only; one element tree, not two hidden by CSS. */
const QUERY = `(max-width: ${SIDEBAR_BREAKPOINT_PX - 0.02}px)`;

const subscribe = (onChange: () => void) => {
  const list = window.matchMedia(QUERY);
  list.addEventListener?.('change', onChange);
  return () => list.removeEventListener?.('change', onChange);
};

export const useIsMobile = () =>
  useSyncExternalStore(
    subscribe,
    () => window.matchMedia(QUERY).matches,
    () => false,
  );
