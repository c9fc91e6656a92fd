import type { StepUpdateEvent } from '@gantry/contracts';
import type { Realtime } from '../../platform/realtime.js';
import type { BuildsStore } from './builds.store.js';

const OWNERS_KEPT = 500;

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

  const updateStep = async (buildId: string, name: string, values: Parameters<BuildsStore['updateStep']>[2]) => {
    const written = await store.updateStep(buildId, name, values);
    if (values.status) {
      const owner = await ownerOf(buildId);
      if (owner) {
        const event: StepUpdateEvent = { pipelineId: owner.pipelineId, buildId, step: name, status: values.status };
        if (values.startDate !== undefined) event.startDate = values.startDate?.toISOString() ?? null;
        if (values.stopDate !== undefined) event.stopDate = values.stopDate?.toISOString() ?? null;
        if (values.errorMessage !== undefined) event.errorMessage = values.errorMessage;
        realtime.toProject(owner.projectId, 'step:update', event);
      }
    }
    return written;
  };
  // a claimed build's owner is known from its row: its steps' events need no read
  const transition: BuildsStore['transition'] = async (...args) => {
    const row = await store.transition(...args);
    if (row) know(row);
    return row;
  };
  // callers await the write; none chains on the query builder
  return { ...store, transition, updateStep: updateStep as unknown as BuildsStore['updateStep'] };
}
