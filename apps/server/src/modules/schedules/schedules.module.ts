import { defineModule } from '../../platform/module.js';
import { changeTaggedState } from '../../integrations/aws-resources/index.js';
import type { BillingService } from '../billing/billing.port.js';
import type { CloudAccountsService } from '../cloud-accounts/cloud-accounts.port.js';
import { createSchedulesStore } from './schedules.store.js';
import { createSchedulesService } from './schedules.service.js';
import { schedulesRoutes } from './schedules.routes.js';

type ChangeState = Parameters<typeof createSchedulesService>[0]['changeState'];

/** Saving schedules of the Cloud Waste Manager: Start All / Stop All of the tagged resources in an AWS account. */
export const schedulesModule = defineModule({
  name: 'schedules',
  create(platform, needs: { billing: BillingService; cloudAccounts: CloudAccountsService }, overrides: { changeState?: ChangeState }) {
    const { cloudAccounts } = needs;
    const schedules = createSchedulesService({
      store: createSchedulesStore(platform.db),
      billing: needs.billing,
      awsAccountIds: async (projectId) => (await cloudAccounts.listAws(projectId)).map((a) => a.id),
      changeState:
        overrides.changeState ??
        (async (projectId, schedule, action) => {
          const env = await cloudAccounts.credentialsFor(projectId, 'aws', schedule.awsAccountId);
          const credentials = { accessKeyId: env.AWS_ACCESS_KEY_ID!, secretAccessKey: env.AWS_SECRET_ACCESS_KEY!, sessionToken: env.AWS_SESSION_TOKEN };
          return changeTaggedState({ region: schedule.awsRegion, credentials, tagKey: schedule.resourcesTagKey, tagValue: schedule.resourcesTagValue }, action);
        }),
    });
    return { api: schedules, routes: [{ prefix: '/ms-cloud-cost-optimizer', plugin: schedulesRoutes({ schedules, guards: platform.guards }) }] };
  },
});
