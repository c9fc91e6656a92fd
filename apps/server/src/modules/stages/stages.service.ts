import { z } from 'zod';
import { StageBody, stageLocked, LOCKED_STAGE_FIELDS, type Stage } from '@gantry/contracts';
import { Conflict, NotFound, Validation } from '../../platform/errors.js';
import type { BillingService } from '../billing/billing.service.js';
import type { StagesStore, StageRow } from './stages.store.js';

type Body = z.output<typeof StageBody>;

/** Does the project have this cloud account? (The cloud-accounts service answers.) */
export type CloudAccountCheck = (projectId: string, body: Body) => Promise<string | null>;

const iso = (d: Date | null) => d?.toISOString() ?? null;

export function toStage(r: StageRow): Stage {
  return {
    id: r.id, name: r.name, description: r.description, status: r.status, cloudProvider: r.cloudProvider, infrastructureAsCodeTool: r.iacTool,
    awsAccountId: r.awsAccountId, awsRegion: r.awsRegion, tenantId: r.tenantId, subscriptionId: r.subscriptionId,
    gcpProjectId: r.gcpProjectId, gcpRegion: r.gcpRegion, gcpZone: r.gcpZone,
    lastDeployed: iso(r.lastDeployed), lastDeploymentId: r.lastDeploymentId, currentDeploymentId: r.currentDeploymentId,
    dateCreated: r.createdAt.toISOString(), dateUpdated: r.updatedAt.toISOString(),
  };
}

/** Only the account fields of the body's provider are kept; the others are cleared. */
function columns(b: Body) {
  return {
    name: b.name, description: b.description, cloudProvider: b.cloudProvider, iacTool: b.infrastructureAsCodeTool,
    awsAccountId: b.cloudProvider === 'aws' ? b.awsAccountId! : null, awsRegion: b.cloudProvider === 'aws' ? b.awsRegion! : null,
    tenantId: b.cloudProvider === 'azurerm' ? b.tenantId! : null, subscriptionId: b.cloudProvider === 'azurerm' ? b.subscriptionId! : null,
    gcpProjectId: b.cloudProvider === 'google' ? b.gcpProjectId! : null, gcpRegion: b.cloudProvider === 'google' ? b.gcpRegion! : null,
    gcpZone: b.cloudProvider === 'google' ? b.gcpZone! : null,
  };
}

export function createStagesService(deps: { store: StagesStore; billing: BillingService; cloudAccount: CloudAccountCheck }) {
  const { store, billing } = deps;

  async function get(projectId: string, id: string) {
    const row = await store.byId(projectId, id);
    if (!row) throw new NotFound('Environment not found');
    return row;
  }

  async function checkAccount(projectId: string, body: Body) {
    const problem = await deps.cloudAccount(projectId, body);
    if (problem) throw new Validation(problem, { [body.cloudProvider === 'aws' ? 'awsAccountId' : body.cloudProvider === 'azurerm' ? 'subscriptionId' : 'gcpProjectId']: [problem] });
  }

  return {
    get,
    list: async (projectId: string) => (await store.list(projectId)).map(toStage),
    one: async (projectId: string, id: string) => toStage(await get(projectId, id)),

    /** Create, or replicate when copyFrom names another environment of the project. */
    async create(projectId: string, body: Body): Promise<{ stageId: string }> {
      await billing.assertWithinLimit(projectId, 'environmentsAllowed', await store.count(projectId));
      if (body.copyFrom) {
        await billing.assertFeature(projectId, 'environmentReplication');
        const source = await get(projectId, body.copyFrom);
        if (source.cloudProvider !== body.cloudProvider || source.iacTool !== body.infrastructureAsCodeTool) {
          throw new Validation('A replica keeps the provider and tool of its environment');
        }
      }
      if (await store.byName(projectId, body.name)) throw new Conflict(`An environment named ${body.name} already exists`);
      await checkAccount(projectId, body);
      const row = await store.insert({ projectId, ...columns(body), copyFrom: body.copyFrom ?? null });
      return { stageId: row.id };
    },

    async update(projectId: string, id: string, body: Body): Promise<Stage> {
      const row = await get(projectId, id);
      const next = columns(body);
      const current: Record<string, unknown> = { ...row };
      if (stageLocked(row.status)) {
        const changed = LOCKED_STAGE_FIELDS.filter((f) => (f === 'infrastructureAsCodeTool' ? next.iacTool !== row.iacTool : (next as Record<string, unknown>)[f] !== current[f]));
        if (changed.length) throw new Validation('A deployed environment keeps its provider, tool and account', Object.fromEntries(changed.map((f) => [f, ['Locked while the environment is deployed']])));
      }
      if (row.cloudProvider === 'azurerm' && body.cloudProvider === 'azurerm' && (next.tenantId !== row.tenantId || next.subscriptionId !== row.subscriptionId)) {
        throw new Validation('Tenant and subscription ids cannot be changed', { tenantId: ['Cannot be changed'], subscriptionId: ['Cannot be changed'] });
      }
      const other = await store.byName(projectId, body.name);
      if (other && other.id !== id) throw new Conflict(`An environment named ${body.name} already exists`);
      await checkAccount(projectId, body);
      return toStage((await store.update(projectId, id, next))!);
    },

    async remove(projectId: string, id: string) {
      const row = await get(projectId, id);
      if (stageLocked(row.status)) throw new Conflict('Undeploy the environment before deleting it');
      await store.delete(projectId, id);
    },

    deployedNames: (projectId: string) => store.deployedNames(projectId),
    countsFor: (projectIds: string[]) => store.countsFor(projectIds),
  };
}
export type StagesService = ReturnType<typeof createStagesService>;
