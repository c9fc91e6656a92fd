import { and, eq, inArray, sql } from 'drizzle-orm';
import { memoOf, tableNames, type Db, type Tx } from '../../platform/db.js';
import type { ReadCache } from '../../platform/read-cache.js';
import { projectMembers, projects } from './projects.tables.js';

type Permission = (typeof projectMembers.$inferInsert)['permission'];

export function createProjectsStore(db: Db, cache?: ReadCache) {
  const memo = memoOf(cache);
  // The two queries of the hot paths (every project-scoped request; the project list): built once, answers kept until their tables change.
  const permissionQuery = db
    .select({ permission: projectMembers.permission })
    .from(projectMembers)
    .where(and(eq(projectMembers.projectId, sql.placeholder('projectId')), eq(projectMembers.userId, sql.placeholder('userId'))))
    .prepare('project_permission');
  const forUserQuery = db
    .select({ project: projects, permission: projectMembers.permission })
    .from(projectMembers)
    .innerJoin(projects, eq(projects.id, projectMembers.projectId))
    .where(eq(projectMembers.userId, sql.placeholder('userId')))
    .orderBy(sql`lower(${projects.name})`)
    .prepare('projects_for_user');
  return {
    permission: memo([projectMembers], async (projectId: string, userId: string) => (await permissionQuery.execute({ projectId, userId }))[0]?.permission),
    forUser: memo([projectMembers, projects], (userId: string) => forUserQuery.execute({ userId })),
    /** The tables forUser reads. */
    forUserReads: tableNames([projectMembers, projects]),
    byId: async (id: string, tx: Tx = db) => (await tx.select().from(projects).where(eq(projects.id, id)))[0],
    /** Projects named so (case-insensitive): the instance admin's CLI names a project by id or name. */
    byName: (name: string) =>
      db
        .select()
        .from(projects)
        .where(sql`lower(${projects.name}) = lower(${name})`),
    insert: async (values: typeof projects.$inferInsert, tx: Tx) => (await tx.insert(projects).values(values).returning())[0]!,
    update: async (id: string, values: Partial<typeof projects.$inferInsert>) =>
      (await db.update(projects).set(values).where(eq(projects.id, id)).returning())[0],
    delete: (id: string) => db.delete(projects).where(eq(projects.id, id)),

    members: (projectId: string) => db.select().from(projectMembers).where(eq(projectMembers.projectId, projectId)),
    /** Every project, by name, with its owners (the instance admin's plans page). */
    all: () =>
      db
        .select()
        .from(projects)
        .orderBy(sql`lower(${projects.name})`),
    owners: () =>
      db.select({ projectId: projectMembers.projectId, userId: projectMembers.userId }).from(projectMembers).where(eq(projectMembers.permission, 'owner')),
    /** Names of projects by id (other modules show the project a row belongs to). */
    names: async (ids: string[]) =>
      new Map(
        ids.length
          ? (await db.select({ id: projects.id, name: projects.name }).from(projects).where(inArray(projects.id, ids))).map((p) => [p.id, p.name])
          : [],
      ),
    member: async (projectId: string, userId: string, tx: Tx = db) =>
      (
        await tx
          .select()
          .from(projectMembers)
          .where(and(eq(projectMembers.projectId, projectId), eq(projectMembers.userId, userId)))
      )[0],
    addMember: (values: typeof projectMembers.$inferInsert, tx: Tx = db) => tx.insert(projectMembers).values(values).onConflictDoNothing().returning(),
    /**
     * Runs `change` in a transaction holding the project's row: a member's change that counts the owners first
     * waits for another one under way (two owners stepping down at once both counted two and left none).
     */
    changeMembers: <T>(projectId: string, change: (tx: Tx) => Promise<T>) =>
      db.transaction(async (tx) => {
        await tx.select({ id: projects.id }).from(projects).where(eq(projects.id, projectId)).for('update');
        return change(tx);
      }),
    setPermission: (projectId: string, userId: string, permission: Permission, tx: Tx = db) =>
      tx
        .update(projectMembers)
        .set({ permission })
        .where(and(eq(projectMembers.projectId, projectId), eq(projectMembers.userId, userId))),
    removeMember: (projectId: string, userId: string, tx: Tx = db) =>
      tx.delete(projectMembers).where(and(eq(projectMembers.projectId, projectId), eq(projectMembers.userId, userId))),
    ownerCount: async (projectId: string, tx: Tx = db) =>
      Number(
        (
          await tx
            .select({ n: sql<number>`count(*)` })
            .from(projectMembers)
            .where(and(eq(projectMembers.projectId, projectId), eq(projectMembers.permission, 'owner')))
        )[0]!.n,
      ),
  };
}
export type ProjectsStore = ReturnType<typeof createProjectsStore>;
