/** The app's one toaster with the spec's defaults (§9): 4 s, 3 visible, gap 14, offsets 24 px / 16 px. */
import { createToaster } from '@chakra-ui/react';
import { COPY_CONFIRM_MS, SIDEBAR_BREAKPOINT_PX, TOAST_DEFAULTS } from '@md/shared';

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

type ToastType = 'success' | 'error' | 'info' | 'warning' | 'loading';

const show = (type: ToastType, title: string, duration?: number) =>
  toaster.create({ type, title, closable: true, ...(duration ? { duration } : {}) });

export const notify = {
  success: (title: string) => show('success', title),
  error: (title: string) => show('error', title),
  info: (title: string) => show('info', title),
  warning: (title: string) => show('warning', title),
  /** Copy confirmations last 2 s (spec §4). */
  copied: (title: string) => show('success', title, COPY_CONFIRM_MS),
};
