import { describe, expect, it } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { timelineEvents, timelineQuery } from './get-timeline';

describe("the overview's timeline and the project room's events", () => {
  const held = (qc: QueryClient, projectId: string, type: string) => qc.getQueryState(timelineQuery(projectId, type).queryKey)?.isInvalidated;

  it("is read again, each tab's, when a build, a deployment or a service's deploy moves on; another project's stays", () => {
    const qc = new QueryClient();
    for (const type of ['all', 'build', 'deployment']) qc.setQueryData(timelineQuery('p1', type).queryKey, { events: [] });
    qc.setQueryData(timelineQuery('p2', 'all').queryKey, { events: [] });
    timelineEvents['build:update']?.(qc, 'p1', { pipelineId: 'pl', buildId: 'b', status: 'FAILED' });
    expect(['all', 'build', 'deployment'].map((t) => held(qc, 'p1', t))).toEqual([true, true, true]);
    expect(held(qc, 'p2', 'all')).toBe(false);

    const qc2 = new QueryClient();
    qc2.setQueryData(timelineQuery('p1', 'all').queryKey, { events: [] });
    timelineEvents['deployment:update']?.(qc2, 'p1', { id: 'd', stageId: 's', status: 'UPDATE_COMPLETE' } as never);
    expect(held(qc2, 'p1', 'all')).toBe(true);

    const qc3 = new QueryClient();
    qc3.setQueryData(timelineQuery('p1', 'deployment').queryKey, { events: [] });
    timelineEvents['service:update']?.(qc3, 'p1', {
      historyId: 'h',
      microserviceName: 'web',
      clusterId: 'main',
      namespace: 'team-a',
      status: 'SUCCEEDED',
      version: 'v2',
    });
    expect(held(qc3, 'p1', 'deployment')).toBe(true);
  });
});
