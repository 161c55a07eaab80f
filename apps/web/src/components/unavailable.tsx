/**
 * A figure or list whose read failed: "Unavailable" and a Retry, never a zero that looks like a
 * balance (issue 17). The failure itself stays silent where the spec says so (§8): no toast.
 */
import { Button, HStack, Text } from '@chakra-ui/react';
import { LuRefreshCw } from 'react-icons/lu';

export const UNAVAILABLE = 'Unavailable';

export function Unavailable({ what, onRetry, retrying = false, size = 'sm' }: { what: string; onRetry: () => void; retrying?: boolean; size?: 'sm' | 'md' }) {
  return (
    <HStack gap="2" wrap="wrap" data-testid="unavailable">
      <Text as="span" color="fg.muted" fontSize={size}>
        {UNAVAILABLE}
      </Text>
      <Button size="xs" variant="outline" aria-label={`Retry: ${what}`} loading={retrying} onClick={onRetry}>
        <LuRefreshCw />
        Retry
      </Button>
    </HStack>
  );
}
