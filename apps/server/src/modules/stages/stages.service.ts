import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import {
  StageBody,
  ResourceBody,
  StageFromTemplateBody,
  ENVIRONMENT_TEMPLATES,
  TEMPLATE_FAILED_MESSAGE,
  missingTemplateInputs,
  COST_TAG_KEY,
  stageLocked,
  LOCKED_STAGE_FIELDS,
  checkInputValues,
  REFERENCE_PATTERN,
  RESOURCE_LATEST,
  SENSITIVE_PLACEHOLDER,
  type Stage,
  type Resource,
  type ComponentVersionSchema,
  type TemplateName,
} from '@gantry/contracts';
import type { Db, Tx } from '../../platform/db.js';
import type { SecretBox } from '../../platform/secrets.js';
import type { CloudAccountRef } from '../../platform/hooks.js';
import type { StoredConfiguration } from './stages.tables.js';
import { AppError, Conflict, NotFound, Validation } from '../../platform/errors.js';
import type { BillingService } from '../billing/billing.port.js';
import type { SchedulesService } from '../schedules/schedules.port.js';
import type { StagesStore, StageRow, ResourceRow } from './stages.store.js';

type Body = z.output<typeof StageBody>;
type ResourceInput = z.output<typeof ResourceBody>;
type FromTemplateBody = z.output<typeof StageFromTemplateBody>;
/** What a resource's references are checked against: the environment's other resources. */
type SiblingResource = Pick<ResourceRow, 'name' | 'componentId' | 'componentVersion'>;
/** What a deployment writes of its environment: its status and deployment pointers. */
export type DeploymentStateValues = { status?: string; lastDeploymentId?: string; currentDeploymentId?: string; lastDeployed?: Date };

/** What resources need of components (the components service answers). */
export interface ComponentLookup {
  schema(projectId: string, componentId: string, version: string): Promise<ComponentVersionSchema>;
  summary(projectId: string, componentId: string): Promise<{ id: string; name: string; type: string }>;
  /** The id of the component of that name visible to the project (templates name vendor components). */
  idByName(projectId: string, name: string): Promise<string | undefined>;
}

/** Does the project have this cloud account? (The cloud-accounts service answers.) */
export type CloudAccountCheck = (projectId: string, body: Body) => Promise<string | null>;

const iso = (d: Date | null) => d?.toISOString() ?? null;

export function toStage(r: StageRow): Stage {
  return {
    id: r.id,
    name: r.name,
    description: r.description,
    status: r.status,
    cloudProvider: r.cloudProvider,
    infrastructureAsCodeTool: r.iacTool,
    awsAccountId: r.awsAccountId,
    awsRegion: r.awsRegion,
    tenantId: r.tenantId,
    subscriptionId: r.subscriptionId,
    gcpProjectId: r.gcpProjectId,
    gcpRegion: r.gcpRegion,
    gcpZone: r.gcpZone,
    lastDeployed: iso(r.lastDeployed),
    lastDeploymentId: r.lastDeploymentId,
    currentDeploymentId: r.currentDeploymentId,
    dateCreated: r.createdAt.toISOString(),
    dateUpdated: r.updatedAt.toISOString(),
  };
}

/** Only the account fields of the body's provider are kept; the others are cleared. */
function columns(b: Body) {
  return {
    name: b.name,
    description: b.description,
    cloudProvider: b.cloudProvider,
    iacTool: b.infrastructureAsCodeTool,
    awsAccountId: b.cloudProvider === 'aws' ? b.awsAccountId! : null,
    awsRegion: b.cloudProvider === 'aws' ? b.awsRegion! : null,
    tenantId: b.cloudProvider === 'azurerm' ? b.tenantId! : null,
    subscriptionId: b.cloudProvider === 'azurerm' ? b.subscriptionId! : null,
    gcpProjectId: b.cloudProvider === 'google' ? b.gcpProjectId! : null,
    gcpRegion: b.cloudProvider === 'google' ? b.gcpRegion! : null,
    gcpZone: b.cloudProvider === 'google' ? b.gcpZone! : null,
  };
}

