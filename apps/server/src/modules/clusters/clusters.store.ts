import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../platform/db.js';
import { kubernetesClusters } from './clusters.tables.js';

export type ClusterRow = typeof kubernetesClusters.$inferSelect;

export function createClustersStore(db: Db) {
  return {
    /** By name. */
    list: (projectId: string) => db.select().from(kubernetesClusters).where(eq(kubernetesClusters.projectId, projectId)).orderBy(asc(kubernetesClusters.name)),
    get: async (projectId: string, name: string) =>
      (
        await db
          .select()
          .from(kubernetesClusters)
          .where(and(eq(kubernetesClusters.projectId, projectId), eq(kubernetesClusters.name, name)))
      )[0],
    insert: async (values: typeof kubernetesClusters.$inferInsert) => (await db.insert(kubernetesClusters).values(values).returning())[0]!,
    update: async (id: string, values: Pick<ClusterRow, 'endpoint' | 'tokenSealed' | 'caCertificate' | 'associatedNamespace'>) =>
      (
        await db
          .update(kubernetesClusters)
          .set({ ...values, updatedAt: new Date() })
          .where(eq(kubernetesClusters.id, id))
          .returning()
      )[0]!,
    delete: (id: string) => db.delete(kubernetesClusters).where(eq(kubernetesClusters.id, id)),
  };
}
export type ClustersStore = ReturnType<typeof createClustersStore>;
