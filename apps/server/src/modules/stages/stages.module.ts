import { defineModule } from '../../platform/module.js';
import type { BillingService } from '../billing/billing.port.js';
import type { ComponentsService } from '../components/components.port.js';
import type { CloudAccountsService } from '../cloud-accounts/cloud-accounts.port.js';
import type { SchedulesService } from '../schedules/schedules.port.js';
import { createStagesStore } from './stages.store.js';
import { createStagesService, type CloudAccountCheck } from './stages.service.js';
import { stagesRoutes } from './stages.routes.js';

/**
 * Environments (stages) and their resources, also created from a template with their saving schedule in one go. Answers project counts and delete blockers (deployed
 * environments), componentUsers and cloudAccountUsers; tells stageRemoved.
 */
export const stagesModule = defineModule({
  name: 'stages',
  create(platform, needs: { billing: BillingService; components: ComponentsService; cloudAccounts: CloudAccountsService; schedules: SchedulesService }) {
    const { hooks } = platform;
    const { components, cloudAccounts } = needs;
    // The environment's cloud account must be one of the project's.
    const cloudAccount: CloudAccountCheck = async (projectId, body) => {
      if (body.cloudProvider === 'aws') {
        return (await cloudAccounts.listAws(projectId)).some((a) => a.id === body.awsAccountId) ? null : 'Please select an AWS account of this project';
      }
      if (body.cloudProvider === 'azurerm') {
        return (await cloudAccounts.listAzure(projectId)).some((a) => a.tenantId === body.tenantId && a.subscriptionId === body.subscriptionId)
          ? null
          : 'Please select an Azure subscription of this project';
      }
      return (await cloudAccounts.listGcp(projectId)).some((a) => a.gcpProjectId === body.gcpProjectId)
        ? null
        : 'Please select a Google Cloud project of this project';
    };
    const stages = createStagesService({
      db: platform.db,
      store: createStagesStore(platform.db, platform.database.cache),
      billing: needs.billing,
      schedules: needs.schedules,
      secrets: platform.secrets,
      components: {
        schema: (projectId, componentId, version) => components.versionSchema(projectId, componentId, version),
        summary: async (projectId, componentId) => {
          const row = await components.visibleRow(projectId, componentId);
          return { id: row.id, name: row.name, type: row.type };
        },
        idByName: async (projectId, name) => (await components.list(projectId)).find((c) => c.name === name)?.id,
      },
      cloudAccount,
      removing: (stage) => hooks.stageRemoving.emit(stage),
      removed: (stageId) => hooks.stageRemoved.emit({ stageId }),
    });
    hooks.projectCounts.provide(
      async (projectIds) => new Map([...(await stages.countsFor(projectIds))].map(([id, n]) => [id, { stagesCount: n }])),
      stages.countsForReads,
    );
    hooks.projectDeleteBlockers.provide((projectId) => stages.deployedNames(projectId));
    hooks.componentUsers.provide((componentId) => stages.stagesUsingComponent(componentId));
    hooks.cloudAccountUsers.provide((projectId, account) => stages.namesUsingCloudAccount(projectId, account));
    return { api: stages, routes: [{ prefix: '/ms-engine', plugin: stagesRoutes({ stages, guards: platform.guards }) }] };
  },
});
