import type { StepUpdateEvent } from '@gantry/contracts';
import type { EmitOrder, Realtime } from '../../platform/realtime.js';
import type { BuildsStore, StepEnd } from './builds.store.js';

const OWNERS_KEPT = 500;

/**
 * A build's broadcasts, its log chunks (the log rooms) and its statuses (the project's room), reach a socket in the
 * order they were emitted: a client that stops listening to a step's log once it hears the step or the build end has
 * heard its last lines (on PostgreSQL, broadcasts to different rooms are otherwise sent side by side).
 */
export const inBuildOrder = (buildId: string): EmitOrder => ({ order: `build:${buildId}` });

/**
 * The builds store that tells the project room of every step status it writes (`step:update`), once
 * the write has committed: whatever runs steps writes through here, so a step is shown running
 * before its first log chunk (published after the step's row) and finished as soon as it is.
 */
export function withStepStatusEvents(store: BuildsStore, realtime: Realtime): BuildsStore {
  // a build's project and pipeline never change: asked once per build, not per step
  const owners = new Map<string, { projectId: string; pipelineId: string }>();
  function know(row: { id: string; projectId: string; pipelineId: string }) {
    if (owners.has(row.id)) return;
    if (owners.size >= OWNERS_KEPT) owners.delete(owners.keys().next().value!);
    owners.set(row.id, { projectId: row.projectId, pipelineId: row.pipelineId });
  }
  async function ownerOf(buildId: string) {
    if (!owners.has(buildId)) {
      const row = await store.get(buildId);
      if (row) know(row);
    }
    return owners.get(buildId);
  }

  type Owner = { projectId: string; pipelineId: string };
  const tell = (owner: Owner | undefined, event: Omit<StepUpdateEvent, 'pipelineId'>) => {
    if (owner) realtime.toProject(owner.projectId, 'step:update', { pipelineId: owner.pipelineId, ...event }, inBuildOrder(event.buildId));
  };
  const ended = (owner: Owner | undefined, buildId: string, s: StepEnd) =>
    tell(owner, {
      buildId,
      step: s.name,
      status: s.status,
      stopDate: s.stopDate.toISOString(),
      ...(s.errorMessage !== undefined ? { errorMessage: s.errorMessage } : {}),
    });

  const updateStep = async (buildId: string, name: string, values: Parameters<BuildsStore['updateStep']>[2]) => {
    const written = await store.updateStep(buildId, name, values);
    if (values.status) {
      const owner = await ownerOf(buildId);
      if (owner) {
        const event: Omit<StepUpdateEvent, 'pipelineId'> = { buildId, step: name, status: values.status };
        if (values.startDate !== undefined) event.startDate = values.startDate?.toISOString() ?? null;
        if (values.stopDate !== undefined) event.stopDate = values.stopDate?.toISOString() ?? null;
        if (values.errorMessage !== undefined) event.errorMessage = values.errorMessage;
        tell(owner, event);
      }
    }
    return written;
  };
  const stepsMoved: BuildsStore['stepsMoved'] = async (buildId, end, next, chunk, written) => {
    await store.stepsMoved(buildId, end, next, chunk, written);
    const owner = await ownerOf(buildId);
    ended(owner, buildId, end);
    tell(owner, { buildId, step: next.name, status: 'RUNNING', startDate: next.startDate.toISOString() });
  };
  const end: BuildsStore['end'] = async (id, from, values, step, written) => {
    const row = await store.end(id, from, values, step, written);
    if (row && step) ended(row, id, step.ended);
    return row;
  };
  // a claimed build's owner is known from its row: its steps' events need no read
  const transition: BuildsStore['transition'] = async (...args) => {
    const row = await store.transition(...args);
    if (row) know(row);
    return row;
  };
  const insertWithSteps: BuildsStore['insertWithSteps'] = async (...args) => {
    const row = await store.insertWithSteps(...args);
    know(row);
    return row;
  };
  // a step written RUNNING with the run's rows (the first, started as they are written) is told too
  const resolved: BuildsStore['resolved'] = async (...args) => {
    const r = await store.resolved(...args);
    know(r.build);
    for (const s of r.steps)
      if (s.status === 'RUNNING') tell(r.build, { buildId: r.build.id, step: s.name, status: 'RUNNING', startDate: s.startDate?.toISOString() ?? null });
    return r;
  };
  // callers await the write; none chains on the query builder
  return {
    ...store,
    transition,
    insertWithSteps,
    resolved,
    stepsMoved,
    end,
    updateStep: updateStep as unknown as BuildsStore['updateStep'],
  };
}
