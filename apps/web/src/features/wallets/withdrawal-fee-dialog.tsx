/**
 * The withdrawal confirmation: amount, fee % and fee, the final amount = amount − fee, and the whole
 * destination address, checksummed (EIP-55), where the member confirms it.
 */
import { Text } from '@chakra-ui/react';
import { formatMoney } from '@md/shared';
import { ConfirmDialog } from '@/components/form/confirm-dialog.tsx';
import { SummaryList } from '@/components/form/summary-list.tsx';
import { checksumAddress } from '@/lib/address.ts';

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
  return (
    <ConfirmDialog
      open={quote !== null}
      title="Confirm Withdrawal"
      confirmLabel="Confirm"
      onCancel={onCancel}
      onConfirm={onConfirm}
    >
      {quote && (
        <SummaryList
          rows={[
            ['Amount', formatMoney(quote.amount)],
            ['Fee', `${quote.feePercent}%`],
            ['Fee amount', formatMoney(quote.fee)],
            [
              'Final amount',
              <span data-testid="withdrawal-final-amount">{formatMoney(quote.finalAmount)}</span>,
            ],
            ['To address (BEP.20)', <DestinationAddress address={address} />],
          ]}
        />
      )}
    </ConfirmDialog>
  );
}
