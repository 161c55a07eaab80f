import type { ReactNode } from 'react';
import { Card, Heading, Text } from '@chakra-ui/react';

interface SectionCardProps {
  title: string;
  description?: ReactNode;
  children: ReactNode;
  /** The region's accessible name when the title is also a field's label (keeps label look-ups unique). */
  regionLabel?: string;
  /** An anchor a link can land on (#id). */
  id?: string;
}

/** A titled card for one settings section. */
export function SectionCard({ title, description, children, regionLabel, id }: SectionCardProps) {
  return (
    // Landed on by its anchor, it stops below the sticky header rather than under it.
    <Card.Root as="section" variant="outline" aria-label={regionLabel ?? title} id={id} scrollMarginTop="20">
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
