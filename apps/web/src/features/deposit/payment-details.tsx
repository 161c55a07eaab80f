/**
 * The payment response: QR (150 px), address with copy, amount, TransID and the live 30-minute
 * window. The window is watched (useDepositWatch): once it is paid, refused as partial or expired,
 * the panel says so and the QR code and the address go, so nobody pays a closed window.
 */
import { Alert, Box, Flex, HStack, Image, Stack, Text } from '@chakra-ui/react';
import { MSG, PAYMENT_WINDOW_MINUTES, formatAmount, type OutputOf } from '@md/shared';
import { CopyButton } from '@/components/copy-button.tsx';
import { textOf } from '@/lib/guards.ts';
import { formatMinutesSeconds, useCountdown } from './use-countdown.ts';
import { useDepositWatch, type DepositOutcome } from './use-deposit-watch.ts';

export type Payment = OutputOf<'deposit.make_payment'>['Success'];
const QR_SIZE = 150;

/** What a closed window says: the title, its tone and the next step. */
const CLOSED: Record<
  Exclude<DepositOutcome, 'open'>,
  { title: string; status: 'success' | 'error'; detail: (amount: string) => string }
> = {
  paid: {
    title: 'Paid — credited',
    status: 'success',
    detail: (amount) => `${amount} USDT was credited to your Deposit wallet.`,
  },
  partial: {
    title: 'Partial payment not accepted',
    status: 'error',
    detail: (amount) =>
      `Less than ${amount} USDT arrived, so nothing was credited. Do not send more to this address; start a new deposit.`,
  },
  expired: {
    title: 'Expired',
    status: 'error',
    detail: () => 'The payment window has closed. Do not send to this address; start a new deposit to pay.',
  },
};

export function PaymentDetails({ payment, openedAt }: { payment: Payment; openedAt: number }) {
  const left = useCountdown(openedAt + PAYMENT_WINDOW_MINUTES * 60_000);
  const amount = formatAmount(payment.Amount);
  // Text fields read defensively: the answer's shape is the provider's (spec §8).
  const qrCode = textOf(payment.QR_Code);
  const address = textOf(payment.Address, '-');
  const transId = textOf(payment.TransID, '-');
  const outcome = useDepositWatch(transId, left);
  const closed = outcome === 'open' ? null : CLOSED[outcome];
  return (
    <Flex
      gap="6"
      direction={{ base: 'column', sm: 'row' }}
      align={{ base: 'stretch', sm: 'start' }}
      borderWidth="1px"
      borderRadius="md"
      p="4"
      data-testid="payment-details"
      data-outcome={outcome}
    >
      {!closed && (
        <Box flexShrink={0} alignSelf={{ base: 'center', sm: 'start' }}>
          {qrCode ? (
            // A white frame around the 150 px QR so scanners read it in the dark theme too.
            <Box bg="white" p="1" borderRadius="sm">
              <Image
                src={qrCode}
                alt="Deposit QR code"
                htmlWidth={QR_SIZE}
                htmlHeight={QR_SIZE}
                w={`${QR_SIZE}px`}
                h={`${QR_SIZE}px`}
              />
            </Box>
          ) : (
            <Text color="fg.error">{MSG.qrMissing}</Text>
          )}
        </Box>
      )}
      <Stack gap="3" minW="0" flex="1">
        {!closed && (
          <Box>
            <Text fontSize="sm" color="fg.muted">
              Address (BEP20)
            </Text>
            <HStack gap="2" align="center" flexWrap="wrap">
              <Text
                fontFamily="mono"
                fontSize="sm"
                overflowWrap="anywhere"
                minW="0"
                data-testid="deposit-address"
              >
                {address}
              </Text>
              <CopyButton text={address} confirmation={MSG.copiedSuccessfully} aria-label="Copy address">
                Copy
              </CopyButton>
            </HStack>
          </Box>
        )}
        <HStack gap="8" flexWrap="wrap">
          <Box>
            <Text fontSize="sm" color="fg.muted">
              Amount
            </Text>
            <Text fontWeight="semibold">{amount} USDT</Text>
          </Box>
          <Box minW="0">
            <Text fontSize="sm" color="fg.muted">
              TransID
            </Text>
            <Text fontFamily="mono" fontSize="sm" overflowWrap="anywhere" data-testid="deposit-transid">
              {transId}
            </Text>
          </Box>
        </HStack>
        {closed ? (
          // Announced once when the window closes (role status is a polite live region).
          <Alert.Root status={closed.status} size="sm" role="status" data-testid="deposit-outcome">
            <Alert.Indicator />
            <Alert.Content>
              <Alert.Title>{closed.title}</Alert.Title>
              <Alert.Description>{closed.detail(amount)}</Alert.Description>
            </Alert.Content>
          </Alert.Root>
        ) : (
          <Alert.Root status="warning" size="sm">
            <Alert.Indicator />
            <Alert.Title fontWeight="normal" role="timer" aria-live="off">
              {`Send exactly ${amount} USDT (BEP20) within ${formatMinutesSeconds(left)} — partial payments are not accepted`}
            </Alert.Title>
          </Alert.Root>
        )}
      </Stack>
    </Flex>
  );
}
