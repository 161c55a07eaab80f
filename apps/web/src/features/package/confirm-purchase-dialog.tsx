/** The Confirm Purchase panel: package, amount, payment method 'Deposit' and both warnings (spec §2). */
import { Alert, Button, CloseButton, Dialog, Portal, Stack } from '@chakra-ui/react';
import { formatMoney } from '@md/shared';
import { SummaryList } from '@/components/form/summary-list.tsx';
import type { Package } from './package-card.tsx';

interface ConfirmPurchaseDialogProps {
  pkg: Package | null;
  open: boolean;
  processing: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}

export function ConfirmPurchaseDialog({ pkg, open, processing, onCancel, onConfirm }: ConfirmPurchaseDialogProps) {
  return (
    <Dialog.Root open={open && pkg !== null} onOpenChange={(details) => !details.open && !processing && onCancel()} placement="center">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content mx="4">
            <Dialog.Header>
              <Dialog.Title>Confirm Purchase</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Stack gap="4">
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
              </Stack>
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={onCancel} disabled={processing}>
                Cancel
              </Button>
              <Button colorPalette="teal" onClick={onConfirm} loading={processing} loadingText="Processing...">
                Confirm Purchase
              </Button>
            </Dialog.Footer>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label="Close" disabled={processing} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
