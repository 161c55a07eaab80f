/** The Confirm Purchase panel: package, amount, payment method 'Deposit' and both warnings (spec §2). */
import { Alert } from '@chakra-ui/react';
import { ConfirmDialog } from '@/components/form/confirm-dialog.tsx';
import { SummaryList } from '@/components/form/summary-list.tsx';
import { useFormat, useT } from '@/lib/i18n/i18n.tsx';
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
  const t = useT();
  const f = useFormat();
  return (
    <ConfirmDialog
      open={open && pkg !== null}
      title={t('packages.confirm.title')}
      confirmLabel={t('packages.confirm.title')}
      busy={processing}
      busyLabel={t('common.processing')}
      onCancel={onCancel}
      onConfirm={onConfirm}
    >
      <SummaryList
        rows={[
          [t('common.package'), pkg?.Name ?? ''],
          [t('packages.confirm.amount'), f.money(pkg?.Price ?? 0)],
          [t('packages.confirm.paymentMethod'), t('packages.confirm.deposit')],
        ]}
      />
      <Alert.Root status="warning">
        <Alert.Indicator />
        <Alert.Content>
          <Alert.Title>{t('packages.confirm.noCancel')}</Alert.Title>
          <Alert.Description>{t('packages.confirm.roiDays')}</Alert.Description>
        </Alert.Content>
      </Alert.Root>
    </ConfirmDialog>
  );
}
