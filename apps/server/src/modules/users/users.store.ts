import { and, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import { memoOf, type Db, type Tx } from '../../platform/db.js';
import type { ReadCache } from '../../platform/read-cache.js';
import { refreshTokens, userCodes, users } from './users.tables.js';

export type UserRow = typeof users.$inferSelect;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export type CodePurpose = (typeof userCodes.$inferInsert)['purpose'];

export function createUsersStore(db: Db, cache?: ReadCache) {
  const tokensValidAfter = memoOf(cache)([users], async (id: string) =>
    UUID.test(id) ? (await db.select({ tokensValidAfter: users.tokensValidAfter }).from(users).where(eq(users.id, id)))[0] : undefined,
  );
  return {
    byEmail: async (email: string, tx: Tx = db) => (await tx.select().from(users).where(eq(users.email, email)))[0],
    byId: async (id: string, tx: Tx = db) => (await tx.select().from(users).where(eq(users.id, id)))[0],
    /** The one column every authenticated request reads (primary-key lookup). */
    tokensValidAfter,
    byGithubId: async (githubId: string) => (await db.select().from(users).where(eq(users.githubId, githubId)))[0],
    byIds: (ids: string[]) => (ids.length ? db.select().from(users).where(inArray(users.id, ids)) : Promise.resolve([] as UserRow[])),
    count: async () => Number((await db.select({ n: sql<number>`count(*)` }).from(users))[0]!.n),
    insert: async (values: typeof users.$inferInsert, tx: Tx = db) => (await tx.insert(users).values(values).returning())[0]!,
    update: async (id: string, values: Partial<typeof users.$inferInsert>, tx: Tx = db) =>
      (await tx.update(users).set(values).where(eq(users.id, id)).returning())[0],

    addCode: (values: typeof userCodes.$inferInsert, tx: Tx = db) => tx.insert(userCodes).values(values),
    /** Takes a live code once: marks it used and answers its row, or nothing. */
    /** Uses up a user's live code (another user's is left as it was). */
    takeCode: async (userId: string, codeHash: string, purposes: CodePurpose[], tx: Tx = db) =>
      (
        await tx
          .update(userCodes)
          .set({ usedAt: new Date() })
          .where(
            and(
              eq(userCodes.userId, userId),
              eq(userCodes.codeHash, codeHash),
              inArray(userCodes.purpose, purposes),
              isNull(userCodes.usedAt),
              gt(userCodes.expiresAt, new Date()),
            ),
          )
          .returning()
      )[0],
    /** A user's code of the purpose, whatever its state (used, void or expired). */
    codeOf: async (userId: string, codeHash: string, purpose: CodePurpose) =>
      (
        await db
          .select()
          .from(userCodes)
          .where(and(eq(userCodes.userId, userId), eq(userCodes.codeHash, codeHash), eq(userCodes.purpose, purpose)))
      )[0],
    expireCodes: (userId: string, purposes: CodePurpose[], tx: Tx = db) =>
      tx
        .update(userCodes)
        .set({ usedAt: new Date() })
        .where(and(eq(userCodes.userId, userId), inArray(userCodes.purpose, purposes), isNull(userCodes.usedAt))),

    addRefreshToken: (values: typeof refreshTokens.$inferInsert, tx: Tx = db) => tx.insert(refreshTokens).values(values),
    refreshTokenByHash: async (tokenHash: string, tx: Tx = db) =>
      (await tx.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, tokenHash)).for('update'))[0],
    markRotated: (id: string, tx: Tx = db) => tx.update(refreshTokens).set({ rotatedAt: new Date() }).where(eq(refreshTokens.id, id)),
    revokeFamily: (familyId: string, tx: Tx = db) =>
      tx
        .update(refreshTokens)
        .set({ revokedAt: new Date() })
        .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt))),
    revokeAllForUser: (userId: string, tx: Tx = db) =>
      tx
        .update(refreshTokens)
        .set({ revokedAt: new Date() })
        .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt))),
  };
}
export type UsersStore = ReturnType<typeof createUsersStore>;
