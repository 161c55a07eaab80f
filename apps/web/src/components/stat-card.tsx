import type { ReactNode } from 'react';
import { Card, Stat } from '@chakra-ui/react';

/** One figure in a card: label above, value below. Stat.Root is a <dl>: the help text is a <dd> too. */
export function StatCard({ label, value, help }: { label: string; value: ReactNode; help?: ReactNode }) {
  return (
    <Card.Root size="sm" variant="outline">
      <Card.Body>
        <Stat.Root>
          <Stat.Label>{label}</Stat.Label>
          <Stat.ValueText fontSize="2xl">{value}</Stat.ValueText>
          {help && <Stat.HelpText as="dd">{help}</Stat.HelpText>}
        </Stat.Root>
      </Card.Body>
    </Card.Root>
  );
}
