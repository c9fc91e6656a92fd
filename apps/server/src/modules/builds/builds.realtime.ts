import { z } from 'zod';
import type { Realtime } from '../../platform/realtime.js';
import type { MembershipLookup } from '../../platform/auth.js';
import type { BuildsService } from './builds.service.js';
import type { BuildsStore } from './builds.store.js';
import { logsRoom } from './builds.jobs.js';

const Subscribe = z.object({
  projectId: z.string().uuid(),
  pipelineId: z.string().uuid(),
  buildId: z.string(),
  step: z.string().min(1),
  type: z.literal('pipeline').default('pipeline'),
});

/**
 * A step's log stream: the socket joins the step's room first, then gets the stored backlog,
 * so no line falls between the two (clients drop chunks by seq they already have).
 */
export function registerLogStreams(realtime: Realtime, deps: { membership: MembershipLookup; builds: BuildsService; store: BuildsStore }) {
  realtime.on('logs:subscribe', async ({ userId, socket }, payload) => {
    const p = Subscribe.safeParse(payload);
    if (!p.success) return { ok: false, message: 'Invalid subscription' };
    if (!(await deps.membership(p.data.projectId, userId))) return { ok: false, message: 'Project not found' };
    const build = await deps.builds.buildOf(p.data.projectId, p.data.pipelineId, p.data.buildId).catch(() => null);
    if (!build) return { ok: false, message: 'Build not found' };
    await socket.join(logsRoom(build.id, p.data.step));
    for (const chunk of await deps.store.logs(build.id, p.data.step)) {
      socket.emit('logs', { buildId: build.id, step: p.data.step, ...chunk });
    }
    return { ok: true };
  });
  realtime.on('logs:unsubscribe', async ({ socket }, payload) => {
    const p = z.object({ buildId: z.string(), step: z.string() }).safeParse(payload);
    if (p.success) await socket.leave(logsRoom(p.data.buildId, p.data.step));
    return { ok: true };
  });
}
