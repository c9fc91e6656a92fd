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

/** What the clusters module offers other modules. */
export interface ClustersPort {
  /** The cluster of the project (NotFound otherwise) with its token opened. */
  connectionFor(projectId: string, clusterId: string): Promise<ClusterConnection>;
}
