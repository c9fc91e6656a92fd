import type { z } from 'zod';
import { useForm } from './form';

/**
 * The string-only shape of the form kit (./form), kept for the small forms of strings (sign-in, invitations…):
 * `field(name)` gives a Mantine input its value, onChange and error; a cleared select becomes ''.
 * Forms with numbers, booleans or lists use `useForm` from './form' directly.
 */
export function useZodForm<S extends z.ZodType>(schema: S, initial: Record<string, string>) {
  const form = useForm({ schema, initialValues: initial });

  const setValue = (name: string, value: string) => form.setFieldValue(name, value);

  /** Props for a Mantine input: value, onChange, error. */
  const field = (name: string) => ({
    name,
    value: form.values[name] ?? '',
    onChange: (e: { currentTarget: { value: string } } | string | null) =>
      setValue(name, typeof e === 'string' || e === null ? (e ?? '') : e.currentTarget.value),
    error: form.errors[name],
  });

  return {
    values: form.values,
    errors: form.errors,
    field,
    setValue,
    validate: form.validate,
    onSubmit: form.onSubmit,
    setServerErrors: form.setServerErrors,
    setErrors: form.setErrors,
    reset: form.reset,
  };
}
