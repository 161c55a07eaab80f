import type { ReactNode } from 'react';
import { Card, Heading, Text } from '@chakra-ui/react';

interface SectionCardProps {
  title: string;
  description?: ReactNode;
  children: ReactNode;
  /** The region's accessible name when the title is also a field's label (keeps label look-ups unique). */
  regionLabel?: string;
}

/** A titled card for one settings section. */
export function SectionCard({ title, description, children, regionLabel }: SectionCardProps) {
  return (
    <Card.Root as="section" variant="outline" aria-label={regionLabel ?? title}>
      <Card.Header>
        <Heading as="h2" size="md">
          {title}
        </Heading>
        {description && (
          <Text color="fg.muted" fontSize="sm">
            {description}
          </Text>
        )}
      </Card.Header>
      <Card.Body>{children}</Card.Body>
    </Card.Root>
  );
}
