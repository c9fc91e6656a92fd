import { describe, expect, it } from 'vitest';
import { SCALING_DEFAULTS } from '@gantry/contracts';
import { FIELD_MANAGER, buildManifests, dockerConfigJson, kubeName, replicasToApply, type DeploySpec } from './services.manifests.js';

const spec = (o: Partial<DeploySpec> = {}): DeploySpec => ({
  serviceName: 'web.api',
  namespace: 'team-a',
  image: 'registry.local:5000/team/web:abc1234',
  version: 'abc1234',
  commit: 'abc1234def',
  isPublic: false,
  registry: 'harbor',
  imageRepository: 'web',
  autoScaling: {
    ...SCALING_DEFAULTS,
    cpu: 50,
    maxCpu: 500,
    memory: 128,
    maxMemory: 1024,
    minReplicas: 2,
    maxReplicas: 6,
    cpuUtilization: 70,
    memoryUtilization: 0,
  },
  env: [
    { key: 'MODE', value: 'prod', sensitive: false },
    { key: 'DB_PASSWORD', value: 's3cret', sensitive: true },
  ],
  schema: { port: 8080 },
  pull: { host: 'registry.local:5000', username: 'robot', password: 'pw' },
  deployedAt: '2026-11-22T10:00:00.000Z',
  ...o,
});
const owned = (manager: string, replicas: number) => ({
  spec: { replicas },
  metadata: { managedFields: [{ manager, operation: manager === FIELD_MANAGER ? 'Apply' : 'Update', fieldsV1: { 'f:spec': { 'f:replicas': {} } } }] },
});

describe('service manifests', () => {
  it('names are DNS-1035 labels', () => {
    expect(kubeName('web.api~x')).toBe('web-api-x');
    expect(kubeName('9lives')).toBe('svc-9lives');
  });

  it('a Deployment with the image, env (sensitive ones from a secret), requests and limits, and the pull secret', () => {
    const m = buildManifests(spec(), null);
    const c = m.deployment.spec.template.spec.containers[0];
    expect(c.image).toBe('registry.local:5000/team/web:abc1234');
    expect(c.resources).toEqual({ requests: { cpu: '50m', memory: '128Mi' }, limits: { cpu: '500m', memory: '1024Mi' } });
    expect(c.env).toEqual([
      { name: 'MODE', value: 'prod' },
      { name: 'DB_PASSWORD', valueFrom: { secretKeyRef: { name: 'web-api-inputs', key: 'DB_PASSWORD' } } },
    ]);
    expect(c.ports).toEqual([{ name: 'http', containerPort: 8080, protocol: 'TCP' }]);
    expect(m.deployment.spec.template.spec.imagePullSecrets).toEqual([{ name: 'web-api-registry' }]);
    expect(m.deployment.metadata.labels).toMatchObject({ 'app.kubernetes.io/managed-by': 'gantry' });
    expect(m.deployment.metadata.annotations).toMatchObject({
      'gantry.io/service-name': 'web.api',
      'gantry.io/version': 'abc1234',
      'gantry.io/commit': 'abc1234def',
    });
    expect(m.pullSecret!.type).toBe('kubernetes.io/dockerconfigjson');
    const cfg = JSON.parse(Buffer.from(m.pullSecret!.data['.dockerconfigjson'], 'base64').toString());
    expect(cfg).toEqual({ auths: { 'registry.local:5000': { username: 'robot', password: 'pw', auth: Buffer.from('robot:pw').toString('base64') } } });
    expect(Buffer.from(m.inputsSecret!.data.DB_PASSWORD, 'base64').toString()).toBe('s3cret');
    expect(JSON.stringify(m.deployment)).not.toContain('s3cret');
    expect(m.service.spec).toMatchObject({ selector: { 'gantry.io/service': 'web-api' }, ports: [{ port: 8080, targetPort: 8080 }] });
  });

  it('an autoscaling/v2 HPA on CPU and memory utilization with the bounds; a 0 utilization is no metric', () => {
    const { hpa } = buildManifests(spec({ autoScaling: { ...SCALING_DEFAULTS, cpuUtilization: 70, memoryUtilization: 60 } }), null);
    expect(hpa.apiVersion).toBe('autoscaling/v2');
    expect(hpa.spec).toEqual({
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web-api' },
      minReplicas: 2,
      maxReplicas: 10,
      metrics: [
        { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } },
        { type: 'Resource', resource: { name: 'memory', target: { type: 'Utilization', averageUtilization: 60 } } },
      ],
    });
    expect(buildManifests(spec(), null).hpa.spec.metrics.map((x: { resource: { name: string } }) => x.resource.name)).toEqual(['cpu']);
  });

  it('a public image needs no pull secret, and no sensitive input no inputs secret', () => {
    const m = buildManifests(spec({ pull: null, env: [{ key: 'A', value: '1', sensitive: false }] }), null);
    expect(m.pullSecret).toBeNull();
    expect(m.inputsSecret).toBeNull();
    expect(m.deployment.spec.template.spec.imagePullSecrets).toBeUndefined();
  });

  it('replicas: the minimum for a new Deployment, left out once the HPA owns them, kept within bounds while gantry owns them', () => {
    const a = { minReplicas: 2, maxReplicas: 6 };
    expect(replicasToApply(null, a)).toBe(2);
    expect(replicasToApply(owned('kube-controller-manager', 5), a)).toBeUndefined();
    expect(buildManifests(spec(), owned('kube-controller-manager', 5)).deployment.spec).not.toHaveProperty('replicas');
    expect(replicasToApply(owned(FIELD_MANAGER, 2), a)).toBe(2);
    expect(replicasToApply(owned(FIELD_MANAGER, 9), a)).toBe(6);
    expect(replicasToApply(owned(FIELD_MANAGER, 1), { minReplicas: 3, maxReplicas: 6 })).toBe(3);
  });

  it('changed env or credentials roll the pods (config hash), the same ones do not', () => {
    const hash = (s: DeploySpec) => buildManifests(s, null).deployment.spec.template.metadata.annotations['gantry.io/config-hash'];
    expect(hash(spec())).toBe(hash(spec({ deployedAt: 'later' })));
    expect(hash(spec())).not.toBe(hash(spec({ env: [{ key: 'MODE', value: 'dev', sensitive: false }] })));
    expect(dockerConfigJson({ host: 'docker.io', username: 'u', password: 'p' })).toContain('https://index.docker.io/v1/');
  });
});
