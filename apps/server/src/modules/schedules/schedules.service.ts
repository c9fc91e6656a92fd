import type { z } from 'zod';
import type { ScheduleBody, Schedule, ScheduleActionResult } from '@gantry/contracts';
import type { StateAction } from '../../integrations/aws-resources/index.js';
import type { Tx } from '../../platform/db.js';
import { NotFound, Validation } from '../../platform/errors.js';
import type { BillingService } from '../billing/billing.port.js';
import type { SchedulesStore, ScheduleRow } from './schedules.store.js';

type Body = z.output<typeof ScheduleBody>;
const CRON = /^cron\(\S+ \S+ \S+ \S+ \S+ \S+\)$/;

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
    createdAt: r.createdAt.toISOString(),
  };
}

/**
 * Saving schedules of the Cloud Waste Manager, a plan feature (cloudCostOptimizer → 402 without it).
 * This module keeps the rules; waking and sleeping the tagged resources is the cost tools' scheduler.
 */
export function createSchedulesService(deps: {
  store: SchedulesStore;
  billing: BillingService;
  awsAccountIds: (projectId: string) => Promise<string[]>;
  /** Starts or stops the tagged resources in the schedule's account (assumed role) and region. */
  changeState: (projectId: string, schedule: Schedule, action: StateAction) => Promise<ScheduleActionResult>;
}) {
  const { store, billing } = deps;

  async function check(projectId: string, body: Body) {
    await billing.assertFeature(projectId, 'cloudCostOptimizer');
    const fields: Record<string, string[]> = {};
    if (!CRON.test(body.startExpression)) fields.startExpression = ['Please select at least one day and time range'];
    if (!CRON.test(body.stopExpression)) fields.stopExpression = ['Please select at least one day and time range'];
    if (!(await deps.awsAccountIds(projectId)).includes(body.awsAccountId)) fields.awsAccountId = ['Please select an AWS account of this project'];
    const first = Object.values(fields)[0];
    if (first) throw new Validation(first[0]!, fields);
  }

  return {
    async list(projectId: string) {
      await billing.assertFeature(projectId, 'cloudCostOptimizer');
      return (await store.list(projectId)).map(toSchedule);
    },
    async create(projectId: string, body: Body) {
      await check(projectId, body);
      return toSchedule(await store.insert(projectId, body));
    },
    /** Checks a new schedule now and answers its write, for a caller's transaction (which reads nothing else meanwhile). */
    async prepareCreate(projectId: string, body: Body): Promise<(tx: Tx) => Promise<Schedule>> {
      await check(projectId, body);
      return async (tx) => toSchedule(await store.insert(projectId, body, tx));
    },
    async update(projectId: string, id: string, body: Body) {
      if (!(await store.byId(projectId, id))) throw new NotFound('Schedule not found');
      await check(projectId, body);
      return toSchedule((await store.update(projectId, id, body))!);
    },
    /** Start All / Stop All (spec §2): the schedule's resources now, whatever the clock says. */
    async changeState(projectId: string, id: string, action: StateAction) {
      await billing.assertFeature(projectId, 'cloudCostOptimizer');
      const row = await store.byId(projectId, id);
      if (!row) throw new NotFound('Schedule not found');
      return deps.changeState(projectId, toSchedule(row), action);
    },
    async remove(projectId: string, id: string) {
      if (!(await store.delete(projectId, id))) throw new NotFound('Schedule not found');
    },
  };
}
export type SchedulesService = ReturnType<typeof createSchedulesService>;
