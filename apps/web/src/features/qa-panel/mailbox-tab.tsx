/** Mailbox: the newest mails with their OTPs up front and a copy button; filter by address or username. */
import { Badge, Box, Field, Flex, Input, Stack, Text } from '@chakra-ui/react';
import { useQuery } from '@tanstack/react-query';
import { CopyButton } from '@/components/copy-button.tsx';
import { useDebouncedValue } from '@/lib/use-debounced-value.ts';
import { qaApi, qaKeys, type QaMail } from './qa-api.ts';
import { EmptyNote, ErrorNote, Item, ItemList, SectionHeader, shortTime } from './parts.tsx';

const SHOWN = 20;
// OTPs arrive while QA waits on a form: look again every few seconds while the tab is open.
const POLL_MS = 3_000;

/** With SMTP_URL set: whether the mail left. Without it every mail stays in the outbox and shows nothing. */
function DeliveryNote({ mail }: { mail: QaMail }) {
  if (mail.delivery === 'failed')
    return (
      <Text fontSize="xs" color="fg.error" data-testid="qa-mail-delivery">
        Not delivered after {mail.attempts ?? 0} attempt{mail.attempts === 1 ? '' : 's'}:{' '}
        {mail.lastError ?? 'unknown error'}
      </Text>
    );
  if (mail.delivery === 'pending')
    return (
      <Text fontSize="xs" color="fg.warning" data-testid="qa-mail-delivery">
        Sending
        {mail.attempts ? ` (attempt ${mail.attempts} failed: ${mail.lastError ?? 'unknown error'})` : ''}
      </Text>
    );
  if (mail.delivery === 'sent')
    return (
      <Text fontSize="xs" color="fg.muted" data-testid="qa-mail-delivery">
        Delivered by SMTP
      </Text>
    );
  return null;
}

function Mail({ mail, latest }: { mail: QaMail; latest: boolean }) {
  return (
    <Item testId="qa-mail" label={`${mail.subject} to ${mail.to}`}>
      <Flex justify="space-between" gap="2" align="start">
        <Box minW="0">
          <Text fontWeight="semibold" fontSize="sm">
            {mail.subject}
          </Text>
          <Text fontSize="xs" color="fg.muted" overflowWrap="anywhere">
            to {mail.to} · {shortTime(mail.sentAt)}
          </Text>
        </Box>
        {latest ? (
          <Badge colorPalette="purple" variant="subtle" flexShrink={0}>
            Latest
          </Badge>
        ) : null}
      </Flex>
      <DeliveryNote mail={mail} />
      {mail.otp ? (
        <Flex align="center" gap="2" wrap="wrap">
          <Text as="span" fontSize="xs" color="fg.muted">
            OTP
          </Text>
          <Text
            as="span"
            fontFamily="mono"
            fontSize="xl"
            fontWeight="bold"
            letterSpacing="widest"
            color="purple.fg"
            bg="purple.subtle"
            px="2"
            borderRadius="sm"
            data-testid="qa-mail-otp"
          >
            {mail.otp}
          </Text>
          <CopyButton
            text={mail.otp}
            confirmation={`Copied OTP ${mail.otp}`}
            size="xs"
            aria-label={`Copy OTP ${mail.otp}`}
          >
            Copy
          </CopyButton>
        </Flex>
      ) : null}
      <Box as="details" fontSize="sm">
        <Box as="summary" cursor="pointer" color="fg.muted" fontSize="xs">
          Show the text
        </Box>
        <Text whiteSpace="pre-wrap" mt="1" fontSize="xs" overflowWrap="anywhere">
          {mail.text}
        </Text>
      </Box>
    </Item>
  );
}

export function MailboxTab({
  filter,
  onFilterChange,
}: {
  filter: string;
  onFilterChange: (value: string) => void;
}) {
  const to = useDebouncedValue(filter.trim(), 300);
  const mails = useQuery({
    queryKey: qaKeys.mailbox(to),
    queryFn: () => qaApi.mailbox(to),
    refetchInterval: POLL_MS,
  });
  const shown = mails.data?.slice(0, SHOWN) ?? [];
  return (
    <Stack gap="3">
      <SectionHeader title="Mailbox" onRefresh={() => void mails.refetch()} refreshing={mails.isFetching} />
      <Field.Root>
        <Field.Label>Address or username</Field.Label>
        <Input
          size="sm"
          type="search"
          value={filter}
          placeholder="demo or demo@example.com"
          autoCapitalize="none"
          onChange={(e) => onFilterChange(e.target.value)}
        />
        <Field.HelperText>
          Newest first{mails.data && mails.data.length > SHOWN ? `; the latest ${SHOWN} shown` : ''}.
        </Field.HelperText>
      </Field.Root>
      {mails.error ? <ErrorNote error={mails.error} /> : null}
      {mails.isPending ? (
        <EmptyNote>Loading...</EmptyNote>
      ) : shown.length === 0 ? (
        <EmptyNote>{to ? `No mail to ${to}.` : 'No mail sent yet.'}</EmptyNote>
      ) : (
        <ItemList label="Mails">
          {shown.map((mail, i) => (
            <Mail key={`${mail.sentAt}-${mail.to}-${i}`} mail={mail} latest={i === 0} />
          ))}
        </ItemList>
      )}
    </Stack>
  );
}
