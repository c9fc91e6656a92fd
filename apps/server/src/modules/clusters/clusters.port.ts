import type { ServiceStatusEntry } from '@gantry/contracts';
import type { KubeStatus } from '../../integrations/kubernetes/index.js';

/** How another module (service deploys) reaches one of the project's clusters. */
export interface ClusterConnection {
  clusterId: string;
  endpoint: string;
  /** The opened token: never logged, never answered. */
  token: string;
  caCertificate: string | null;
  /** When set, Gantry works in this namespace only. */
  associatedNamespace: string | null;
}

/**
 * The services Gantry deployed on a cluster, as the services module reads them (it registers itself: it is built after
 * clusters), from the pods and deployments the status has just listed.
 */
export type ClusterServicesSource = (projectId: string, clusterId: string, listed: KubeStatus['objects']) => Promise<ServiceStatusEntry[]>;

/** What the clusters module offers other modules. */
export interface ClustersPort {
  /** The cluster of the project (NotFound otherwise) with its token opened. */
  connectionFor(projectId: string, clusterId: string): Promise<ClusterConnection>;
  /** 402 unless the project may see the Kubernetes dashboard: the plan's feature, and on the free plan its 30-day trial. */
  assertDashboard(projectId: string): Promise<void>;
  /** Where the cluster status takes its `microservicesStatus` from. */
  serveServices(source: ClusterServicesSource): void;
}
