import type { z } from 'zod';
import { firstFieldMessages, firstIssueMessages } from '../form-errors';
import { getIn, isUnder, setIn, type FieldPath, type PathValue } from './paths';

/** Field messages keyed by dotted path ('variables.2.key'); '_' is a message of the whole form. */
export type FormErrors = Record<string, string | undefined>;
export type FormState<V> = { values: V; errors: FormErrors };

export type FormOptions<V, S extends z.ZodType> = {
  initialValues: V;
  /** The contracts' schema the values are checked with on submit. */
  schema: S;
  /**
   * What the schema is given, from the form's values (null → undefined for selects, a list without its row ids…).
   * Field paths of the schema's issues must match the form's paths to land next to their inputs.
   */
  toInput?: (values: V) => unknown;
};

/**
 * The state of one form outside React (the hook `useForm` binds it): typed values of any shape (strings, numbers,
 * booleans, lists of objects), messages by dotted path, zod validation on submit only (spec §2.3, §5) and the
 * server's 400 `fields`. Editing a field clears its own message and the ones under it, never validates.
 */
export function createFormStore<V, S extends z.ZodType>(options: FormOptions<V, S>) {
  let opts = options;
  let state: FormState<V> = { values: options.initialValues, errors: {} };
  const listeners = new Set<() => void>();
  const commit = (next: FormState<V>) => {
    if (next.values === state.values && next.errors === state.errors) return;
    state = next;
    for (const l of listeners) l();
  };
  const withoutErrors = (errors: FormErrors, paths: string[]): FormErrors => {
    const keys = Object.keys(errors).filter((k) => errors[k] !== undefined && paths.some((p) => isUnder(k, p)));
    if (!keys.length) return errors;
    const copy = { ...errors };
    for (const k of keys) delete copy[k];
    return copy;
  };

  const store = {
    getState: () => state,
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    /** Newer options (a schema that depends on the mode, a new toInput); values and messages stay. */
    configure(next: FormOptions<V, S>) {
      opts = next;
    },

    getValue: <P extends FieldPath<V>>(path: P) => getIn(state.values, path) as PathValue<V, P>,
    setFieldValue<P extends FieldPath<V>>(path: P, value: PathValue<V, P>) {
      commit({ values: setIn(state.values, path, value), errors: withoutErrors(state.errors, [path]) });
    },
    /** Several fields at once, from the current values (a choice that resets others); clears the set fields' messages. */
    setValues(patch: Partial<V> | ((values: V) => Partial<V>)) {
      const p = typeof patch === 'function' ? patch(state.values) : patch;
      commit({ values: { ...state.values, ...p }, errors: withoutErrors(state.errors, Object.keys(p)) });
    },
    insertListItem<P extends FieldPath<V>>(path: P, item: PathValue<V, P> extends readonly (infer E)[] ? E : never) {
      const list = (getIn(state.values, path) as unknown[] | undefined) ?? [];
      commit({ values: setIn(state.values, path, [...list, item]), errors: withoutErrors(state.errors, [path]) });
    },
    /** Removes row `index`; the list's messages go (their indexes would point at other rows). */
    removeListItem<P extends FieldPath<V>>(path: P, index: number) {
      const list = (getIn(state.values, path) as unknown[] | undefined) ?? [];
      commit({
        values: setIn(
          state.values,
          path,
          list.filter((_, i) => i !== index),
        ),
        errors: withoutErrors(state.errors, [path]),
      });
    },

    setFieldError(path: string, message: string | undefined) {
      commit({ values: state.values, errors: { ...state.errors, [path]: message } });
    },
    setErrors(errors: FormErrors) {
      commit({ values: state.values, errors });
    },
    clearErrors(...paths: string[]) {
      commit({ values: state.values, errors: paths.length ? withoutErrors(state.errors, paths) : {} });
    },
    /** Puts the server's field messages (400 `fields`, dotted paths) next to their inputs. */
    setServerErrors(fields?: Record<string, string[]>) {
      if (fields) commit({ values: state.values, errors: { ...state.errors, ...firstFieldMessages(fields) } });
    },

    /** Checks the values with the schema: the parsed body, or null with every field's first message shown. */
    validate(): z.output<S> | null {
      const result = opts.schema.safeParse(opts.toInput ? opts.toInput(state.values) : state.values);
      if (result.success) {
        commit({ values: state.values, errors: {} });
        return result.data;
      }
      commit({ values: state.values, errors: firstIssueMessages(result.error) });
      return null;
    },
    reset(values: V = opts.initialValues) {
      commit({ values, errors: {} });
    },
  };
  return store;
}

export type FormStore<V, S extends z.ZodType> = ReturnType<typeof createFormStore<V, S>>;