export function createStagesService(deps: {
  db: Db;
  store: StagesStore;
  billing: BillingService;
  schedules: Pick<SchedulesService, 'prepareCreate'>;
  cloudAccount: CloudAccountCheck;
  components: ComponentLookup;
  secrets: SecretBox;
  /** Told before an environment is deleted (deployments keep its timeline entries). */
  removing?: (stage: { projectId: string; stageId: string; stageName: string }) => Promise<void>;
  /** Told of every deleted environment (deployments remove its terraform files and state). */
  removed?: (stageId: string) => Promise<void>;
}) {
  const { store, billing, secrets } = deps;

  const versionArg = (v: string) => (v === RESOURCE_LATEST ? 'latest' : v);

  async function toResource(projectId: string, r: ResourceRow): Promise<Resource> {
    const component = await deps.components.summary(projectId, r.componentId).catch(() => ({ id: r.componentId, name: '(removed component)', type: 'Other' }));
    return {
      name: r.name,
      component,
      componentVersion: r.componentVersion,
      status: r.status,
      isDeployed: r.isDeployed,
      configurations: r.configurations.map((c) => ({
        key: c.key,
        value: c.sensitive ? SENSITIVE_PLACEHOLDER : c.value,
        sensitive: c.sensitive,
        reference: c.reference,
      })),
    };
  }

  /**
   * Checks a resource against its component version's schema and the environment's other resources, and
   * seals sensitive values (a placeholder sent back keeps the stored one).
   */
  async function prepareResource(projectId: string, others: SiblingResource[], body: ResourceInput, previous?: ResourceRow): Promise<StoredConfiguration[]> {
    const schema = await deps.components.schema(projectId, body.componentId, versionArg(body.componentVersion));
    const fields: Record<string, string[]> = {};
    const kept = (key: string) => previous?.configurations.find((c) => c.key === key && c.sensitive);
    const values = body.configurations.map((c) => (c.value === SENSITIVE_PLACEHOLDER && kept(c.key) ? { ...c, value: 'kept' } : c));
    for (const [key, message] of Object.entries(checkInputValues(schema.inputs, values))) fields[`configurations.${key}`] = [message];
    for (const c of body.configurations.filter((x) => x.reference)) {
      const [, resource, output] = REFERENCE_PATTERN.exec(String(c.value))!;
      const target = others.find((r) => r.name === resource);
      if (!target) {
        fields[`configurations.${c.key}`] = [`There is no resource ${resource} in this environment`];
        continue;
      }
      const outputs = (await deps.components.schema(projectId, target.componentId, versionArg(target.componentVersion))).outputs;
      if (!outputs.some((o) => o.name === output)) fields[`configurations.${c.key}`] = [`${resource} has no output ${output}`];
    }
    if (Object.keys(fields).length) throw new Validation(Object.values(fields)[0]![0]!, fields);
    const sensitiveInputs = new Set(schema.inputs.filter((i) => i.sensitive).map((i) => i.name));
    return body.configurations.map((c) => {
      const sensitive = c.sensitive || sensitiveInputs.has(c.key);
      if (!sensitive || c.reference) return { key: c.key, value: c.value, sensitive: false, reference: c.reference };
      if (c.value === SENSITIVE_PLACEHOLDER && kept(c.key)) return kept(c.key)!;
      return { key: c.key, value: secrets.seal(String(c.value)), sensitive: true, reference: false };
    });
  }

  async function get(projectId: string, id: string) {
    const row = await store.byId(projectId, id);
    if (!row) throw new NotFound('Environment not found');
    return row;
  }

  async function checkAccount(projectId: string, body: Body) {
    const problem = await deps.cloudAccount(projectId, body);
    if (problem)
      throw new Validation(problem, {
        [body.cloudProvider === 'aws' ? 'awsAccountId' : body.cloudProvider === 'azurerm' ? 'subscriptionId' : 'gcpProjectId']: [problem],
      });
  }

  /** What a new environment must pass: the plan's limit, a replica's source, a free name, the project's account. */
  async function checkNew(projectId: string, body: Body) {
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
  }

  /** The template's resources in order, each checked as the single-resource route checks it (against those before it). */
  async function templateResources(projectId: string, template: TemplateName, values: Record<string, string | number>) {
    const missing = missingTemplateInputs(template, values);
    if (missing) throw new Validation(missing);
    const planned: (SiblingResource & { configurations: StoredConfiguration[] })[] = [];
    for (const r of ENVIRONMENT_TEMPLATES[template].resources(values)) {
      const componentId = await deps.components.idByName(projectId, r.componentName);
      if (!componentId) throw new NotFound(`The component ${r.componentName} is not available`);
      const body: ResourceInput = {
        name: r.name,
        componentId,
        componentVersion: RESOURCE_LATEST,
        configurations: r.configurations.map((c) => ({ ...c, sensitive: false })),
      };
      planned.push({ name: r.name, componentId, componentVersion: RESOURCE_LATEST, configurations: await prepareResource(projectId, planned, body) });
    }
    return planned;
  }

  return {
    get,
    list: async (projectId: string) => (await store.list(projectId)).map(toStage),
    one: async (projectId: string, id: string) => toStage(await get(projectId, id)),

    /**
     * Create, or replicate when copyFrom names another environment of the project: the replica starts with that
     * environment's resources (their components, versions and configurations, sealed values as sealed), not deployed.
     */
    async create(projectId: string, body: Body): Promise<{ stageId: string }> {
      await checkNew(projectId, body);
      const copied = body.copyFrom ? await store.resources(body.copyFrom) : [];
      const stageId = randomUUID();
      await deps.db.transaction(async (tx) => {
        await store.insert({ id: stageId, projectId, ...columns(body), copyFrom: body.copyFrom ?? null }, tx);
        for (const r of copied)
          await store.insertResource(
            { stageId, name: r.name, componentId: r.componentId, componentVersion: r.componentVersion, configurations: r.configurations },
            tx,
          );
      });
      return { stageId };
    },

    /**
     * An environment from a template (spec §2): the environment, the template's resources in order and the saving
     * schedule, all or nothing. Everything is checked first, then written in one transaction: on PGlite a read
     * outside the transaction would wait for it to end.
     */
    async createFromTemplate(projectId: string, body: FromTemplateBody): Promise<{ stageId: string }> {
      const { template, templateValues, savingSchedule, ...stage } = body;
      await checkNew(projectId, stage);
      const resources = await templateResources(projectId, template, templateValues).catch((e: unknown) => {
        if (e instanceof AppError) throw new AppError(e.status, `${TEMPLATE_FAILED_MESSAGE} ${e.message}`, e.code, e.extra);
        throw e;
      });
      const stageId = randomUUID();
      const writeSchedule =
        savingSchedule &&
        (await deps.schedules.prepareCreate(projectId, {
          ...savingSchedule,
          awsAccountId: stage.awsAccountId!,
          awsRegion: stage.awsRegion!,
          resourcesTagKey: COST_TAG_KEY,
          resourcesTagValue: stageId,
          state: 'ENABLED',
        }));
      await deps.db.transaction(async (tx) => {
        await store.insert({ id: stageId, projectId, ...columns(stage), copyFrom: stage.copyFrom ?? null }, tx);
        for (const r of resources) await store.insertResource({ stageId, ...r }, tx);
        await writeSchedule?.(tx);
      });
      return { stageId };
    },

    async update(projectId: string, id: string, body: Body): Promise<Stage> {
      const row = await get(projectId, id);
      const next = columns(body);
      const current: Record<string, unknown> = { ...row };
      if (stageLocked(row.status)) {
        const changed = LOCKED_STAGE_FIELDS.filter((f) =>
          f === 'infrastructureAsCodeTool' ? next.iacTool !== row.iacTool : (next as Record<string, unknown>)[f] !== current[f],
        );
        if (changed.length)
          throw new Validation(
            'A deployed environment keeps its provider, tool and account',
            Object.fromEntries(changed.map((f) => [f, ['Locked while the environment is deployed']])),
          );
      }
      if (
        row.cloudProvider === 'azurerm' &&
        body.cloudProvider === 'azurerm' &&
        (next.tenantId !== row.tenantId || next.subscriptionId !== row.subscriptionId)
      ) {
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
      await deps.removing?.({ projectId, stageId: id, stageName: row.name });
      await store.delete(projectId, id);
      await deps.removed?.(id);
    },

    async resources(projectId: string, stageId: string): Promise<Resource[]> {
      await get(projectId, stageId);
      return Promise.all((await store.resources(stageId)).map((r) => toResource(projectId, r)));
    },

    async addResource(projectId: string, stageId: string, body: ResourceInput): Promise<Resource> {
      const stage = await get(projectId, stageId);
      if (await store.resource(stageId, body.name)) throw new Conflict(`This environment already has a resource named ${body.name}`);
      const configurations = await prepareResource(projectId, await store.resources(stage.id), body);
      return toResource(
        projectId,
        await store.insertResource({ stageId, name: body.name, componentId: body.componentId, componentVersion: body.componentVersion, configurations }),
      );
    },

    async updateResource(projectId: string, stageId: string, name: string, body: ResourceInput): Promise<Resource> {
      const stage = await get(projectId, stageId);
      const row = await store.resource(stageId, name);
      if (!row) throw new NotFound('Resource not found');
      if (body.name !== name || body.componentId !== row.componentId)
        throw new Validation('A resource keeps its name and component; add a new resource instead');
      const configurations = await prepareResource(
        projectId,
        (await store.resources(stage.id)).filter((r) => r.id !== row.id),
        body,
        row,
      );
      return toResource(projectId, await store.updateResource(row.id, { componentVersion: body.componentVersion, configurations }));
    },

    async removeResource(projectId: string, stageId: string, name: string) {
      await get(projectId, stageId);
      const row = await store.resource(stageId, name);
      if (!row) throw new NotFound('Resource not found');
      if (row.isDeployed) throw new Conflict('Undeploy the resource before removing it');
      const users = (await store.resources(stageId)).filter((r) => r.configurations.some((c) => c.reference && String(c.value).startsWith(`${name}.`)));
      if (users.length) throw new Conflict(`${users.map((u) => u.name).join(', ')} use outputs of ${name}`);
      await store.deleteResource(row.id);
    },

    /** An environment by id whatever its project (jobs carry only ids). */
    rowById: (id: string) => store.byIdAnyProject(id),
    /** The environment's resources as stored (deployments resolve and deploy them). */
    resourceRows: (stageId: string) => store.resources(stageId),
    /** A deployment moved the environment on: its status and deployment pointers; answers the row as written. */
    setDeploymentState: (stageId: string, values: DeploymentStateValues, tx?: Tx) => store.updateById(stageId, values, tx),
    /**
     * After a run, in one statement: which resources have cloud objects now, each status from its one before, and the
     * environment's own values. `before`: the resources as the run read them when it began (while it runs, only it writes
     * their statuses; one added meanwhile keeps its own), else read here. Answers the environment as written with the
     * resources' new statuses, or undefined when it is gone.
     */
    async setRunOutcome(
      stageId: string,
      o: {
        deployed: Set<string>;
        statusOf: (name: string, isDeployed: boolean, previous: string) => string;
        before?: Pick<ResourceRow, 'id' | 'name' | 'status'>[];
        values: DeploymentStateValues;
      },
      tx?: Tx,
    ) {
      const rows = o.before ?? (await store.resources(stageId, tx));
      const outcomes = rows.map((r) => {
        const isDeployed = o.deployed.has(r.name);
        return { id: r.id, isDeployed, status: o.statusOf(r.name, isDeployed, r.status) };
      });
      return store.updateAfterRun(stageId, outcomes, o.values, tx);
    },
    /** Opens a sealed sensitive input value for a deployment run. */
    openSecret: (sealed: string) => secrets.open(sealed),
    namesUsingCloudAccount: (projectId: string, account: CloudAccountRef) => store.namesUsingCloudAccount(projectId, account),
    stagesUsingComponent: (componentId: string) => store.stagesUsingComponent(componentId),
    deployedNames: (projectId: string) => store.deployedNames(projectId),
    countsFor: (projectIds: string[]) => store.countsFor(projectIds),
    countsForReads: store.countsForReads,
  };
}
export type StagesService = ReturnType<typeof createStagesService>;
