import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import {
  COST_TAG_KEY,
  savingScheduleMessages,
  type ScheduleBody,
  type Schedule,
  type ScheduleActionResult,
  type ScheduleRun,
  type CloudResources,
  type ResourceRef,
  type SavingScheduleDetail,
} from '@gantry/contracts';
import type { StateAction } from '../../integrations/aws-resources/index.js';
import type { Tx } from '../../platform/db.js';
import { NotFound, Upstream, Validation } from '../../platform/errors.js';
import type { BillingService } from '../billing/billing.port.js';
import type { SchedulesStore, ScheduleRow } from './schedules.store.js';
import type { ScheduleRunsStore, ScheduleRunRow } from './schedule-runs.store.js';
import type { Scheduler } from './schedules.scheduler.js';
import { isScheduleExpression } from './cron.js';

/** The environment form's body (a tag), or the cost tool's (`selectBy` RESOURCES with the chosen resources). */
type Body = z.output<typeof ScheduleBody> & { selectBy?: 'TAG' | 'RESOURCES'; resources?: ResourceRef[] };
type Where = { awsAccountId: string; awsRegion: string };

export function toSchedule(r: ScheduleRow): Schedule {
  return {
    id: r.id,
    name: r.name,
    state: r.state,
    startExpression: r.startExpression,
    stopExpression: r.stopExpression,
    timezone: r.timezone,
    awsAccountId: r.awsAccountId,
    awsRegion: r.awsRegion,
    resourcesTagKey: r.resourcesTagKey,
    resourcesTagValue: r.resourcesTagValue,
    selectBy: r.selectBy,
    createdAt: r.createdAt.toISOString(),
  };
}
const toRun = (r: ScheduleRunRow): ScheduleRun => ({
  id: r.id,
  scheduleId: r.scheduleId,
  action: r.action,
  trigger: r.trigger,
  scheduledFor: r.scheduledFor.toISOString(),
  startedAt: r.startedAt.toISOString(),
  finishedAt: r.finishedAt?.toISOString() ?? null,
  status: r.status,
  resources: r.resources,
  error: r.error,
});
const refKey = (r: ResourceRef) => `${r.type}:${r.id}`;
const dedupe = (refs: ResourceRef[]) => [...new Map(refs.map((r) => [refKey(r), r])).values()];

/**
 * Saving schedules of the Cloud Waste Manager, a plan feature (cloudCostOptimizer → 402 without it).
 * This module keeps the rules, tags the resources chosen for them, and runs them (the scheduler).
 */
