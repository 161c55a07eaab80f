/** A labelled native select (accessible and mobile-friendly). */
import { forwardRef } from 'react';
import { Field, NativeSelect, type NativeSelectFieldProps } from '@chakra-ui/react';

export interface SelectFieldProps extends NativeSelectFieldProps {
  label: string;
  options: readonly { value: string; label: string }[];
  error?: string | undefined;
  disabled?: boolean;
}

export const SelectField = forwardRef<HTMLSelectElement, SelectFieldProps>(function SelectField(
  { label, options, error, disabled, ...selectProps },
  ref,
) {
  return (
    <Field.Root invalid={Boolean(error)} disabled={disabled}>
      <Field.Label>{label}</Field.Label>
      <NativeSelect.Root disabled={disabled}>
        <NativeSelect.Field ref={ref} {...selectProps}>
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
      {error && <Field.ErrorText>{error}</Field.ErrorText>}
    </Field.Root>
  );
});
