/**
 * The withdrawal confirmation: amount, fee % and fee, the final amount = amount − fee, and the whole
 * destination address, checksummed (EIP-55), where the member confirms it.
 */
import { Text } from '@chakra-ui/react';
import { ConfirmDialog } from '@/components/form/confirm-dialog.tsx';
import { SummaryList } from '@/components/form/summary-list.tsx';
import { checksumAddress } from '@/lib/address.ts';
import { useFormat, useT } from '@/lib/i18n/i18n.tsx';

export interface WithdrawalQuote {
  amount: number;
  feePercent: number;
  fee: number;
  finalAmount: number;
}

/**
 * The destination, whole and checksummed, broken anywhere so it wraps on a phone. A plain <code>:
 * Chakra's Code recipe is not in the app's trimmed system.
 */
export function DestinationAddress({ address }: { address: string | null | undefined }) {
  return (
    <Text
      as="code"
      fontFamily="mono"
      fontSize="sm"
      bg="bg.muted"
      px="1"
      borderRadius="sm"
      wordBreak="break-all"
      data-testid="withdrawal-destination"
    >
      {address ? checksumAddress(address) : '-'}
    </Text>
  );
}

export function WithdrawalFeeDialog({
  quote,
  address,
  onCancel,
  onConfirm,
}: {
  quote: WithdrawalQuote | null;
  address: string | null | undefined;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  const t = useT();
  const f = useFormat();
  return (
    <ConfirmDialog
      open={quote !== null}
      title={t('wallets.fee.title')}
      confirmLabel={t('common.confirm')}
      onCancel={onCancel}
      onConfirm={onConfirm}
    >
      {quote && (
        <SummaryList
          rows={[
            [t('wallets.fee.amount'), f.money(quote.amount)],
            [t('wallets.fee.fee'), f.percent(quote.feePercent)],
            [t('wallets.fee.feeAmount'), f.money(quote.fee)],
            [
              t('wallets.fee.finalAmount'),
              <span data-testid="withdrawal-final-amount">{f.money(quote.finalAmount)}</span>,
            ],
            [t('wallets.withdrawal.toAddress'), <DestinationAddress address={address} />],
          ]}
        />
      )}
    </ConfirmDialog>
  );
}
