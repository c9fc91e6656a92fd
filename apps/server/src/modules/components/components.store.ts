import { and, asc, count, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import { memoOf, tableNames, type Db } from '../../platform/db.js';
import type { ReadCache } from '../../platform/read-cache.js';
import { componentAccess, components } from './components.tables.js';

export type ComponentRow = typeof components.$inferSelect;
export type NewComponent = typeof components.$inferInsert;

/** Components kept in memory by visibleById, at most (a vendor one holds its schema and readme). */
const VISIBLE_KEPT_MAX = 2_000;

export function createComponentsStore(db: Db, cache?: ReadCache) {
  /** Own components, the ones shared with the project, and vendor ones. */
  const visibleTo = (projectId: string) =>
    or(
      eq(components.projectId, projectId),
      eq(components.isPublic, true),
      inArray(components.id, db.select({ id: componentAccess.componentId }).from(componentAccess).where(eq(componentAccess.projectId, projectId))),
    );

  return {
    visible: (projectId: string) => db.select().from(components).where(visibleTo(projectId)).orderBy(asc(components.name)),
    // every deployment resolves its resources' components through it; components and grants change seldom
    visibleById: memoOf(cache)(
      [components, componentAccess],
      async (projectId: string, id: string) =>
        (
          await db
            .select()
            .from(components)
            .where(and(eq(components.id, id), visibleTo(projectId)))
        )[0],
      { max: VISIBLE_KEPT_MAX },
    ),
    byName: async (projectId: string, name: string) =>
      (
        await db
          .select()
          .from(components)
          .where(and(eq(components.projectId, projectId), sql`lower(${components.name}) = lower(${name})`))
      )[0],
    insert: async (values: NewComponent) => (await db.insert(components).values(values).returning())[0]!,
    update: async (id: string, values: Partial<NewComponent>) =>
      (
        await db
          .update(components)
          .set({ ...values, updatedAt: new Date() })
          .where(eq(components.id, id))
          .returning()
      )[0],
    delete: (id: string) => db.delete(components).where(eq(components.id, id)),

    vendor: () =>
      db
        .select()
        .from(components)
        .where(and(isNull(components.projectId), eq(components.isPublic, true))),
    /** Inserts or refreshes a vendor component by name (several processes may seed at once). */
    upsertVendor: (values: NewComponent) =>
      db
        .insert(components)
        .values({ ...values, projectId: null, isPublic: true })
        .onConflictDoUpdate({
          target: [components.projectId, components.name],
          set: {
            type: values.type,
            description: values.description,
            cloudProvider: values.cloudProvider,
            infrastructureAsCodeTool: values.infrastructureAsCodeTool,
            vendorDir: values.vendorDir,
            vendorHash: values.vendorHash,
            vendorSchema: values.vendorSchema,
            vendorReadme: values.vendorReadme,
            updatedAt: new Date(),
          },
        }),

    /** Grants of the given components (the grantee projects). */
    grants: (componentIds: string[]) =>
      componentIds.length
        ? db
            .select({ componentId: componentAccess.componentId, projectId: componentAccess.projectId })
            .from(componentAccess)
            .where(inArray(componentAccess.componentId, componentIds))
        : Promise.resolve([]),
    grant: async (componentId: string, projectId: string) =>
      (await db.insert(componentAccess).values({ componentId, projectId }).onConflictDoNothing().returning()).length > 0,
    revoke: async (componentId: string, projectId: string) =>
      (
        await db
          .delete(componentAccess)
          .where(and(eq(componentAccess.componentId, componentId), eq(componentAccess.projectId, projectId)))
          .returning()
      ).length > 0,

    /** Own components per project (for the projects list's componentsCount). */
    /** The tables countsFor reads. */
    countsForReads: tableNames([components]),
    countsFor: memoOf(cache)(
      [components],
      async (projectIds: string[]) =>
        new Map(
          projectIds.length
            ? (
                await db
                  .select({ projectId: components.projectId, n: count() })
                  .from(components)
                  .where(inArray(components.projectId, projectIds))
                  .groupBy(components.projectId)
              ).map((r) => [r.projectId!, Number(r.n)])
            : [],
        ),
    ),
  };
}
export type ComponentsStore = ReturnType<typeof createComponentsStore>;
