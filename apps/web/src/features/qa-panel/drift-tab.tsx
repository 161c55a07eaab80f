/**
 * Drift: where the provider's answers differ from the contract, one item per endpoint,
 * field and kind, as GET /__qa/drift lists them; Clear forgets them (DELETE /__qa/drift).
 */
import { Badge, Button, Flex, Stack, Text, type TextProps } from '@chakra-ui/react';
import { useQuery } from '@tanstack/react-query';
import { qaApi, qaKeys, type QaDriftEntry } from './qa-api.ts';
import { EmptyNote, ErrorNote, Item, ItemList, SectionHeader, shortTime, useQaAction } from './parts.tsx';

/** Inline code; Chakra's Code recipe is not in the app's trimmed system (components/ui/system.ts), so plain styles. */
const Mono = (props: TextProps) => (
  <Text
    as="code"
    fontFamily="mono"
    fontSize="xs"
    px="1"
    borderRadius="sm"
    bg="colorPalette.subtle"
    color="colorPalette.fg"
    colorPalette="gray"
    {...props}
  />
);

const POLL_MS = 5_000;
const SEEN_MAX = 160;

const KIND_PALETTE: Record<QaDriftEntry['kind'], string> = {
  missing: 'orange',
  extra: 'blue',
  type: 'red',
  value: 'purple',
  envelope: 'red',
};
const KIND_MEANING: Record<QaDriftEntry['kind'], string> = {
  missing: 'a field of the contract is not sent',
  extra: 'a field the contract does not name',
  type: 'a value of another type',
  value: 'a value outside the allowed ones',
  envelope: 'the answer is not { Success } or { Error }',
};

/** The example as JSON (so "12.5" and 12.5 differ), cut to a line or two. */
function seenText(seen: unknown): string {
  const text = JSON.stringify(seen);
  return text.length > SEEN_MAX ? `${text.slice(0, SEEN_MAX - 1)}…` : text;
}

function DriftItem({ entry }: { entry: QaDriftEntry }) {
  return (
    <Item testId="qa-drift-entry" label={`${entry.path} ${entry.field}: ${entry.kind}`}>
      <Flex gap="2" align="center" wrap="wrap">
        <Badge colorPalette={KIND_PALETTE[entry.kind]} variant="subtle" title={KIND_MEANING[entry.kind]}>
          {entry.kind}
        </Badge>
        <Text as="span" fontFamily="mono" fontSize="sm" overflowWrap="anywhere" flex="1" minW="0">
          {entry.path}
        </Text>
        <Text as="span" fontSize="xs" color="fg.muted" whiteSpace="nowrap">
          {entry.count === 1 ? 'once' : `${entry.count} times`}
        </Text>
      </Flex>
      <Text fontFamily="mono" fontSize="sm" fontWeight="semibold" overflowWrap="anywhere">
        {entry.field}
      </Text>
      <Text fontSize="sm" overflowWrap="anywhere">
        <Text as="span" color="fg.muted">
          Expected{' '}
        </Text>
        <Mono>{entry.expected}</Mono>
        {entry.seen === undefined ? (
          // A missing field: nothing came to show.
          <Text as="span" color="fg.muted">
            {' '}
            · not sent
          </Text>
        ) : (
          <>
            <Text as="span" color="fg.muted">
              {' '}
              · seen{' '}
            </Text>
            <Mono colorPalette={KIND_PALETTE[entry.kind]}>{seenText(entry.seen)}</Mono>
          </>
        )}
      </Text>
      <Text fontSize="xs" color="fg.muted">
        First {shortTime(entry.firstSeen)} · last {shortTime(entry.lastSeen)}
      </Text>
    </Item>
  );
}

export function DriftTab() {
  const drift = useQuery({ queryKey: qaKeys.drift, queryFn: qaApi.drift, refetchInterval: POLL_MS });
  const clear = useQaAction(() => qaApi.clearDrift(), {
    changesData: false,
    success: (r) => `${r.deleted} drift finding${r.deleted === 1 ? '' : 's'} cleared`,
  });
  return (
    <Stack gap="3">
      <SectionHeader title="Drift" onRefresh={() => void drift.refetch()} refreshing={drift.isFetching}>
        <Button
          size="xs"
          variant="outline"
          colorPalette="red"
          onClick={() => clear.mutate(undefined)}
          loading={clear.isPending}
          disabled={!drift.data?.length}
        >
          Clear
        </Button>
      </SectionHeader>
      <Text fontSize="xs" color="fg.muted">
        Where the provider’s answers differ from the contract, per endpoint and field. Filled in gateway mode
        (PROVIDER_URL); <Mono>npm run drift</Mono> runs the same check from a terminal.
      </Text>
      {drift.error ? <ErrorNote error={drift.error} /> : null}
      {drift.isPending ? (
        <EmptyNote>Loading...</EmptyNote>
      ) : !drift.data?.length ? (
        <EmptyNote>No drift: every provider answer so far matches the contract.</EmptyNote>
      ) : (
        <ItemList label="Drift findings">
          {drift.data.map((entry) => (
            <DriftItem key={`${entry.path} ${entry.field} ${entry.kind}`} entry={entry} />
          ))}
        </ItemList>
      )}
    </Stack>
  );
}
