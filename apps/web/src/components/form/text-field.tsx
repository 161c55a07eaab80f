/** A labelled input with its error: Field.Label is tied to the input, so it is found by its label. */
import { forwardRef, useState, type ReactNode } from 'react';
import { Field, IconButton, Input, InputGroup, type InputProps } from '@chakra-ui/react';
import { useMessageText, useT } from '@/lib/i18n/i18n.tsx';
import { LuEye, LuEyeOff, LuLock } from '../ui/first-screen-icons.ts';

export interface TextFieldProps extends Omit<InputProps, 'size'> {
  label: string;
  error?: string | undefined;
  helper?: ReactNode;
  /** Spec §5: cut is blocked on the login fields. */
  blockCut?: boolean;
  endElement?: ReactNode;
}

/** A read-only field's look: muted, borderless. */
const READ_ONLY_LOOK = { variant: 'subtle', cursor: 'default', color: 'fg.muted' } as const;

export const TextField = forwardRef<HTMLInputElement, TextFieldProps>(function TextField(
  { label, error, helper, blockCut, endElement, required, disabled, readOnly, ...inputProps },
  ref,
) {
  // A provider's or a rule's known message shows in the member's language.
  const messageText = useMessageText();
  // A read-only field must not look like one to type in: muted, borderless, a lock at its end.
  // The input's readonly attribute is what screen readers announce ("read only").
  const input = (
    <Input
      ref={ref}
      onCut={blockCut ? (event) => event.preventDefault() : undefined}
      {...(readOnly ? READ_ONLY_LOOK : {})}
      {...inputProps}
    />
  );
  const end = endElement ?? (readOnly ? <LuLock aria-hidden="true" /> : undefined);
  return (
    <Field.Root invalid={Boolean(error)} required={required} disabled={disabled} readOnly={readOnly}>
      <Field.Label>
        {label}
        {required && <Field.RequiredIndicator />}
      </Field.Label>
      {end ? <InputGroup endElement={end}>{input}</InputGroup> : input}
      {helper && <Field.HelperText as="div">{helper}</Field.HelperText>}
      {error && <Field.ErrorText>{messageText(error)}</Field.ErrorText>}
    </Field.Root>
  );
});

/** A password input with a show/hide toggle (named without "password" so label look-ups stay unique). */
export const PasswordField = forwardRef<HTMLInputElement, Omit<TextFieldProps, 'type' | 'endElement'>>(
  function PasswordField(props, ref) {
    const t = useT();
    const [visible, setVisible] = useState(false);
    return (
      <TextField
        ref={ref}
        type={visible ? 'text' : 'password'}
        autoComplete="current-password"
        endElement={
          <IconButton
            aria-label={visible ? t('common.hideCharacters') : t('common.showCharacters')}
            aria-pressed={visible}
            variant="ghost"
            size="xs"
            me="-2"
            onClick={() => setVisible((v) => !v)}
          >
            {visible ? <LuEyeOff /> : <LuEye />}
          </IconButton>
        }
        {...props}
      />
    );
  },
);
