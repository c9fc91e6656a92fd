import { z } from 'zod';
import { InputText } from './common.js';
import { ProjectIdParams } from './projects.js';
import { ImageTag } from './registries.js';

/**
 * Kubernetes services (spec delivery §2 Kubernetes services and the cluster dashboard's services table, §3, §4,
 * §5 microservice form and deploy dialog, §7 Services, §8, §9). Reads need the project's 'view' (read role),
 * changes and deploys 'change' (write, admin, owner). Cluster-side reads of a cluster that is slow or down
 * answer 502 with the reason (as the clusters' reads); registry reads that may succeed on a retry answer 503.
 *
 * REST paths (all under /ms-kube/projects/:projectId):
 *   GET    /microservices                                   MicroserviceList (private of the project + the public catalogue; ?kind=PRIVATE|PUBLIC)
 *   POST   /microservices                                   CreateMicroserviceBody → 201 Microservice
 *   GET    /microservices/:microserviceName                 Microservice
 *   PUT    /microservices/:microserviceName                 UpdateMicroserviceBody → Microservice (private only; public → 403)
 *   DELETE /microservices/:microserviceName                 OkBody (private only)
 *   GET    /microservices/:microserviceName/versions        ?offset&limit → MicroserviceVersions (503: registry unreachable for now, retry)
 *   GET    /microservices/:microserviceName/history         ?clusterId&namespace&offset&limit → DeploymentHistoryPage (newest first)
 *   GET    /kubernetes/:clusterId/microservices             DeployedMicroserviceList (what Gantry deployed there; ?namespace)
 *   GET    /kubernetes/:clusterId/microservices-status      MicroservicesStatus (dashboard table rows: one per deployed service)
 *   and per service in a namespace, prefix /kubernetes/:clusterId/namespaces/:namespace/microservices/:microserviceName :
 *   POST   …/deploy                                         DeployBody → DeployResult (server-side apply; 400 rules, 502 cluster errors)
 *   DELETE …                                                DeployResult-like { done: true } (undeploy: removes what deploy created)
 *   GET    …/status                                         DeploymentStatus (not deployed: deployed false, empty configurations)
 *   GET    …/pods                                           PodList
 *   GET    …/events                                         PodEventList (events of the service's pods, deployment, replica sets, HPA)
 *   GET    …/spec                                           KubernetesSpec (the applied manifests, as the cluster has them)
 *   GET    …/logs                                           ?pod&container&previous&tail → PodLogs
 *   GET    …/logs/stream                                    ?pod&container&tail → text/event-stream (see LOG_STREAM below)
 */

// ---------------------------------------------------------------------------------------------- microservices

export const serviceMessages = {
  nameRequired: 'Service name is required',
  nameRule: 'Service name must be 2 to 30 characters: lowercase letters, digits, "-", "." or "~"',
  descriptionRequired: 'Description is required',
  descriptionMax: 'Description must be at most 255 characters',
  registryRequired: 'Please select a docker registry',
  imageRepositoryRequired: 'Please select an image repository',
  imageRequired: 'Please enter a docker image',
  notFound: 'Service not found',
  exists: (name: string) => `A service named ${name} already exists`,
  kubeNameClash: (name: string, other: string, kubeName: string) =>
    `Service name ${name} clashes with service ${other}: both would be named ${kubeName} in Kubernetes, where "." and "~" become "-"`,
  publicReadOnly: 'Public services are read-only',
  created: (name: string) => `Service ${name} has been created`,
  updated: (name: string) => `Service ${name} has been updated`,
  deleted: (name: string) => `Service ${name} has been removed`,
  deployed: (name: string, cluster: string) => `Service ${name} has been deployed in ${cluster} cluster`,
  undeployed: (name: string) => `Successfully undeployed ${name} service`,
  notDeployed: (name: string, namespace: string) => `Service ${name} is not deployed in namespace ${namespace}`,
  namespaceNotAllowed: (namespace: string) => `This cluster is associated with namespace ${namespace}; Gantry deploys only there`,
  registryUnavailable: 'The docker registry cannot be reached right now; retrying',
  noDeploymentInfo: 'No deployment information available',
  noServices: 'No services available.',
} as const;

