/** The Confirm Purchase panel: package, amount, payment method 'Deposit' and both warnings (spec §2). */
import { Alert } from '@chakra-ui/react';
import { formatMoney } from '@md/shared';
import { ConfirmDialog } from '@/components/form/confirm-dialog.tsx';
import { SummaryList } from '@/components/form/summary-list.tsx';
import type { Package } from './package-card.tsx';

interface ConfirmPurchaseDialogProps {
  pkg: Package | null;
  open: boolean;
  processing: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}

export function ConfirmPurchaseDialog({
  pkg,
  open,
  processing,
  onCancel,
  onConfirm,
}: ConfirmPurchaseDialogProps) {
  return (
    <ConfirmDialog
      open={open && pkg !== null}
      title="Confirm Purchase"
      confirmLabel="Confirm Purchase"
      busy={processing}
      busyLabel="Processing..."
      onCancel={onCancel}
      onConfirm={onConfirm}
    >
      <SummaryList
        rows={[
          ['Package', pkg?.Name ?? ''],
          ['Amount', formatMoney(pkg?.Price ?? 0)],
          ['Payment method', 'Deposit'],
        ]}
      />
      <Alert.Root status="warning">
        <Alert.Indicator />
        <Alert.Content>
          <Alert.Title>A purchased package cannot be cancelled.</Alert.Title>
          <Alert.Description>Daily ROI is credited Monday through Friday.</Alert.Description>
        </Alert.Content>
      </Alert.Root>
    </ConfirmDialog>
  );
}
