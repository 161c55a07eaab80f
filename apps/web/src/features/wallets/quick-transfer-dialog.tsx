/**
 * Confirmations of the one-way moves into the Withdrawal wallet. Quick transfer's (without it, one click moved every reward wallet, with no way
 * back): each reward wallet and the amount that will move, the total, and that the Withdrawal wallet
 * cannot be swapped back. What is confirmed is what is sent: the plan is fixed when the panel opens.
 */
import { Alert, Text } from '@chakra-ui/react';
import { amountToMicros, formatMoney, microsToAmount, type WalletName } from '@md/shared';
import { ConfirmDialog } from '@/components/form/confirm-dialog.tsx';
import { SummaryList } from '@/components/form/summary-list.tsx';

export interface QuickTransferLeg {
  wallet: WalletName;
  amount: number;
}

/** The legs' total, summed in micro-units so cents never drift. */
export const quickTransferTotal = (legs: readonly QuickTransferLeg[]) =>
  microsToAmount(legs.reduce((sum, leg) => sum + amountToMicros(leg.amount), 0));

interface QuickTransferDialogProps {
  legs: readonly QuickTransferLeg[] | null;
  busy: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}

export function QuickTransferDialog({ legs, busy, onCancel, onConfirm }: QuickTransferDialogProps) {
  const total = quickTransferTotal(legs ?? []);
  return (
    <ConfirmDialog
      open={legs !== null}
      title="Quick transfer to Withdrawal"
      confirmLabel={`Move ${formatMoney(total)}`}
      busy={busy}
      busyLabel="Moving..."
      onCancel={onCancel}
      onConfirm={onConfirm}
    >
      <Text>These reward wallets will be emptied into your Withdrawal wallet:</Text>
      <SummaryList
        rows={[
          ...(legs ?? []).map((leg) => [`${leg.wallet} Wallet`, formatMoney(leg.amount)] as const),
          ['Total', <span data-testid="quick-transfer-total">{formatMoney(total)}</span>],
          ['Into', 'Withdrawal Wallet'],
        ]}
      />
      <OneWayWarning />
    </ConfirmDialog>
  );
}

/** What every move into the Withdrawal wallet says before it is confirmed: there is no way back. */
export function OneWayWarning() {
  return (
    <Alert.Root status="warning">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>This cannot be undone.</Alert.Title>
        <Alert.Description>
          The Withdrawal wallet cannot be swapped back into a reward wallet or the Deposit wallet.
        </Alert.Description>
      </Alert.Content>
    </Alert.Root>
  );
}

export interface WithdrawalSwap {
  from: WalletName;
  amount: number;
}

/** A swap into the Withdrawal wallet, one-way like Quick transfer: confirmed first, sent as shown. */
export function WithdrawalSwapDialog({
  swap,
  busy,
  onCancel,
  onConfirm,
}: {
  swap: WithdrawalSwap | null;
  busy: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  return (
    <ConfirmDialog
      open={swap !== null}
      title="Swap into Withdrawal"
      confirmLabel={`Swap ${formatMoney(swap?.amount ?? 0)}`}
      busy={busy}
      busyLabel="Swapping..."
      onCancel={onCancel}
      onConfirm={onConfirm}
    >
      <SummaryList
        rows={[
          ['From', `${swap?.from ?? ''} Wallet`],
          ['Amount', formatMoney(swap?.amount ?? 0)],
          ['Into', 'Withdrawal Wallet'],
        ]}
      />
      <OneWayWarning />
    </ConfirmDialog>
  );
}
