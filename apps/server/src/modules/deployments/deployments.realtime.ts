import { DeploymentLogSubscribe } from '@gantry/contracts';
import { z } from 'zod';
import type { Realtime } from '../../platform/realtime.js';
import type { MembershipLookup } from '../../platform/auth.js';
import type { DeploymentsService } from './deployments.service.js';
import type { DeploymentsStore } from './deployments.store.js';
import { deploymentLogsRoom } from './deployments.jobs.js';

/**
 * The live terraform log of a deployment (`typeOfLogs=terraform`): the socket joins the room first,
 * then gets the stored chunks, so no line falls between the two (clients drop seqs they have).
 */
export function registerDeploymentLogStreams(
  realtime: Realtime,
  deps: { membership: MembershipLookup; deployments: DeploymentsService; store: DeploymentsStore },
) {
  realtime.on('deployment-logs:subscribe', async ({ userId, socket }, payload) => {
    const p = DeploymentLogSubscribe.safeParse(payload);
    if (!p.success) return { ok: false, message: 'Invalid subscription' };
    if (!(await deps.membership(p.data.projectId, userId))) return { ok: false, message: 'Project not found' };
    const row = await deps.deployments.deploymentOf(p.data.projectId, p.data.stageId, p.data.deploymentId).catch(() => null);
    if (!row) return { ok: false, message: 'Deployment not found' };
    await socket.join(deploymentLogsRoom(row.id));
    for (const chunk of await deps.store.logs(row.id)) socket.emit('logs', { deploymentId: row.id, ...chunk });
    return { ok: true };
  });
  realtime.on('deployment-logs:unsubscribe', async ({ socket }, payload) => {
    const p = z.object({ deploymentId: z.string() }).safeParse(payload);
    if (p.success) await socket.leave(deploymentLogsRoom(p.data.deploymentId));
    return { ok: true };
  });
}
