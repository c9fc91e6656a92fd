import type { Notification } from '@gantry/contracts';
import { NotFound } from '../../platform/errors.js';
import type { Realtime } from '../../platform/realtime.js';
import type { NotificationsStore } from './notifications.store.js';

const LIST_LIMIT = 100;
const statusWord: Record<string, string> = { SUCCEEDED: 'succeeded', FAILED: 'failed', ABORTED: 'was stopped' };

export function createNotificationsService(deps: {
  store: NotificationsStore;
  realtime: Realtime;
  /** The ids of a project's members: every member hears about the project's builds. */
  memberIds: (projectId: string) => Promise<string[]>;
  userName: (userId: string | null) => Promise<string | null>;
  /** Project names by id (the projects module). */
  projectNames: (ids: string[]) => Promise<Map<string, string>>;
}) {
  const { store } = deps;
  return {
    async list(userId: string): Promise<Notification[]> {
      const rows = await store.forUser(userId, LIST_LIMIT);
      const names = await deps.projectNames([...new Set(rows.map((n) => n.projectId))]);
      return rows.flatMap((n) => {
        const projectName = names.get(n.projectId);
        return projectName === undefined
          ? []
          : [
              {
                id: n.id,
                author: n.author,
                message: n.message,
                isRead: n.isRead,
                timestamp: n.createdAt.toISOString(),
                projectId: n.projectId,
                projectName,
                entityType: n.entityType,
                itemId: n.itemId,
                version: n.version,
              },
            ];
      });
    },
    async markRead(userId: string, projectId: string, id: string) {
      if (!(await store.markRead(userId, projectId, id))) throw new NotFound('Notification not found');
    },
    markAllRead: (userId: string, projectId: string) => store.markAllRead(userId, projectId).then(() => undefined),

    /** A finished build tells every project member; the drawer links to the build page. */
    async buildFinished(b: {
      projectId: string;
      pipelineId: string;
      pipelineName: string;
      number: number;
      status: string;
      branch: string;
      triggeredBy: string | null;
    }) {
      const word = statusWord[b.status];
      if (!word) return;
      const author = (await deps.userName(b.triggeredBy)) ?? 'Gantry';
      const message = `Build #${b.number} of ${b.pipelineName} on ${b.branch} ${word}`;
      const members = await deps.memberIds(b.projectId);
      await store.insertMany(
        members.map((userId) => ({
          userId,
          projectId: b.projectId,
          author,
          message,
          entityType: 'PIPELINE' as const,
          itemId: b.pipelineId,
          version: String(b.number),
        })),
      );
      deps.realtime.toProject(b.projectId, 'notification', { message });
    },
  };
}
export type NotificationsService = ReturnType<typeof createNotificationsService>;
