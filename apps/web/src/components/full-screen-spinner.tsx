import { useT } from '@/lib/i18n/i18n.tsx';

/** A spinner in the middle of the screen while a screen or the session loads (components/first-screen). */
export function FullScreenSpinner({ label }: { label?: string }) {
  const t = useT();
  return (
    <div className="fs-centre-screen" role="status" aria-label={label ?? t('common.loadingLabel')}>
      <span className="fs-spinner" />
    </div>
  );
}
