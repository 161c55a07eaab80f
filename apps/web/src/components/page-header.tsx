import { Box, Heading, Text } from '@chakra-ui/react';
import type { NavRoute } from './shell/nav-routes.ts';
import { useNavText } from './shell/nav-text.ts';

/** A page's heading: a dashboard route's own (`route`, in the member's language), or the text given. */
export function PageHeader({
  route,
  username,
  heading,
  description,
}: {
  route?: Pick<NavRoute, 'path' | 'description'> | undefined;
  username?: string;
  heading?: string;
  description?: string | undefined;
}) {
  const nav = useNavText();
  const title = route ? nav.heading(route, username) : heading;
  const subtitle = route ? nav.description(route) : description;
  return (
    <Box mb="6">
      <Heading as="h1" size={{ base: 'xl', md: '2xl' }}>
        {title}
      </Heading>
      {subtitle && (
        <Text color="fg.muted" mt="1">
          {subtitle}
        </Text>
      )}
    </Box>
  );
}
