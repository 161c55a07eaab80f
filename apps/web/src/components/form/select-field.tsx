/** A labelled native select (accessible and mobile-friendly). */
import { forwardRef } from 'react';
import { Field, NativeSelect, type NativeSelectFieldProps } from '@chakra-ui/react';
import { useMessageText } from '@/lib/i18n/i18n.tsx';

export interface SelectFieldProps extends NativeSelectFieldProps {
  label: string;
  /** A disabled option is listed but cannot be chosen (e.g. a swap destination the server refuses). */
  options: readonly { value: string; label: string; disabled?: boolean }[];
  /** An empty first option shown until a choice is made. */
  placeholder?: string;
  error?: string | undefined;
  disabled?: boolean;
}

export const SelectField = forwardRef<HTMLSelectElement, SelectFieldProps>(function SelectField(
  { label, options, error, disabled, placeholder, ...selectProps },
  ref,
) {
  const messageText = useMessageText();
  return (
    <Field.Root invalid={Boolean(error)} disabled={disabled}>
      <Field.Label>{label}</Field.Label>
      <NativeSelect.Root disabled={disabled}>
        <NativeSelect.Field ref={ref} {...selectProps}>
          {placeholder !== undefined && <option value="">{placeholder}</option>}
          {options.map((option) => (
            <option key={option.value} value={option.value} disabled={option.disabled}>
              {option.label}
            </option>
          ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
      {error && <Field.ErrorText>{messageText(error)}</Field.ErrorText>}
    </Field.Root>
  );
});
