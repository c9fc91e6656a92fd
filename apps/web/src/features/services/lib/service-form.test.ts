import { describe, expect, it } from 'vitest';
import { PUBLIC_DOCKER_IMAGE, serviceMessages } from '@gantry/contracts';
import { firstIssueMessages } from '../../../ui/form-errors';
import {
  emptyServiceForm,
  formErrorPaths,
  imageRequiredMessage,
  registryChoiceError,
  serviceFormInput,
  serviceFormSchema,
  type ServiceFormValues,
} from './service-form';

const valid = (over: Partial<ServiceFormValues> = {}): ServiceFormValues => ({
  ...emptyServiceForm('hub'),
  name: 'orders-api',
  description: 'Takes orders',
  imageRepository: 'acme/orders',
  ...over,
});
const errors = (v: ServiceFormValues, editing = false) => {
  const r = serviceFormSchema(editing).safeParse(serviceFormInput(v, editing));
  return r.success ? {} : formErrorPaths(firstIssueMessages(r.error));
};

describe('microservice form (spec §5)', () => {
  it('accepts a valid service and sends the registry, repository and schema', () => {
    const r = serviceFormSchema(false).safeParse(serviceFormInput(valid(), false));
    expect(r.success && r.data).toMatchObject({ name: 'orders-api', registry: 'hub', imageRepository: 'acme/orders', schema: { port: 80, inputs: [] } });
  });
  it.each([
    ['a', false],
    ['ab', true],
    ['a'.repeat(30), true],
    ['a'.repeat(31), false],
    ['web.v1~beta-2', true],
    ['Web', false],
    ['web_api', false],
    ['web api', false],
  ])('name %j valid: %s', (name, ok) => expect(errors(valid({ name })).name === undefined).toBe(ok));
  it('requires a description of at most 255 characters', () => {
    expect(errors(valid({ description: '  ' })).description).toBe(serviceMessages.descriptionRequired);
    expect(errors(valid({ description: 'x'.repeat(256) })).description).toBe(serviceMessages.descriptionMax);
    expect(errors(valid({ description: 'x'.repeat(255) })).description).toBeUndefined();
  });
  it('requires a registry choice and an image; Public Docker Image sends no registry', () => {
    expect(registryChoiceError({ registry: null })).toBe(serviceMessages.registryRequired);
    expect(registryChoiceError({ registry: PUBLIC_DOCKER_IMAGE })).toBeUndefined();
    expect(errors(valid({ imageRepository: null })).imageRepository).toBeDefined();
    expect(imageRequiredMessage({ registry: PUBLIC_DOCKER_IMAGE })).toBe(serviceMessages.imageRequired);
    expect(imageRequiredMessage({ registry: 'hub' })).toBe(serviceMessages.imageRepositoryRequired);
    const r = serviceFormSchema(false).safeParse(serviceFormInput(valid({ registry: PUBLIC_DOCKER_IMAGE, imageRepository: 'nginx' }), false));
    expect(r.success && r.data.registry).toBeNull();
  });
  it('does not send the name on edit (it is locked)', () => {
    const r = serviceFormSchema(true).safeParse(serviceFormInput(valid({ name: 'X X' }), true));
    expect(r.success && 'name' in r.data).toBe(false);
  });
  it('puts schema messages next to the form inputs', () => {
    const e = errors(valid({ inputs: [{ name: '1BAD', description: '', type: 'string', required: true, default: '', sensitive: false }] }));
    expect(e['inputs.0.name']).toBeDefined();
  });
});
