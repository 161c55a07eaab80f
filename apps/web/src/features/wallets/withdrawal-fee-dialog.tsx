/** The withdrawal confirmation: amount, fee % and fee, and the final amount = amount − fee. */
import { Button, CloseButton, Dialog, Portal } from '@chakra-ui/react';
import { formatMoney } from '@md/shared';
import { SummaryList } from '@/components/form/summary-list.tsx';

export interface WithdrawalQuote {
  amount: number;
  feePercent: number;
  fee: number;
  finalAmount: number;
}

export function WithdrawalFeeDialog({ quote, onCancel, onConfirm }: { quote: WithdrawalQuote | null; onCancel: () => void; onConfirm: () => void }) {
  return (
    <Dialog.Root open={quote !== null} onOpenChange={(details) => !details.open && onCancel()} placement="center">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content mx="4">
            <Dialog.Header>
              <Dialog.Title>Confirm Withdrawal</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
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
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={onCancel}>
                Cancel
              </Button>
              <Button colorPalette="teal" onClick={onConfirm}>
                Confirm
              </Button>
            </Dialog.Footer>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label="Close" />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
