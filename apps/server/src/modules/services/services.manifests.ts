import crypto from 'node:crypto';
import type { AutoScaling, ServiceSchema } from '@gantry/contracts';

/**
 * The Kubernetes objects one deploy applies (server-side apply, field manager `gantry`): a Deployment, a Service, an
 * autoscaling/v2 HorizontalPodAutoscaler, the image pull secret from the registry's credentials (none for a public
 * image) and a secret for the sensitive inputs (when any). Pure: what is applied depends only on these inputs and on
 * who owns the live Deployment's replica count.
 */

export const FIELD_MANAGER = 'gantry';
export const LABELS = { name: 'app.kubernetes.io/name', managedBy: 'app.kubernetes.io/managed-by', service: 'gantry.io/service' } as const;
export const ANNOTATIONS = {
  serviceName: 'gantry.io/service-name',
  version: 'gantry.io/version',
  commit: 'gantry.io/commit',
  deployedAt: 'gantry.io/deployed-at',
  isPublic: 'gantry.io/public',
  registry: 'gantry.io/registry',
  imageRepository: 'gantry.io/image-repository',
  configHash: 'gantry.io/config-hash',
} as const;

/** A service name (lowercase, digits, - . ~) as a DNS-1035 label, which a Kubernetes Service's name must be. */
export function kubeName(serviceName: string): string {
  let n = serviceName.replace(/[.~]/g, '-').replace(/-+/g, '-');
  if (!/^[a-z]/.test(n)) n = `svc-${n}`;
  return n.replace(/-+$/, '').slice(0, 63);
}
export const pullSecretName = (name: string) => `${kubeName(name)}-registry`;
export const envSecretName = (name: string) => `${kubeName(name)}-inputs`;

export interface PullCredentials {
  /** host[:port] as in the image reference (docker.io for Docker Hub: the auth key is https://index.docker.io/v1/). */
  host: string;
  username: string;
  password: string;
}

export interface DeploySpec {
  serviceName: string;
  namespace: string;
  /** The full image reference, tag included. */
  image: string;
  version: string;
  commit: string | null;
  isPublic: boolean;
  registry: string | null;
  imageRepository: string;
  autoScaling: AutoScaling;
  /** Environment variables in order (rows and schema inputs); sensitive ones go through the inputs secret. */
  env: { key: string; value: string; sensitive: boolean }[];
  schema: Pick<ServiceSchema, 'port'>;
  pull: PullCredentials | null;
  deployedAt: string;
}

type Obj = Record<string, any>;

export interface LiveDeployment {
  spec?: { replicas?: number };
  metadata?: { managedFields?: { manager?: string; operation?: string; fieldsV1?: Obj }[] };
}

/**
 * The replica count to apply (spec: an HPA-managed Deployment's replicas are never reset). New Deployment: the HPA's
 * minimum. Existing one whose replicas the HPA (another manager) took over: left out, so the apply does not touch it.
 * Existing one whose replicas `gantry` still owns (the HPA never had to change them): the live count kept within the new
 * bounds — leaving an owned field out of an apply would remove it and drop the Deployment to 1 replica.
 */
export function replicasToApply(live: LiveDeployment | null, a: Pick<AutoScaling, 'minReplicas' | 'maxReplicas'>): number | undefined {
  if (!live) return a.minReplicas;
  const ownsReplicas = (live.metadata?.managedFields ?? []).some(
    (f) => f.manager === FIELD_MANAGER && f.operation === 'Apply' && f.fieldsV1?.['f:spec']?.['f:replicas'] !== undefined,
  );
  if (!ownsReplicas) return undefined;
  return Math.min(Math.max(live.spec?.replicas ?? a.minReplicas, a.minReplicas), a.maxReplicas);
}

/** A .dockerconfigjson for one registry (Docker Hub's key is the legacy index URL every kubelet looks up). */
export function dockerConfigJson(p: PullCredentials): string {
  const key = p.host === 'docker.io' || p.host === 'registry-1.docker.io' ? 'https://index.docker.io/v1/' : p.host;
  const auth = Buffer.from(`${p.username}:${p.password}`).toString('base64');
  return JSON.stringify({ auths: { [key]: { username: p.username, password: p.password, auth } } });
}

