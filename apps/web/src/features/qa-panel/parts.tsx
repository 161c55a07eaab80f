/** Small pieces the panel's tabs share: running an action, errors, empty lists, times. */
import type { ReactNode } from 'react';
import { Alert, Box, Button, Flex, HStack, Heading, Stack, Text } from '@chakra-ui/react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { LuRefreshCw } from 'react-icons/lu';
import { notify } from '@/lib/toaster.ts';
import { qaKeys } from './qa-api.ts';

export const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * A QA action: shows its error as a toast (unless `quiet`); on success toasts `success` and refreshes. Actions that
 * change data (`changesData`) refresh every query of the app, so the member's pages behind the
 * panel show the new balances and statuses; the others (faults, journal) refresh the panel only.
 */
export function useQaAction<TVars, TResult>(
  run: (vars: TVars) => Promise<TResult>,
  options: {
    changesData: boolean;
    success?: (result: TResult, vars: TVars) => string | undefined;
    onDone?: (result: TResult, vars: TVars) => void;
    /** The caller shows the error itself (a form, beside its fields). */
    quiet?: boolean;
  },
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: (result, vars) => {
      const message = options.success?.(result, vars);
      if (message) notify.success(message);
      options.onDone?.(result, vars);
      // Not awaited: the button is free again at once; the refetches land when they land.
      void queryClient.invalidateQueries(options.changesData ? undefined : { queryKey: qaKeys.all });
    },
    onError: (error) => {
      if (!options.quiet) notify.error(messageOf(error));
    },
  });
}

export function ErrorNote({ error }: { error: unknown }) {
  return (
    <Alert.Root status="error" size="sm">
      <Alert.Indicator />
      <Alert.Title>{messageOf(error)}</Alert.Title>
    </Alert.Root>
  );
}

export function EmptyNote({ children }: { children: ReactNode }) {
  return (
    <Text color="fg.muted" fontSize="sm" py="3">
      {children}
    </Text>
  );
}

/** A tab's heading with its refresh button (and any other actions). */
export function SectionHeader({
  title,
  onRefresh,
  refreshing,
  children,
}: {
  title: string;
  onRefresh?: () => void;
  refreshing?: boolean;
  children?: ReactNode;
}) {
  return (
    <Flex align="center" justify="space-between" gap="2" wrap="wrap">
      <Heading as="h3" size="sm">
        {title}
      </Heading>
      <HStack gap="2">
        {children}
        {onRefresh && (
          <Button
            size="xs"
            variant="ghost"
            onClick={onRefresh}
            loading={refreshing}
            aria-label={`Refresh ${title.toLowerCase()}`}
          >
            <LuRefreshCw />
            Refresh
          </Button>
        )}
      </HStack>
    </Flex>
  );
}

/** One bordered item of a list (a mail, a deposit, a rule). */
export function Item({ children, testId, label }: { children: ReactNode; testId?: string; label?: string }) {
  return (
    <Box
      as="li"
      listStyleType="none"
      borderWidth="1px"
      borderRadius="md"
      p="3"
      bg="bg"
      data-testid={testId}
      aria-label={label}
    >
      <Stack gap="2">{children}</Stack>
    </Box>
  );
}

export function ItemList({ children, label }: { children: ReactNode; label: string }) {
  return (
    <Stack as="ul" gap="2" aria-label={label} m="0" p="0">
      {children}
    </Stack>
  );
}

const london = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/London',
  weekday: 'short',
  day: '2-digit',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  timeZoneName: 'short',
});
const utc = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'UTC',
  weekday: 'short',
  day: '2-digit',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  timeZoneName: 'short',
});
const londonRun = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/London',
  weekday: 'short',
  day: '2-digit',
  month: 'short',
  hour: '2-digit',
  minute: '2-digit',
  timeZoneName: 'short',
});
const londonShort = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/London',
  day: '2-digit',
  month: 'short',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

/** "Mon, 02 Nov 2026, 09:00:00 GMT": the server's clock is what matters, read in London. */
export const londonTime = (value: string | number) => london.format(new Date(value));
export const utcTime = (value: string | number) => utc.format(new Date(value));
/** "Mon 02 Nov, 11:00 GMT": when a run is due. */
export const runTime = (value: string | number) => londonRun.format(new Date(value));
/** "02 Nov, 09:00:00" (London): list rows. */
export const shortTime = (value: string | number) => londonShort.format(new Date(value));
