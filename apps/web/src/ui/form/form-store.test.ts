import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { PipelineBody } from '@gantry/contracts';
import { createFormStore } from './form-store';
import { getIn, setIn } from './paths';

type Row = { id: number; key: string; value: string; sensitive: boolean };
type Values = {
  name: string;
  gitAccountId: string | null;
  repositoryUrl: string | null;
  branchFilter: string;
  automatedTrigger: boolean;
  workDir: string;
  modifiedFiles: string;
  environmentVariables: Row[];
};
const initialValues: Values = {
  name: 'my-service',
  gitAccountId: '2f6c1f9e-3b0a-4c57-9a51-0c1d1f0e7a11',
  repositoryUrl: 'http://git.local/acme/app.git',
  branchFilter: 'master',
  automatedTrigger: true,
  workDir: '/',
  modifiedFiles: '',
  environmentVariables: [],
};
/** The pipeline form as the page builds it: null selects become undefined/'', rows lose their ids. */
const toInput = (v: Values) => ({
  ...v,
  gitAccountId: v.gitAccountId ?? undefined,
  repositoryUrl: v.repositoryUrl ?? '',
  environmentVariables: v.environmentVariables.map(({ key, value, sensitive }) => ({ key, value, sensitive })),
});
const pipelineForm = (values: Partial<Values> = {}) => createFormStore({ initialValues: { ...initialValues, ...values }, schema: PipelineBody, toInput });

describe('paths', () => {
  it('reads and writes dotted paths through objects and lists without touching the original', () => {
    const v = { a: { list: [{ k: 'x' }, { k: 'y' }] }, n: 1 };
    expect(getIn(v, 'a.list.1.k')).toBe('y');
    expect(getIn(v, 'a.missing.0')).toBeUndefined();
    const next = setIn(v, 'a.list.1.k', 'z');
    expect(next).toEqual({ a: { list: [{ k: 'x' }, { k: 'z' }] }, n: 1 });
    expect(Array.isArray(next.a.list)).toBe(true);
    expect(v.a.list[1]!.k).toBe('y');
    expect(next.a.list[0]).toBe(v.a.list[0]);
  });
});

