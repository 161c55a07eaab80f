/**
 * A figure or list whose read failed: "Unavailable" and a Retry, never a zero that looks like a
 * balance (a member would take it for one). The failure itself stays silent where the spec says so (§8): no toast.
 * Drawn with the first screen's classes (components/first-screen): the dashboard's frame and home
 * show it without Chakra's runtime.
 */
import { LuRefreshCw } from 'react-icons/lu';
import { useT } from '@/lib/i18n/i18n.tsx';

/** The English word (tests); on screen it is `common.unavailable` in the member's language. */
export const UNAVAILABLE = 'Unavailable';

/** Asks the failed read again; `what` names it for assistive technology ('Retry: Wallets Overview'). */
export function RetryButton({
  what,
  onRetry,
  retrying = false,
}: {
  what: string;
  onRetry: () => void;
  retrying?: boolean;
}) {
  const t = useT();
  // Chakra's Button with `loading`: disabled, the spinner centred over the hidden label.
  return (
    <button
      type="button"
      className="fs-retry"
      aria-label={t('common.retryWhat', { what })}
      data-loading={retrying ? '' : undefined}
      disabled={retrying}
      onClick={onRetry}
    >
      {retrying ? (
        <>
          <span className="fs-loading-centre">
            <span className="fs-loading-spinner" />
          </span>
          <span className="fs-loading-label">
            <LuRefreshCw />
            {t('common.retry')}
          </span>
        </>
      ) : (
        <>
          <LuRefreshCw />
          {t('common.retry')}
        </>
      )}
    </button>
  );
}

/** The word in place of the figure, muted (several cards of one read share one RetryButton). */
export function UnavailableText({ size = 'md' }: { size?: 'sm' | 'md' }) {
  const t = useT();
  return (
    <span className={size === 'sm' ? 'fs-unavailable-word-sm' : 'fs-unavailable-word'}>
      {t('common.unavailable')}
    </span>
  );
}

export function Unavailable({
  what,
  onRetry,
  retrying = false,
  size = 'sm',
}: {
  what: string;
  onRetry: () => void;
  retrying?: boolean;
  size?: 'sm' | 'md';
}) {
  return (
    <div className="fs-unavailable" data-testid="unavailable">
      <UnavailableText size={size} />
      <RetryButton what={what} onRetry={onRetry} retrying={retrying} />
    </div>
  );
}
