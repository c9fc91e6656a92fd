import { useCallback, useState, type FormEvent } from 'react';
import type { z } from 'zod';
import { firstFieldMessages, firstIssueMessages } from './form-errors';

type Errors = Record<string, string | undefined>;

/**
 * A small form state over a zod schema. Validation runs on submit only (spec §2.3, §5):
 * typing clears the message of the edited field but never validates.
 */
export function useZodForm<S extends z.ZodType>(schema: S, initial: Record<string, string>) {
  const [values, setValues] = useState<Record<string, string>>(initial);
  const [errors, setErrors] = useState<Errors>({});

  const setValue = useCallback((name: string, value: string) => {
    setValues((v) => ({ ...v, [name]: value }));
    setErrors((e) => (e[name] ? { ...e, [name]: undefined } : e));
  }, []);

  /** Props for a Mantine input: value, onChange, error. */
  const field = (name: string) => ({
    name,
    value: values[name] ?? '',
    onChange: (e: { currentTarget: { value: string } } | string | null) =>
      setValue(name, typeof e === 'string' || e === null ? (e ?? '') : e.currentTarget.value),
    error: errors[name],
  });

  const validate = (): z.output<S> | null => {
    const result = schema.safeParse(values);
    if (result.success) {
      setErrors({});
      return result.data;
    }
    setErrors(firstIssueMessages(result.error));
    return null;
  };

  /** onSubmit handler: prevents the browser submit, validates, calls `onValid` with the parsed values. */
  const onSubmit = (onValid: (data: z.output<S>) => void) => (e?: FormEvent) => {
    e?.preventDefault();
    const data = validate();
    if (data) onValid(data);
  };

  /** Puts server field errors (400 `fields`) next to their inputs. */
  const setServerErrors = (fields?: Record<string, string[]>) => {
    if (!fields) return;
    setErrors((e) => ({ ...e, ...firstFieldMessages(fields) }));
  };

  const reset = (next: Record<string, string> = initial) => {
    setValues(next);
    setErrors({});
  };

  return { values, errors, field, setValue, validate, onSubmit, setServerErrors, setErrors, reset };
}
