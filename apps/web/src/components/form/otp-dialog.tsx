/** A modal asking for a mailed 6-digit code, then running the step it confirms. */
import { useState } from 'react';
import { Text } from '@chakra-ui/react';
import type { ZodType } from 'zod';
import { useT } from '@/lib/i18n/i18n.tsx';
import { ConfirmDialog } from './confirm-dialog.tsx';
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

export function OtpDialog({
  open,
  title,
  description,
  rule,
  confirmLabel,
  onClose,
  onConfirm,
}: OtpDialogProps) {
  const t = useT();
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
      // Shown by the field, which puts a known provider message in the member's language.
      setError(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <ConfirmDialog
      open={open}
      title={title}
      confirmLabel={confirmLabel ?? t('common.confirm')}
      busy={busy}
      onCancel={close}
      onConfirm={() => void confirm()}
    >
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
    </ConfirmDialog>
  );
}
