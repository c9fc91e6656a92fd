import { and, asc, desc, eq, ne } from 'drizzle-orm';
import type { Db, Tx } from '../../platform/db.js';
import { dockerRegistries } from './registries.tables.js';

export type RegistryRow = typeof dockerRegistries.$inferSelect;

export function createRegistriesStore(db: Db) {
  /** Makes `id` the project's only default (or just clears the others when `id` is not default). */
  const clearOtherDefaults = (tx: Tx, projectId: string, id: string) =>
    tx
      .update(dockerRegistries)
      .set({ isDefault: false, updatedAt: new Date() })
      .where(and(eq(dockerRegistries.projectId, projectId), ne(dockerRegistries.id, id), eq(dockerRegistries.isDefault, true)));
  return {
    /** Default first, then by name. */
    list: (projectId: string) =>
      db.select().from(dockerRegistries).where(eq(dockerRegistries.projectId, projectId)).orderBy(desc(dockerRegistries.isDefault), asc(dockerRegistries.name)),
    get: async (projectId: string, name: string) =>
      (
        await db
          .select()
          .from(dockerRegistries)
          .where(and(eq(dockerRegistries.projectId, projectId), eq(dockerRegistries.name, name)))
      )[0],
    getDefault: async (projectId: string) =>
      (
        await db
          .select()
          .from(dockerRegistries)
          .where(and(eq(dockerRegistries.projectId, projectId), eq(dockerRegistries.isDefault, true)))
      )[0],
    /** Inserts; a default one clears the others' default in the same transaction. */
    insert: (values: typeof dockerRegistries.$inferInsert & { id: string }) =>
      db.transaction(async (tx) => {
        if (values.isDefault) await clearOtherDefaults(tx, values.projectId, values.id);
        return (await tx.insert(dockerRegistries).values(values).returning())[0]!;
      }),
    update: (row: Pick<RegistryRow, 'id' | 'projectId'>, values: Pick<RegistryRow, 'isDefault' | 'credentials' | 'secretsSealed'>) =>
      db.transaction(async (tx) => {
        if (values.isDefault) await clearOtherDefaults(tx, row.projectId, row.id);
        return (
          await tx
            .update(dockerRegistries)
            .set({ ...values, updatedAt: new Date() })
            .where(eq(dockerRegistries.id, row.id))
            .returning()
        )[0]!;
      }),
    delete: (id: string) => db.delete(dockerRegistries).where(eq(dockerRegistries.id, id)),
  };
}
export type RegistriesStore = ReturnType<typeof createRegistriesStore>;
