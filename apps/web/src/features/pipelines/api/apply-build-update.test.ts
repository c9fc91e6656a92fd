import { describe, expect, it } from 'vitest';
import { QueryClient, type InfiniteData } from '@tanstack/react-query';
import type { Build, Pipeline } from '@gantry/contracts';
import { applyBuildUpdate } from './apply-build-update';
import { pipelineKeys } from './keys';

const P = 'project';
const build = (id: string, status: Build['status']) => ({ id, status, pipelineId: 'pl' }) as Build;
const pipeline = (latest: Build | null) => ({ id: 'pl', latestBuild: latest }) as Pipeline;

function cache() {
  const qc = new QueryClient();
  qc.setQueryData(pipelineKeys.build(P, 'pl', '7'), build('b1', 'QUEUED'));
  qc.setQueryData<InfiniteData<{ builds: Build[] }>>(pipelineKeys.builds(P, 'pl', ''), {
    pages: [{ builds: [build('b1', 'QUEUED'), build('b0', 'SUCCEEDED')] }],
    pageParams: [0],
  });
  qc.setQueryData(pipelineKeys.list(P), { pipelines: [pipeline(build('b1', 'QUEUED'))] });
  qc.setQueryData(pipelineKeys.detail(P, 'pl'), pipeline(build('b1', 'QUEUED')));
  qc.setQueryData(pipelineKeys.metrics(P), { successfulExecutions: 0, failedExecutions: 0, buildTime: 0 });
  return qc;
}
const stale = (qc: QueryClient, key: readonly unknown[]) => qc.getQueryState(key)?.isInvalidated;

describe('build:update in the cache', () => {
  it('writes a running status into the build, its list page and the latest builds; refetches only metrics', () => {
    const qc = cache();
    applyBuildUpdate(qc, P, { pipelineId: 'pl', buildId: 'b1', status: 'RUNNING' });
    expect(qc.getQueryData<Build>(pipelineKeys.build(P, 'pl', '7'))?.status).toBe('RUNNING');
    expect(qc.getQueryData<InfiniteData<{ builds: Build[] }>>(pipelineKeys.builds(P, 'pl', ''))?.pages[0]!.builds.map((b) => b.status)).toEqual([
      'RUNNING',
      'SUCCEEDED',
    ]);
    expect(qc.getQueryData<{ pipelines: Pipeline[] }>(pipelineKeys.list(P))?.pipelines[0]!.latestBuild?.status).toBe('RUNNING');
    expect(qc.getQueryData<Pipeline>(pipelineKeys.detail(P, 'pl'))?.latestBuild?.status).toBe('RUNNING');
    expect(
      [pipelineKeys.build(P, 'pl', '7'), pipelineKeys.builds(P, 'pl', ''), pipelineKeys.list(P), pipelineKeys.detail(P, 'pl')].map((k) => stale(qc, k)),
    ).toEqual([false, false, false, false]);
    expect(stale(qc, pipelineKeys.metrics(P))).toBe(true);
  });

  it('refetches the build, its list and the pipelines once the status is final (stop time, steps)', () => {
    const qc = cache();
    applyBuildUpdate(qc, P, { pipelineId: 'pl', buildId: 'b1', status: 'FAILED' });
    expect(qc.getQueryData<Build>(pipelineKeys.build(P, 'pl', '7'))?.status).toBe('FAILED');
    expect(
      [pipelineKeys.build(P, 'pl', '7'), pipelineKeys.builds(P, 'pl', ''), pipelineKeys.list(P), pipelineKeys.detail(P, 'pl')].map((k) => stale(qc, k)),
    ).toEqual([true, true, true, true]);
  });

  it('refetches the lists a new build is missing from, and leaves other builds alone', () => {
    const qc = cache();
    applyBuildUpdate(qc, P, { pipelineId: 'pl', buildId: 'b2', status: 'QUEUED' });
    expect(qc.getQueryData<Build>(pipelineKeys.build(P, 'pl', '7'))?.status).toBe('QUEUED');
    expect(
      [pipelineKeys.build(P, 'pl', '7'), pipelineKeys.builds(P, 'pl', ''), pipelineKeys.list(P), pipelineKeys.detail(P, 'pl')].map((k) => stale(qc, k)),
    ).toEqual([false, true, true, true]);
  });
});
