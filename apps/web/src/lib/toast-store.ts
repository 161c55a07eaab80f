/** The app's one toast store with the spec's defaults (§9): 4 s, 3 visible, gap 14, offsets 24 px / 16 px. */
import { createToaster } from '@chakra-ui/react';
import { SIDEBAR_BREAKPOINT_PX, TOAST_DEFAULTS } from '@md/shared';

const isMobile = typeof window !== 'undefined' && window.innerWidth < SIDEBAR_BREAKPOINT_PX;

export const toaster = createToaster({
  placement: 'top-end',
  duration: TOAST_DEFAULTS.duration,
  max: TOAST_DEFAULTS.visibleToasts,
  gap: TOAST_DEFAULTS.gap,
  removeDelay: TOAST_DEFAULTS.removeDelay,
  offsets: `${isMobile ? TOAST_DEFAULTS.offsetMobile : TOAST_DEFAULTS.offsetDesktop}px`,
  pauseOnPageIdle: true,
});