/** The 'Public Docker Image' choice of the form: no registry, the image repository is a public image reference. */
export const PUBLIC_DOCKER_IMAGE = 'Public Docker Image';

/** Spec §5: 2 to 30 characters, lowercase alphanumerics and - . ~ only. */
export const MICROSERVICE_NAME = /^[a-z0-9.~-]{2,30}$/;
export const SERVICE_KINDS = ['PRIVATE', 'PUBLIC'] as const;
export type ServiceKind = (typeof SERVICE_KINDS)[number];

/** An input the service takes: an environment variable of its containers (the 'input parameters' table). */
export const ServiceInput = z.object({
  name: InputText().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'An input name must be a valid environment variable name'),
  description: InputText().max(500).default(''),
  type: z.enum(['string', 'number', 'boolean']).default('string'),
  required: z.boolean().default(false),
  default: InputText().max(4000).nullable().default(null),
  sensitive: z.boolean().default(false),
  /** A regular expression a string value must match (optional). */
  pattern: InputText().max(500).nullable().default(null),
});
export type ServiceInput = z.infer<typeof ServiceInput>;
/** What the service offers once running (the 'output parameters' table), e.g. its port or URL. */
export const ServiceOutput = z.object({ name: InputText().min(1).max(100), description: InputText().max(500).default('') });
export type ServiceOutput = z.infer<typeof ServiceOutput>;
export const ServiceSchema = z.object({
  inputs: z.array(ServiceInput).max(100).default([]),
  outputs: z.array(ServiceOutput).max(100).default([]),
  /** The container port the Kubernetes Service forwards to (default 80). */
  port: z.number().int().min(1).max(65535).default(80),
});
export type ServiceSchema = z.infer<typeof ServiceSchema>;

const MicroserviceName = InputText({ error: serviceMessages.nameRequired })
  .trim()
  .min(1, serviceMessages.nameRequired)
  .regex(MICROSERVICE_NAME, serviceMessages.nameRule);
const Description = InputText({ error: serviceMessages.descriptionRequired })
  .trim()
  .min(1, serviceMessages.descriptionRequired)
  .max(255, serviceMessages.descriptionMax);

/** The form's fields besides the name; `registry` null (or PUBLIC_DOCKER_IMAGE) = a public image in imageRepository. */
const MicroserviceFields = z.object({
  description: Description,
  registry: InputText()
    .trim()
    .nullable()
    .transform((r) => (r === '' || r === PUBLIC_DOCKER_IMAGE ? null : r)),
  imageRepository: InputText({ error: serviceMessages.imageRepositoryRequired }).trim().min(1, serviceMessages.imageRepositoryRequired).max(255),
  readme: InputText().max(100_000).default(''),
  schema: ServiceSchema.default({ inputs: [], outputs: [], port: 80 }),
});
export const CreateMicroserviceBody = MicroserviceFields.extend({ name: MicroserviceName });
export type CreateMicroserviceBody = z.input<typeof CreateMicroserviceBody>;
/** The name is locked on edit. */
export const UpdateMicroserviceBody = MicroserviceFields;
export type UpdateMicroserviceBody = z.input<typeof UpdateMicroserviceBody>;

export const Microservice = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  /** Null for a public image (the form's 'Public Docker Image'). */
  registry: z.string().nullable(),
  imageRepository: z.string(),
  readme: z.string(),
  isPublic: z.boolean(),
  kind: z.enum(SERVICE_KINDS),
  schema: ServiceSchema,
  createdAt: z.string().nullable(),
});
export type Microservice = z.infer<typeof Microservice>;
export const MicroserviceList = z.object({ microservices: z.array(Microservice) });
export type MicroserviceList = z.infer<typeof MicroserviceList>;
export const MicroserviceListQuery = z.object({ kind: z.enum(SERVICE_KINDS).optional() });
export const MicroserviceParams = ProjectIdParams.extend({ microserviceName: InputText().min(1).max(100) });

