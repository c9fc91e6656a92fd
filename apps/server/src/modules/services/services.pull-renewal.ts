import type { Jobs } from '../../platform/jobs.js';
import { AppError } from '../../platform/errors.js';
import type { ClustersPort } from '../clusters/clusters.port.js';
import type { RegistriesPort } from '../registries/registries.port.js';
import { LABELS, dockerConfigJson, pullSecretName } from './services.manifests.js';
import type { ServiceKubeConnector } from './services.kube.js';
import type { ServicesStore } from './services.store.js';

/**
 * ECR's authorization tokens expire after 12 hours, and a kubelet pulling the image later (a new pod, a rescheduled
 * one) would then fail. After each deploy of an ECR image a durable pg-boss job renews the pull secret every 6 hours,
 * for as long as that deploy is the one running there: a re-deploy starts a chain of its own (the old one ends), an
 * undeploy or a deleted service, cluster or registry ends it. A cluster that does not answer is tried again soon.
 */

export const PULL_RENEWAL_QUEUE = 'services-pull-secret-renewal';
export const RENEW_EVERY_MS = 6 * 3_600_000;
export const RETRY_AFTER_MS = 10 * 60_000;

export interface PullRenewalJob {
  projectId: string;
  clusterId: string;
  namespace: string;
  serviceName: string;
  /** The deploy whose pull secret this chain keeps fresh. */
  historyId: string;
}

type Log = { warn(obj: object, msg?: string): void };

export function createPullRenewal(deps: {
  store: Pick<ServicesStore, 'lastFinished'>;
  clusters: Pick<ClustersPort, 'connectionFor'>;
  registries: Pick<RegistriesPort, 'pushTarget'>;
  connect: ServiceKubeConnector;
  jobs: Pick<Jobs, 'send'>;
  now: () => Date;
  timeoutMs?: number;
  log?: Log;
}) {
  const { store, clusters, registries, connect, jobs, now } = deps;
  const later = (j: PullRenewalJob, ms: number) =>
    jobs.send<PullRenewalJob>(PULL_RENEWAL_QUEUE, j, { startAfter: new Date(now().getTime() + ms), retryLimit: 0 });
  const gone = (err: unknown) => err instanceof AppError && (err.status === 404 || err.status === 400);

  return {
    /** After a successful deploy whose image comes from ECR. */
    schedule: (j: PullRenewalJob) => later(j, RENEW_EVERY_MS),

    /** One renewal; 'renewed', 'ended' (the chain stops) or 'retry' (the cluster failed: again in RETRY_AFTER_MS). */
    async renew(j: PullRenewalJob): Promise<'renewed' | 'ended' | 'retry'> {
      const last = await store.lastFinished(j.projectId, j.clusterId, j.namespace, j.serviceName);
      if (last?.status !== 'SUCCEEDED' || last.id !== j.historyId || !last.registry) return 'ended';
      try {
        const target = await registries.pushTarget(j.projectId, last.registry);
        if (target.provider !== 'Ecr') return 'ended';
        const c = await clusters.connectionFor(j.projectId, j.clusterId);
        const kube = connect({ endpoint: c.endpoint, token: c.token, caCertificate: c.caCertificate }, { timeoutMs: deps.timeoutMs });
        const name = pullSecretName(j.serviceName);
        const live = await kube.read('Secret', j.namespace, name);
        if (!live || live.metadata?.labels?.[LABELS.managedBy] !== 'gantry') return 'ended';
        const { labels, annotations } = live.metadata;
        await kube.apply({
          apiVersion: 'v1',
          kind: 'Secret',
          metadata: { name, namespace: j.namespace, labels, annotations },
          type: 'kubernetes.io/dockerconfigjson',
          data: {
            '.dockerconfigjson': Buffer.from(dockerConfigJson({ host: target.host, username: target.username, password: target.password })).toString('base64'),
          },
        });
      } catch (err) {
        if (gone(err)) return 'ended';
        deps.log?.warn({ err, service: j.serviceName, cluster: j.clusterId }, 'ECR pull secret renewal failed; retrying');
        await later(j, RETRY_AFTER_MS);
        return 'retry';
      }
      await later(j, RENEW_EVERY_MS);
      return 'renewed';
    },
  };
}
export type PullRenewal = ReturnType<typeof createPullRenewal>;
