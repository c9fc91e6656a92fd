import { and, asc, eq, sql } from 'drizzle-orm';
import type { GitProvider } from '@gantry/contracts';
import { memoOf, type Db } from '../../platform/db.js';
import type { ReadCache } from '../../platform/read-cache.js';
import { gitAccounts } from './git-accounts.tables.js';

export type GitAccountRow = typeof gitAccounts.$inferSelect;

export function createGitAccountsStore(db: Db, cache?: ReadCache) {
  // every build's trigger reads its account (the provider's client and token) before it asks the provider; accounts change seldom
  const memo = memoOf(cache);
  return {
    list: (projectId: string) =>
      db
        .select()
        .from(gitAccounts)
        .where(eq(gitAccounts.projectId, projectId))
        .orderBy(sql`lower(${gitAccounts.accountName})`, asc(gitAccounts.createdAt)),
    byId: memo(
      [gitAccounts],
      async (projectId: string, id: string) =>
        (
          await db
            .select()
            .from(gitAccounts)
            .where(and(eq(gitAccounts.projectId, projectId), eq(gitAccounts.id, id)))
        )[0],
    ),
    byExternal: async (projectId: string, type: GitProvider, externalId: string) =>
      (
        await db
          .select()
          .from(gitAccounts)
          .where(and(eq(gitAccounts.projectId, projectId), eq(gitAccounts.type, type), eq(gitAccounts.externalId, externalId)))
      )[0],
    insert: async (values: typeof gitAccounts.$inferInsert) => (await db.insert(gitAccounts).values(values).returning())[0]!,
    updateTokens: (id: string, values: Pick<typeof gitAccounts.$inferInsert, 'accessTokenSealed' | 'refreshTokenSealed' | 'tokenExpiresAt'>) =>
      db.update(gitAccounts).set(values).where(eq(gitAccounts.id, id)),
    delete: (projectId: string, id: string) => db.delete(gitAccounts).where(and(eq(gitAccounts.projectId, projectId), eq(gitAccounts.id, id))),
  };
}
export type GitAccountsStore = ReturnType<typeof createGitAccountsStore>;