describe('createFormStore', () => {
  it('keeps typed values (string, boolean, null, lists of objects) and parses them with the schema on submit', () => {
    const form = pipelineForm();
    form.setFieldValue('automatedTrigger', false);
    form.insertListItem('environmentVariables', { id: 1, key: 'NODE_ENV', value: 'production', sensitive: true });
    expect(form.getValue('automatedTrigger')).toBe(false);
    expect(form.getValue('environmentVariables.0.sensitive')).toBe(true);
    expect(form.validate()).toEqual({
      name: 'my-service',
      gitAccountId: initialValues.gitAccountId,
      repositoryUrl: initialValues.repositoryUrl,
      branchFilter: 'master',
      automatedTrigger: false,
      workDir: '/',
      modifiedFiles: '',
      environmentVariables: [{ key: 'NODE_ENV', value: 'production', sensitive: true }],
    });
    expect(form.getState().errors).toEqual({});
  });

  it('shows the first message of each field, nested list paths included, and returns null', () => {
    const form = pipelineForm({
      name: 'ab',
      gitAccountId: null,
      environmentVariables: [
        { id: 1, key: 'OK', value: 'v', sensitive: false },
        { id: 2, key: '', value: '', sensitive: false },
        { id: 3, key: '9lives', value: 'v', sensitive: false },
      ],
    });
    expect(form.validate()).toBeNull();
    const { errors } = form.getState();
    expect(errors.name).toBe('Pipeline name must be at least 3 characters');
    expect(errors.gitAccountId).toBe('Please select a Git account');
    expect(errors['environmentVariables.1.key']).toBe('Please enter key and value');
    expect(errors['environmentVariables.1.value']).toBe('Please enter key and value');
    expect(errors['environmentVariables.2.key']).toBe('Use letters, digits and _ only, not starting with a digit');
    expect(errors['environmentVariables.0.key']).toBeUndefined();
  });

  it('clears the message of an edited field and of the fields under it, never validating while typing', () => {
    const form = pipelineForm({ name: 'ab', environmentVariables: [{ id: 1, key: '', value: '', sensitive: false }] });
    form.validate();
    form.setFieldValue('name', 'abc');
    expect(form.getState().errors.name).toBeUndefined();
    expect(form.getState().errors['environmentVariables.0.key']).toBe('Please enter key and value');
    form.setFieldValue('environmentVariables.0.key', 'A');
    expect(form.getState().errors['environmentVariables.0.key']).toBeUndefined();
    expect(form.getState().errors['environmentVariables.0.value']).toBe('Please enter key and value');
    form.setFieldValue('name', 'x');
    expect(form.getState().errors.name).toBeUndefined();
  });

  it('drops a list’s messages when a row goes (the indexes would name other rows)', () => {
    const form = pipelineForm({
      environmentVariables: [
        { id: 1, key: '', value: 'v', sensitive: false },
        { id: 2, key: 'B', value: '', sensitive: false },
      ],
    });
    form.validate();
    expect(Object.keys(form.getState().errors)).toEqual(['environmentVariables.0.key', 'environmentVariables.1.value']);
    form.removeListItem('environmentVariables', 0);
    expect(form.getValue('environmentVariables').map((r) => r.id)).toEqual([2]);
    expect(form.getState().errors).toEqual({});
  });

  it('setValues sets several fields from the current ones and clears the set fields’ messages only', () => {
    const form = pipelineForm({ gitAccountId: null, repositoryUrl: null, branchFilter: '' });
    form.validate();
    expect(form.getState().errors.repositoryUrl).toBeDefined();
    form.setValues((v) => ({ gitAccountId: 'x', repositoryUrl: v.gitAccountId === 'x' ? v.repositoryUrl : null }));
    expect(form.getState().values).toMatchObject({ gitAccountId: 'x', repositoryUrl: null });
    expect(form.getState().errors.gitAccountId).toBeUndefined();
    expect(form.getState().errors.repositoryUrl).toBeUndefined();
    expect(form.getState().errors.branchFilter).toBe('Branch filter is required');
  });

  it('puts the server’s 400 fields next to their inputs, keeping the other messages', () => {
    const form = pipelineForm();
    form.setFieldError('_', 'kept');
    form.setServerErrors({ name: ['A pipeline with this name already exists', 'second'], 'environmentVariables.0.key': ['Duplicate key'] });
    expect(form.getState().errors).toEqual({ _: 'kept', name: 'A pipeline with this name already exists', 'environmentVariables.0.key': 'Duplicate key' });
    form.setServerErrors(undefined);
    expect(form.getState().errors.name).toBe('A pipeline with this name already exists');
    form.clearErrors('environmentVariables');
    expect(form.getState().errors['environmentVariables.0.key']).toBeUndefined();
    form.clearErrors();
    expect(form.getState().errors).toEqual({});
  });

  it('validates with the schema it was last configured with (create or update) and checks numbers and booleans', () => {
    const Create = z.object({ name: z.string().min(1, 'Name is required'), replicas: z.number().int().min(1, 'At least 1'), on: z.boolean() });
    const Update = Create.omit({ name: true });
    const form = createFormStore({ initialValues: { name: '', replicas: 0, on: true }, schema: Create as z.ZodType<unknown> });
    expect(form.validate()).toBeNull();
    expect(form.getState().errors).toEqual({ name: 'Name is required', replicas: 'At least 1' });
    form.configure({ initialValues: { name: '', replicas: 0, on: true }, schema: Update });
    form.setFieldValue('replicas', 3);
    expect(form.validate()).toEqual({ replicas: 3, on: true });
  });

  it('tells its subscribers of each change and nothing when nothing changed; reset goes back to the start', () => {
    const form = pipelineForm();
    const listener = vi.fn();
    const off = form.subscribe(listener);
    form.setFieldValue('workDir', '/app');
    expect(listener).toHaveBeenCalledTimes(1);
    form.clearErrors('name');
    expect(listener).toHaveBeenCalledTimes(1);
    form.reset();
    expect(form.getState()).toEqual({ values: initialValues, errors: {} });
    expect(listener).toHaveBeenCalledTimes(2);
    off();
    form.setFieldValue('workDir', '/b');
    expect(listener).toHaveBeenCalledTimes(2);
  });
});
