/** The withdrawal confirmation: amount, fee % and fee, and the final amount = amount − fee. */
import { formatMoney } from '@md/shared';
import { ConfirmDialog } from '@/components/form/confirm-dialog.tsx';
import { SummaryList } from '@/components/form/summary-list.tsx';

export interface WithdrawalQuote {
  amount: number;
  feePercent: number;
  fee: number;
  finalAmount: number;
}

export function WithdrawalFeeDialog({ quote, onCancel, onConfirm }: { quote: WithdrawalQuote | null; onCancel: () => void; onConfirm: () => void }) {
  return (
    <ConfirmDialog open={quote !== null} title="Confirm Withdrawal" confirmLabel="Confirm" onCancel={onCancel} onConfirm={onConfirm}>
      {quote && (
        <SummaryList
          rows={[
            ['Amount', formatMoney(quote.amount)],
            ['Fee', `${quote.feePercent}%`],
            ['Fee amount', formatMoney(quote.fee)],
            ['Final amount', <span data-testid="withdrawal-final-amount">{formatMoney(quote.finalAmount)}</span>],
          ]}
        />
      )}
    </ConfirmDialog>
  );
}
