import { memo, type ReactNode } from 'react';
import { Card, Skeleton, Stat } from '@chakra-ui/react';

/**
 * One figure in a card: label above, value below. Stat.Root is a <dl>: the help text is a <dd> too.
 * `loading` shows a skeleton where the value goes (never a 0 that jumps), as tall as the value's
 * line (2rem, the 2xl text style's, kept when the font size steps down on phones, where the cards
 * stand two to a row): the card keeps its height when the figure arrives.
 */
// Memoised: a page re-renders as each of its reads arrives, and a card whose figure did not change need not restyle.
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
    <Card.Root size="sm" variant="outline" aria-busy={loading || undefined}>
      {/* The card's width is the figure's measure: a longer money format ("US$ 23.450,00") steps
          the figure down to fit instead of breaking it between its digits. */}
      <Card.Body css={{ containerType: 'inline-size' }}>
        <Stat.Root>
          <Stat.Label>{label}</Stat.Label>
          {loading ? (
            <Skeleton as="dd" height="7" width="80%" my="0.5" data-testid="stat-skeleton" />
          ) : (
            <Stat.ValueText
              fontSize={{ base: 'clamp(1rem, 12cqi, 1.25rem)', md: 'clamp(1rem, 12cqi, 1.5rem)' }}
              overflowWrap="anywhere"
            >
              {value}
            </Stat.ValueText>
          )}
          {help && <Stat.HelpText as="dd">{help}</Stat.HelpText>}
        </Stat.Root>
      </Card.Body>
    </Card.Root>
  );
});
