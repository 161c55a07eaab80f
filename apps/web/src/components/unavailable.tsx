/**
 * A figure or list whose read failed: "Unavailable" and a Retry, never a zero that looks like a
 * balance (a member would take it for one). The failure itself stays silent where the spec says so (§8): no toast.
 */
import { Button, HStack, Text } from '@chakra-ui/react';
import { LuRefreshCw } from 'react-icons/lu';
import { useT } from '@/lib/i18n/i18n.tsx';

/** The English word (tests); on screen it is `common.unavailable` in the member's language. */
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
  const t = useT();
  return (
    <Button
      size="xs"
      variant="outline"
      aria-label={t('common.retryWhat', { what })}
      loading={retrying}
      onClick={onRetry}
    >
      <LuRefreshCw />
      {t('common.retry')}
    </Button>
  );
}

/** The word in place of the figure, muted (several cards of one read share one RetryButton). */
export function UnavailableText({ size = 'md' }: { size?: 'sm' | 'md' }) {
  const t = useT();
  return (
    <Text as="span" color="fg.muted" fontSize={size} fontWeight="normal">
      {t('common.unavailable')}
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
