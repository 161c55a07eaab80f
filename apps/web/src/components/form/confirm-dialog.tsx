/**
 * The one modal shell of the app's confirmations (purchase, withdrawal fee, OTP, transaction
 * password): a title, a body, Cancel and a confirm button. It is a form, so Enter confirms; while
 * `busy` it can't be dismissed.
 */
import type { ReactNode } from 'react';
import { Button, CloseButton, Dialog, Portal, Stack } from '@chakra-ui/react';
import { useT } from '@/lib/i18n/i18n.tsx';

interface ConfirmDialogProps {
  open: boolean;
  title: string;
  confirmLabel: string;
  busy?: boolean;
  busyLabel?: string;
  onCancel: () => void;
  onConfirm: () => void;
  children: ReactNode;
}

export function ConfirmDialog({
  open,
  title,
  confirmLabel,
  busy = false,
  busyLabel,
  onCancel,
  onConfirm,
  children,
}: ConfirmDialogProps) {
  const t = useT();
  return (
    <Dialog.Root
      open={open}
      onOpenChange={(details) => !details.open && !busy && onCancel()}
      placement="center"
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content mx="4">
            <form
              noValidate
              onSubmit={(event) => {
                event.preventDefault();
                onConfirm();
              }}
            >
              <Dialog.Header>
                <Dialog.Title>{title}</Dialog.Title>
              </Dialog.Header>
              <Dialog.Body>
                <Stack gap="4">{children}</Stack>
              </Dialog.Body>
              <Dialog.Footer>
                <Button variant="outline" onClick={onCancel} disabled={busy}>
                  {t('common.cancel')}
                </Button>
                <Button
                  type="submit"
                  colorPalette="teal"
                  loading={busy}
                  {...(busyLabel ? { loadingText: busyLabel } : {})}
                >
                  {confirmLabel}
                </Button>
              </Dialog.Footer>
              <Dialog.CloseTrigger asChild>
                <CloseButton size="sm" aria-label={t('common.close')} disabled={busy} />
              </Dialog.CloseTrigger>
            </form>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
