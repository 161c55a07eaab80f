/**
 * The sign-in form's fields, drawn with the first screen's classes instead of Chakra components
 * (first-screen-styles.ts): the same markup Chakra's Field gives (a label tied to its input, the
 * error tied by aria-describedby, aria-invalid) in the same look. The other forms use
 * components/form/text-field.tsx, drawn with Chakra after its runtime has loaded.
 */
import { forwardRef, useId, useState, type InputHTMLAttributes, type ReactNode } from 'react';
import { useT } from '../../lib/i18n/i18n.tsx';
import { LuEye, LuEyeOff } from '../ui/first-screen-icons.ts';

export interface FirstScreenFieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  error?: string | undefined;
  /** Spec §5: cut is blocked on the login fields. */
  blockCut?: boolean;
  endElement?: ReactNode;
  /** An OTP code: digits spaced out. */
  code?: boolean;
}

export const FirstScreenField = forwardRef<HTMLInputElement, FirstScreenFieldProps>(function FirstScreenField(
  { label, error, blockCut, endElement, code, className, ...inputProps },
  ref,
) {
  const id = useId();
  const errorId = `${id}-error`;
  const invalid = error ? true : undefined;
  const classes = ['fs-input', code && 'fs-input-code', endElement && 'fs-input-with-end', className];
  const input = (
    <input
      ref={ref}
      id={id}
      className={classes.filter(Boolean).join(' ')}
      aria-invalid={invalid}
      aria-describedby={error ? errorId : undefined}
      data-invalid={invalid && ''}
      onCut={blockCut ? (event) => event.preventDefault() : undefined}
      {...inputProps}
    />
  );
  return (
    <div className="fs-field" data-invalid={invalid && ''}>
      <label className="fs-field-label" htmlFor={id} data-invalid={invalid && ''}>
        {label}
      </label>
      {endElement ? (
        <div className="fs-input-group">
          {input}
          <div className="fs-input-end">{endElement}</div>
        </div>
      ) : (
        input
      )}
      {error && (
        <div className="fs-field-error" id={errorId} aria-live="polite">
          {error}
        </div>
      )}
    </div>
  );
});

/** A password input with a show/hide toggle (named without "password" so label look-ups stay unique). */
export const FirstScreenPasswordField = forwardRef<
  HTMLInputElement,
  Omit<FirstScreenFieldProps, 'type' | 'endElement'>
>(function FirstScreenPasswordField(props, ref) {
  const [visible, setVisible] = useState(false);
  const t = useT();
  return (
    <FirstScreenField
      ref={ref}
      type={visible ? 'text' : 'password'}
      autoComplete="current-password"
      endElement={
        <button
          type="button"
          className="fs-icon-button-xs"
          aria-label={visible ? t('auth.hideCharacters') : t('auth.showCharacters')}
          aria-pressed={visible}
          onClick={() => setVisible((v) => !v)}
        >
          {visible ? <LuEyeOff /> : <LuEye />}
        </button>
      }
      {...props}
    />
  );
});
