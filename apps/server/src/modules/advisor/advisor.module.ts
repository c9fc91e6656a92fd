import { defineModule } from '../../platform/module.js';
import { lazy } from '../../platform/lazy.js';
import { sessionFromEnv } from '../../integrations/aws-resources/session.js';
import type { BillingService } from '../billing/billing.port.js';
import type { CloudAccountsService } from '../cloud-accounts/cloud-accounts.port.js';
import { createAdvisorStore } from './advisor.store.js';
import { createAdvisorService, type CollectStats } from './advisor.service.js';
import { advisorRoutes } from './advisor.routes.js';

/** The AWS SDK clients load when the advisor first asks AWS. */
const awsAdvisor = lazy(() => import('../../integrations/aws-advisor/index.js'));

/** The waste advisor of the Cloud Waste Manager: idle and low-use resources of a connected AWS account. */
export const advisorModule = defineModule({
  name: 'advisor',
  create(platform, needs: { billing: BillingService; cloudAccounts: CloudAccountsService }, overrides: { now?: () => Date; collect?: CollectStats }) {
    const { cloudAccounts } = needs;
    const advisor = createAdvisorService({
      store: createAdvisorStore(platform.db),
      billing: needs.billing,
      now: overrides.now,
      awsAccountIds: async (projectId) => (await cloudAccounts.listAws(projectId)).map((a) => a.id),
      collect:
        overrides.collect ??
        (async (projectId, q, now) => {
          const session = sessionFromEnv(q.awsRegion, await cloudAccounts.credentialsFor(projectId, 'aws', q.awsAccountId));
          return (await awsAdvisor()).collectAdvisorStats({ ...session, tag: q.tagKey && q.tagValue ? { key: q.tagKey, value: q.tagValue } : undefined }, now);
        }),
    });
    return { api: advisor, routes: [{ prefix: '/ms-cloud-cost-optimizer', plugin: advisorRoutes({ advisor, guards: platform.guards }) }] };
  },
});
