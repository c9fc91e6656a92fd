import { z } from 'zod';
import { InputText } from './common.js';
import { ProjectIdParams } from './projects.js';
import { ServiceStatusEntry } from './services.js';

/**
 * Kubernetes clusters of a project (spec delivery §2 Clusters, §3 cluster and cluster status, §5 cluster
 * form, §7 clusters, §8), served under /ms-kube/projects/:projectId/kubernetes. A cluster's id equals
 * its name. Beyond the spec: a CA certificate (most API servers use a private CA).
 */
export const clusterMessages = {
  nameRequired: 'Cluster name is required',
  nameRule: 'Cluster name must be lowercase letters, digits or "-", starting and ending with a letter or digit (at most 63)',
  endpointRequired: 'API server endpoint is required',
  endpointRule: 'API server endpoint must be an https:// URL (http:// only for a local cluster)',
  tokenRequired: 'API token is required',
  /** A stored token is sent only to the endpoint it was given for. */
  tokenForNewEndpoint: 'Enter the API token again to change the API server endpoint',
  namespaceRule: 'Namespace must be 5 to 63 lowercase letters, digits or "-", starting and ending with a letter or digit',
  caRule: 'CA certificate must be a PEM certificate (-----BEGIN CERTIFICATE-----)',
  exists: (name: string) => `A cluster named ${name} already exists in this project`,
  notFound: 'Kubernetes cluster not found',
  unreachable: (reason: string) => `Gantry cannot reach the cluster: ${reason}`,
  refused: (reason: string) => `The cluster refused the token: ${reason}`,
  created: (name: string) => `Successfully connected cluster ${name}`,
  updated: (name: string) => `Successfully updated cluster ${name}`,
  deleted: (name: string) => `Successfully removed cluster ${name}`,
  notReachable: 'NOT REACHABLE',
  trialExpired: 'The 30-day trial of the Kubernetes dashboard has expired. Upgrade your plan to use it again.',
} as const;

export const CLUSTER_NAME = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;
/** Spec §5: optional associated namespace, 5 to 63 characters, lowercase alphanumerics or '-', alphanumeric at both ends. */
export const NAMESPACE_NAME = /^[a-z0-9][a-z0-9-]{3,61}[a-z0-9]$/;

const ClusterName = InputText({ error: clusterMessages.nameRequired })
  .trim()
  .min(1, clusterMessages.nameRequired)
  .regex(CLUSTER_NAME, clusterMessages.nameRule);
const Endpoint = InputText({ error: clusterMessages.endpointRequired })
  .trim()
  .min(1, clusterMessages.endpointRequired)
  .refine((v) => {
    try {
      return ['https:', 'http:'].includes(new URL(v).protocol);
    } catch {
      return false;
    }
  }, clusterMessages.endpointRule);
const Namespace = InputText().trim().regex(NAMESPACE_NAME, clusterMessages.namespaceRule);
const CaCertificate = InputText()
  .trim()
  .refine((v) => v === '' || v.includes('-----BEGIN CERTIFICATE-----'), clusterMessages.caRule);

/** POST body (spec §7: name, apiToken, endpoint, associatedNamespace?, type personal). */
export const CreateClusterBody = z.object({
  name: ClusterName,
  endpoint: Endpoint,
  apiToken: InputText({ error: clusterMessages.tokenRequired }).trim().min(1, clusterMessages.tokenRequired),
  /** Sent only when the associate switch is on (spec §5). */
  associatedNamespace: Namespace.optional(),
  caCertificate: CaCertificate.optional(),
  type: z.literal('personal').default('personal'),
});
export type CreateClusterBody = z.infer<typeof CreateClusterBody>;

/**
 * PUT body: the name is locked; apiToken left as '(sensitive)', empty or out keeps the stored one, at the same endpoint
 * only (tokenForNewEndpoint).
 */
export const UpdateClusterBody = z.object({
  endpoint: Endpoint,
  apiToken: InputText().optional(),
  /** Left out: no associated namespace (the form sends it only when the associate switch is on). */
  associatedNamespace: Namespace.optional(),
  /** Left out keeps the stored CA certificate; '' removes it. */
  caCertificate: CaCertificate.optional(),
  type: z.literal('personal').default('personal'),
});
export type UpdateClusterBody = z.infer<typeof UpdateClusterBody>;

export const Cluster = z.object({
  id: z.string(),
  name: z.string(),
  endpoint: z.string(),
  /** Always '(sensitive)'. */
  apiToken: z.string(),
  type: z.literal('personal'),
  associatedNamespace: z.string().nullable(),
  caCertificate: z.string().nullable(),
  projectId: z.string(),
  createdAt: z.string(),
});
export type Cluster = z.infer<typeof Cluster>;

export const PodStatus = z.object({
  runningPods: z.number().int(),
  succeededPods: z.number().int(),
  failedPods: z.number().int(),
  pendingPods: z.number().int(),
  totalPods: z.number().int(),
});
export type PodStatus = z.infer<typeof PodStatus>;

/** Spec §3 cluster status. Utilization is null when the cluster has no metrics server (said honestly, no placeholder figures). */
export const ClusterStatus = z.object({
  name: z.string(),
  endpoint: z.string(),
  associatedNamespace: z.string().nullable(),
  podStatus: PodStatus,
  nodesStatus: z.object({
    totalNodes: z.number().int(),
    readyNodes: z.number().int(),
    utilization: z.object({ averageCpuUtilization: z.number(), averageMemoryUtilization: z.number() }).nullable(),
  }),
  deploymentsStatus: z.object({ total: z.number().int(), available: z.number().int() }),
  kubernetesVersion: z.string(),
  /** The services Gantry deployed there (as the microservices-status call answers). */
  microservicesStatus: z.array(ServiceStatusEntry),
});
export type ClusterStatus = z.infer<typeof ClusterStatus>;

/** A list entry; with `?detailed=true` also its status, or the reason it is not reachable. */
export const ClusterListEntry = Cluster.extend({
  status: ClusterStatus.nullable().optional(),
  unreachableReason: z.string().nullable().optional(),
});
export const ClusterList = z.object({ kuberneteses: z.array(ClusterListEntry) });
export type ClusterList = z.infer<typeof ClusterList>;

export const ClusterParams = ProjectIdParams.extend({ clusterId: InputText().min(1) });
export const ClusterListQuery = z.object({ detailed: z.enum(['true', 'false']).optional() });
export const NamespaceList = z.object({ namespaces: z.array(z.object({ metadata: z.object({ name: z.string() }) })) });
export type NamespaceList = z.infer<typeof NamespaceList>;
