/** Route stub for dashboard pages a later release builds: the sidebar heading and description. */
import { Text } from '@chakra-ui/react';
import { PageHeader } from './page-header.tsx';

export function ComingLaterPage({
  heading,
  description,
}: {
  heading: string;
  description?: string | undefined;
}) {
  return (
    <section>
      <PageHeader heading={heading} description={description} />
      <Text color="fg.muted">Coming in a later release</Text>
    </section>
  );
}
