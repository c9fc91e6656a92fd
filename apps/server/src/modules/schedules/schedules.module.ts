import { defineModule } from '../../platform/module.js';
import { lazy } from '../../platform/lazy.js';
import { sessionFromEnv } from '../../integrations/aws-resources/session.js';
import type { BillingService } from '../billing/billing.port.js';
import type { CloudAccountsService } from '../cloud-accounts/cloud-accounts.port.js';
import { createSchedulesStore } from './schedules.store.js';
import { createScheduleRunsStore } from './schedule-runs.store.js';
import { createSchedulesService } from './schedules.service.js';
import { createScheduler, type Execute } from './schedules.scheduler.js';
import { schedulesRoutes } from './schedules.routes.js';

/** The AWS SDK clients load when a schedule first touches AWS. */
const aws = lazy(() => import('../../integrations/aws-resources/index.js'));

type Deps = Parameters<typeof createSchedulesService>[0];
type ChangeState = (projectId: string, schedule: Parameters<Execute>[0], action: Parameters<Execute>[1], only?: 'rds') => ReturnType<Execute>;

/**
 * Saving schedules of the Cloud Waste Manager: the rules, their resources (tagged), Start All /
 * Stop All, and the scheduler that wakes and sleeps them on time (workers only).
 */
export const schedulesModule = defineModule({
  name: 'schedules',
  create(
    platform,
    needs: { billing: BillingService; cloudAccounts: CloudAccountsService },
    overrides: { changeState?: ChangeState; listResources?: Deps['listResources']; tag?: Deps['tag']; now?: () => Date; tickEveryMs?: number },
  ) {
    const { cloudAccounts } = needs;
    const session = async (projectId: string, awsAccountId: string, region: string) =>
      sessionFromEnv(region, await cloudAccounts.credentialsFor(projectId, 'aws', awsAccountId));
    const changeState: ChangeState =
      overrides.changeState ??
      (async (projectId, schedule, action, only) =>
        (await aws()).changeTaggedState(
          { ...(await session(projectId, schedule.awsAccountId, schedule.awsRegion)), tagKey: schedule.resourcesTagKey, tagValue: schedule.resourcesTagValue },
          action,
          only,
        ));
    const runs = createScheduleRunsStore(platform.db);
    const scheduler = createScheduler({
      runs,
      now: overrides.now,
      log: platform.log,
      execute: (schedule, action, only) => changeState(schedule.projectId, schedule, action, only),
    });
    const schedules = createSchedulesService({
      store: createSchedulesStore(platform.db),
      runs,
      scheduler,
      billing: needs.billing,
      now: overrides.now,
      awsAccountIds: async (projectId) => (await cloudAccounts.listAws(projectId)).map((a) => a.id),
      listResources:
        overrides.listResources ??
        (async (projectId, where) => (await aws()).listResources(await session(projectId, where.awsAccountId, where.awsRegion), where.awsAccountId)),
      tag:
        overrides.tag ??
        (async (projectId, where, refs, tag, remove) =>
          (await aws()).tagResources(await session(projectId, where.awsAccountId, where.awsRegion), refs, tag, remove)),
    });
    return {
      api: schedules,
      routes: [{ prefix: '/ms-cloud-cost-optimizer', plugin: schedulesRoutes({ schedules, guards: platform.guards }) }],
      start: async () => {
        if (platform.runWorkers) scheduler.start(overrides.tickEveryMs);
      },
      stop: () => scheduler.stop(),
    };
  },
});
