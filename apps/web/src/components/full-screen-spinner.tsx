/** A spinner in the middle of the screen while a screen or the session loads (components/first-screen). */
export function FullScreenSpinner({ label = 'Loading' }: { label?: string }) {
  return (
    <div className="fs-centre-screen" role="status" aria-label={label}>
      <span className="fs-spinner" />
    </div>
  );
}
