import { memo, type ReactNode } from 'react';

/**
 * One figure in a card: label above, value below, in a <dl> (the help text is a <dd> too).
 * `loading` shows a skeleton where the value goes (never a 0 that jumps), as tall as the value's
 * line (2rem, the 2xl text style's, kept when the font size steps down on phones, where the cards
 * stand two to a row): the card keeps its height when the figure arrives. Drawn with the first
 * screen's classes (components/first-screen), Chakra's card and stat looks: pages show them by the
 * dozen, and each re-renders as its page's reads arrive.
 */
// Memoised: a page re-renders as each of its reads arrives, and a card whose figure did not change need not render.
export const StatCard = memo(function StatCard({
  label,
  value,
  help,
  loading = false,
}: {
  label: string;
  value: ReactNode;
  help?: ReactNode;
  loading?: boolean;
}) {
  return (
    <div className="fs-stat-card" aria-busy={loading || undefined}>
      {/* The card's width is the figure's measure: a longer money format ("US$ 23.450,00") steps
          the figure down to fit instead of breaking it between its digits. */}
      <div className="fs-stat-card-body">
        <dl className="fs-stat">
          <dt className="fs-stat-label">{label}</dt>
          {/* Keyed apart: the figure is a new element, not the skeleton's restyled, which the
              browser would count as a layout shift of the skeleton's box. */}
          {loading ? (
            <dd key="skeleton" className="fs-stat-skeleton" data-testid="stat-skeleton" />
          ) : (
            <dd key="value" className="fs-stat-value">
              {value}
            </dd>
          )}
          {help && <dd className="fs-stat-help">{help}</dd>}
        </dl>
      </div>
    </div>
  );
});
