import { describe, expect, it } from 'vitest';
import {
  AUTOSCALING_CONFIG_KEYS,
  AutoScalingBody,
  CreateMicroserviceBody,
  DeployBody,
  SCALING_DEFAULTS,
  autoScalingConfigurations,
  autoScalingFrom,
  deployMessages,
  envRowComplete,
  fieldErrors,
  serviceInputErrors,
  serviceMessages,
} from './index.js';

const errorsOf = (r: { success: boolean; error?: unknown }) => (r.success ? {} : fieldErrors(r.error as never));

describe('services contracts', () => {
  it('microservice form rules (spec §5)', () => {
    const ok = CreateMicroserviceBody.parse({ name: 'web.api~1', description: 'The web API', registry: 'Public Docker Image', imageRepository: 'nginx' });
    expect(ok.registry).toBeNull();
    expect(ok.schema).toEqual({ inputs: [], outputs: [], port: 80 });
    const bad = errorsOf(CreateMicroserviceBody.safeParse({ name: 'A', description: 'x'.repeat(256), registry: null, imageRepository: '' }));
    expect(bad.name).toEqual([serviceMessages.nameRule]);
    expect(bad.description).toEqual([serviceMessages.descriptionMax]);
    expect(bad.imageRepository).toEqual([serviceMessages.imageRepositoryRequired]);
  });

  it('deploy dialog numbers (spec §5) with each message on its field', () => {
    expect(AutoScalingBody.safeParse(SCALING_DEFAULTS).success).toBe(true);
    const e = errorsOf(AutoScalingBody.safeParse({ ...SCALING_DEFAULTS, memory: 99, maxMemory: 5001, cpu: 9, maxCpu: 1001, minReplicas: 0 }));
    expect(e.memory).toContain(deployMessages.memoryMin);
    expect(e.maxMemory).toContain(deployMessages.maxMemoryMax);
    expect(e.cpu).toContain(deployMessages.cpuMin);
    expect(e.maxCpu).toContain(deployMessages.maxCpuMax);
    expect(e.minReplicas).toContain(deployMessages.minPodsMin);
    const crossed = errorsOf(
      AutoScalingBody.safeParse({ ...SCALING_DEFAULTS, memory: 600, maxMemory: 500, cpu: 300, maxCpu: 200, minReplicas: 5, maxReplicas: 3 }),
    );
    expect(crossed).toMatchObject({
      memory: [deployMessages.memoryAboveMax],
      maxMemory: [deployMessages.maxMemoryBelowInitial],
      cpu: [deployMessages.cpuAboveMax],
      maxCpu: [deployMessages.maxCpuBelowInitial],
      minReplicas: [deployMessages.minPodsAboveMax],
      maxReplicas: [deployMessages.maxPodsBelowMin],
    });
    expect(errorsOf(DeployBody.safeParse({ version: ' ', autoScaling: SCALING_DEFAULTS })).version).toEqual([deployMessages.versionRequired]);
  });

  it('stored MIC_AS_* values override the defaults; unknown or broken values are ignored', () => {
    expect(autoScalingFrom([])).toEqual(SCALING_DEFAULTS);
    const stored = autoScalingFrom([
      { key: AUTOSCALING_CONFIG_KEYS.minReplicas, value: '3' },
      { key: AUTOSCALING_CONFIG_KEYS.memory, value: 'lots' },
      { key: 'OTHER', value: '1' },
    ]);
    expect(stored).toEqual({ ...SCALING_DEFAULTS, minReplicas: 3 });
    expect(autoScalingFrom(autoScalingConfigurations({ ...SCALING_DEFAULTS, maxCpu: 500 }))).toEqual({ ...SCALING_DEFAULTS, maxCpu: 500 });
  });

  it('schema inputs: required, number, boolean and pattern; defaults count as given', () => {
    const schema = {
      inputs: [
        { name: 'DB_URL', required: true, type: 'string' as const, default: null, pattern: null },
        { name: 'PORT', required: false, type: 'number' as const, default: '80', pattern: null },
        { name: 'DEBUG', required: false, type: 'boolean' as const, default: null, pattern: null },
        { name: 'MODE', required: true, type: 'string' as const, default: 'dev', pattern: 'dev|prod' },
      ],
    };
    expect(serviceInputErrors(schema, { PORT: 'x', DEBUG: 'yes', MODE: 'test' })).toEqual({
      DB_URL: deployMessages.inputRequired('DB_URL'),
      PORT: deployMessages.inputNumber('PORT'),
      DEBUG: deployMessages.inputBoolean('DEBUG'),
      MODE: deployMessages.inputPattern('MODE'),
    });
    expect(serviceInputErrors(schema, { DB_URL: 'postgres://db' })).toEqual({});
    expect(envRowComplete({ key: 'A', value: '' })).toBe(false);
    expect(envRowComplete({ key: 'A', value: '1' })).toBe(true);
  });
});
