import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import type { Build, BuildStep, StepUpdateEvent } from '@gantry/contracts';
import type { listPipelineBuilds } from './list-pipeline-builds';
import { further } from '../../../api/status-progress';
import { pipelineKeys } from './keys';

type BuildPages = InfiniteData<Awaited<ReturnType<typeof listPipelineBuilds>>>;

function withStep(b: Build, e: StepUpdateEvent): Build {
  if (b.id !== e.buildId) return b;
  const steps = b.steps.map((s): BuildStep => {
    if (s.name !== e.step || !further(e.status, s.status)) return s;
    const { startDate, stopDate, errorMessage } = e;
    return {
      ...s,
      status: e.status,
      ...(startDate !== undefined ? { startDate } : {}),
      ...(stopDate !== undefined ? { stopDate } : {}),
      ...(errorMessage !== undefined ? { errorMessage } : {}),
    };
  });
  // a running step means a running build, whatever the build's own event has not told yet
  return { ...b, status: e.status === 'RUNNING' && further('RUNNING', b.status) ? 'RUNNING' : b.status, steps };
}

/**
 * A `step:update` (builds status-events: the step's new status once written) put into the cached
 * build and the build list pages at once; a build cached without that step is refetched.
 */
export function applyStepUpdate(qc: QueryClient, projectId: string, e: StepUpdateEvent) {
  for (const [key, build] of qc.getQueriesData<Build>({ queryKey: pipelineKeys.buildsOfPipeline(projectId, e.pipelineId) })) {
    if (build?.id !== e.buildId) continue;
    if (build.steps.some((s) => s.name === e.step)) qc.setQueryData<Build>(key, withStep(build, e));
    else void qc.invalidateQueries({ queryKey: key, exact: true });
  }
  for (const [key, pages] of qc.getQueriesData<BuildPages>({ queryKey: pipelineKeys.buildsOf(projectId, e.pipelineId) })) {
    if (!pages?.pages.some((page) => page.builds.some((b) => b.id === e.buildId))) continue;
    qc.setQueryData<BuildPages>(key, { ...pages, pages: pages.pages.map((page) => ({ ...page, builds: page.builds.map((b) => withStep(b, e)) })) });
  }
}

/**
 * A log chunk of a step the cache still shows pending: the step is running (its log streams), even
 * if its own event is still on its way.
 */
export function applyStepStreaming(qc: QueryClient, projectId: string, chunk: { buildId: string; step: string }) {
  for (const [, build] of qc.getQueriesData<Build>({ queryKey: [...pipelineKeys.all(projectId), 'build'] })) {
    const step = build?.id === chunk.buildId ? build.steps.find((s) => s.name === chunk.step) : undefined;
    if (build && step && further('RUNNING', step.status))
      applyStepUpdate(qc, projectId, { pipelineId: build.pipelineId, buildId: build.id, step: step.name, status: 'RUNNING' });
  }
}

/**
 * The build as fetched, but never behind the cache: a poll answered after an event carries the older
 * state, and statuses only move forward, so each keeps the further of the two (the query's structuralSharing).
 */
export function keepFurther(cached: unknown, fetched: unknown): unknown {
  const old = cached as Build | undefined;
  const fresh = fetched as Build | undefined;
  if (!old || !fresh || old.id !== fresh.id) return fetched;
  const steps = fresh.steps.map((s) => {
    const held = old.steps.find((o) => o.name === s.name);
    return held && further(held.status, s.status) ? held : s;
  });
  const behind = further(old.status, fresh.status);
  if (!behind && steps.every((s, i) => s === fresh.steps[i])) return fetched;
  return { ...fresh, ...(behind ? { status: old.status, stopDate: old.stopDate } : {}), steps };
}
