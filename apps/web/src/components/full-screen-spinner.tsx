import { Center, Spinner } from '@chakra-ui/react';

export function FullScreenSpinner({ label = 'Loading' }: { label?: string }) {
  return (
    <Center minH="100dvh" role="status" aria-label={label}>
      <Spinner size="xl" color="teal.solid" borderWidth="3px" />
    </Center>
  );
}
