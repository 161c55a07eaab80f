/**
 * The payment response: QR (150 px), address with copy, amount, TransID and the live 30-minute
 * window. The window is watched (useDepositWatch): once it is paid, refused as partial or expired,
 * the panel says so and the QR code and the address go, so nobody pays a closed window.
 */
import { Alert, Box, Flex, HStack, Image, Stack, Text } from '@chakra-ui/react';
import { MSG, PAYMENT_WINDOW_MINUTES, type OutputOf } from '@md/shared';
import { CopyButton } from '@/components/copy-button.tsx';
import { textOf } from '@/lib/guards.ts';
import { useFormat, useMessageText, useT } from '@/lib/i18n/i18n.tsx';
import type { MessageId } from '@/lib/i18n/catalog-types.ts';
import { formatMinutesSeconds, useCountdown } from './use-countdown.ts';
import { useDepositWatch, type DepositOutcome } from './use-deposit-watch.ts';

export type Payment = OutputOf<'deposit.make_payment'>['Success'];
const QR_SIZE = 150;

/** What a closed window says: the title, its tone and the next step (its text takes the amount). */
const CLOSED: Record<
  Exclude<DepositOutcome, 'open'>,
  { title: MessageId; status: 'success' | 'error'; detail: MessageId }
> = {
  paid: { title: 'deposit.payment.paid.title', status: 'success', detail: 'deposit.payment.paid.detail' },
  partial: {
    title: 'deposit.payment.partial.title',
    status: 'error',
    detail: 'deposit.payment.partial.detail',
  },
  expired: {
    title: 'deposit.payment.expired.title',
    status: 'error',
    detail: 'deposit.payment.expired.detail',
  },
};

export function PaymentDetails({ payment, openedAt }: { payment: Payment; openedAt: number }) {
  const t = useT();
  const f = useFormat();
  const messageText = useMessageText();
  const left = useCountdown(openedAt + PAYMENT_WINDOW_MINUTES * 60_000);
  const amount = f.amount(payment.Amount);
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
                alt={t('deposit.payment.qrAlt')}
                htmlWidth={QR_SIZE}
                htmlHeight={QR_SIZE}
                w={`${QR_SIZE}px`}
                h={`${QR_SIZE}px`}
              />
            </Box>
          ) : (
            <Text color="fg.error">{messageText(MSG.qrMissing)}</Text>
          )}
        </Box>
      )}
      <Stack gap="3" minW="0" flex="1">
        {!closed && (
          <Box>
            <Text fontSize="sm" color="fg.muted">
              {t('deposit.payment.address')}
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
              <CopyButton
                text={address}
                confirmation={messageText(MSG.copiedSuccessfully)}
                aria-label={t('deposit.payment.copyAddress')}
              >
                {t('common.copy')}
              </CopyButton>
            </HStack>
          </Box>
        )}
        <HStack gap="8" flexWrap="wrap">
          <Box>
            <Text fontSize="sm" color="fg.muted">
              {t('deposit.payment.amount')}
            </Text>
            <Text fontWeight="semibold">{t('deposit.payment.amountValue', { amount })}</Text>
          </Box>
          <Box minW="0">
            <Text fontSize="sm" color="fg.muted">
              {t('deposit.payment.transId')}
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
              <Alert.Title>{t(closed.title)}</Alert.Title>
              <Alert.Description>{t(closed.detail, { amount })}</Alert.Description>
            </Alert.Content>
          </Alert.Root>
        ) : (
          <Alert.Root status="warning" size="sm">
            <Alert.Indicator />
            <Alert.Title fontWeight="normal" role="timer" aria-live="off">
              {t('deposit.payment.sendExactly', { amount, time: formatMinutesSeconds(left) })}
            </Alert.Title>
          </Alert.Root>
        )}
      </Stack>
    </Flex>
  );
}
