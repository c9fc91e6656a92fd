import { describe, expect, it } from 'vitest';
import { SCALING_DEFAULTS, deployMessages, type ServiceSchema } from '@gantry/contracts';
import { firstIssueMessages } from '../../../ui/form-errors';
import { canAddEnvRow, deployFormInitial, deployFormInput, deployFormSchema, rebaseDeployForm, toDeployBody, type DeployFormValues } from './deploy-form';

const schema: Pick<ServiceSchema, 'inputs'> = {
  inputs: [
    { name: 'DATABASE_URL', description: '', type: 'string', required: true, default: null, sensitive: true, pattern: null },
    { name: 'WORKERS', description: '', type: 'number', required: false, default: '2', sensitive: false, pattern: null },
  ],
};
const values = (over: Partial<DeployFormValues> = {}): DeployFormValues => ({
  ...deployFormInitial(schema, [], 'apps'),
  version: '1.2.0',
  inputs: { DATABASE_URL: 'postgres://db', WORKERS: '' },
  ...over,
});
const check = (v: DeployFormValues) => {
  const r = deployFormSchema(schema).safeParse(deployFormInput(v));
  return r.success ? { ok: true as const, data: r.data, errors: {} as Record<string, string> } : { ok: false as const, errors: firstIssueMessages(r.error) };
};
const scaling = (over: Partial<DeployFormValues['autoScaling']>) => values({ autoScaling: { ...SCALING_DEFAULTS, ...over } });

