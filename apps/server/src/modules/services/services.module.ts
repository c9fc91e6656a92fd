import { defineModule } from '../../platform/module.js';
import type { BillingService } from '../billing/billing.port.js';
import type { ClustersPort } from '../clusters/clusters.port.js';
import type { RegistriesPort, RegistryVersionsPort } from '../registries/registries.port.js';
import { serviceKubeConnector, type ServiceKubeConnector } from './services.kube.js';
import { createServicesStore } from './services.store.js';
import { createServicesService } from './services.service.js';
import { servicesRoutes } from './services.routes.js';

/** Kubernetes services of a project and their deploys to its clusters (/ms-kube/projects/:projectId/microservices…); pipelines deploy through its port. */
export const servicesModule = defineModule({
  name: 'services',
  create(
    platform,
    needs: { billing: BillingService; clusters: ClustersPort; registries: RegistriesPort & RegistryVersionsPort },
    overrides: { connect?: ServiceKubeConnector; timeoutMs?: number; registries?: Pick<RegistriesPort, 'pushTarget'> & RegistryVersionsPort },
  ) {
    const services = createServicesService({
      store: createServicesStore(platform.db),
      secrets: platform.secrets,
      billing: needs.billing,
      clusters: needs.clusters,
      registries: overrides.registries ?? needs.registries,
      connect: overrides.connect ?? serviceKubeConnector(platform.config.OUTBOUND_NETWORK),
      timeoutMs: overrides.timeoutMs,
      log: platform.log,
    });
    return { api: services, routes: [{ prefix: '/ms-kube', plugin: servicesRoutes({ services, guards: platform.guards }) }] };
  },
});
