import { useCallback, useEffect, useState, useSyncExternalStore, type FormEvent } from 'react';
import type { z } from 'zod';
import { createFormStore, type FormErrors, type FormOptions } from './form-store';
import { getIn, type FieldPath, type PathValue } from './paths';

/** What an input's onChange hands over: a DOM event (TextInput, Checkbox, Switch) or the value itself (Select, NumberInput…). */
const fromChange = (e: unknown, checkbox: boolean): unknown => {
  if (e && typeof e === 'object' && 'currentTarget' in e) {
    const target = (e as { currentTarget: { value?: unknown; checked?: unknown } }).currentTarget;
    return checkbox ? target.checked : target.value;
  }
  return e;
};

/**
 * A typed form over a contracts zod schema (spec §2.3, §5: validated on submit only).
 *
 *   const form = useForm({ initialValues, schema: PipelineBody, toInput });
 *   <form onSubmit={form.onSubmit((body) => create.mutate(body))} noValidate>
 *   <TextInput label="Name" {...form.getInputProps('name')} />
 *   <Switch label="On" {...form.getInputProps('automatedTrigger', { type: 'checkbox' })} />
 *   <TextInput error={form.errors['variables.2.key']} … />   // nested paths
 *   onError: form.setServerErrors(err.fields)                   // server 400 fields
 */
export function useForm<V, S extends z.ZodType>(options: FormOptions<V, S>) {
  const [store] = useState(() => createFormStore(options));
  useEffect(() => store.configure(options));
  const state = useSyncExternalStore(store.subscribe, store.getState, store.getState);

  /** Props for a Mantine input at `path`: value (or checked) typed as the values say, onChange, error. */
  function getInputProps<P extends FieldPath<V>>(path: P): { value: PathValue<V, P>; onChange: (e: unknown) => void; error: string | undefined };
  function getInputProps<P extends FieldPath<V>>(
    path: P,
    o: { type: 'checkbox' },
  ): { checked: boolean; onChange: (e: unknown) => void; error: string | undefined };
  function getInputProps<P extends FieldPath<V>>(path: P, o?: { type: 'checkbox' }) {
    const value = getIn(state.values, path);
    const onChange = (e: unknown) => store.setFieldValue(path, fromChange(e, o?.type === 'checkbox') as PathValue<V, P>);
    return o?.type === 'checkbox'
      ? { checked: Boolean(value), onChange, error: state.errors[path] }
      : { value: value as PathValue<V, P>, onChange, error: state.errors[path] };
  }

  /** A form's onSubmit: prevents the browser submit, validates, calls `onValid` with the parsed body. */
  const onSubmit = useCallback(
    (onValid: (data: z.output<S>) => unknown) => (e?: FormEvent) => {
      e?.preventDefault();
      const data = store.validate();
      if (data !== null) void onValid(data);
    },
    [store],
  );

  return { ...store, values: state.values, errors: state.errors as FormErrors, getInputProps, onSubmit };
}

export type UseForm<V, S extends z.ZodType = z.ZodType> = ReturnType<typeof useForm<V, S>>;

/** What a form section works with: the values, messages and setters (the page keeps the submit). */
export type FormApi<V> = Pick<
  UseForm<V>,
  'values' | 'errors' | 'getInputProps' | 'getValue' | 'setFieldValue' | 'setValues' | 'insertListItem' | 'removeListItem' | 'setFieldError' | 'clearErrors'
>;
