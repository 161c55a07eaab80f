/** Journal: the latest contract calls (time, method, path, status, duration); open one for its redacted bodies. */
import { useState } from 'react';
import { Badge, Box, Button, Field, Flex, Input, Stack, Text } from '@chakra-ui/react';
import { useQuery } from '@tanstack/react-query';
import { useDebouncedValue } from '@/lib/use-debounced-value.ts';
import { qaApi, qaKeys, type QaJournalEntry } from './qa-api.ts';
import { EmptyNote, ErrorNote, SectionHeader, useQaAction } from './parts.tsx';

const LIMIT = 50;
const POLL_MS = 3_000;
const timeOnly = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/London',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

const statusPalette = (entry: QaJournalEntry) =>
  entry.pending || entry.status === null
    ? 'gray'
    : entry.status < 400
      ? 'green'
      : entry.status < 500
        ? 'orange'
        : 'red';
const statusText = (entry: QaJournalEntry) =>
  entry.pending ? 'pending' : entry.status === null ? (entry.outcome ?? 'no answer') : String(entry.status);

function Json({ label, value }: { label: string; value: unknown }) {
  return (
    <Stack gap="1">
      <Text fontSize="xs" fontWeight="semibold">
        {label}
      </Text>
      <Box
        as="pre"
        fontSize="xs"
        fontFamily="mono"
        bg="bg.muted"
        p="2"
        borderRadius="sm"
        overflowX="auto"
        maxH="16rem"
        whiteSpace="pre-wrap"
        overflowWrap="anywhere"
      >
        {value === null || value === undefined
          ? '—'
          : typeof value === 'string'
            ? value
            : JSON.stringify(value, null, 2)}
      </Box>
    </Stack>
  );
}

function Entry({ entry }: { entry: QaJournalEntry }) {
  return (
    <Box as="li" listStyleType="none" borderBottomWidth="1px" data-testid="qa-journal-entry">
      <Box as="details">
        <Box as="summary" cursor="pointer" py="2" px="1" _hover={{ bg: 'bg.muted' }} borderRadius="sm">
          {/* The summary stays one logical line for a screen reader: time method path status duration. */}
          <Flex
            as="span"
            display="inline-flex"
            gap="2"
            wrap="wrap"
            align="center"
            fontSize="sm"
            maxW="calc(100% - 1.5rem)"
          >
            <Text as="span" fontFamily="mono" color="fg.muted">
              {timeOnly.format(new Date(entry.time))}
            </Text>
            <Text as="span" fontFamily="mono" fontWeight="semibold">
              {entry.method}
            </Text>
            <Text as="span" fontFamily="mono" overflowWrap="anywhere">
              {entry.path}
            </Text>
            <Badge colorPalette={statusPalette(entry)} variant="subtle">
              {statusText(entry)}
            </Badge>
            <Text as="span" color="fg.muted">
              {entry.durationMs === null ? '' : `${entry.durationMs} ms`}
            </Text>
            {entry.member ? (
              <Text as="span" color="fg.muted">
                {entry.member}
              </Text>
            ) : null}
            {entry.fault ? (
              <Badge colorPalette="purple" variant="outline">
                fault {entry.fault.id}: {entry.fault.effect}
              </Badge>
            ) : null}
          </Flex>
        </Box>
        <Stack gap="2" pb="3" px="1">
          <Text fontSize="xs" color="fg.muted">
            {entry.transport.toUpperCase()} {entry.url} · {entry.procedure}
          </Text>
          <Json label="Request body" value={entry.requestBody} />
          <Json label="Response body" value={entry.responseBody} />
        </Stack>
      </Box>
    </Box>
  );
}

export function JournalTab() {
  const [member, setMember] = useState('');
  const filter = useDebouncedValue(member.trim().toLowerCase(), 300);
  const journal = useQuery({
    queryKey: qaKeys.journal(filter),
    queryFn: () => qaApi.journal({ member: filter, limit: LIMIT }),
    refetchInterval: POLL_MS,
  });
  const clear = useQaAction(() => qaApi.clearJournal(), {
    changesData: false,
    success: (r) => `${r.deleted} journal entr${r.deleted === 1 ? 'y' : 'ies'} cleared`,
  });
  return (
    <Stack gap="3">
      <SectionHeader title="Journal" onRefresh={() => void journal.refetch()} refreshing={journal.isFetching}>
        <Button
          size="xs"
          variant="outline"
          colorPalette="red"
          onClick={() => clear.mutate(undefined)}
          loading={clear.isPending}
        >
          Clear
        </Button>
      </SectionHeader>
      <Field.Root>
        <Field.Label>Member</Field.Label>
        <Input
          size="sm"
          type="search"
          value={member}
          onChange={(e) => setMember(e.target.value)}
          placeholder="every member"
          autoCapitalize="none"
        />
        <Field.HelperText>
          The latest {LIMIT} contract calls, newest first; secrets are redacted by the server.
        </Field.HelperText>
      </Field.Root>
      {journal.error ? <ErrorNote error={journal.error} /> : null}
      {journal.isPending ? (
        <EmptyNote>Loading...</EmptyNote>
      ) : !journal.data?.length ? (
        <EmptyNote>No calls recorded{filter ? ` for ${filter}` : ''}.</EmptyNote>
      ) : (
        <Stack as="ul" gap="0" m="0" p="0" aria-label="Journal entries">
          {journal.data.map((entry) => (
            <Entry key={entry.id} entry={entry} />
          ))}
        </Stack>
      )}
    </Stack>
  );
}
