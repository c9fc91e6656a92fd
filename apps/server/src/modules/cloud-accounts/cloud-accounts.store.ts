import { and, asc, eq, sql } from 'drizzle-orm';
import { memoOf, type Db } from '../../platform/db.js';
import type { ReadCache } from '../../platform/read-cache.js';
import { awsAccounts, azureAccounts, gcpAccounts } from './cloud-accounts.tables.js';

export type AwsAccountRow = typeof awsAccounts.$inferSelect;
export type GcpAccountRow = typeof gcpAccounts.$inferSelect;
export type AzureAccountRow = typeof azureAccounts.$inferSelect;

export function createCloudAccountsStore(db: Db, cache?: ReadCache) {
  // every deployment run reads its account (for its credentials); accounts change seldom
  const memo = memoOf(cache);
  return {
    aws: {
      list: (projectId: string) =>
        db
          .select()
          .from(awsAccounts)
          .where(eq(awsAccounts.projectId, projectId))
          .orderBy(sql`lower(${awsAccounts.accountName})`, asc(awsAccounts.createdAt)),
      get: memo(
        [awsAccounts],
        async (projectId: string, awsAccountId: string) =>
          (
            await db
              .select()
              .from(awsAccounts)
              .where(and(eq(awsAccounts.projectId, projectId), eq(awsAccounts.awsAccountId, awsAccountId)))
          )[0],
      ),
      insert: async (values: typeof awsAccounts.$inferInsert) => (await db.insert(awsAccounts).values(values).returning())[0]!,
      update: async (id: string, values: Partial<Pick<AwsAccountRow, 'accountName' | 'iamRole' | 'externalIdSealed'>>) =>
        (
          await db
            .update(awsAccounts)
            .set({ ...values, updatedAt: new Date() })
            .where(eq(awsAccounts.id, id))
            .returning()
        )[0]!,
      delete: (id: string) => db.delete(awsAccounts).where(eq(awsAccounts.id, id)),
    },
    gcp: {
      list: (projectId: string) =>
        db
          .select()
          .from(gcpAccounts)
          .where(eq(gcpAccounts.projectId, projectId))
          .orderBy(sql`lower(${gcpAccounts.projectName})`, asc(gcpAccounts.createdAt)),
      get: memo(
        [gcpAccounts],
        async (projectId: string, gcpProjectId: string) =>
          (
            await db
              .select()
              .from(gcpAccounts)
              .where(and(eq(gcpAccounts.projectId, projectId), eq(gcpAccounts.gcpProjectId, gcpProjectId)))
          )[0],
      ),
      insert: async (values: typeof gcpAccounts.$inferInsert) => (await db.insert(gcpAccounts).values(values).returning())[0]!,
      update: async (id: string, values: Partial<Pick<GcpAccountRow, 'projectName' | 'targetServiceAccount'>>) =>
        (
          await db
            .update(gcpAccounts)
            .set({ ...values, updatedAt: new Date() })
            .where(eq(gcpAccounts.id, id))
            .returning()
        )[0]!,
      delete: (id: string) => db.delete(gcpAccounts).where(eq(gcpAccounts.id, id)),
    },
    azure: {
      list: (projectId: string) =>
        db
          .select()
          .from(azureAccounts)
          .where(eq(azureAccounts.projectId, projectId))
          .orderBy(sql`lower(${azureAccounts.subscriptionName})`, asc(azureAccounts.createdAt)),
      get: memo(
        [azureAccounts],
        async (projectId: string, tenantId: string, subscriptionId: string) =>
          (
            await db
              .select()
              .from(azureAccounts)
              .where(and(eq(azureAccounts.projectId, projectId), eq(azureAccounts.tenantId, tenantId), eq(azureAccounts.subscriptionId, subscriptionId)))
          )[0],
      ),
      insert: async (values: typeof azureAccounts.$inferInsert) => (await db.insert(azureAccounts).values(values).returning())[0]!,
      update: async (id: string, values: Partial<Pick<AzureAccountRow, 'applicationId' | 'subscriptionName' | 'clientSecretSealed'>>) =>
        (
          await db
            .update(azureAccounts)
            .set({ ...values, updatedAt: new Date() })
            .where(eq(azureAccounts.id, id))
            .returning()
        )[0]!,
      delete: (id: string) => db.delete(azureAccounts).where(eq(azureAccounts.id, id)),
    },
  };
}
export type CloudAccountsStore = ReturnType<typeof createCloudAccountsStore>;
