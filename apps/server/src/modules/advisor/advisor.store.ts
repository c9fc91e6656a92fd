import { and, eq } from 'drizzle-orm';
import type { AdvisorStats } from '@gantry/contracts';
import type { Db } from '../../platform/db.js';
import { advisorResults } from './advisor.tables.js';

export interface AdvisorKey {
  awsAccountId: string;
  awsRegion: string;
  tagKey: string;
  tagValue: string;
}
export type AdvisorRow = typeof advisorResults.$inferSelect;

export function createAdvisorStore(db: Db) {
  const key = (projectId: string, k: AdvisorKey) =>
    and(
      eq(advisorResults.projectId, projectId),
      eq(advisorResults.awsAccountId, k.awsAccountId),
      eq(advisorResults.awsRegion, k.awsRegion),
      eq(advisorResults.tagKey, k.tagKey),
      eq(advisorResults.tagValue, k.tagValue),
    );
  return {
    get: async (projectId: string, k: AdvisorKey) => (await db.select().from(advisorResults).where(key(projectId, k)))[0],
    save: async (projectId: string, k: AdvisorKey, stats: AdvisorStats, fetchedAt: Date) =>
      (
        await db
          .insert(advisorResults)
          .values({ projectId, ...k, stats, fetchedAt })
          .onConflictDoUpdate({
            target: [advisorResults.projectId, advisorResults.awsAccountId, advisorResults.awsRegion, advisorResults.tagKey, advisorResults.tagValue],
            set: { stats, fetchedAt },
          })
          .returning()
      )[0]!,
  };
}
export type AdvisorStore = ReturnType<typeof createAdvisorStore>;