// ---------------------------------------------------------------------------------------------- versions (§4)

/** Spec §4/§9: paging starts at offset 0 with limit 10; the web asks again only while a full page came back. */
export const VERSION_PAGE = { offset: 0, limit: 10 } as const;
export const MicroserviceVersionsQuery = z.object({
  offset: z.coerce.number().int().min(0).default(VERSION_PAGE.offset),
  limit: z.coerce.number().int().min(1).max(100).default(VERSION_PAGE.limit),
});
/** `latest` first, then by date descending; `lastElementCursor` is the next offset, or -1 when there are no more. */
export const MicroserviceVersions = z.object({ tags: z.array(ImageTag), lastElementCursor: z.number().int() });
export type MicroserviceVersions = z.infer<typeof MicroserviceVersions>;

// ---------------------------------------------------------------------------------------------- deploy (§3, §5, §9)

/** Spec §9 scaling defaults: CPU in milliCPU, memory in MiB, utilization in %. */
export const SCALING_DEFAULTS = {
  memoryUtilization: 80,
  cpuUtilization: 80,
  minReplicas: 2,
  maxReplicas: 10,
  cpu: 10,
  maxCpu: 1000,
  memory: 100,
  maxMemory: 5000,
} as const;
/** Spec §5 bounds of the deploy dialog. */
export const SCALING_LIMITS = { minCpu: 10, maxCpu: 1000, minMemory: 100, maxMemory: 5000, minReplicas: 1, maxReplicas: 100 } as const;
/** Spec §9: the utilization sliders go 0 to 100 in steps of 10. */
export const UTILIZATION_SLIDER = { min: 0, max: 100, step: 10 } as const;
/** Spec §9: pod logs refresh every 5 s when auto-refresh is on; tables show 3 skeleton rows while loading. */
export const POD_LOG_REFRESH_MS = 5000;
export const SKELETON_ROWS = 3;
/** Spec §9: image and version are shown as 6 characters in the cluster service view; commits as 7. */
export const SERVICE_VIEW_VERSION_CHARS = 6;
export const COMMIT_CHARS = 7;

export type AutoScaling = { -readonly [K in keyof typeof SCALING_DEFAULTS]: number };
/** The stored deployment configuration keys (spec §9 "MIC_AS_*"): a service's last deploy in a namespace, overriding the defaults. */
export const AUTOSCALING_CONFIG_KEYS: Record<keyof AutoScaling, string> = {
  memoryUtilization: 'MIC_AS_MEMORY_UTILIZATION',
  cpuUtilization: 'MIC_AS_CPU_UTILIZATION',
  minReplicas: 'MIC_AS_MIN_REPLICAS',
  maxReplicas: 'MIC_AS_MAX_REPLICAS',
  cpu: 'MIC_AS_CPU',
  maxCpu: 'MIC_AS_MAX_CPU',
  memory: 'MIC_AS_MEMORY',
  maxMemory: 'MIC_AS_MAX_MEMORY',
};

