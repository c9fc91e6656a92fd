import { defineModule } from '../../platform/module.js';
import { fetchAccountCosts, fetchReportLines } from '../../integrations/aws-cost/index.js';
import { sessionFromEnv } from '../../integrations/aws-resources/session.js';
import type { BillingService } from '../billing/billing.port.js';
import type { CloudAccountsService } from '../cloud-accounts/cloud-accounts.port.js';
import { createCostStore } from './cost-explorer.store.js';
import { createCostExplorerService, type FetchCosts, type FetchReportLines } from './cost-explorer.service.js';
import { createReportsScheduler } from './reports.scheduler.js';
import { costExplorerRoutes } from './cost-explorer.routes.js';

/** The cost explorer of the Cloud Waste Manager: the cached cost dashboard and the e-mailed cost reports (mailed by workers). */
export const costExplorerModule = defineModule({
  name: 'costExplorer',
  create(
    platform,
    needs: { billing: BillingService; cloudAccounts: CloudAccountsService },
    overrides: { now?: () => Date; fetchCosts?: FetchCosts; fetchReportLines?: FetchReportLines; tickEveryMs?: number },
  ) {
    const { cloudAccounts } = needs;
    // Cost Explorer answers from us-east-1 whatever the account's regions
    const session = async (projectId: string, awsAccountId: string) =>
      sessionFromEnv('us-east-1', await cloudAccounts.credentialsFor(projectId, 'aws', awsAccountId));
    const cost = createCostExplorerService({
      store: createCostStore(platform.db),
      billing: needs.billing,
      mailer: platform.mailer,
      now: overrides.now,
      awsAccounts: async (projectId) => (await cloudAccounts.listAws(projectId)).map((a) => ({ awsAccountId: a.id, accountName: a.accountName || null })),
      fetchCosts: overrides.fetchCosts ?? (async (projectId, account, now) => fetchAccountCosts(await session(projectId, account.awsAccountId), account, now)),
      fetchReportLines: overrides.fetchReportLines ?? (async (projectId, q) => fetchReportLines(await session(projectId, q.awsAccountId), q)),
    });
    const scheduler = createReportsScheduler({ reports: cost, now: overrides.now, log: platform.log });
    return {
      api: cost,
      routes: [{ prefix: '/ms-cloud-cost-optimizer', plugin: costExplorerRoutes({ cost, guards: platform.guards }) }],
      start: async () => {
        if (platform.runWorkers) scheduler.start(overrides.tickEveryMs);
      },
      stop: () => scheduler.stop(),
    };
  },
});