describe('deploy dialog (spec §5, §9)', () => {
  it('starts from the §9 defaults; stored MIC_AS_* values override them; other stored values become rows and inputs', () => {
    expect(deployFormInitial(schema).autoScaling).toEqual(SCALING_DEFAULTS);
    const v = deployFormInitial(schema, [
      { key: 'MIC_AS_MIN_REPLICAS', value: '3' },
      { key: 'MIC_AS_CPU', value: '250' },
      { key: 'MIC_AS_MEMORY', value: 'junk' },
      { key: 'LOG_LEVEL', value: 'debug' },
      { key: 'DATABASE_URL', value: '(sensitive)' },
    ]);
    expect(v.autoScaling).toMatchObject({ minReplicas: 3, cpu: 250, memory: SCALING_DEFAULTS.memory });
    expect(v.environmentVariables).toEqual([{ key: 'LOG_LEVEL', value: 'debug' }]);
    expect(v.inputs).toEqual({ DATABASE_URL: '(sensitive)', WORKERS: '2' });
    expect(v.namespace).toBeNull();
  });
  it('requires a version and a namespace', () => {
    expect(check(values({ version: null })).errors.version).toBe(deployMessages.versionRequired);
    expect(check(values({ namespace: null })).errors.namespace).toBe(deployMessages.namespaceRequired);
  });
  it.each([
    [{ memory: 99 }, 'autoScaling.memory', deployMessages.memoryMin],
    [{ memory: 600, maxMemory: 500 }, 'autoScaling.memory', deployMessages.memoryAboveMax],
    [{ memory: 600, maxMemory: 500 }, 'autoScaling.maxMemory', deployMessages.maxMemoryBelowInitial],
    [{ maxMemory: 5001 }, 'autoScaling.maxMemory', deployMessages.maxMemoryMax],
    [{ cpu: 9 }, 'autoScaling.cpu', deployMessages.cpuMin],
    [{ cpu: 600, maxCpu: 500 }, 'autoScaling.cpu', deployMessages.cpuAboveMax],
    [{ maxCpu: 1001 }, 'autoScaling.maxCpu', deployMessages.maxCpuMax],
    [{ minReplicas: 0 }, 'autoScaling.minReplicas', deployMessages.minPodsMin],
    [{ minReplicas: 5, maxReplicas: 4 }, 'autoScaling.minReplicas', deployMessages.minPodsAboveMax],
    [{ minReplicas: 5, maxReplicas: 4 }, 'autoScaling.maxReplicas', deployMessages.maxPodsBelowMin],
    [{ memory: '' }, 'autoScaling.memory', deployMessages.required],
  ])('%j → %s: %s', (over, path, message) => expect(check(scaling(over as never)).errors[path]).toBe(message));
  it('accepts the bounds themselves', () =>
    expect(check(scaling({ memory: 100, maxMemory: 5000, cpu: 10, maxCpu: 1000, minReplicas: 1, maxReplicas: 1 })).ok).toBe(true));
  it('needs a required schema input, and a number where the input is a number', () => {
    expect(check(values({ inputs: { DATABASE_URL: '', WORKERS: '' } })).errors['inputs.DATABASE_URL']).toBe(deployMessages.inputRequired('DATABASE_URL'));
    expect(check(values({ inputs: { DATABASE_URL: 'x', WORKERS: 'many' } })).errors['inputs.WORKERS']).toBe(deployMessages.inputNumber('WORKERS'));
  });
  it("says 'Please enter key and value' for a half-filled row; a wholly empty row is left out", () => {
    expect(canAddEnvRow([{ key: 'A', value: '1' }])).toBe(true);
    expect(canAddEnvRow([{ key: 'A', value: '' }])).toBe(false);
    expect(canAddEnvRow([{ key: '', value: 'x' }])).toBe(false);
    expect(check(values({ environmentVariables: [{ key: 'A', value: '' }] })).errors['environmentVariables.0.value']).toBe(deployMessages.envRowIncomplete);
    expect(check(values({ environmentVariables: [{ key: '', value: 'x' }] })).errors['environmentVariables.0.key']).toBe(deployMessages.envRowIncomplete);
    expect(check(values({ environmentVariables: [{ key: '', value: '' }] })).ok).toBe(true);
  });
  it('builds the payload: rows and inputs as configurations (an empty input takes its default), the autoscaling numbers', () => {
    const r = check(
      values({
        environmentVariables: [
          { key: ' LOG_LEVEL ', value: 'info' },
          { key: '', value: '' },
        ],
        autoScaling: { ...SCALING_DEFAULTS, maxReplicas: '4' },
      }),
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(toDeployBody(r.data, schema)).toEqual({
      version: '1.2.0',
      deployment: {
        configurations: [
          { key: 'LOG_LEVEL', value: 'info' },
          { key: 'DATABASE_URL', value: 'postgres://db' },
          { key: 'WORKERS', value: '2' },
        ],
      },
      autoScaling: { ...SCALING_DEFAULTS, maxReplicas: 4 },
    });
  });
});

describe('stored configuration arriving in the dialog', () => {
  it('replaces what the user has not touched and keeps what they typed', () => {
    const base = deployFormInitial(schema, [], 'apps');
    const current: DeployFormValues = {
      ...base,
      version: '1.0.0',
      inputs: { ...base.inputs, DATABASE_URL: 'typed' },
      autoScaling: { ...base.autoScaling, maxReplicas: 7 },
    };
    const next = deployFormInitial(schema, [
      { key: 'DATABASE_URL', value: '(sensitive)' },
      { key: 'WORKERS', value: '8' },
      { key: 'MIC_AS_MAX_REPLICAS', value: '4' },
      { key: 'MIC_AS_MIN_REPLICAS', value: '3' },
      { key: 'LOG_LEVEL', value: 'debug' },
    ]);
    expect(rebaseDeployForm(current, base, next)).toEqual({
      autoScaling: { ...SCALING_DEFAULTS, maxReplicas: 7, minReplicas: 3 },
      inputs: { DATABASE_URL: 'typed', WORKERS: '8' },
      environmentVariables: [{ key: 'LOG_LEVEL', value: 'debug' }],
    });
    const withRow = { ...current, environmentVariables: [{ key: 'MINE', value: '1' }] };
    expect(rebaseDeployForm(withRow, base, next).environmentVariables).toEqual([{ key: 'MINE', value: '1' }]);
  });
});