export const deployMessages = {
  versionRequired: 'Please select a version',
  namespaceRequired: 'Please select a namespace',
  required: 'Required',
  memoryMin: 'Cannot be lower than 100',
  memoryAboveMax: 'Cannot be higher than max memory',
  maxMemoryBelowInitial: 'Cannot be lower than initial memory',
  maxMemoryMax: 'Cannot be higher than 5000',
  cpuMin: 'Cannot be lower than 10',
  cpuAboveMax: 'Cannot be higher than maximum CPU',
  maxCpuBelowInitial: 'Cannot be lower than initial CPU',
  maxCpuMax: 'Cannot be higher than 1000',
  minPodsMin: 'Cannot be lower than 1',
  minPodsAboveMax: 'Cannot be larger than max scaled pods',
  maxPodsBelowMin: 'Cannot be lower than min scaled pods',
  maxPodsMax: 'Cannot be higher than 100',
  utilizationRange: 'Must be between 0 and 100',
  envRowIncomplete: 'Please enter key and value',
  envKeyRule: 'An environment variable name must be letters, digits and "_", not starting with a digit',
  inputRequired: (name: string) => `${name} is required`,
  inputNumber: (name: string) => `${name} must be a number`,
  inputBoolean: (name: string) => `${name} must be true or false`,
  inputPattern: (name: string) => `${name} does not match the expected format`,
} as const;

const Int = z.number({ error: deployMessages.required }).int();
/** Spec §5 deploy dialog numbers, each error on its own field. */
export const AutoScalingBody = z
  .object({
    memoryUtilization: Int.min(0, deployMessages.utilizationRange).max(100, deployMessages.utilizationRange),
    cpuUtilization: Int.min(0, deployMessages.utilizationRange).max(100, deployMessages.utilizationRange),
    minReplicas: Int.min(SCALING_LIMITS.minReplicas, deployMessages.minPodsMin),
    maxReplicas: Int.min(SCALING_LIMITS.minReplicas, deployMessages.minPodsMin).max(SCALING_LIMITS.maxReplicas, deployMessages.maxPodsMax),
    cpu: Int.min(SCALING_LIMITS.minCpu, deployMessages.cpuMin),
    maxCpu: Int.max(SCALING_LIMITS.maxCpu, deployMessages.maxCpuMax),
    memory: Int.min(SCALING_LIMITS.minMemory, deployMessages.memoryMin),
    maxMemory: Int.max(SCALING_LIMITS.maxMemory, deployMessages.maxMemoryMax),
  })
  .superRefine((a, ctx) => {
    if (a.memory > a.maxMemory) {
      ctx.addIssue({ code: 'custom', path: ['memory'], message: deployMessages.memoryAboveMax });
      ctx.addIssue({ code: 'custom', path: ['maxMemory'], message: deployMessages.maxMemoryBelowInitial });
    }
    if (a.cpu > a.maxCpu) {
      ctx.addIssue({ code: 'custom', path: ['cpu'], message: deployMessages.cpuAboveMax });
      ctx.addIssue({ code: 'custom', path: ['maxCpu'], message: deployMessages.maxCpuBelowInitial });
    }
    if (a.minReplicas > a.maxReplicas) {
      ctx.addIssue({ code: 'custom', path: ['minReplicas'], message: deployMessages.minPodsAboveMax });
      ctx.addIssue({ code: 'custom', path: ['maxReplicas'], message: deployMessages.maxPodsBelowMin });
    }
  });
export type AutoScalingBody = z.infer<typeof AutoScalingBody>;

