/**
 * Confirmations of the one-way moves into the Withdrawal wallet. Quick transfer's (without it, one click moved every reward wallet, with no way
 * back): each reward wallet and the amount that will move, the total, and that the Withdrawal wallet
 * cannot be swapped back. What is confirmed is what is sent: the plan is fixed when the panel opens.
 */
import { Alert, Text } from '@chakra-ui/react';
import { amountToMicros, microsToAmount, type WalletName } from '@md/shared';
import { ConfirmDialog } from '@/components/form/confirm-dialog.tsx';
import { SummaryList } from '@/components/form/summary-list.tsx';
import { useFormat, useT } from '@/lib/i18n/i18n.tsx';
import { walletTitle } from '@/lib/wallet-text.ts';

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
  const t = useT();
  const f = useFormat();
  const total = quickTransferTotal(legs ?? []);
  return (
    <ConfirmDialog
      open={legs !== null}
      title={t('wallets.quick.title')}
      confirmLabel={t('wallets.quick.confirm', { amount: f.money(total) })}
      busy={busy}
      busyLabel={t('wallets.quick.busy')}
      onCancel={onCancel}
      onConfirm={onConfirm}
    >
      <Text>{t('wallets.quick.intro')}</Text>
      <SummaryList
        rows={[
          ...(legs ?? []).map((leg) => [walletTitle(t, leg.wallet), f.money(leg.amount)] as const),
          [t('wallets.quick.total'), <span data-testid="quick-transfer-total">{f.money(total)}</span>],
          [t('wallets.quick.into'), walletTitle(t, 'Withdrawal')],
        ]}
      />
      <OneWayWarning />
    </ConfirmDialog>
  );
}

/** What every move into the Withdrawal wallet says before it is confirmed: there is no way back. */
export function OneWayWarning() {
  const t = useT();
  return (
    <Alert.Root status="warning">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>{t('wallets.oneWay.title')}</Alert.Title>
        <Alert.Description>{t('wallets.oneWay.description')}</Alert.Description>
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
  const t = useT();
  const f = useFormat();
  return (
    <ConfirmDialog
      open={swap !== null}
      title={t('wallets.swapDialog.title')}
      confirmLabel={t('wallets.swapDialog.confirm', { amount: f.money(swap?.amount ?? 0) })}
      busy={busy}
      busyLabel={t('wallets.swapDialog.busy')}
      onCancel={onCancel}
      onConfirm={onConfirm}
    >
      <SummaryList
        rows={[
          [t('wallets.swapDialog.from'), swap ? walletTitle(t, swap.from) : ''],
          [t('wallets.swapDialog.amount'), f.money(swap?.amount ?? 0)],
          [t('wallets.quick.into'), walletTitle(t, 'Withdrawal')],
        ]}
      />
      <OneWayWarning />
    </ConfirmDialog>
  );
}
