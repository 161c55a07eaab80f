import { useSyncExternalStore } from 'react';
import { SIDEBAR_BREAKPOINT_PX } from '@md/shared';

/** Below 768 px the table shows cards and a Filters panel (spec §2); one element tree, not two hidden by CSS. */
const QUERY = `(max-width: ${SIDEBAR_BREAKPOINT_PX - 0.02}px)`;

const subscribe = (onChange: () => void) => {
  const list = window.matchMedia(QUERY);
  list.addEventListener?.('change', onChange);
  return () => list.removeEventListener?.('change', onChange);
};

export const useIsMobile = () =>
  useSyncExternalStore(subscribe, () => window.matchMedia(QUERY).matches, () => false);