export const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** A container environment variable (an environment variable row or a schema input's value). */
export const DeploymentConfiguration = z.object({
  key: InputText().trim().min(1, deployMessages.envRowIncomplete).regex(ENV_NAME, deployMessages.envKeyRule),
  value: InputText().max(32_000),
});
export type DeploymentConfiguration = z.infer<typeof DeploymentConfiguration>;

/**
 * Spec §3 deploy payload. `version` is the image tag to run (from the versions list; for a public service any tag,
 * e.g. latest). `deployment.configurations` are the environment variables, schema inputs included: the server checks
 * the service's required inputs (400 with field `inputs.<NAME>`). `deployment.image` is ignored except for services
 * with a public image, where it may override the repository's tag-less reference.
 */
export const DeployBody = z.object({
  version: InputText({ error: deployMessages.versionRequired }).trim().min(1, deployMessages.versionRequired).max(128),
  deployment: z
    .object({
      image: InputText().max(300).optional(),
      configurations: z.array(DeploymentConfiguration).max(200).default([]),
    })
    .default({ configurations: [] }),
  autoScaling: AutoScalingBody,
});
export type DeployBody = z.input<typeof DeployBody>;
export const DeployResult = z.object({ done: z.literal(true), historyId: z.string() });
export type DeployResult = z.infer<typeof DeployResult>;
export const UndeployResult = z.object({ done: z.literal(true) });

/** The dialog's own form (namespace and env rows besides the payload); the web turns it into a DeployBody. */
export const DeployDialogForm = z.object({
  version: InputText({ error: deployMessages.versionRequired }).trim().min(1, deployMessages.versionRequired),
  namespace: InputText({ error: deployMessages.namespaceRequired }).trim().min(1, deployMessages.namespaceRequired),
  autoScaling: AutoScalingBody,
  environmentVariables: z.array(z.object({ key: InputText(), value: InputText() })),
  inputs: z.record(z.string(), z.string()),
});
export type DeployDialogForm = z.input<typeof DeployDialogForm>;

/** Spec §5: an environment-variable row with an empty key or value blocks adding another. */
export const envRowComplete = (row: { key: string; value: string }) => row.key.trim() !== '' && row.value !== '';

/** The field errors of the schema inputs' values (spec §5: each required input must validate), keyed by input name. */
export function serviceInputErrors(
  schema: { inputs: readonly Pick<ServiceInput, 'name' | 'type' | 'required' | 'default' | 'pattern'>[] },
  values: Record<string, string | undefined>,
): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const input of schema.inputs) {
    const raw = values[input.name];
    const value = raw === undefined || raw === '' ? (input.default ?? '') : raw;
    if (value === '') {
      if (input.required) errors[input.name] = deployMessages.inputRequired(input.name);
      continue;
    }
    if (input.type === 'number' && !Number.isFinite(Number(value))) errors[input.name] = deployMessages.inputNumber(input.name);
    else if (input.type === 'boolean' && value !== 'true' && value !== 'false') errors[input.name] = deployMessages.inputBoolean(input.name);
    else if (input.pattern && !safeTest(input.pattern, value)) errors[input.name] = deployMessages.inputPattern(input.name);
  }
  return errors;
}
function safeTest(pattern: string, value: string): boolean {
  try {
    return new RegExp(`^(?:${pattern})$`).test(value);
  } catch {
    return true;
  }
}

/** Stored MIC_AS_* configuration values over the §9 defaults (unknown or unparsable values are ignored). */
export function autoScalingFrom(configurations: readonly { key: string; value: string }[]): AutoScaling {
  const out: AutoScaling = { ...SCALING_DEFAULTS };
  for (const [field, key] of Object.entries(AUTOSCALING_CONFIG_KEYS) as [keyof AutoScaling, string][]) {
    const n = Number(configurations.find((c) => c.key === key)?.value);
    if (Number.isInteger(n)) out[field] = n;
  }
  return out;
}
export function autoScalingConfigurations(a: AutoScaling): { key: string; value: string }[] {
  return (Object.entries(AUTOSCALING_CONFIG_KEYS) as [keyof AutoScaling, string][]).map(([field, key]) => ({ key, value: String(a[field]) }));
}

// ---------------------------------------------------------------------------------------------- in a cluster

export const ClusterServiceParams = ProjectIdParams.extend({ clusterId: InputText().min(1) });
export const NamespacedServiceParams = ClusterServiceParams.extend({
  namespace: InputText().regex(/^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/, 'Invalid namespace'),
  microserviceName: InputText().min(1).max(100),
});

