/**
 * A figure or list whose read failed: "Unavailable" and a Retry, never a zero that looks like a
 * balance (a member would take it for one). The failure itself stays silent where the spec says so (§8): no toast.
 */
import { Button, HStack, Text } from '@chakra-ui/react';
import { LuRefreshCw } from 'react-icons/lu';

export const UNAVAILABLE = 'Unavailable';

/** Asks the failed read again; `what` names it for assistive technology ('Retry: Wallets Overview'). */
export function RetryButton({
  what,
  onRetry,
  retrying = false,
}: {
  what: string;
  onRetry: () => void;
  retrying?: boolean;
}) {
  return (
    <Button size="xs" variant="outline" aria-label={`Retry: ${what}`} loading={retrying} onClick={onRetry}>
      <LuRefreshCw />
      Retry
    </Button>
  );
}

/** The word in place of the figure, muted (several cards of one read share one RetryButton). */
export function UnavailableText({ size = 'md' }: { size?: 'sm' | 'md' }) {
  return (
    <Text as="span" color="fg.muted" fontSize={size} fontWeight="normal">
      {UNAVAILABLE}
    </Text>
  );
}

export function Unavailable({
  what,
  onRetry,
  retrying = false,
  size = 'sm',
}: {
  what: string;
  onRetry: () => void;
  retrying?: boolean;
  size?: 'sm' | 'md';
}) {
  return (
    <HStack gap="2" wrap="wrap" data-testid="unavailable">
      <UnavailableText size={size} />
      <RetryButton what={what} onRetry={onRetry} retrying={retrying} />
    </HStack>
  );
}
