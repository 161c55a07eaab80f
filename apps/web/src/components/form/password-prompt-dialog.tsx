/**
 * The transaction-password prompt that confirms a money movement (withdrawal, P2P): a summary of
 * what is confirmed, the password, and the confirm button. One component for both flows.
 */
import { useState, type ReactNode } from 'react';
import { MSG } from '@md/shared';
import { useT } from '@/lib/i18n/i18n.tsx';
import { ConfirmDialog } from './confirm-dialog.tsx';
import { PasswordField } from './text-field.tsx';

interface PasswordPromptDialogProps {
  open: boolean;
  title: string;
  /** What the password confirms (amounts, recipient…). */
  children?: ReactNode;
  confirmLabel: string;
  onClose: () => void;
  /** Runs the confirmed step with the password; the caller toasts and closes on success. */
  onConfirm: (password: string) => Promise<void>;
  /** An empty password: the caller's reaction (P2P cancels); otherwise the field asks for it. */
  onEmpty?: () => void;
}

export function PasswordPromptDialog({
  open,
  title,
  children,
  confirmLabel,
  onClose,
  onConfirm,
  onEmpty,
}: PasswordPromptDialogProps) {
  const t = useT();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const close = () => {
    setPassword('');
    setError(undefined);
    onClose();
  };
  const confirm = async () => {
    if (!password) {
      if (onEmpty) {
        setError(undefined);
        onEmpty();
      } else setError(MSG.enterTransactionPassword);
      return;
    }
    setBusy(true);
    try {
      await onConfirm(password);
      setPassword('');
    } finally {
      setBusy(false);
    }
  };

  return (
    <ConfirmDialog
      open={open}
      title={title}
      confirmLabel={confirmLabel}
      busy={busy}
      onCancel={close}
      onConfirm={() => void confirm()}
    >
      {children}
      <PasswordField
        label={t('common.transactionPassword')}
        autoComplete="off"
        autoFocus
        value={password}
        error={error}
        onChange={(event) => {
          setPassword(event.target.value);
          setError(undefined);
        }}
      />
    </ConfirmDialog>
  );
}