/**
 * Spec §3 deployment status. `usage` from metrics.k8s.io over the service's pods (average per pod: CPU in milliCPU,
 * memory in MiB), null without a metrics server. `configurations` are the stored ones of the last deploy: the
 * environment variables (sensitive schema inputs as '(sensitive)') and the MIC_AS_* values. Not deployed → deployed
 * false with empty configurations (the spec's 404-as-empty, answered as such).
 */
export const DeploymentStatus = z.object({
  deployed: z.boolean(),
  version: z.string().nullable(),
  usage: z.object({ averageCpu: z.number(), averageMemory: z.number() }).nullable(),
  configurations: z.array(z.object({ key: z.string(), value: z.string() })),
  replicas: z.object({ desired: z.number().int(), ready: z.number().int(), available: z.number().int() }).nullable(),
  autoScaling: z.object({ minReplicas: z.number().int(), maxReplicas: z.number().int(), currentReplicas: z.number().int() }).nullable(),
});
export type DeploymentStatus = z.infer<typeof DeploymentStatus>;

/** The commit of a deployed version, as the dashboard shows it (from the image's labels when a pipeline pushed it). */
export const DeployedCommit = z.object({
  name: z.string(),
  version: z.string(),
  message: z.string(),
  pipelineId: z.string().nullable(),
  repository: z.string().nullable(),
  user: z.object({ name: z.string(), avatar: z.string() }),
});
export type DeployedCommit = z.infer<typeof DeployedCommit>;

/** Spec §3 deployed microservice entry. */
export const DeployedMicroservice = z.object({
  id: z.string(),
  name: z.string(),
  namespace: z.string(),
  version: z.string(),
  isPublic: z.boolean(),
  commit: DeployedCommit.nullable(),
});
export type DeployedMicroservice = z.infer<typeof DeployedMicroservice>;
export const DeployedMicroserviceList = z.object({ deployedMicroservices: z.array(DeployedMicroservice) });
export type DeployedMicroserviceList = z.infer<typeof DeployedMicroserviceList>;
export const DeployedListQuery = z.object({ namespace: InputText().optional() });

export const ServicePodStatus = z.object({
  runningPods: z.number().int(),
  totalPods: z.number().int(),
  failedPods: z.number().int(),
  pendingPods: z.number().int(),
});
/** Spec §3 service status entry: one row of the dashboard's services table (per namespace tab). */
export const ServiceStatusEntry = z.object({
  id: z.string(),
  name: z.string(),
  namespace: z.string(),
  version: z.string().nullable(),
  imageRepository: z.string(),
  registry: z.string().nullable(),
  isPublic: z.boolean(),
  lastDeployed: z.string().nullable(),
  /** HEALTHY when every desired replica is available and no pod failed (spec §4: HEALTHY or FAILED). */
  isHealthy: z.boolean(),
  health: z.enum(['HEALTHY', 'FAILED']),
  podStatus: ServicePodStatus,
  commit: DeployedCommit.nullable(),
  /** Status of the last deploy from Gantry's history. */
  lastDeployStatus: z.string().nullable(),
});
export type ServiceStatusEntry = z.infer<typeof ServiceStatusEntry>;
/** Rows of every namespace; the web groups them by namespace into the tabs. */
export const MicroservicesStatus = z.object({ microservicesStatus: z.array(ServiceStatusEntry) });
export type MicroservicesStatus = z.infer<typeof MicroservicesStatus>;

/** Spec §3 pod: metadata.name, status.phase; plus what the log picker needs. */
export const Pod = z.object({
  metadata: z.object({ name: z.string(), creationTimestamp: z.string().nullable() }),
  status: z.object({
    phase: z.string(),
    /** 'Running', 'CrashLoopBackOff', … (the first container's state reason). */
    reason: z.string().nullable(),
    restarts: z.number().int(),
    ready: z.boolean(),
  }),
  containers: z.array(z.string()),
});
export type Pod = z.infer<typeof Pod>;
export const PodList = z.object({ pods: z.array(Pod) });
export type PodList = z.infer<typeof PodList>;

