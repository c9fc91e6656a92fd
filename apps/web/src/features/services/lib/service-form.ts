import { CreateMicroserviceBody, PUBLIC_DOCKER_IMAGE, UpdateMicroserviceBody, serviceMessages, type Microservice } from '@gantry/contracts';

/**
 * The microservice form (spec §5): name (2–30 of a-z 0-9 - . ~, locked on edit), description (required, ≤ 255),
 * a registry of the project with one of its repositories — or 'Public Docker Image' with an image typed in —,
 * the readme, and the inputs / outputs of the service's schema.
 */
export type ServiceFormValues = {
  name: string;
  description: string;
  /** A registry name, PUBLIC_DOCKER_IMAGE, or null before a choice. */
  registry: string | null;
  imageRepository: string | null;
  readme: string;
  port: number | string;
  inputs: { name: string; description: string; type: 'string' | 'number' | 'boolean'; required: boolean; default: string; sensitive: boolean }[];
  outputs: { name: string; description: string }[];
};

export const emptyServiceForm = (defaultRegistry: string | null = null): ServiceFormValues => ({
  name: '',
  description: '',
  registry: defaultRegistry,
  imageRepository: null,
  readme: '',
  port: 80,
  inputs: [],
  outputs: [],
});

export function serviceFormFrom(s: Microservice): ServiceFormValues {
  return {
    name: s.name,
    description: s.description,
    registry: s.registry ?? PUBLIC_DOCKER_IMAGE,
    imageRepository: s.imageRepository,
    readme: s.readme,
    port: s.schema.port,
    inputs: s.schema.inputs.map((i) => ({ ...i, default: i.default ?? '' })),
    outputs: s.schema.outputs.map((o) => ({ ...o })),
  };
}

export const isPublicImage = (registry: string | null) => registry === PUBLIC_DOCKER_IMAGE;

/** What the contracts' schema is given: the picker's null becomes '' (required message), the port a number. */
export function serviceFormInput(v: ServiceFormValues, editing: boolean) {
  const fields = {
    description: v.description,
    registry: v.registry,
    imageRepository: v.imageRepository ?? '',
    readme: v.readme,
    schema: {
      port: typeof v.port === 'number' ? v.port : Number(v.port),
      inputs: v.inputs.map((i) => ({ ...i, default: i.default === '' ? null : i.default, pattern: null })),
      outputs: v.outputs,
    },
  };
  return editing ? fields : { ...fields, name: v.name };
}

/** The schema the form validates with: create has the name, edit does not (it is locked). */
export const serviceFormSchema = (editing: boolean) => (editing ? UpdateMicroserviceBody : CreateMicroserviceBody);

/** The registry picker is required: a registry of the project, or 'Public Docker Image' (the contract reads null as public). */
export const registryChoiceError = (v: Pick<ServiceFormValues, 'registry'>) => (v.registry ? undefined : serviceMessages.registryRequired);

/** The message under the image field: a repository of the registry, or the image reference typed in. */
export const imageRequiredMessage = (v: Pick<ServiceFormValues, 'registry'>) =>
  isPublicImage(v.registry) ? serviceMessages.imageRequired : serviceMessages.imageRepositoryRequired;

/** Messages of the schema's fields ('schema.inputs.0.name', from the contract or a 400) go next to the form's inputs ('inputs.0.name'). */
export const formErrorPaths = (errors: Record<string, string | undefined>) =>
  Object.fromEntries(Object.entries(errors).map(([k, v]) => [k.startsWith('schema.') ? k.slice('schema.'.length) : k, v]));
