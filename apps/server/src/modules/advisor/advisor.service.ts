import type { AdvisorQuery, AdvisorResult, AdvisorStats } from '@gantry/contracts';
import { NotFound } from '../../platform/errors.js';
import type { BillingService } from '../billing/billing.port.js';
import type { AdvisorStore, AdvisorKey, AdvisorRow } from './advisor.store.js';

/** Computes fresh statistics for an account and region (the AWS calls, with the account's assumed role). */
export type CollectStats = (projectId: string, q: AdvisorQuery, now: Date) => Promise<AdvisorStats>;

/**
 * The waste advisor (spec §2.10), a plan feature (cloudCostOptimizer → 402). Results are cached per
 * account, region and tag: a read answers the cached one (computing it only when there is none),
 * "Get statistics" computes anew.
 */
export function createAdvisorService(deps: {
  store: AdvisorStore;
  billing: BillingService;
  awsAccountIds: (projectId: string) => Promise<string[]>;
  collect: CollectStats;
  now?: () => Date;
}) {
  const { store, billing } = deps;
  const now = deps.now ?? (() => new Date());
  const keyOf = (q: AdvisorQuery): AdvisorKey => ({ awsAccountId: q.awsAccountId, awsRegion: q.awsRegion, tagKey: q.tagKey ?? '', tagValue: q.tagValue ?? '' });
  const toResult = (r: AdvisorRow): AdvisorResult => ({
    awsAccountId: r.awsAccountId,
    awsRegion: r.awsRegion,
    tagKey: r.tagKey || null,
    tagValue: r.tagValue || null,
    stats: r.stats,
    fetchedAt: r.fetchedAt.toISOString(),
    ageSeconds: Math.max(0, Math.round((now().getTime() - r.fetchedAt.getTime()) / 1000)),
  });

  async function check(projectId: string, q: AdvisorQuery) {
    await billing.assertFeature(projectId, 'cloudCostOptimizer');
    if (!(await deps.awsAccountIds(projectId)).includes(q.awsAccountId)) throw new NotFound('AWS account not found');
  }
  async function refresh(projectId: string, q: AdvisorQuery) {
    const at = now();
    const stats = await deps.collect(projectId, q, at);
    return toResult(await store.save(projectId, keyOf(q), stats, at));
  }

  return {
    async get(projectId: string, q: AdvisorQuery): Promise<AdvisorResult> {
      await check(projectId, q);
      const cached = await store.get(projectId, keyOf(q));
      return cached ? toResult(cached) : refresh(projectId, q);
    },
    async refresh(projectId: string, q: AdvisorQuery): Promise<AdvisorResult> {
      await check(projectId, q);
      return refresh(projectId, q);
    },
  };
}
export type AdvisorService = ReturnType<typeof createAdvisorService>;
