import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { useForm, type UseForm } from './use-form';

type Values = { name: string; region: string | null; on: boolean; replicas: number; rows: { key: string }[] };
const Schema = z.object({
  name: z.string().min(1, 'Name is required'),
  region: z.string({ error: 'Please select a region' }),
  on: z.boolean(),
  replicas: z.number().int().min(1),
  rows: z.array(z.object({ key: z.string().min(1, 'Please enter a key') })),
});
const initialValues: Values = { name: '', region: null, on: false, replicas: 1, rows: [{ key: 'A' }] };

/** Renders a component holding the form once (server rendering: no DOM needed) and hands the form out. */
function renderForm() {
  let form!: UseForm<Values, typeof Schema>;
  function Probe() {
    form = useForm({ initialValues, schema: Schema });
    return null;
  }
  renderToString(createElement(Probe));
  return form;
}

describe('useForm', () => {
  it('gives inputs typed values (or checked) and reads DOM events and plain values alike', () => {
    const form = renderForm();
    expect(form.getInputProps('name')).toMatchObject({ value: '', error: undefined });
    expect(form.getInputProps('on', { type: 'checkbox' })).toMatchObject({ checked: false });
    expect(form.getInputProps('rows.0.key').value).toBe('A');

    form.getInputProps('name').onChange({ currentTarget: { value: 'web' } }); // TextInput
    form.getInputProps('region').onChange('eu-west-1'); // Select
    form.getInputProps('replicas').onChange(3); // NumberInput
    form.getInputProps('on', { type: 'checkbox' }).onChange({ currentTarget: { checked: true, value: 'on' } }); // Switch
    form.getInputProps('rows.0.key').onChange({ currentTarget: { value: 'B' } });
    expect(form.getState().values).toEqual({ name: 'web', region: 'eu-west-1', on: true, replicas: 3, rows: [{ key: 'B' }] });
  });

  it('onSubmit prevents the browser submit, validates, and calls back only with a valid body', () => {
    const form = renderForm();
    const onValid = vi.fn();
    const preventDefault = vi.fn();
    form.onSubmit(onValid)({ preventDefault } as never);
    expect(preventDefault).toHaveBeenCalled();
    expect(onValid).not.toHaveBeenCalled();
    expect(form.getState().errors).toEqual({ name: 'Name is required', region: 'Please select a region' });

    form.setValues({ name: 'web', region: 'eu-west-1' });
    form.setFieldValue('rows.0.key', '');
    form.onSubmit(onValid)();
    expect(form.getState().errors).toEqual({ 'rows.0.key': 'Please enter a key' });
    form.setFieldValue('rows.0.key', 'K');
    form.onSubmit(onValid)();
    expect(onValid).toHaveBeenCalledWith({ name: 'web', region: 'eu-west-1', on: false, replicas: 1, rows: [{ key: 'K' }] });
  });
});
