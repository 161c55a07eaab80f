import { Box, Heading, Text } from '@chakra-ui/react';

export function PageHeader({ heading, description }: { heading: string; description?: string | undefined }) {
  return (
    <Box mb="6">
      <Heading as="h1" size={{ base: 'xl', md: '2xl' }}>
        {heading}
      </Heading>
      {description && (
        <Text color="fg.muted" mt="1">
          {description}
        </Text>
      )}
    </Box>
  );
}
