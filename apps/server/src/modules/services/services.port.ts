/** What the services module offers other modules: the pipeline `deploy` step deploys a service version through it. */
export interface ServiceDeployRequest {
  projectId: string;
  clusterId: string;
  namespace: string;
  serviceName: string;
  tag: string;
  initiator: { userId: string; email: string } | { pipelineId: string; buildId: string };
  commit?: string | null;
  log?: (line: string) => void;
}
export interface ServicesPort {
  /**
   * Deploys `tag` of the service with its stored configuration (or the defaults) by server-side apply, writes a
   * history row with the initiator and streams progress lines to `log`. Rejects with an AppError (NotFound,
   * Validation, 502 cluster failure) after the failed history row is written.
   */
  deployVersion(req: ServiceDeployRequest): Promise<{ done: true; historyId: string }>;
}