const b64 = (s: string) => Buffer.from(s).toString('base64');

export function buildManifests(s: DeploySpec, live: LiveDeployment | null) {
  const name = kubeName(s.serviceName);
  const labels = { [LABELS.name]: name, [LABELS.managedBy]: FIELD_MANAGER, [LABELS.service]: name };
  const annotations = {
    [ANNOTATIONS.serviceName]: s.serviceName,
    [ANNOTATIONS.version]: s.version,
    [ANNOTATIONS.deployedAt]: s.deployedAt,
    [ANNOTATIONS.isPublic]: String(s.isPublic),
    [ANNOTATIONS.imageRepository]: s.imageRepository,
    ...(s.registry ? { [ANNOTATIONS.registry]: s.registry } : {}),
    ...(s.commit ? { [ANNOTATIONS.commit]: s.commit } : {}),
  };
  const meta = { name, namespace: s.namespace, labels, annotations };
  const a = s.autoScaling;
  const secretInputs = s.env.filter((e) => e.sensitive);
  // a changed secret value must roll the pods (env is read at container start)
  const configHash = crypto
    .createHash('sha256')
    .update(JSON.stringify([s.env, s.pull && dockerConfigJson(s.pull)]))
    .digest('hex')
    .slice(0, 16);
  const replicas = replicasToApply(live, a);

  const deployment: Obj = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: meta,
    spec: {
      ...(replicas !== undefined ? { replicas } : {}),
      selector: { matchLabels: { [LABELS.service]: name } },
      template: {
        metadata: { labels, annotations: { [ANNOTATIONS.version]: s.version, [ANNOTATIONS.configHash]: configHash } },
        spec: {
          containers: [
            {
              name,
              image: s.image,
              ports: [{ name: 'http', containerPort: s.schema.port, protocol: 'TCP' }],
              env: s.env.map((e) =>
                e.sensitive
                  ? { name: e.key, valueFrom: { secretKeyRef: { name: envSecretName(s.serviceName), key: e.key } } }
                  : { name: e.key, value: e.value },
              ),
              resources: {
                requests: { cpu: `${a.cpu}m`, memory: `${a.memory}Mi` },
                limits: { cpu: `${a.maxCpu}m`, memory: `${a.maxMemory}Mi` },
              },
            },
          ],
          ...(s.pull ? { imagePullSecrets: [{ name: pullSecretName(s.serviceName) }] } : {}),
        },
      },
    },
  };
  const service: Obj = {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: meta,
    spec: {
      type: 'ClusterIP',
      selector: { [LABELS.service]: name },
      ports: [{ name: 'http', port: s.schema.port, targetPort: s.schema.port, protocol: 'TCP' }],
    },
  };
  // a utilization of 0 means "do not scale on it" (the sliders go 0 to 100; Kubernetes needs a target above 0)
  const metrics = (['cpu', 'memory'] as const)
    .map((resource) => ({ resource, target: resource === 'cpu' ? a.cpuUtilization : a.memoryUtilization }))
    .filter((m) => m.target > 0)
    .map((m) => ({ type: 'Resource', resource: { name: m.resource, target: { type: 'Utilization', averageUtilization: m.target } } }));
  const hpa: Obj = {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: meta,
    spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name }, minReplicas: a.minReplicas, maxReplicas: a.maxReplicas, metrics },
  };
  const pullSecret: Obj | null = s.pull
    ? {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { ...meta, name: pullSecretName(s.serviceName) },
        type: 'kubernetes.io/dockerconfigjson',
        data: { '.dockerconfigjson': b64(dockerConfigJson(s.pull)) },
      }
    : null;
  const inputsSecret: Obj | null = secretInputs.length
    ? {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { ...meta, name: envSecretName(s.serviceName) },
        type: 'Opaque',
        data: Object.fromEntries(secretInputs.map((e) => [e.key, b64(e.value)])),
      }
    : null;
  return { name, deployment, service, hpa, pullSecret, inputsSecret };
}
export type Manifests = ReturnType<typeof buildManifests>;
