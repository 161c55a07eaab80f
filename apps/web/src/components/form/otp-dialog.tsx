/** A modal asking for a mailed 6-digit code, then running the step it confirms. */
import { useState } from 'react';
import { Button, CloseButton, Dialog, Portal, Stack, Text } from '@chakra-ui/react';
import type { ZodType } from 'zod';
import { OtpField } from './otp-field.tsx';

interface OtpDialogProps {
  open: boolean;
  title: string;
  description?: string;
  /** Validates the code (the form's own rule and message). */
  rule: ZodType<string>;
  confirmLabel?: string;
  onClose: () => void;
  /** Runs the confirmed step; a thrown Error keeps the dialog open and shows its message. */
  onConfirm: (otp: string) => Promise<void>;
}

export function OtpDialog({ open, title, description, rule, confirmLabel = 'Confirm', onClose, onConfirm }: OtpDialogProps) {
  const [otp, setOtp] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const close = () => {
    setOtp('');
    setError(undefined);
    onClose();
  };
  const confirm = async () => {
    const parsed = rule.safeParse(otp);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    setBusy(true);
    try {
      await onConfirm(parsed.data);
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog.Root open={open} onOpenChange={(details) => !details.open && close()} placement="center">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content mx="4">
            <form
              noValidate
              onSubmit={(event) => {
                event.preventDefault();
                void confirm();
              }}
            >
              <Dialog.Header>
                <Dialog.Title>{title}</Dialog.Title>
              </Dialog.Header>
              <Dialog.Body>
                <Stack gap="4">
                  {description && <Text color="fg.muted">{description}</Text>}
                  <OtpField
                    value={otp}
                    error={error}
                    autoFocus
                    onChange={(event) => {
                      setOtp(event.target.value);
                      setError(undefined);
                    }}
                  />
                </Stack>
              </Dialog.Body>
              <Dialog.Footer>
                <Button variant="outline" onClick={close} disabled={busy}>
                  Cancel
                </Button>
                <Button type="submit" colorPalette="teal" loading={busy}>
                  {confirmLabel}
                </Button>
              </Dialog.Footer>
              <Dialog.CloseTrigger asChild>
                <CloseButton size="sm" aria-label="Close" />
              </Dialog.CloseTrigger>
            </form>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