/** Spec §3 pod event. */
export const PodEvent = z.object({
  message: z.string(),
  type: z.string(),
  reason: z.string(),
  count: z.number().int(),
  firstSeen: z.string().nullable(),
  lastSeen: z.string().nullable(),
  /** "Pod/web-5d9f…", "Deployment/web", "HorizontalPodAutoscaler/web". */
  object: z.string(),
});
export type PodEvent = z.infer<typeof PodEvent>;
export const PodEventList = z.object({ events: z.array(PodEvent) });
export type PodEventList = z.infer<typeof PodEventList>;

export const LOG_TAIL = { default: 500, max: 5000 } as const;
export const PodLogsQuery = z.object({
  pod: InputText().min(1).max(253),
  container: InputText().max(63).optional(),
  previous: z.enum(['true', 'false']).optional(),
  tail: z.coerce.number().int().min(1).max(LOG_TAIL.max).default(LOG_TAIL.default),
});
export const PodLogs = z.object({ pod: z.string(), container: z.string().nullable(), logs: z.string() });
export type PodLogs = z.infer<typeof PodLogs>;

/**
 * The live follow stream (GET …/logs/stream?pod&container&tail, bearer token in the Authorization header: read it with
 * fetch and a stream reader, not EventSource). Answers `text/event-stream`: `data: {"text": "…"}` per chunk of log
 * lines, `event: error` with `data: {"message": "…"}` when the cluster fails, `event: end` when the container's log
 * ends. The server stops following when the client disconnects.
 */
export const LOG_STREAM = { contentType: 'text/event-stream', chunkEvent: 'message', errorEvent: 'error', endEvent: 'end' } as const;
export const LogStreamChunk = z.object({ text: z.string() });

/** Spec §2 Kubernetes Spec modal: the objects deploy applied, read back from the cluster (managedFields dropped). */
export const KubernetesSpec = z.object({ objects: z.array(z.record(z.string(), z.unknown())) });
export type KubernetesSpec = z.infer<typeof KubernetesSpec>;

// ---------------------------------------------------------------------------------------------- history (§3)

export const DEPLOY_STATUSES = ['IN_PROGRESS', 'SUCCEEDED', 'FAILED', 'UNDEPLOYED'] as const;
export type DeployStatus = (typeof DEPLOY_STATUSES)[number];
export const DeploymentInitiator = z.object({
  kind: z.enum(['user', 'pipeline']),
  /** The user id, or the pipeline id. */
  id: z.string().nullable(),
  email: z.string().nullable(),
  pipelineId: z.string().nullable(),
  buildId: z.string().nullable(),
});
export type DeploymentInitiator = z.infer<typeof DeploymentInitiator>;
/** Spec §3 service deployment history entry (kept in Gantry's database, not capped). */
export const DeploymentHistoryEntry = z.object({
  id: z.string(),
  status: z.enum(DEPLOY_STATUSES),
  timestamp: z.string(),
  finishedAt: z.string().nullable(),
  initiator: DeploymentInitiator,
  previousVersion: z.string().nullable(),
  version: z.string(),
  commit: z.string().nullable(),
  error: z.string().nullable(),
  description: z.string(),
  imageRepository: z.string(),
  kubernetesId: z.string(),
  namespace: z.string(),
  registry: z.string().nullable(),
});
export type DeploymentHistoryEntry = z.infer<typeof DeploymentHistoryEntry>;
export const ServiceHistoryQuery = z.object({
  clusterId: InputText().min(1).optional(),
  namespace: InputText().min(1).optional(),
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
/** Newest first; `lastElementCursor` is the next offset, or -1 when there are no more. */
export const DeploymentHistoryPage = z.object({ history: z.array(DeploymentHistoryEntry), lastElementCursor: z.number().int() });
export type DeploymentHistoryPage = z.infer<typeof DeploymentHistoryPage>;