export function createSchedulesService(deps: {
  store: SchedulesStore;
  runs: ScheduleRunsStore;
  scheduler: Pick<Scheduler, 'fire'>;
  billing: BillingService;
  awsAccountIds: (projectId: string) => Promise<string[]>;
  /** The account's EC2 instances, Auto Scaling groups and RDS instances with prices (assumed role). */
  listResources: (projectId: string, where: Where) => Promise<CloudResources>;
  /** Puts the schedule's tag on resources (or takes it off). */
  tag: (projectId: string, where: Where, refs: ResourceRef[], tag: { key: string; value: string }, remove?: boolean) => Promise<void>;
  now?: () => Date;
}) {
  const { store, runs, billing } = deps;
  const now = deps.now ?? (() => new Date());

  async function check(projectId: string, body: Body) {
    await billing.assertFeature(projectId, 'cloudCostOptimizer');
    const fields: Record<string, string[]> = {};
    if (!isScheduleExpression(body.startExpression)) fields.startExpression = ['Please select at least one day and time range'];
    if (!isScheduleExpression(body.stopExpression)) fields.stopExpression = ['Please select at least one day and time range'];
    if (!(await deps.awsAccountIds(projectId)).includes(body.awsAccountId)) fields.awsAccountId = ['Please select an AWS account of this project'];
    const first = Object.values(fields)[0];
    if (first) throw new Validation(first[0]!, fields);
  }
  /** The row values of a body: resources chosen → the cost tag with a generated value, and the resources kept. */
  function values(body: Body, existing?: ScheduleRow) {
    const byResources = body.selectBy === 'RESOURCES';
    const resources = byResources ? dedupe(body.resources ?? []) : [];
    const tagValue = byResources ? existing?.resourcesTagValue || body.resourcesTagValue || randomUUID() : body.resourcesTagValue;
    const { selectBy: _s, resources: _r, ...rest } = body;
    return {
      ...rest,
      resourcesTagKey: byResources ? COST_TAG_KEY : body.resourcesTagKey,
      resourcesTagValue: tagValue,
      selectBy: byResources ? ('RESOURCES' as const) : ('TAG' as const),
      resources,
    };
  }
  async function row(projectId: string, id: string) {
    const r = await store.byId(projectId, id);
    if (!r) throw new NotFound('Schedule not found');
    return r;
  }

  return {
    async list(projectId: string) {
      await billing.assertFeature(projectId, 'cloudCostOptimizer');
      return (await store.list(projectId)).map(toSchedule);
    },
    async create(projectId: string, body: Body) {
      await check(projectId, body);
      const v = values(body);
      if (v.selectBy === 'RESOURCES' && !v.resources.length)
        throw new Validation(savingScheduleMessages.resources, { resources: [savingScheduleMessages.resources] });
      if (v.resources.length) await deps.tag(projectId, v, v.resources, { key: v.resourcesTagKey, value: v.resourcesTagValue });
      return toSchedule(await store.insert(projectId, v));
    },
    /** Checks a new schedule now and answers its write, for a caller's transaction (which reads nothing else meanwhile). */
    async prepareCreate(projectId: string, body: Body): Promise<(tx: Tx) => Promise<Schedule>> {
      await check(projectId, body);
      const v = values(body);
      return async (tx) => toSchedule(await store.insert(projectId, v, tx));
    },
    async get(projectId: string, id: string): Promise<SavingScheduleDetail> {
      await billing.assertFeature(projectId, 'cloudCostOptimizer');
      const r = await row(projectId, id);
      return { schedule: toSchedule(r), resources: r.resources };
    },
    /** Resources added to a RESOURCES schedule get its tag, resources left out lose it. */
    async update(projectId: string, id: string, body: Body) {
      const existing = await row(projectId, id);
      await check(projectId, body);
      const v = values(body, existing);
      if (v.selectBy === 'RESOURCES') {
        if (!v.resources.length) throw new Validation(savingScheduleMessages.resources, { resources: [savingScheduleMessages.resources] });
        const before = new Set(existing.selectBy === 'RESOURCES' ? existing.resources.map(refKey) : []);
        const after = new Set(v.resources.map(refKey));
        const tag = { key: v.resourcesTagKey, value: v.resourcesTagValue };
        const added = v.resources.filter((r) => !before.has(refKey(r)));
        const removed = existing.resources.filter((r) => !after.has(refKey(r)));
        if (added.length) await deps.tag(projectId, v, added, tag);
        if (removed.length && existing.awsAccountId === v.awsAccountId && existing.awsRegion === v.awsRegion) await deps.tag(projectId, v, removed, tag, true);
      }
      return toSchedule((await store.update(projectId, id, v))!);
    },
    /** Enable or disable; disabling may start the affected resources at once (spec §2.10). */
    async setState(projectId: string, id: string, state: 'ENABLED' | 'DISABLED', startResources: boolean) {
      await billing.assertFeature(projectId, 'cloudCostOptimizer');
      await row(projectId, id);
      const updated = (await store.setState(projectId, id, state))!;
      if (state === 'DISABLED' && startResources)
        await deps.scheduler.fire(updated, 'start', 'MANUAL', now()).catch((err: unknown) => {
          throw new Upstream(`The schedule is disabled, but AWS refused to start its resources: ${err instanceof Error ? err.message : String(err)}`);
        });
      return toSchedule(updated);
    },
    /** Start All / Stop All (spec §2): the schedule's resources now, whatever the clock says; recorded as a run. */
    async changeState(projectId: string, id: string, action: StateAction): Promise<ScheduleActionResult> {
      await billing.assertFeature(projectId, 'cloudCostOptimizer');
      const r = await row(projectId, id);
      try {
        return (await deps.scheduler.fire(r, action, 'MANUAL', now())) ?? { ec2: [], asg: [], rds: [] };
      } catch (err) {
        throw new Upstream(`AWS refused to ${action} the resources: ${err instanceof Error ? err.message : String(err)}`);
      }
    },
    async runs(projectId: string, id: string) {
      await billing.assertFeature(projectId, 'cloudCostOptimizer');
      await row(projectId, id);
      return (await runs.list(id)).map(toRun);
    },
    async resources(projectId: string, where: Where) {
      await billing.assertFeature(projectId, 'cloudCostOptimizer');
      if (!(await deps.awsAccountIds(projectId)).includes(where.awsAccountId)) throw new NotFound('AWS account not found');
      return deps.listResources(projectId, where);
    },
    async remove(projectId: string, id: string) {
      if (!(await store.delete(projectId, id))) throw new NotFound('Schedule not found');
    },
  };
}
export type SchedulesService = ReturnType<typeof createSchedulesService>;
