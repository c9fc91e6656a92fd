import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db.js';
import { microservices, serviceDeployments } from './services.tables.js';

export type MicroserviceRow = typeof microservices.$inferSelect;
export type DeploymentRow = typeof serviceDeployments.$inferSelect;

export function createServicesStore(db: Db) {
  const svc = microservices;
  const dep = serviceDeployments;
  const at = (projectId: string, clusterId: string, namespace: string, serviceName: string) =>
    and(eq(dep.projectId, projectId), eq(dep.clusterId, clusterId), eq(dep.namespace, namespace), eq(dep.serviceName, serviceName));
  return {
    list: (projectId: string) => db.select().from(svc).where(eq(svc.projectId, projectId)).orderBy(asc(svc.name)),
    get: async (projectId: string, name: string) =>
      (
        await db
          .select()
          .from(svc)
          .where(and(eq(svc.projectId, projectId), eq(svc.name, name)))
      )[0],
    insert: async (values: typeof svc.$inferInsert) => (await db.insert(svc).values(values).returning())[0]!,
    update: async (id: string, values: Pick<MicroserviceRow, 'description' | 'registry' | 'imageRepository' | 'readme' | 'schema'>) =>
      (
        await db
          .update(svc)
          .set({ ...values, updatedAt: new Date() })
          .where(eq(svc.id, id))
          .returning()
      )[0]!,
    delete: (id: string) => db.delete(svc).where(eq(svc.id, id)),

    insertDeployment: async (values: typeof dep.$inferInsert) => (await db.insert(dep).values(values).returning())[0]!,
    finishDeployment: async (id: string, values: Pick<DeploymentRow, 'status' | 'error'>) =>
      (
        await db
          .update(dep)
          .set({ ...values, finishedAt: new Date() })
          .where(eq(dep.id, id))
          .returning()
      )[0]!,
    /** The last finished deploy or undeploy of the service there (what is deployed now, and with which configuration). */
    lastFinished: async (projectId: string, clusterId: string, namespace: string, serviceName: string) =>
      (
        await db
          .select()
          .from(dep)
          .where(and(at(projectId, clusterId, namespace, serviceName), inArray(dep.status, ['SUCCEEDED', 'UNDEPLOYED'])))
          .orderBy(desc(dep.startedAt))
          .limit(1)
      )[0],
    /** Per service and namespace of a cluster, its newest history row (the dashboard's last deploy status). */
    latestPerService: (projectId: string, clusterId: string) =>
      db
        .selectDistinctOn([dep.namespace, dep.serviceName])
        .from(dep)
        .where(and(eq(dep.projectId, projectId), eq(dep.clusterId, clusterId)))
        .orderBy(dep.namespace, dep.serviceName, desc(dep.startedAt)),
    /** The project's newest deploys and undeploys of any service (the timeline). */
    recentOfProject: (projectId: string, limit: number) =>
      db
        .select({
          id: dep.id,
          clusterId: dep.clusterId,
          namespace: dep.namespace,
          serviceName: dep.serviceName,
          status: dep.status,
          version: dep.version,
          startedAt: dep.startedAt,
          finishedAt: dep.finishedAt,
        })
        .from(dep)
        .where(eq(dep.projectId, projectId))
        .orderBy(desc(dep.startedAt), desc(dep.id))
        .limit(limit),
    history: async (projectId: string, serviceName: string, q: { clusterId?: string; namespace?: string; offset: number; limit: number }) => {
      const where = and(
        eq(dep.projectId, projectId),
        eq(dep.serviceName, serviceName),
        q.clusterId ? eq(dep.clusterId, q.clusterId) : sql`true`,
        q.namespace ? eq(dep.namespace, q.namespace) : sql`true`,
      );
      // one more than asked: whether there is a next page
      const rows = await db
        .select()
        .from(dep)
        .where(where)
        .orderBy(desc(dep.startedAt), desc(dep.id))
        .limit(q.limit + 1)
        .offset(q.offset);
      return { rows: rows.slice(0, q.limit), more: rows.length > q.limit };
    },
  };
}
export type ServicesStore = ReturnType<typeof createServicesStore>;
