import type { ReactNode } from 'react';
import { Card, Heading, Text } from '@chakra-ui/react';

/** A titled card for one settings section. */
export function SectionCard({ title, description, children }: { title: string; description?: ReactNode; children: ReactNode }) {
  return (
    <Card.Root as="section" variant="outline" aria-label={title}>
      <Card.Header>
        <Heading as="h2" size="md">
          {title}
        </Heading>
        {description && <Text color="fg.muted" fontSize="sm">{description}</Text>}
      </Card.Header>
      <Card.Body>{children}</Card.Body>
    </Card.Root>
  );
}
