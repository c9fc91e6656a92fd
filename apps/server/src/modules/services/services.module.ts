import { defineModule, job } from '../../platform/module.js';
import type { NotificationsService } from '../notifications/notifications.port.js';
import type { ClustersPort } from '../clusters/clusters.port.js';
import type { RegistriesPort, RegistryVersionsPort } from '../registries/registries.port.js';
import { serviceKubeConnector, type ServiceKubeConnector } from './services.kube.js';
import { createServicesStore } from './services.store.js';
import { createServicesService } from './services.service.js';
import { servicesRoutes } from './services.routes.js';
import { createPullRenewal, PULL_RENEWAL_QUEUE, type PullRenewalJob } from './services.pull-renewal.js';

/** Kubernetes services of a project and their deploys to its clusters (/ms-kube/projects/:projectId/microservices…); pipelines deploy through its port. */
export const servicesModule = defineModule({
  name: 'services',
  create(
    platform,
    needs: { clusters: ClustersPort; registries: RegistriesPort & RegistryVersionsPort; notifications: NotificationsService },
    overrides: { connect?: ServiceKubeConnector; timeoutMs?: number; now?: () => Date; registries?: Pick<RegistriesPort, 'pushTarget'> & RegistryVersionsPort },
  ) {
    const store = createServicesStore(platform.db);
    const registries = overrides.registries ?? needs.registries;
    const connect = overrides.connect ?? serviceKubeConnector(platform.config.OUTBOUND_NETWORK);
    const now = overrides.now ?? (() => new Date());
    const pullRenewal = createPullRenewal({
      store,
      clusters: needs.clusters,
      registries,
      connect,
      jobs: platform.jobs,
      now,
      timeoutMs: overrides.timeoutMs,
      log: platform.log,
    });
    const services = createServicesService({
      store,
      secrets: platform.secrets,
      clusters: needs.clusters,
      notifications: needs.notifications,
      registries,
      connect,
      pullRenewal,
      tellProject: (projectId, event, payload) => platform.realtime.toProject(projectId, event, payload),
      now,
      timeoutMs: overrides.timeoutMs,
      log: platform.log,
    });
    platform.hooks.timelineSources.provide((projectId, type) => services.timeline(projectId, type));
    needs.clusters.serveServices((projectId, clusterId, listed) => services.servicesOnCluster(projectId, clusterId, listed));
    return {
      api: { ...services, renewPullSecret: (j: PullRenewalJob) => pullRenewal.renew(j) },
      routes: [{ prefix: '/ms-kube', plugin: servicesRoutes({ services, guards: platform.guards, realtime: platform.realtime }) }],
      jobs: [job<PullRenewalJob>(PULL_RENEWAL_QUEUE, async (j) => void (await pullRenewal.renew(j)))],
    };
  },
});
