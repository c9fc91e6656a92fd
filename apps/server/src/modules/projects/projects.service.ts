import { canAssign, type Permission, type Project, type ProjectUser, type ProjectBody, isPending } from '@gantry/contracts';
import type { Db, Tx } from '../../platform/db.js';
import type { Mailer } from '../../platform/mail.js';
import { Conflict, Forbidden, NotFound, Validation } from '../../platform/errors.js';
import type { ProjectsStore } from './projects.store.js';
import type { UsersService } from '../users/users.port.js';
import type { BillingService } from '../billing/billing.port.js';
import { addedToProjectMail, invitationMail } from '../users/users.port.js';

/** Answers the names of a project's deployed environments; the infrastructure module plugs in here. */
export type DeployedStagesLookup = (projectId: string) => Promise<string[]>;

export function createProjectsService(deps: {
  db: Db;
  store: ProjectsStore;
  users: UsersService;
  billing: BillingService;
  mailer: Mailer;
  baseUrl: () => string;
  deployedStages?: DeployedStagesLookup;
  /** Told of a member removed from a project (their open sockets must stop hearing it). */
  memberRemoved?: (projectId: string, userId: string) => void;
  /** Environments and components per project; the infrastructure module plugs in here. */
  counts?: (projectIds: string[]) => Promise<Map<string, { stagesCount: number; componentsCount: number }>>;
}) {
  const { db, store, users, billing, mailer } = deps;
  const counts = deps.counts ?? (async () => new Map<string, { stagesCount: number; componentsCount: number }>());

  async function inviterName(userId: string) {
    const [u] = await users.byIds([userId]);
    return u ? [u.firstName, u.lastName].filter(Boolean).join(' ') || u.email : 'A teammate';
  }

  async function memberOrThrow(projectId: string, userId: string, tx?: Tx) {
    const m = await store.member(projectId, userId, tx);
    if (!m) throw new NotFound('User is not a member of this project');
    return m;
  }

  return {
    permission: (projectId: string, userId: string) => store.permission(projectId, userId) as Promise<Permission | undefined>,

    /** The user's projects, and `changesAt`: the first time (epoch ms) a plan shown may change without a write. */
    async list(userId: string): Promise<{ projects: Project[]; changesAt: number }> {
      const rows = await store.forUser(userId);
      const ids = rows.map((r) => r.project.id);
      const [plans, allCounts] = await Promise.all([billing.planIds(ids), counts(ids)]);
      return {
        projects: rows.map(({ project, permission }) => ({
          id: project.id,
          name: project.name,
          description: project.description,
          paymentPlanId: plans.planIds.get(project.id) ?? 'STARTER',
          permission,
          createdAt: project.createdAt.toISOString(),
          ...(allCounts.get(project.id) ?? { stagesCount: 0, componentsCount: 0 }),
        })),
        changesAt: plans.changesAt,
      };
    },
    /** The tables list reads itself (the counts' are named by their providers). */
    listReads: [...store.forUserReads, ...billing.planIdsReads],

    /** Every project of the instance with its owners' user ids: for the instance admin only. */
    async all() {
      const [rows, owners] = await Promise.all([store.all(), store.owners()]);
      return rows.map((p) => ({ id: p.id, name: p.name, createdAt: p.createdAt, ownerIds: owners.filter((o) => o.projectId === p.id).map((o) => o.userId) }));
    },

    async create(user: { id: string; email: string }, body: { name: string; description: string }) {
      return db.transaction(async (tx) => {
        const project = await store.insert({ name: body.name, description: body.description, createdBy: user.id }, tx);
        await store.addMember({ projectId: project.id, userId: user.id, permission: 'owner' }, tx);
        await billing.startProject(project.id, user.email, tx);
        return { id: project.id };
      });
    },

    async update(projectId: string, userId: string, body: Pick<ProjectBody, 'name' | 'description'>): Promise<Project> {
      const p = await store.update(projectId, { name: body.name, description: body.description });
      if (!p) throw new NotFound('Project not found');
      return {
        id: p.id,
        name: p.name,
        description: p.description,
        paymentPlanId: (await billing.subscription(p.id)).plan.id,
        permission: (await store.permission(projectId, userId))!,
        createdAt: p.createdAt.toISOString(),
        ...((await counts([p.id])).get(p.id) ?? { stagesCount: 0, componentsCount: 0 }),
      };
    },

    async remove(projectId: string) {
      const deployed = (await deps.deployedStages?.(projectId)) ?? [];
      if (deployed.length) throw new Conflict("Undeploy the project's environments before deleting it.", { deployedStages: deployed });
      await store.delete(projectId);
    },

    /** The members with their user (from the users module), by e-mail. */
    async members(projectId: string): Promise<ProjectUser[]> {
      const memberships = await store.members(projectId);
      const byId = new Map((await users.byIds(memberships.map((m) => m.userId))).map((u) => [u.id, u]));
      return memberships
        .flatMap((member) => {
          const user = byId.get(member.userId);
          return user
            ? [
                {
                  id: user.id,
                  userId: user.id,
                  permission: member.permission,
                  firstName: user.firstName,
                  lastName: user.lastName,
                  email: user.email,
                  status: user.status,
                },
              ]
            : [];
        })
        .sort((a, b) => (a.email.toLowerCase() < b.email.toLowerCase() ? -1 : a.email.toLowerCase() > b.email.toLowerCase() ? 1 : 0));
    },

    /** Project names by id, for other modules' rows (components shared with a project, notifications). */
    names: (ids: string[]) => store.names(ids),

    /** Get multiple users: only members of this project are answered. */
    async usersById(projectId: string, ids: string[]) {
      const members = await this.members(projectId);
      const wanted = new Set(ids);
      return Object.fromEntries(
        members.filter((m) => wanted.has(m.id)).map((m) => [m.id, { firstName: m.firstName, lastName: m.lastName, email: m.email, status: m.status }]),
      );
    },

    async invite(projectId: string, actor: { id: string; permission: Permission }, email: string, permission: Permission) {
      if (!canAssign(actor.permission, undefined, permission)) throw new Forbidden('Only an owner can add another owner');
      const project = (await store.byId(projectId))!;
      const existing = await users.byEmail(email);
      if (existing && (await store.member(projectId, existing.id))) throw new Conflict('This user is already a member of the project');
      const { user, credentials } = await users.prepareInvitee(email);
      await store.addMember({ projectId, userId: user.id, permission });
      const inviter = await inviterName(actor.id);
      await mailer.send(
        credentials
          ? invitationMail(deps.baseUrl(), email, { projectName: project.name, inviter, ...credentials })
          : addedToProjectMail(deps.baseUrl(), email, { projectName: project.name, inviter }),
      );
    },

    async resend(projectId: string, actorId: string, email: string) {
      const user = await users.byEmail(email);
      if (!user || !(await store.member(projectId, user.id))) throw new NotFound('User is not a member of this project');
      if (!isPending(user.status)) throw new Conflict('The user has already accepted the invitation');
      const credentials = await users.renewInvitation(user);
      const project = (await store.byId(projectId))!;
      await mailer.send(invitationMail(deps.baseUrl(), email, { projectName: project.name, inviter: await inviterName(actorId), ...credentials }));
    },

    async setPermission(projectId: string, actor: { id: string; permission: Permission }, userId: string, permission: Permission) {
      await store.changeMembers(projectId, async (tx) => {
        const target = await memberOrThrow(projectId, userId, tx);
        if (!canAssign(actor.permission, target.permission, permission)) throw new Forbidden('Only an owner can change an owner or make someone owner');
        if (target.permission === 'owner' && permission !== 'owner' && (await store.ownerCount(projectId, tx)) <= 1) {
          throw new Validation('A project needs at least one owner');
        }
        await store.setPermission(projectId, userId, permission, tx);
      });
    },

    async removeMember(projectId: string, actor: { id: string; permission: Permission }, userId: string) {
      await store.changeMembers(projectId, async (tx) => {
        const target = await memberOrThrow(projectId, userId, tx);
        if (!canAssign(actor.permission, target.permission, undefined)) throw new Forbidden('Only an owner can remove an owner');
        if (target.permission === 'owner' && (await store.ownerCount(projectId, tx)) <= 1) throw new Validation('A project needs at least one owner');
        await store.removeMember(projectId, userId, tx);
      });
      deps.memberRemoved?.(projectId, userId);
    },
  };
}
export type ProjectsService = ReturnType<typeof createProjectsService>;
