/** The home's titled region. */
import type { ReactNode } from 'react';

/** A titled region; `action` (a Retry) stands beside the title. Drawn with the first screen's classes. */
export function Section({
  title,
  action,
  children,
}: {
  title: string;
  action?: ReactNode;
  children: ReactNode;
}) {
  return (
    <section aria-label={title}>
      <div className="fs-section-head">
        <h2 className="fs-section-title">{title}</h2>
        {action}
      </div>
      {children}
    </section>
  );
}
