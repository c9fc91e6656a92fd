/** The shared form kit: a typed form over a contracts zod schema (see use-form.ts). */
export { useForm, type FormApi, type UseForm } from './use-form';
export { createFormStore, type FormErrors, type FormOptions, type FormState } from './form-store';
export { getIn, setIn, type FieldPath, type PathValue } from './paths';
