import { defineModule } from '../../platform/module.js';
import { connectWithin, type KubeConnector } from '../../integrations/kubernetes/index.js';
import type { BillingService } from '../billing/billing.port.js';
import { createClustersStore } from './clusters.store.js';
import { createClustersService } from './clusters.service.js';
import { clustersRoutes } from './clusters.routes.js';

/** Kubernetes clusters of a project (/ms-kube/projects/:projectId/kubernetes); service deploys reach them through its port. */
export const clustersModule = defineModule({
  name: 'clusters',
  create(
    platform,
    needs: { billing: BillingService },
    overrides: { connect?: KubeConnector; timeoutMs?: number; listStatusTimeoutMs?: number; now?: () => Date },
  ) {
    const clusters = createClustersService({
      store: createClustersStore(platform.db),
      secrets: platform.secrets,
      billing: needs.billing,
      log: platform.log,
      connect: overrides.connect ?? connectWithin(platform.config.OUTBOUND_NETWORK),
      timeoutMs: overrides.timeoutMs,
      listStatusTimeoutMs: overrides.listStatusTimeoutMs,
      now: overrides.now,
    });
    return { api: clusters, routes: [{ prefix: '/ms-kube', plugin: clustersRoutes({ clusters, guards: platform.guards }) }] };
  },
});
